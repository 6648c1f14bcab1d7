"""An independent reader of spvx's files, in Python with NumPy only.

usage: check_numpy.py QUANTIZED.safetensors DEQUANTIZED.safetensors
       check_numpy.py --npy FILE.npy RAW.f32

The first form reads both safetensors files as the format defines them (an
8-byte little-endian header length, a JSON header, raw data) and checks
that every tensor's data_offsets tile the data section.  It decodes every
gpt-oss MXFP4 pair (NAME.blocks [..., G, 16], NAME.scales [..., G]) as
gpt-oss's reference code does (a 16-entry E2M1 table, element 2j from the
low nibble, ldexp by scale - 127) and requires the values to equal tensor
NAME of the dequantized file.  The second form loads an .npy file with
numpy.load and compares it with raw little-endian float32 data.
"""
import json
import struct
import sys

import numpy as np

DTYPES = {"U8": np.uint8, "I8": np.int8, "I16": np.int16, "I32": np.int32, "I64": np.int64,
          "F16": np.float16, "F32": np.float32, "F64": np.float64, "BF16": np.uint16}
FP4 = np.array([0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0,
                -0.0, -0.5, -1.0, -1.5, -2.0, -3.0, -4.0, -6.0], dtype=np.float32)


def read(path):
    with open(path, "rb") as f:
        data = f.read()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + n])
    body = data[8 + n:]
    out, spans = {}, []
    for name, t in header.items():
        if name == "__metadata__":
            continue
        lo, hi = t["data_offsets"]
        spans.append((lo, hi))
        a = np.frombuffer(body[lo:hi], dtype=DTYPES[t["dtype"]]).reshape(t["shape"])
        if t["dtype"] == "BF16":
            a = (a.astype(np.uint32) << 16).view(np.float32)
        out[name] = a
    spans.sort()
    end = 0
    for lo, hi in spans:
        if lo != end:
            sys.exit(f"{path}: data_offsets leave a gap or overlap at {lo}")
        end = hi
    if end != len(body):
        sys.exit(f"{path}: {len(body) - end} bytes after the last tensor")
    return out


def main():
    if sys.argv[1] == "--npy":
        a = np.load(sys.argv[2])
        raw = np.fromfile(sys.argv[3], dtype="<f4")
        if a.dtype != np.float32 or not np.array_equal(a.reshape(-1).view(np.uint32), raw.view(np.uint32)):
            sys.exit(f"{sys.argv[2]}: {a.dtype} {a.shape} differs from {sys.argv[3]}")
        print(f"npy ok {a.shape}")
        return
    q, d = read(sys.argv[1]), read(sys.argv[2])
    pairs = 0
    for name, blocks in q.items():
        if not name.endswith(".blocks"):
            continue
        base = name[:-len(".blocks")]
        scales = q[base + ".scales"].astype(np.int32) - 127
        lo, hi = FP4[blocks & 0x0F], FP4[blocks >> 4]
        vals = np.empty(blocks.shape[:-1] + (32,), dtype=np.float32)
        vals[..., 0::2], vals[..., 1::2] = lo, hi
        vals = np.ldexp(vals, scales[..., None]).reshape(blocks.shape[:-2] + (-1,))
        want = d[base].astype(np.float32)
        if vals.shape != want.shape or not np.array_equal(vals, want):
            sys.exit(f"{base}: NumPy's decoding differs from spvx's dequantized tensor")
        pairs += 1
    if pairs == 0:
        sys.exit("no gpt-oss pair found")
    print(f"ok {pairs} pairs, {len(q)} and {len(d)} tensors")


main()
