package extinst

import "testing"

// Benchmarks of one lane's evaluation of common instructions (vec4 float32
// unless named otherwise). Run:
//
//	go test ./internal/extinst -run '^$' -bench . -benchmem

var sinkV Value

func benchGLSL(b *testing.B, op uint32, res Type, args ...Arg) {
	b.ReportAllocs()
	for b.Loop() {
		out, _, err := GLSL(op, res, args)
		if err != nil {
			b.Fatal(err)
		}
		sinkV = out
	}
}

func benchCL(b *testing.B, op uint32, res Type, args ...Arg) {
	b.ReportAllocs()
	for b.Loop() {
		out, _, err := OpenCL(op, res, args)
		if err != nil {
			b.Fatal(err)
		}
		sinkV = out
	}
}

var (
	bv4 = fa(32, 0.1, 0.7, -2.5, 3)
	bi4 = ia(32, 1, -2, 1<<30, -1<<30)
)

func BenchmarkGLSLSinVec4(b *testing.B) { benchGLSL(b, GLSLSin, f32t(4), bv4) }
func BenchmarkGLSLFmaVec4(b *testing.B) { benchGLSL(b, GLSLFma, f32t(4), bv4, bv4, bv4) }
func BenchmarkGLSLFClampVec4(b *testing.B) {
	benchGLSL(b, GLSLFClamp, f32t(4), bv4, fa(32, 0), fa(32, 1))
}
func BenchmarkGLSLNormalizeVec4(b *testing.B) { benchGLSL(b, GLSLNormalize, f32t(4), bv4) }
func BenchmarkGLSLPowScalar(b *testing.B)     { benchGLSL(b, GLSLPow, f32t(1), fa(32, 1.5), fa(32, 2.2)) }
func BenchmarkGLSLSqrtHalfVec4(b *testing.B)  { benchGLSL(b, GLSLSqrt, f16t(4), fa(16, 1, 2, 3, 4)) }
func BenchmarkCLFmaxVec4(b *testing.B)        { benchCL(b, CLFmax, f32t(4), bv4, bv4) }
func BenchmarkCLSAddSatVec4(b *testing.B)     { benchCL(b, CLSAddSat, it(32, 4), bi4, bi4) }
func BenchmarkCLMadHiVec4(b *testing.B)       { benchCL(b, CLUMadHi, ut(32, 4), bi4, bi4, bi4) }
func BenchmarkCLShuffleVec4(b *testing.B) {
	benchCL(b, CLShuffle, it(32, 4), bi4, ua(32, 3, 2, 1, 0))
}
