package extinst

import (
	"encoding/binary"
	"errors"
	"testing"
)

// decodeFuzz turns fuzz bytes into an instruction number, a result type and
// up to four operands with arbitrary types and bits.
func decodeFuzz(data []byte) (op uint32, res Type, args []Arg) {
	take := func() byte {
		if len(data) == 0 {
			return 0
		}
		b := data[0]
		data = data[1:]
		return b
	}
	typ := func() Type {
		return Type{Kind: Kind(take() % 5), Width: []uint8{1, 8, 16, 32, 64, 0, 7, 128}[take()%8], Len: take() % 20}
	}
	op = uint32(take())
	res = typ()
	n := int(take() % 5)
	args = make([]Arg, n)
	for i := range args {
		args[i].T = typ()
		for j := range args[i].V {
			var w [8]byte
			for k := range w {
				w[k] = take()
			}
			args[i].V[j] = binary.LittleEndian.Uint64(w[:])
		}
	}
	return
}

func fuzzSeeds(f *testing.F) {
	f.Add([]byte{13, 0, 3, 1, 1, 0, 3, 1, 0, 0, 0x80, 0x3f})
	f.Add([]byte{50, 0, 3, 4, 3, 0, 3, 4, 1, 2, 3, 4})
	f.Add([]byte{182, 1, 3, 8, 2, 1, 3, 4, 2, 3, 8})
	f.Add([]byte{34, 0, 4, 16, 1, 0, 4, 16, 1, 2, 16})
	f.Add([]byte{165, 1, 4, 2, 2, 1, 3, 2, 1, 3, 2})
	f.Add([]byte{34, 0, 3, 9, 1, 0, 3, 9})
}

func checkOutput(t *testing.T, res Type, out, out2 Value, err error) {
	if err != nil {
		if out != (Value{}) || out2 != (Value{}) {
			t.Fatalf("error %v with non-zero results", err)
		}
		return
	}
	// Components beyond the result's length stay zero, and every component
	// is zero-extended from the result width (except Frexp-like 32-bit out2).
	n := res.n()
	for i := n; i < 16; i++ {
		if out[i] != 0 {
			t.Fatalf("component %d beyond Len %d is %#x", i, n, out[i])
		}
	}
	if res.Width < 64 && res.Width > 0 {
		for i := range n {
			if out[i]&^mask(res.Width) != 0 {
				t.Fatalf("component %d = %#x not zero-extended from %d bits", i, out[i], res.Width)
			}
		}
	}
}

func FuzzGLSL(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		op, res, args := decodeFuzz(data)
		op %= 90
		out, out2, err := GLSL(op, res, args)
		checkOutput(t, res, out, out2, err)
	})
}

func FuzzOpenCL(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		op, res, args := decodeFuzz(data)
		out, out2, err := OpenCL(op, res, args)
		if errors.Is(err, ErrMemoryOp) {
			return
		}
		checkOutput(t, res, out, out2, err)
	})
}

// TestNoAllocs: the per-lane entry points must not allocate on success.
func TestNoAllocs(t *testing.T) {
	v4 := fa(32, 1, 2, 3, 4)
	i4 := ia(32, 1, -2, 3, -4)
	m4 := fa(32, 1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4)
	cases := []struct {
		name string
		fn   func()
	}{
		{"GLSL Sin", func() { GLSL(GLSLSin, f32t(4), []Arg{v4}) }},
		{"GLSL Fma", func() { GLSL(GLSLFma, f32t(4), []Arg{v4, v4, v4}) }},
		{"GLSL FClamp", func() { GLSL(GLSLFClamp, f32t(4), []Arg{v4, v4, v4}) }},
		{"GLSL Normalize", func() { GLSL(GLSLNormalize, f32t(4), []Arg{v4}) }},
		{"GLSL Frexp", func() { GLSL(GLSLFrexp, f32t(4), []Arg{v4}) }},
		{"GLSL MatrixInverse", func() {
			GLSL(GLSLMatrixInverse, f32t(16), []Arg{m4})
		}},
		{"CL sinpi", func() { OpenCL(CLSinpi, f32t(4), []Arg{v4}) }},
		{"CL fmax", func() { OpenCL(CLFmax, f32t(4), []Arg{v4, v4}) }},
		{"CL remquo", func() { OpenCL(CLRemquo, f32t(4), []Arg{v4, v4}) }},
		{"CL s_add_sat", func() { OpenCL(CLSAddSat, it(32, 4), []Arg{i4, i4}) }},
		{"CL s_mad_sat", func() { OpenCL(CLSMadSat, it(32, 4), []Arg{i4, i4, i4}) }},
		{"CL shuffle", func() { OpenCL(CLShuffle, it(32, 4), []Arg{i4, ua(32, 3, 2, 1, 0)}) }},
		{"CL select", func() { OpenCL(CLSelect, it(32, 4), []Arg{i4, i4, i4}) }},
		{"CL vstore_half", func() { OpenCL(CLVstoreHalf, f32t(1), nil) }},
	}
	for _, c := range cases {
		if n := testing.AllocsPerRun(100, c.fn); n != 0 {
			t.Errorf("%s: %v allocations per call", c.name, n)
		}
	}
}
