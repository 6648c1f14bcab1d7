package vkformat

import (
	"math"
	"testing"
)

// TestSampledFormats: sRGB texels decode through the sRGB curve (alpha
// linear), BGRA texels swap R and B, depth formats are one component,
// and encoding inverts decoding on every 8-bit code.
func TestSampledFormats(t *testing.T) {
	srgb, _ := Lookup(Srgba8)
	v := srgb.DecodeFloat([]byte{0, 255, 188, 188})
	if v[0] != 0 || v[1] != 1 || math.Abs(v[2]-0.5029) > 1e-4 || v[3] != 188.0/255 {
		t.Errorf("Srgba8 decode %v, want 0 1 ~0.5029 %v", v, 188.0/255)
	}
	bgra, _ := Lookup(Sbgra8)
	for code := range 256 {
		in := []byte{byte(code), 7, byte(255 - code), byte(code)}
		out := make([]byte, 4)
		bgra.EncodeFloat(out, bgra.DecodeFloat(in))
		if string(out) != string(in) {
			t.Fatalf("Sbgra8 round trip of %v gives %v", in, out)
		}
	}
	b, _ := Lookup(Bgra8)
	if v := b.DecodeFloat([]byte{255, 0, 51, 0}); v[0] != 0.2 || v[2] != 1 {
		t.Errorf("Bgra8 decode %v, want R 0.2, B 1", v)
	}
	d16, _ := Lookup(D16)
	if !d16.Depth || !d16.SampledOnly || d16.Comps != 1 || d16.VkFormat != 124 || Name(D16) != "D16" {
		t.Errorf("D16: %+v", d16)
	}
	if f, ok := LookupName("Sbgra8"); !ok || f != Sbgra8 {
		t.Errorf("LookupName(Sbgra8) = %v, %v", f, ok)
	}
	if f, ok := LookupName("Rgba8"); !ok || Name(f) != "Rgba8" {
		t.Errorf("LookupName(Rgba8) = %v, %v", f, ok)
	}
}
