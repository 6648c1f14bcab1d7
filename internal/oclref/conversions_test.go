package oclref

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// The conversions family, after OpenCL-CTS test_conformance/conversions:
// every source × destination among the integer types, float and double,
// × default/rte/rtz/rtp/rtn × with and without _sat (none to a float
// type, where OpenCL C has no _sat), at the vector widths 1, 2, 3, 4, 8
// and 16 in turn, on inputs at every boundary: ties and negative ties,
// each integer range's edges and the next representable value beyond, ±0,
// ±inf, NaN, denormals, the float rounding edges of 64-bit integers, and
// random values. A float-to-integer conversion without _sat of a value out
// of the destination's range (NaN and inf included) is undefined in
// OpenCL C and is not compared; NaN results compare as NaN whatever their
// payload; everything else is compared bit for bit.

type clType struct {
	name string
	size int
	kind byte // 'i' signed, 'u' unsigned, 'f' float
}

var convTypes = []clType{
	{"char", 1, 'i'}, {"uchar", 1, 'u'}, {"short", 2, 'i'}, {"ushort", 2, 'u'}, {"int", 4, 'i'},
	{"uint", 4, 'u'}, {"long", 8, 'i'}, {"ulong", 8, 'u'}, {"float", 4, 'f'}, {"double", 8, 'f'},
}

var convModes = []string{"", "_rte", "_rtz", "_rtp", "_rtn"}

var vecWidths = []int{1, 2, 3, 4, 8, 16}

const convElems = 240 // a multiple of every vector width

// intRange is the range of an integer type, as float64 bounds and exact
// int64/uint64 values.
func intRange(t clType) (lo int64, hi uint64) {
	bits := 8 * t.size
	if t.kind == 'u' {
		return 0, math.MaxUint64 >> (64 - bits)
	}
	return -1 << (bits - 1), 1<<(bits-1) - 1
}

// convInputs returns the raw bits of the inputs for a source type.
func convInputs(src clType, rng *rand.Rand) []uint64 {
	var out []uint64
	if src.kind == 'f' {
		for _, v := range floatEdges(src) {
			out = append(out, floatBits(v, src))
		}
		for len(out) < convElems {
			var v float64
			switch rng.IntN(3) {
			case 0: // any bit pattern
				return append(out, randomFloatBits(src, rng, convElems-len(out))...)
			case 1: // integers and half-integers of every size
				v = math.Ldexp(float64(rng.Int64N(1<<20)), rng.IntN(50)-1) / 2
			default:
				v = (rng.Float64()*2 - 1) * math.Ldexp(1, rng.IntN(70))
			}
			if rng.IntN(2) == 0 {
				v = -v
			}
			out = append(out, floatBits(v, src))
		}
		return out[:convElems]
	}
	lo, hi := intRange(src)
	add := func(v int64) {
		if src.kind == 'u' && v < 0 || src.kind == 'i' && v < lo || src.kind == 'i' && v > int64(hi) ||
			src.kind == 'u' && src.size < 8 && uint64(v) > hi {
			return
		}
		out = append(out, uint64(v)&(math.MaxUint64>>(64-8*src.size)))
	}
	for _, t := range convTypes[:8] {
		tlo, thi := intRange(t)
		add(tlo)
		add(tlo - 1)
		if thi <= math.MaxInt64 {
			add(int64(thi))
			add(int64(thi) + 1)
		}
	}
	for _, v := range []int64{0, 1, -1, 2, -2, 1<<24 + 1, 1<<24 + 3, -(1<<24 + 1), 1<<53 + 1, 1<<53 + 3, -(1<<53 + 1),
		1<<62 + 1<<39 + 1, 1<<63 - 1, 1<<63 - 1<<39, 1<<63 - 1<<39 - 1} {
		add(v)
	}
	if src.kind == 'u' && src.size == 8 {
		for _, v := range []uint64{math.MaxUint64, math.MaxUint64 - 1<<10, 1<<63 + 1, 1<<64 - 1<<40 + 1} {
			out = append(out, v)
		}
	}
	for k := 1; k < 8*src.size; k++ {
		add(1<<k - 1)
		add(-(1 << k) - 1)
	}
	for len(out) < convElems {
		out = append(out, rng.Uint64()>>(rng.IntN(64)))
		if rng.IntN(2) == 0 {
			out[len(out)-1] = -out[len(out)-1]
		}
		out[len(out)-1] &= math.MaxUint64 >> (64 - 8*src.size)
	}
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out[:convElems]
}

