#!/usr/bin/env python3
"""Writes the kernel corpus of interp/testdata/kernels (kernels_test.go).

For every kernel below: NAME.comp (the GLSL source), NAME.spvasm (its SPIR-V
assembly, glslangValidator -V at -O0 then spirv-dis --raw-id, as Amber
compiles) and NAME.expect (the buffers: inputs, and the expected outputs
computed here, in Python, independently of spvx; per subgroup size where
the result depends on it). Run it from this directory after changing a
kernel:  python3 gen.py
"""
import math, os, struct, subprocess, sys, tempfile

SIZES = [1, 4, 16, 32, 64]
M32 = 0xFFFFFFFF


def f32(x):
    """Rounds a Python float to float32 (RNE): exact for + - * / and sqrt of
    float32 operands, double rounding from binary64 being innocuous for
    them (53 >= 2*24+2)."""
    try:
        return struct.unpack('<f', struct.pack('<f', x))[0]
    except OverflowError:  # beyond FLT_MAX: infinity past the rounding midpoint
        big = abs(x) >= 2.0 ** 128 - 2.0 ** 103
        return math.copysign(float('inf') if big else 3.4028234663852886e38, x)


def bits(x):
    return struct.unpack('<I', struct.pack('<f', x))[0]


def frombits(u):
    return struct.unpack('<f', struct.pack('<I', u & M32))[0]


def s32(u):
    u &= M32
    return u - (1 << 32) if u & 0x80000000 else u


def trunc_div(a, b):
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


KERNELS = {}


def kernel(name, local, groups, src, inputs, outputs, expect):
    KERNELS[name] = (local, groups, src, inputs, outputs, expect)


HEAD = """#version 450
#extension GL_KHR_shader_subgroup_basic : enable
#extension GL_KHR_shader_subgroup_vote : enable
#extension GL_KHR_shader_subgroup_ballot : enable
#extension GL_KHR_shader_subgroup_arithmetic : enable
#extension GL_KHR_shader_subgroup_shuffle : enable
#extension GL_KHR_shader_subgroup_shuffle_relative : enable
#extension GL_KHR_shader_subgroup_clustered : enable
#extension GL_KHR_shader_subgroup_quad : enable
"""

N = 128
A = [(i * 2654435761 + 12345) & M32 for i in range(N)]
B = [((i * 40503) ^ (i << 20)) & M32 | 1 for i in range(N)]

# 1. integer arithmetic and bit operations
kernel('int_arith', 64, 2, HEAD + """
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint a[128]; uint b[128]; };
layout(set = 0, binding = 1) buffer Out { uint o[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  uint x = a[i], y = b[i];
  int sx = int(x), sy = int(y);
  uint k = 12u * i;
  o[k + 0u] = x + y;
  o[k + 1u] = x - y;
  o[k + 2u] = x * y;
  o[k + 3u] = x / y;
  o[k + 4u] = x % y;
  o[k + 5u] = uint(sx / sy);
  o[k + 6u] = uint(sx % sy);
  o[k + 7u] = (x << (y & 31u)) ^ (x >> (i & 31u)) ^ uint(sx >> int(i & 31u));
  o[k + 8u] = (x & y) | (~x & (y >> 3));
  o[k + 9u] = uint(bitCount(x)) | (bitfieldReverse(y) & 0xFFFFFF00u);
  o[k + 10u] = bitfieldExtract(x, int(i & 15u), 9) ^ bitfieldInsert(x, y, 5, int(i & 7u));
  o[k + 11u] = uint(findLSB(x)) + 256u * uint(findMSB(int(y))) + 65536u * uint(findMSB(x));
}
""", [('0:0', A + B)], [('0:1', 12 * N)], None)


