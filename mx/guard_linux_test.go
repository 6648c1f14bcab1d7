//go:build linux

package mx

import (
	"syscall"
	"testing"
	"unsafe"
)

// guarded returns a slice of n bytes whose last byte is the last byte
// before a page the process may not read: a kernel that reads past the end
// of its input (a whole vector where a tail is left) faults there, and the
// test binary dies instead of passing.
func guarded(t *testing.T, n int) []byte {
	t.Helper()
	page := syscall.Getpagesize()
	size := (n+page-1)/page*page + page
	mem, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	t.Cleanup(func() { syscall.Munmap(mem) })
	if err := syscall.Mprotect(mem[size-page:], syscall.PROT_NONE); err != nil {
		t.Skipf("mprotect: %v", err)
	}
	return mem[size-page-n : size-page : size-page]
}

// TestKernelsStayInTheirInput: every block dequantizer, block quantizer and
// slice decoder and encoder, on every path, reads nothing past the end of
// its input, for inputs ending at an unreadable page, whole blocks and
// tails alike.
func TestKernelsStayInTheirInput(t *testing.T) {
	withEachPath(t, func(t *testing.T) {
		for _, nb := range []int{1, 2, 3, 4, 5, 7, 8, 9, 64, 65} {
			for _, tail := range []int{0, 5} {
				n := 32*nb + tail
				for _, b := range BlockFormats {
					ns, ne := mustScaleBytes(n, 32), mustElementBytes(b, n)
					scales, elems := guarded(t, ns), guarded(t, ne)
					for i := range elems {
						elems[i] = byte(i * 37)
					}
					for i := range scales {
						scales[i] = byte(100 + i%40)
					}
					if err := Dequantize(make([]float32, n), scales, elems, b, 32, 1); err != nil {
						t.Fatal(err)
					}
					if err := DequantizeBFloat16(make([]uint16, n), scales, elems, b, 32, 1); err != nil {
						t.Fatal(err)
					}
					if err := DequantizeHalf(make([]uint16, n), scales, elems, b, 32, 1); err != nil {
						t.Fatal(err)
					}
					f32 := guardedFloat32(t, n)
					u16 := guardedUint16(t, n)
					for i := range f32 {
						f32[i] = float32(i%13) - 6.5
						u16[i] = uint16(0x3C00 + i%512)
					}
					if err := Quantize(make([]byte, ns), make([]byte, ne), f32, b, Options{Workers: 1}); err != nil {
						t.Fatal(err)
					}
					if err := QuantizeBFloat16(make([]byte, ns), make([]byte, ne), u16, b, Options{Workers: 1}); err != nil {
						t.Fatal(err)
					}
					if err := QuantizeHalf(make([]byte, ns), make([]byte, ne), u16, b, Options{Workers: 1}); err != nil {
						t.Fatal(err)
					}
				}
				for _, f := range Formats {
					codes := guarded(t, n)
					for i := range codes {
						codes[i] = byte(i * 11)
					}
					f32 := guardedFloat32(t, n)
					u16 := guardedUint16(t, n)
					for i := range f32 {
						f32[i] = float32(i%13) - 6.5
						u16[i] = uint16(0x3C00 + i%512)
					}
					_ = f.DecodeSlice(make([]float32, n), codes)
					_ = f.DecodeSliceBFloat16(make([]uint16, n), codes)
					_ = f.DecodeSliceHalf(make([]uint16, n), codes)
					for _, m := range []RoundingMode{RTE, RTZ, RTP, RTN} {
						_ = f.EncodeSlice(make([]uint8, n), f32, m, false)
						_ = f.EncodeSliceBFloat16(make([]uint8, n), u16, m, false)
						_ = f.EncodeSliceHalf(make([]uint8, n), u16, m, true)
					}
				}
			}
		}
	})
}

func guardedFloat32(t *testing.T, n int) []float32 {
	b := guarded(t, 4*n)
	return unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(b))), n)
}

func guardedUint16(t *testing.T, n int) []uint16 {
	b := guarded(t, 2*n)
	return unsafe.Slice((*uint16)(unsafe.Pointer(unsafe.SliceData(b))), n)
}