// floatEdges are the boundary inputs of a float source type.
func floatEdges(src clType) []float64 {
	vs := []float64{0, math.Copysign(0, -1), 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.25, -0.75, 1, -1,
		0.49999997, -0.49999997, 0.50000006, math.Inf(1), math.Inf(-1), math.NaN(), math.MaxFloat32, -math.MaxFloat32,
		0x1p-126, 0x1p-149, -0x1p-149, 0x1.8p-149, 1e30, -1e30, 8388607.5, 8388608.5, 16777215, 16777217}
	if src.size == 8 {
		vs = append(vs, 1+0x1p-24, 1+0x1p-24+0x1p-50, 1+3*0x1p-25, -(1 + 0x1p-24), 0x1.fffffffp127, 0x1.ffffffp127,
			1e300, -1e300, 0x1p-150, 0x1.8p-150, 0x1p-1074, 4503599627370495.5, 9007199254740993, 0x1.fffffffffffffp1023)
	}
	prec := 24
	if src.size == 8 {
		prec = 53
	}
	for _, t := range convTypes[:8] {
		lo, hi := intRange(t)
		for _, b := range []float64{float64(lo), float64(hi)} {
			f := roundToPrec(b, prec)
			vs = append(vs, f, nextPrec(f, 1, prec), nextPrec(f, -1, prec), b+0.5, b-0.5, b+1, b-1)
		}
	}
	return vs
}

func roundToPrec(v float64, prec int) float64 {
	if prec == 24 {
		return float64(float32(v))
	}
	return v
}

func nextPrec(v, dir float64, prec int) float64 {
	if prec == 24 {
		return float64(math.Nextafter32(float32(v), float32(dir*math.Inf(1))))
	}
	return math.Nextafter(v, dir*math.Inf(1))
}

func floatBits(v float64, t clType) uint64 {
	if t.size == 4 {
		return uint64(math.Float32bits(float32(v)))
	}
	return math.Float64bits(v)
}

func bitsFloat(b uint64, t clType) float64 {
	if t.size == 4 {
		return float64(math.Float32frombits(uint32(b)))
	}
	return math.Float64frombits(b)
}

func randomFloatBits(t clType, rng *rand.Rand, n int) []uint64 {
	out := make([]uint64, n)
	for i := range out {
		out[i] = rng.Uint64() >> (64 - 8*t.size)
	}
	return out
}

// roundMode rounds v to an integer as a float-to-integer conversion with
// the OpenCL suffix mode does (the default is toward zero).
func roundMode(v float64, mode string) float64 {
	switch mode {
	case "_rte":
		return math.RoundToEven(v)
	case "_rtp":
		return math.Ceil(v)
	case "_rtn":
		return math.Floor(v)
	}
	return math.Trunc(v)
}

// defined reports whether OpenCL C defines converting the source value
// (raw bits) to dst without saturation under mode.
func defined(bits uint64, src, dst clType, sat bool, mode string) bool {
	if src.kind != 'f' || dst.kind == 'f' || sat {
		return true
	}
	v := bitsFloat(bits, src)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return false
	}
	r := roundMode(v, mode)
	lo, hi := intRange(dst)
	return r >= float64(lo) && r <= float64(hi) && !(hi == math.MaxUint64 && r == 0x1p64) && !(hi == math.MaxInt64 && r == 0x1p63)
}

