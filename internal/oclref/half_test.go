package oclref

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// The half family, after OpenCL-CTS test_conformance/half: vload_half,
// vload_halfN and vloada_halfN over every one of the 65,536 half values,
// and vstore_half, vstore_halfN and vstorea_halfN from float and double
// with every rounding mode, on the half boundaries: ties at every
// exponent, the overflow edge (65504, 65519.99, 65520), denormals and the
// ties below them, signed zeros, infinities and NaN, and random values
// across the half range. Vector widths 2, 3, 4, 8, 16; vloada/vstorea of 3
// step by 4 halves. NaNs compare as NaNs; all else bit for bit.

var halfModes = []string{"", "_rte", "_rtz", "_rtp", "_rtn"}

// halfStoreInputs are the store family's inputs, as float64 values exactly
// representable in the source type.
func halfStoreInputs(src clType, n int) []float64 {
	vs := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 65504, -65504, 65519.99, 65520,
		-65520, 65536, 1e6, -1e6, math.MaxFloat32, 0x1p-14, 0x1p-24, -0x1p-24, 0x1p-25, 0x1.8p-25, 0x1.000002p-25, 0x1.8p-24,
		0x1p-26, 0x1p-30, 0x1p-126, 0x1p-149, -0x1p-149, 1 + 0x1p-11, 1 + 3*0x1p-11, 1 + 0x1p-11 + 0x1p-23, -(1 + 0x1p-11),
		-0.393, 0.393, 2049, 2051, 4097, 1.0 / 3, 0x1.ffcp-15, 0x1.ffep-15}
	if src.size == 8 {
		vs = append(vs, 1+0x1p-11+0x1p-40, 1+0x1p-11-0x1p-40, 0x1p-25+0x1p-60, 65519.999999, 1e300, 0x1p-1074)
	}
	rng := rand.New(rand.NewPCG(18, 2))
	for len(vs) < n {
		// every half exponent, with bits below the half's precision
		v := math.Ldexp(1+rng.Float64(), rng.IntN(44)-27)
		if rng.IntN(2) == 0 {
			v = -v
		}
		vs = append(vs, bitsFloat(floatBits(v, src), src))
	}
	return vs[:n]
}

func halfCases() []famCase {
	var cases []famCase
	all := make([]byte, 2*65536)
	for h := range 65536 {
		putLE(all[2*h:], 2, uint64(h))
	}
	float := convTypes[8]
	for _, fn := range []string{"vload_half", "vload_half2", "vload_half3", "vload_half4", "vload_half8", "vload_half16",
		"vloada_half2", "vloada_half3", "vloada_half4", "vloada_half8", "vloada_half16"} {
		w, step := halfWidth(fn)
		n := 65536 / step * w // halves read, as floats
		body := fmt.Sprintf("vstore%d(%s(i, in), i, out);", w, fn)
		if w == 1 {
			body = fmt.Sprintf("out[i] = %s(i, in);", fn)
		}
		name := "h_" + fn
		cases = append(cases, famCase{
			kernel: name,
			src:    fmt.Sprintf("__kernel void %s(__global const half* in, __global float* out) { size_t i = get_global_id(0); %s }", name, body),
			run:    Run{Global: [3]int{65536 / step}, Args: []Arg{{Kind: Buffer, Data: all}, {Kind: Buffer, Data: make([]byte, 4*n)}}},
			cmp:    elemCompare(1, float.size, true, nil),
		})
	}
	for _, src := range []clType{convTypes[8], convTypes[9]} {
		in := halfStoreInputs(src, 480)
		data := make([]byte, src.size*len(in))
		for i, v := range in {
			putLE(data[src.size*i:], src.size, floatBits(v, src))
		}
		for _, base := range []string{"vstore_half", "vstore_half2", "vstore_half3", "vstore_half4", "vstore_half8", "vstore_half16",
			"vstorea_half2", "vstorea_half3", "vstorea_half4", "vstorea_half8", "vstorea_half16"} {
			for _, mode := range halfModes {
				fn := base + mode
				w, step := halfWidth(base)
				name := fmt.Sprintf("h_%s_%s", fn, src.name)
				body := fmt.Sprintf("%s(vload%d(i, in), i, out);", fn, w)
				if w == 1 {
					body = fmt.Sprintf("%s(in[i], i, out);", fn)
				}
				cases = append(cases, famCase{
					kernel: name,
					src: fmt.Sprintf("__kernel void %s(__global const %s* in, __global half* out) { size_t i = get_global_id(0); %s }",
						name, src.name, body),
					run: Run{Global: [3]int{len(in) / w}, Args: []Arg{{Kind: Buffer, Data: data},
						{Kind: Buffer, Data: make([]byte, 2*len(in)/w*step)}}},
					cmp: elemCompare(1, 2, true, nil),
				})
			}
		}
	}
	return cases
}

// halfWidth returns a vload/vstore half function's vector width and how
// many halves one index steps over (vloada/vstorea of 3 step by 4).
func halfWidth(fn string) (w, step int) {
	w = 1
	for _, n := range []int{16, 8, 4, 3, 2} {
		if len(fn) > 0 && fmt.Sprint(n) == fn[len(fn)-len(fmt.Sprint(n)):] {
			w = n
			break
		}
	}
	step = w
	if w == 3 && fn[:6] != "vload_" && fn[:7] != "vstore_" {
		step = 4
	}
	return w, step
}

func TestHalf(t *testing.T) {
	runFamily(t, fp64Header, "CL1.2", halfCases(), 60)
}
