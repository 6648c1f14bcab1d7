package extinst_test

import (
	"fmt"
	"math"

	"spvx/internal/extinst"
)

// One lane of %r = OpExtInst %v2float %glsl Fma %a %b %c, the operands as raw
// bits. The second component is (1+2^-23)^2 - (1+2^-22) = 2^-46, which an
// unfused a*b+c in float32 rounds to 0.
func ExampleGLSL() {
	f := func(xs ...float32) extinst.Arg {
		a := extinst.Arg{T: extinst.Type{Kind: extinst.Float, Width: 32, Len: uint8(len(xs))}}
		for i, x := range xs {
			a.V[i] = uint64(math.Float32bits(x))
		}
		return a
	}
	res := extinst.Type{Kind: extinst.Float, Width: 32, Len: 2}
	out, _, err := extinst.GLSL(extinst.GLSLFma, res, []extinst.Arg{f(2, 1+0x1p-23), f(3, 1+0x1p-23), f(1, -(1 + 0x1p-22))})
	if err != nil {
		panic(err)
	}
	fmt.Println(math.Float32frombits(uint32(out[0])), math.Float32frombits(uint32(out[1])))
	// Output: 7 1.4210855e-14
}

// One lane of OpenCL frexp: the pointer operand is left out; out2 is the
// value to store through it (32-bit integers).
func ExampleOpenCL() {
	x := extinst.Arg{T: extinst.Type{Kind: extinst.Float, Width: 64, Len: 1}, V: extinst.Value{math.Float64bits(48)}}
	res := extinst.Type{Kind: extinst.Float, Width: 64, Len: 1}
	out, out2, err := extinst.OpenCL(extinst.CLFrexp, res, []extinst.Arg{x})
	if err != nil {
		panic(err)
	}
	t2, _ := extinst.OpenCLOut2Type(extinst.CLFrexp, res)
	fmt.Println(math.Float64frombits(out[0]), int32(uint32(out2[0])), t2)
	// Output: 0.75 6 int32
}

// The memory instructions are the caller's: vstore_half_r converts with the
// instruction's rounding mode.
func ExampleFloatToHalf() {
	_, _, err := extinst.OpenCL(extinst.CLVstoreHalfR, extinst.Type{}, nil)
	fmt.Println(err == extinst.ErrMemoryOp)
	h, _ := extinst.FloatToHalf(uint64(math.Float32bits(1.0009766)), 32, extinst.RTP)
	fmt.Printf("%#04x\n", h)
	// Output:
	// true
	// 0x3c01
}