func le(b []byte, size int) uint64 {
	var v [8]byte
	copy(v[:], b[:size])
	return binary.LittleEndian.Uint64(v[:])
}

func putLE(b []byte, size int, v uint64) {
	var w [8]byte
	binary.LittleEndian.PutUint64(w[:], v)
	copy(b[:size], w[:])
}

// isNaNBits reports whether raw bits of a float type of size bytes are a NaN.
func isNaNBits(b uint64, size int) bool {
	switch size {
	case 2:
		return b&0x7c00 == 0x7c00 && b&0x3ff != 0
	case 4:
		return b&0x7f800000 == 0x7f800000 && b&0x7fffff != 0
	}
	return b&0x7ff0000000000000 == 0x7ff0000000000000 && b&0xfffffffffffff != 0
}

// elemCompare compares the elements of size bytes of argument arg, skipping
// those skip says are undefined, and treating two NaNs of a float type as
// equal; other buffers are compared byte for byte.
func elemCompare(arg, size int, float bool, skip func(i int) bool) ElemCompare {
	return func(_, a int, got, want []byte) (int, string) {
		if a != arg {
			return firstDiff(got, want)
		}
		if len(got) != len(want) {
			return 0, "length differs"
		}
		for i := 0; i+size <= len(got); i += size {
			if skip != nil && skip(i/size) {
				continue
			}
			g, w := le(got[i:], size), le(want[i:], size)
			if g == w || float && isNaNBits(g, size) && isNaNBits(w, size) {
				continue
			}
			return i, fmt.Sprintf("element %d: spvx %#x, PoCL %#x", i/size, g, w)
		}
		return -1, ""
	}
}

const fp64Header = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"

func conversionCases() []famCase {
	rng := rand.New(rand.NewPCG(18, 1))
	inputs := map[string][]uint64{}
	for _, t := range convTypes {
		inputs[t.name] = convInputs(t, rng)
	}
	var cases []famCase
	k := 0
	for _, src := range convTypes {
		for _, dst := range convTypes {
			for _, sat := range []bool{false, true} {
				if sat && dst.kind == 'f' {
					continue
				}
				for _, mode := range convModes {
					w := vecWidths[k%len(vecWidths)]
					k++
					cases = append(cases, conversionCase(src, dst, sat, mode, w, inputs[src.name]))
				}
			}
		}
	}
	return cases
}

func conversionCase(src, dst clType, sat bool, mode string, w int, in []uint64) famCase {
	vec := ""
	if w > 1 {
		vec = fmt.Sprint(w)
	}
	suffix := mode
	if sat {
		suffix = "_sat" + mode
	}
	name := fmt.Sprintf("cv_%s_%s%s%s", src.name, dst.name, vec, suffix)
	fn := fmt.Sprintf("convert_%s%s%s", dst.name, vec, suffix)
	var body string
	if w == 1 {
		body = fmt.Sprintf("out[i] = %s(in[i]);", fn)
	} else {
		body = fmt.Sprintf("vstore%d(%s(vload%d(i, in)), i, out);", w, fn, w)
	}
	src1 := fmt.Sprintf("__kernel void %s(__global const %s* in, __global %s* out) { size_t i = get_global_id(0); %s }",
		name, src.name, dst.name, body)
	data := make([]byte, src.size*len(in))
	for i, v := range in {
		putLE(data[src.size*i:], src.size, v)
	}
	skip := func(i int) bool { return !defined(in[i], src, dst, sat, mode) }
	return famCase{
		kernel: name, src: src1,
		run: Run{Global: [3]int{len(in) / w}, Args: []Arg{{Kind: Buffer, Data: data},
			{Kind: Buffer, Data: make([]byte, dst.size*len(in))}}},
		cmp: elemCompare(1, dst.size, dst.kind == 'f', skip),
	}
}

func TestConversions(t *testing.T) {
	runFamily(t, fp64Header, "CL1.2", conversionCases(), 100)
}
