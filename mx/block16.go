package mx

import "math"

// Block quantization from and to bfloat16 and IEEE binary16 (raw uint16 bit
// patterns). Every bfloat16 and binary16 value is a float32, so quantizing
// one is quantizing its float32 value: the inputs are widened exactly a
// chunk at a time and go through Quantize's loops and kernels. Dequantizing
// computes Dequantize's float32 value and rounds it to the 16-bit format,
// to nearest even (element·scale is exact in float32 except where float32
// itself overflows or goes subnormal).

// chunk16 is how many elements the 16-bit entry points widen or narrow at
// a time: a multiple of 4 blocks of 32, so chunks start on block and
// packing boundaries, and small enough for the stack.
const chunk16 = 2048

// QuantizeBFloat16 is Quantize for bfloat16 inputs.
func QuantizeBFloat16(scales, elements []byte, src []uint16, b BlockFormat, opt Options) error {
	return quantize16(scales, elements, src, b, opt, false)
}

// QuantizeHalf is Quantize for IEEE binary16 inputs.
func QuantizeHalf(scales, elements []byte, src []uint16, b BlockFormat, opt Options) error {
	return quantize16(scales, elements, src, b, opt, true)
}

func quantize16(scales, elements []byte, src []uint16, b BlockFormat, opt Options, half bool) error {
	k := opt.blockSize()
	if !b.valid() || opt.Rounding > TiesAway {
		return ErrFormat
	}
	if err := checkBlockSize(k); err != nil {
		return err
	}
	n := len(src)
	eb := elementBytes(b, n)
	if len(scales) < ceilDiv(n, k) || len(elements) < eb {
		return ErrShortBuffer
	}
	if eb > 0 {
		elements[eb-1] = 0
	}
	q := quantizer{format: b, blockSize: k, tiesAway: opt.Rounding == TiesAway}
	body := func(lo, hi int) {
		// A chunk is a multiple of 4 blocks: chunk16 for small blocks, 4
		// blocks for large ones (on the heap, once per call and worker).
		step := 4 * k
		var stack [chunk16]float32
		buf := stack[:]
		if step <= chunk16 {
			step = chunk16 / step * step
		} else {
			buf = make([]float32, step)
		}
		lo += q.fused16(scales, elements, src, lo, hi, half)
		for c := lo; c < hi; c += step {
			e := min(c+step, hi)
			widen16(buf[:e-c], src[c:e], half)
			q.run(scales[c/k:], elements[elementBytes(b, c):], buf[:e-c], 0, e-c)
		}
	}
	if serial(n, opt.Workers) {
		body(0, n)
		return nil
	}
	parallelFor(n, k, opt.Workers, body)
	return nil
}

// fused16 quantizes the whole 32-element blocks of src[lo:hi] (lo a block
// boundary) straight from the 16-bit values, where a kernel does that for
// this format and rounding, and returns how many elements it did; the
// rest take the widen-then-quantize loop.
func (q *quantizer) fused16(scales, elements []byte, src []uint16, lo, hi int, half bool) int {
	if q.blockSize != 32 || q.tiesAway || q.portable {
		return 0
	}
	return quantBlocks32x16(q.format.Element(), scales[lo/32:], elements[elementBytes(q.format, lo):], src[lo:hi], half)
}

// widen16 converts bfloat16 or binary16 bits to float32 values, exactly.
func widen16(dst []float32, src []uint16, half bool) {
	n := widen16Kernel(dst, src, half)
	dst, src = dst[n:len(src)], src[n:]
	if half {
		for i, h := range src {
			dst[i] = math.Float32frombits(halfBits(h))
		}
		return
	}
	for i, h := range src {
		dst[i] = math.Float32frombits(uint32(h) << 16)
	}
}

// DequantizeBFloat16 is Dequantize with bfloat16 outputs: each float32
// result rounded to nearest even (NaN blocks give 0x7FC0).
func DequantizeBFloat16(dst []uint16, scales, elements []byte, b BlockFormat, blockSize, workers int) error {
	return dequantize16(dst, scales, elements, b, blockSize, workers, false)
}

// DequantizeHalf is Dequantize with IEEE binary16 outputs: each float32
// result rounded to nearest even (overflow gives ±Inf; NaN blocks 0x7E00).
func DequantizeHalf(dst []uint16, scales, elements []byte, b BlockFormat, blockSize, workers int) error {
	return dequantize16(dst, scales, elements, b, blockSize, workers, true)
}

func dequantize16(dst []uint16, scales, elements []byte, b BlockFormat, blockSize, workers int, half bool) error {
	if blockSize == 0 {
		blockSize = DefaultBlockSize
	}
	if !b.valid() {
		return ErrFormat
	}
	if err := checkBlockSize(blockSize); err != nil {
		return err
	}
	n := len(dst)
	k := blockSize
	if len(scales) < ceilDiv(n, k) || len(elements) < elementBytes(b, n) {
		return ErrShortBuffer
	}
	d := dequantizer{format: b, blockSize: k}
	body := func(lo, hi int) {
		if k == 32 {
			// Whole OCP-size blocks go straight to 16 bits where a fused
			// kernel exists; lo is a multiple of 4 blocks, so the
			// elements start on a byte (and FP6 group) boundary.
			lo += dequant16Kernel(b.Element(), dst[lo:hi], scales[lo/32:], elements[elementBytes(b, lo):], half)
		}
		step := 4 * k
		var stack [chunk16]float32
		buf := stack[:]
		if step <= chunk16 {
			step = chunk16 / step * step
		} else {
			buf = make([]float32, step)
		}
		for c := lo; c < hi; c += step {
			e := min(c+step, hi)
			d.run(buf[:e-c], scales[c/k:], elements[elementBytes(b, c):], 0, e-c)
			narrow16(dst[c:e], buf[:e-c], half)
		}
	}
	if serial(n, workers) {
		body(0, n)
		return nil
	}
	parallelFor(n, k, workers, body)
	return nil
}

// narrow16 rounds float32 values to bfloat16 or binary16, to nearest even,
// as BFloat16FromFloat32 and HalfFromFloat32 do.
func narrow16(dst []uint16, src []float32, half bool) {
	n := narrow16Kernel(dst, src, half)
	dst, src = dst[n:len(src)], src[n:]
	if half {
		for i, x := range src {
			dst[i] = HalfFromFloat32(x, RTE)
		}
		return
	}
	for i, x := range src {
		dst[i] = bfloat16RTE(math.Float32bits(x))
	}
}

// bfloat16RTE rounds float32 bits to bfloat16, to nearest even: adding
// 0x7FFF plus the kept lsb carries into the kept bits exactly when the
// dropped half is above one half, or one half with an odd lsb; a carry out
// of the mantissa moves into the exponent, and FLT_MAX's neighbourhood
// rounds to Inf as IEEE says. NaN becomes the quiet NaN with its sign.
func bfloat16RTE(u uint32) uint16 {
	if u&0x7FFFFFFF > 0x7F800000 {
		return uint16(u>>16)&0x8000 | 0x7FC0
	}
	return uint16((u + 0x7FFF + (u>>16)&1) >> 16)
}