def int_arith(S):
    o = []
    for i in range(N):
        x, y = A[i], B[i]
        sx, sy = s32(x), s32(y)
        r = [x + y, x - y, x * y, x // y, x % y, trunc_div(sx, sy), sx % sy]  # OpSMod: the divisor's sign, as Python's %
        r.append((x << (y & 31)) ^ (x >> (i & 31)) ^ (sx >> (i & 31)))
        r.append((x & y) | (~x & (y >> 3)))
        rev = int('{:032b}'.format(y)[::-1], 2)
        r.append(bin(x).count('1') | (rev & 0xFFFFFF00))
        off, ins = i & 15, i & 7
        ext = (x >> off) & 0x1FF
        mask = ((1 << ins) - 1) << 5
        bfi = (x & ~mask) | ((y << 5) & mask)
        r.append(ext ^ bfi)
        lsb = (x & -x).bit_length() - 1 if x else -1
        msb_s = (sy.bit_length() - 1) if sy > 0 else ((~sy).bit_length() - 1 if sy < -1 else -1)
        msb_u = x.bit_length() - 1 if x else -1
        r.append(lsb + 256 * msb_s + 65536 * msb_u)
        o += [v & M32 for v in r]
    return {'0:1': o}


KERNELS['int_arith'] = KERNELS['int_arith'][:5] + (int_arith,)

# 2. float arithmetic, exact IEEE (denormals, signed zeros, infinities, NaN)
FV = [0.0, -0.0, 1.0, -1.5, 3.25, 1e-38, -1e-39, 1.4e-45, 3.4e38, -3.4e38, float('inf'), -float('inf'), 0.1, 7.0, -2.0 ** -130, 1e30]
FA = [bits(f32(FV[i % 16] * (1 + (i // 16) / 8.0))) for i in range(N)]
FB = [bits(f32(FV[(i * 7 + 3) % 16] - (i // 16) / 4.0)) for i in range(N)]
kernel('float_arith', 64, 2, HEAD + """
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { float a[128]; float b[128]; };
layout(set = 0, binding = 1) buffer Out { float o[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  float x = a[i], y = b[i];
  uint k = 6u * i;
  o[k + 0u] = x + y;
  o[k + 1u] = x - y;
  o[k + 2u] = x * y;
  o[k + 3u] = x / y;
  o[k + 4u] = -x * 0.5 + y;
  o[k + 5u] = (x * 3.0) * (y + 1.0);
}
""", [('0:0', FA + FB)], [('0:1', 6 * N)], None)


def float_arith(S):
    o = []

    def op(f, x, y):
        try:
            return f32(f(x, y))
        except ZeroDivisionError:
            if x != x or x == 0:
                return float('nan')
            neg = (math.copysign(1, x) < 0) != (math.copysign(1, y) < 0)
            return -float('inf') if neg else float('inf')
        except OverflowError:
            return float('nan')

    for i in range(N):
        x, y = frombits(FA[i]), frombits(FB[i])
        r = [op(lambda a, b: a + b, x, y), op(lambda a, b: a - b, x, y), op(lambda a, b: a * b, x, y), op(lambda a, b: a / b, x, y)]
        t = f32(-x * 0.5)
        r.append(op(lambda a, b: a + b, t, y))
        r.append(op(lambda a, b: a * b, f32(x * 3.0), op(lambda a, b: a + b, y, 1.0)))
        o += [bits(v) if v == v else None for v in r]
    return {'0:1': o}


KERNELS['float_arith'] = KERNELS['float_arith'][:5] + (float_arith,)

# 3. conversions
CV = [f32(v) for v in [0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, 1e9, -1e9, 3e9, -3e9, 16777217.0, 123.75, -7.99, 65504.0, 1e-8]]
CF = [bits(CV[i % 16] * (1 if i < 64 else -1)) for i in range(N)]
CI = [(i * 123456789 + 987654321 * (i % 3)) & M32 for i in range(N)]
kernel('conversions', 64, 2, HEAD + """
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { float f[128]; uint u[128]; };
layout(set = 0, binding = 1) buffer Out { uint o[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  float x = f[i];
  uint k = 5u * i;
  float c = clamp(x, -2.0e9, 2.0e9);
  o[k + 0u] = uint(int(c));
  o[k + 1u] = uint(abs(c));
  o[k + 2u] = floatBitsToUint(float(int(u[i])));
  o[k + 3u] = floatBitsToUint(float(u[i]));
  o[k + 4u] = packHalf2x16(vec2(x, float(i) * 0.3));
}
""", [('0:0', CF + CI)], [('0:1', 5 * N)], None)


def to_half_bits(x):
    return struct.unpack('<H', struct.pack('<e', x))[0] if abs(x) < 65520 else (0x7C00 | (0x8000 if x < 0 else 0))


def conversions(S):
    o = []
    for i in range(N):
        x = frombits(CF[i])
        c = min(max(x, f32(-2.0e9)), f32(2.0e9))
        r = [int(c) & M32, int(abs(c)) & M32]
        r.append(bits(f32(float(s32(CI[i])))))
        r.append(bits(f32(float(CI[i]))))
        h0 = to_half_bits(x)
        h1 = to_half_bits(f32(f32(float(i)) * f32(0.3)))
        r.append(h0 | h1 << 16)
        o += r
    return {'0:1': o}


KERNELS['conversions'] = KERNELS['conversions'][:5] + (conversions,)

# 4. relational, logical and select
kernel('relational', 64, 2, HEAD + """
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint a[128]; uint b[128]; float fa[128]; float fb[128]; };
layout(set = 0, binding = 1) buffer Out { uint o[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  uint x = a[i], y = b[i];
  float p = fa[i], q = fb[i];
  uint m = 0u;
  m |= uint(x < y) << 0;
  m |= uint(int(x) < int(y)) << 1;
  m |= uint(x >= y) << 2;
  m |= uint(int(x) >= int(y)) << 3;
  m |= uint(x == y || (x & 1u) == 0u) << 4;
  m |= uint(p < q) << 5;
  m |= uint(p <= q) << 6;
  m |= uint(p == q) << 7;
  m |= uint(p != q) << 8;
  m |= uint(isnan(p / q)) << 9;
  m |= uint(isinf(p * q)) << 10;
  m |= uint(!(p > q) && !(x > y)) << 11;
  o[i] = m;
  o[128u + i] = (p < q) ? x : y;
}
""", [('0:0', A + B + FA + FB)], [('0:1', 2 * N)], None)


def relational(S):
    o, sel = [], []
    for i in range(N):
        x, y = A[i], B[i]
        p, q = frombits(FA[i]), frombits(FB[i])
        try:
            d = p / q
        except ZeroDivisionError:
            d = float('nan') if (p != p or p == 0) else float('inf')
        prod = p * q
        m = 0
        m |= (x < y) << 0
        m |= (s32(x) < s32(y)) << 1
        m |= (x >= y) << 2
        m |= (s32(x) >= s32(y)) << 3
        m |= (x == y or (x & 1) == 0) << 4
        m |= (p < q) << 5
        m |= (p <= q) << 6
        m |= (p == q) << 7
        m |= (p != q) << 8
        m |= (d != d) << 9
        m |= (abs(f32(prod)) == float('inf') if prod == prod else 0) << 10
        m |= ((not (p > q)) and (not (x > y))) << 11
        o.append(m)
        sel.append(x if p < q else y)
    return {'0:1': o + sel}


KERNELS['relational'] = KERNELS['relational'][:5] + (relational,)

# 5. composites: vectors, swizzles, dynamic indexing, structs, matrices
kernel('composites', 64, 2, HEAD + """
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint a[]; };
layout(set = 0, binding = 1) buffer Out { uint o[]; };
struct P { uvec2 xy; uint w[3]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  uvec4 v = uvec4(a[i], a[i] >> 8, i, 7u);
  uvec4 s = v.wzyx + v.xxyy;
  uint d = v[i & 3u];
  P p;
  p.xy = s.xy;
  p.w[0] = d; p.w[1] = s.z; p.w[2] = s.w;
  P q = p;
  q.w[i % 3u] += 1u;
  mat2 m = mat2(float(i), 1.0, 2.0, 3.0);
  vec2 r = m * vec2(0.5, float(i & 7u));
  uint k = 7u * i;
  o[k + 0u] = q.xy.x; o[k + 1u] = q.xy.y;
  o[k + 2u] = q.w[0]; o[k + 3u] = q.w[1]; o[k + 4u] = q.w[2];
  o[k + 5u] = floatBitsToUint(r.x); o[k + 6u] = floatBitsToUint(r.y);
}
""", [('0:0', A)], [('0:1', 7 * N)], None)


def composites(S):
    o = []
    for i in range(N):
        v = [A[i], A[i] >> 8, i, 7]
        wzyx = [v[3], v[2], v[1], v[0]]
        xxyy = [v[0], v[0], v[1], v[1]]
        s = [(a + b) & M32 for a, b in zip(wzyx, xxyy)]
        d = v[i & 3]
        w = [d, s[2], s[3]]
        w[i % 3] = (w[i % 3] + 1) & M32
        # column-major mat2: columns (i, 1) and (2, 3)
        y = f32(float(i & 7))
        rx = f32(f32(f32(float(i)) * 0.5) + f32(2.0 * y))
        ry = f32(f32(1.0 * 0.5) + f32(3.0 * y))
        o += [s[0], s[1]] + w + [bits(rx), bits(ry)]
    return {'0:1': o}


KERNELS['composites'] = KERNELS['composites'][:5] + (composites,)

# 6. divergent control flow: if/else, loops with per-lane trip counts,
# break and continue, switch, calls from divergent callers
kernel('control_flow', 64, 2, HEAD + """
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint a[]; };
layout(set = 0, binding = 1) buffer Out { uint o[]; };
uint g(uint x, uint n) {
  uint r = 0u;
  for (uint j = 0u; j < n; j++) { if ((x >> j & 1u) == 0u) continue; r += j * j; if (r > 200u) break; }
  return r;
}
void main() {
  uint i = gl_GlobalInvocationID.x;
  uint x = a[i], r = 0u;
  if ((i & 1u) == 0u) { r = g(x, i % 23u); } else if (i % 3u == 0u) { r = x >> 7; } else { r = g(~x, 5u) + 1000u; }
  switch (i % 5u) {
  case 0u: r += 1u; break;
  case 1u: r += 10u;
  case 2u: r += 100u; break;
  default: r *= 3u;
  }
  uint n = 0u;
  while (x != 0u && n < (i & 15u)) { x &= x - 1u; n++; }
  o[i] = r ^ (n << 24);
}
""", [('0:0', A)], [('0:1', N)], None)


def control_flow(S):
    def g(x, n):
        r = 0
        for j in range(n):
            if (x >> j & 1) == 0:
                continue
            r += j * j
            if r > 200:
                break
        return r
    o = []
    for i in range(N):
        x = A[i]
        if (i & 1) == 0:
            r = g(x, i % 23)
        elif i % 3 == 0:
            r = x >> 7
        else:
            r = g(~x & M32, 5) + 1000
        c = i % 5
        if c == 0:
            r += 1
        elif c == 1:
            r += 110
        elif c == 2:
            r += 100
        else:
            r *= 3
        n = 0
        while x != 0 and n < (i & 15):
            x &= x - 1
            n += 1
        o.append((r ^ (n << 24)) & M32)
    return {'0:1': o}


KERNELS['control_flow'] = KERNELS['control_flow'][:5] + (control_flow,)

# 7. memory: function-scope arrays with dynamic indexes, workgroup memory
# across a barrier, an std430 struct array with a vec3 member
kernel('memory', 64, 2, HEAD + """
layout(local_size_x = 64) in;
struct E { vec3 p; uint tag; };
layout(set = 0, binding = 0) readonly buffer In { uint a[]; };
layout(std430, set = 0, binding = 1) buffer Out { uint o[128]; E e[]; };
shared uint sh[64];
void main() {
  uint i = gl_GlobalInvocationID.x, l = gl_LocalInvocationID.x;
  uint t[8];
  for (uint j = 0u; j < 8u; j++) t[j] = a[i] >> (4u * j) & 15u;
  t[a[i] & 7u] += 100u;
  sh[l] = t[0] + t[1] * 16u + t[(i + 3u) & 7u] * 256u;
  barrier();
  o[i] = sh[63u - l] + sh[(l + 1u) & 63u] * 65536u;
  e[i].p = vec3(float(i), float(l) * 0.25, -1.0);
  e[i].tag = t[7];
}
""", [('0:0', A)], [('0:1', N + 4 * N)], None)


def memory(S):
    o, e, sh = [0] * N, [], [0] * N
    ts = []
    for i in range(N):
        t = [A[i] >> (4 * j) & 15 for j in range(8)]
        t[A[i] & 7] += 100
        ts.append(t)
        sh[i] = (t[0] + t[1] * 16 + t[(i + 3) & 7] * 256) & M32
    for i in range(N):
        w, l = i // 64 * 64, i % 64
        o[i] = (sh[w + 63 - l] + sh[w + ((l + 1) & 63)] * 65536) & M32
        e += [bits(float(i)), bits(f32(l * 0.25)), bits(-1.0), ts[i][7]]
    return {'0:1': o + e}


KERNELS['memory'] = KERNELS['memory'][:5] + (memory,)

# 8. atomics under contention: every invocation hits a few words
kernel('atomics', 64, 2, HEAD + """
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint a[]; };
layout(set = 0, binding = 1) buffer Out { uint sum[4]; uint mx; uint mn; uint orr; uint xr; int smin; uint cnt; };
void main() {
  uint i = gl_GlobalInvocationID.x, x = a[i];
  atomicAdd(sum[i & 3u], x & 0xFFFFu);
  atomicMax(mx, x);
  atomicMin(mn, x);
  atomicOr(orr, 1u << (i & 31u));
  atomicXor(xr, x);
  atomicMin(smin, int(x));
  uint old = atomicAdd(cnt, 1u);
  if (old >= 128u) atomicAdd(sum[0], 1000000u);
}
""", [('0:0', A)], [('0:1', 10)], None)


def atomics(S):
    s = [0, 0, 0, 0]
    for i in range(N):
        s[i & 3] += A[i] & 0xFFFF
    xr = 0
    for v in A:
        xr ^= v
    mn_init = 0  # the buffer starts zeroed
    return {'0:1': [v & M32 for v in s] + [max(A), min([mn_init] + A), M32, xr, min([0] + [s32(v) for v in A]) & M32, N]}


KERNELS['atomics'] = KERNELS['atomics'][:5] + (atomics,)

# 9. extended arithmetic and GLSL.std.450 (the exact instructions)
kernel('ext_arith', 64, 2, HEAD + """
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint a[128]; uint b[128]; float fa[128]; };
layout(set = 0, binding = 1) buffer Out { uint o[]; };
void main() {
  uint i = gl_GlobalInvocationID.x, x = a[i], y = b[i];
  uint k = 10u * i, c, hi, lo;
  o[k + 0u] = uaddCarry(x, y, c); o[k + 1u] = c;
  o[k + 2u] = usubBorrow(x, y, c); o[k + 3u] = c;
  umulExtended(x, y, hi, lo); o[k + 4u] = hi; o[k + 5u] = lo;
  int shi, slo;
  imulExtended(int(x), int(y), shi, slo); o[k + 6u] = uint(shi);
  float f = fa[i];
  o[k + 7u] = floatBitsToUint(abs(f)) ^ floatBitsToUint(floor(f * 0.75)) ^ floatBitsToUint(sqrt(abs(f)));
  o[k + 8u] = uint(clamp(int(x), -1000, int(y % 5000u))) ^ uint(abs(int(y))) ^ min(x, y) ^ max(x >> 3, y >> 5);
  o[k + 9u] = floatBitsToUint(min(f, 2.0)) ^ floatBitsToUint(max(f, -3.5)) ^ floatBitsToUint(trunc(f)) ^ floatBitsToUint(ceil(f));
}
""", [('0:0', A + B + FA)], [('0:1', 10 * N)], None)


def ext_arith(S):
    o = []

    def fb(v):
        return bits(f32(v))

    def fl(op, f):
        if f != f or f in (float('inf'), -float('inf')):
            return f
        r = op(f)
        if r == 0:
            return math.copysign(0.0, f)
        return float(r)

    for i in range(N):
        x, y = A[i], B[i]
        s = x + y
        d = x - y
        p = x * y
        sp = s32(x) * s32(y)
        f = frombits(FA[i])
        r = [s & M32, s >> 32, d & M32, 1 if x < y else 0, p >> 32, p & M32, (sp >> 32) & M32]
        # abs, floor(f*0.75), sqrt(abs(f)): NaN inputs give NaN (not in the data)
        af = abs(f)
        r.append(bits(af) ^ bits(fl(math.floor, f32(f * 0.75))) ^ bits(f32(math.sqrt(af))))
        xs, ys = s32(x), s32(y)
        cl = min(max(xs, -1000), y % 5000)
        r.append((cl & M32) ^ (abs(ys) & M32) ^ min(x, y) ^ max(x >> 3, y >> 5))
        mn = f if f < 2.0 else 2.0
        mx = f if f > -3.5 else -3.5
        r.append(bits(mn) ^ bits(mx) ^ bits(fl(math.trunc, f)) ^ bits(fl(math.ceil, f)))
        o += r
    return {'0:1': o}


KERNELS['ext_arith'] = KERNELS['ext_arith'][:5] + (ext_arith,)


def subgroups_of(L, S, n_inv):
    """For each invocation: (subgroup base invocation, lanes in its subgroup,
    lane, subgroup id, subgroups per workgroup)."""
    out = []
    nsg = (L + S - 1) // S
    for i in range(n_inv):
        w, l = divmod(i, L)
        sg, lane = divmod(l, S)
        base = w * L + sg * S
        out.append((base, min(S, L - sg * S), lane, sg, nsg))
    return out


# 10. subgroup basics, with non-full subgroups (48 invocations per workgroup)
NB = 96
kernel('subgroup_basic', 48, 2, HEAD + """
layout(local_size_x = 48) in;
layout(set = 0, binding = 0) readonly buffer In { uint a[]; };
layout(set = 0, binding = 1) buffer Out { uint o[]; };
void main() {
  uint i = gl_GlobalInvocationID.x, x = a[i], k = 8u * i;
  o[k + 0u] = gl_SubgroupSize;
  o[k + 1u] = gl_SubgroupInvocationID + 256u * gl_SubgroupID + 65536u * gl_NumSubgroups;
  o[k + 2u] = uint(subgroupElect());
  o[k + 3u] = subgroupBroadcastFirst(x);
  uvec4 b = subgroupBallot((x & 1u) != 0u);
  o[k + 4u] = subgroupBallotBitCount(b);
  o[k + 5u] = uint(subgroupAll(x != 0u)) | uint(subgroupAny((x & 3u) == 0u)) << 1 |
              uint(subgroupAllEqual(gl_SubgroupID)) << 2 | uint(subgroupAllEqual(x)) << 3;
  o[k + 6u] = subgroupBallotExclusiveBitCount(b);
  o[k + 7u] = b.x;
}
""", [('0:0', A[:NB])], [('0:1', 8 * NB)], None)


def subgroup_basic(S):
    o = []
    for i, (base, n, lane, sg, nsg) in enumerate(subgroups_of(48, S, NB)):
        xs = A[base:base + n]
        odd = [v & 1 == 1 for v in xs]
        bx = sum(1 << j for j in range(min(n, 32)) if odd[j])
        r = [S, lane + 256 * sg + 65536 * nsg, 1 if lane == 0 else 0, xs[0], sum(odd)]
        r.append(int(all(v != 0 for v in xs)) | int(any(v & 3 == 0 for v in xs)) << 1 | 1 << 2 | int(len(set(xs)) == 1) << 3)
        r.append(sum(odd[:lane]))
        r.append(bx)
        o += r
    return {'0:1': o}


KERNELS['subgroup_basic'] = KERNELS['subgroup_basic'][:5] + (subgroup_basic,)

# 11. subgroup arithmetic, scans, clustered and quad operations, shuffles
kernel('subgroup_arith', 64, 2, HEAD + """
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint a[]; };
layout(set = 0, binding = 1) buffer Out { uint o[]; };
void main() {
  uint i = gl_GlobalInvocationID.x, w = a[i], x = w & 0xFFFFu, k = 12u * i;
  uint S = gl_SubgroupSize, lane = gl_SubgroupInvocationID;
  o[k + 0u] = subgroupAdd(x);
  o[k + 1u] = subgroupMul(x | 1u);
  o[k + 2u] = subgroupMin(x) + 65536u * subgroupMax(x);
  o[k + 3u] = subgroupAnd(w) ^ subgroupOr(w >> 1) ^ subgroupXor(w << 2);
  o[k + 4u] = subgroupInclusiveAdd(x);
  o[k + 5u] = subgroupExclusiveAdd(x);
  o[k + 6u] = floatBitsToUint(subgroupAdd(float(x & 255u)));
  o[k + 7u] = subgroupShuffle(w, (lane + 3u) % S);
  o[k + 8u] = uint(subgroupInclusiveMin(int(w)));
  uint c = x, q = x, s = x;
  if (S >= 4u) {
    c = subgroupClusteredAdd(x, 4u);
    q = subgroupQuadBroadcast(x, 2u) ^ subgroupQuadSwapHorizontal(x) << 8 ^ subgroupQuadSwapDiagonal(x) << 16;
  }
  if (S >= 2u) { s = subgroupShuffleXor(w, 1u); }
  o[k + 9u] = c;
  o[k + 10u] = q;
  o[k + 11u] = s;
}
""", [('0:0', A)], [('0:1', 12 * N)], None)


def subgroup_arith(S):
    o = []
    for i, (base, n, lane, sg, nsg) in enumerate(subgroups_of(64, S, N)):
        ws = A[base:base + n]
        xs = [v & 0xFFFF for v in ws]
        x, w = xs[lane], ws[lane]
        mul = 1
        for v in xs:
            mul = mul * (v | 1) & M32
        an, orr, xr = M32, 0, 0
        for v in ws:
            an &= v
            orr |= v >> 1
            xr ^= (v << 2) & M32
        r = [sum(xs) & M32, mul, min(xs) + 65536 * max(xs), an ^ orr ^ xr, sum(xs[:lane + 1]) & M32, sum(xs[:lane]) & M32]
        r.append(bits(float(sum(v & 255 for v in xs))))
        r.append(ws[(lane + 3) % S])
        r.append(min(s32(v) for v in ws[:lane + 1]) & M32)
        c = q = x
        if S >= 4:
            cb = lane // 4 * 4
            c = sum(xs[cb:cb + 4]) & M32
            qb = lane // 4 * 4
            q = (xs[qb + 2] ^ (xs[lane ^ 1] << 8) ^ (xs[lane ^ 3] << 16)) & M32
        s = ws[lane ^ 1] if S >= 2 else x
        o += r + [c, q, s]
    return {'0:1': o}


KERNELS['subgroup_arith'] = KERNELS['subgroup_arith'][:5] + (subgroup_arith,)


def words(vals):
    out = []
    for v in vals:
        out.append('nan' if v is None else '%08x' % (v & M32))
    lines = []
    for j in range(0, len(out), 8):
        lines.append(' '.join(out[j:j + 8]))
    return lines


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    for name, (local, groups, src, inputs, outputs, model) in KERNELS.items():
        comp = os.path.join(here, name + '.comp')
        with open(comp, 'w') as f:
            f.write(src.lstrip())
        with tempfile.TemporaryDirectory() as tmp:
            spv = os.path.join(tmp, 'k.spv')
            subprocess.run(['glslangValidator', '-V', '--target-env', 'vulkan1.1', '-Od', '-o', spv, comp], check=True, stdout=subprocess.DEVNULL)
            text = subprocess.run(['spirv-dis', '--raw-id', spv], check=True, capture_output=True, text=True).stdout
        with open(os.path.join(here, name + '.spvasm'), 'w') as f:
            f.write(text)
        results = {S: model(S) for S in SIZES}
        lines = ['# %s: written by gen.py (expected values computed in Python); see kernels_test.go' % name,
                 'groups %d' % groups]
        for key, vals in inputs:
            lines.append('in %s %d' % (key, len(vals)))
            lines += words(vals)
        for key, n in outputs:
            lines.append('out %s %d' % (key, n))
        for key, n in outputs:
            same = all(results[S][key] == results[SIZES[0]][key] for S in SIZES)
            for S in ([None] if same else SIZES):
                vals = results[S if S else SIZES[0]][key]
                assert len(vals) == n, (name, key, len(vals), n)
                lines.append('expect %s %d%s' % (key, n, '' if S is None else ' subgroup %d' % S))
                lines += words(vals)
        with open(os.path.join(here, name + '.expect'), 'w') as f:
            f.write('\n'.join(lines) + '\n')
        print(name)


if __name__ == '__main__':
    main()
