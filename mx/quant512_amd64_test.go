package mx

import "testing"

// TestQuantizeKernelsTaken checks that the block quantizers take the fused
// kernels wherever the CPU has them (TestQuantize16 and
// TestQuantizeKernelsMatchPortable would pass on the fallback paths too).
func TestQuantizeKernelsTaken(t *testing.T) {
	withEachPath(t, func(t *testing.T) {
		src32, src16 := make([]float32, 70), make([]uint16, 70)
		for _, b := range BlockFormats {
			elem := b.Element()
			scales, elems := make([]byte, 3), make([]byte, mustElementBytes(b, 70))
			want := 0
			if useAVX2 {
				want = 64 // the whole blocks; the tail is Go's
			}
			if got := quantBlocks32(elem, scales, elems, src32); got != want {
				t.Errorf("%v float32: kernels did %d elements, want %d", b, got, want)
			}
			if got := quantBlocks32x16(elem, scales, elems, src16, false); got != want {
				t.Errorf("%v bfloat16: kernels did %d elements, want %d", b, got, want)
			}
			if !useAVX512 && !useF16C {
				want = 0 // the AVX2 binary16 kernel needs F16C
			}
			if got := quantBlocks32x16(elem, scales, elems, src16, true); got != want {
				t.Errorf("%v binary16: kernels did %d elements, want %d", b, got, want)
			}
		}
	})
}
