package main

import (
	"fmt"
	"math"
	"sort"

	"spvx/mx"
)

// intInputs are the 32-bit words converted by the integer → FP8 script: read
// as int32 by OpConvertSToF and as uint32 by OpConvertUToF. They straddle the
// formats' rounding steps (E4M3 steps of 32 above 256, E5M2 of 8192 above
// 32768), maxima (448 and 57344), overflow thresholds (464, 480; 61440,
// 65536), and reach the ends of both integer ranges.
func intInputs() []uint32 {
	set := map[uint32]bool{}
	add := func(v int64) {
		set[uint32(v)] = true
		set[uint32(-v)] = true
	}
	for v := int64(0); v <= 20; v++ {
		add(v)
	}
	for _, v := range []int64{
		23, 25, 27, 29, 31, 33, 35, 100, 255, 256, 257, 272, 273, 288, 304, 320, 336, 352, 368, 384,
		400, 416, 432, 440, 447, 448, 449, 455, 456, 463, 464, 465, 479, 480, 481, 496, 511, 512, 1000,
		4096, 4097, 28672, 28673, 32767, 32768, 36864, 36865, 40960, 45056, 49152, 53248, 57343, 57344,
		57345, 61439, 61440, 61441, 65535, 65536, 65537, 1 << 20, 1<<24 + 1, math.MaxInt32,
	} {
		add(v)
	}
	set[0x80000000] = true // INT32_MIN / 2^31
	set[0x80000001] = true
	set[0xFFFFFFFF] = true // -1 / UINT32_MAX
	w := make([]uint32, 0, len(set))
	for v := range set {
		w = append(w, v)
	}
	sort.Slice(w, func(i, j int) bool { return w[i] < w[j] })
	for len(w)%(4*mxLocal) != 0 {
		w = append(w, 0)
	}
	return w
}

// mxIntScripts: OpConvertSToF and OpConvertUToF into E4M3 and E5M2, the two
// other conversions SPV_EXT_float8 lets carry the saturation decoration.
func mxIntScripts() ([]*script, error) {
	var out []*script
	in := intInputs()
	for _, dst := range []mx.Format{mx.E4M3, mx.E5M2} {
		name := fmt.Sprintf("mx_convert_int_to_%s.amber", dst)
		vs := shortVariantsFor(dst)
		m := newMXModule()
		m.use(dst)
		m.sint = true
		ib := m.bind("v4")
		m.code("%%ip = OpAccessChain %%pv4 %s %%c0 %%i", ib)
		m.code("%%iw = OpLoad %%v4u32 %%ip")
		m.code("%%is = OpBitcast %%v4i32 %%iw")
		convertVariantsOp(m, "OpConvertSToF", "s", dst, "%is", vs)
		convertVariantsOp(m, "OpConvertUToF", "u", dst, "%iw", vs)
		about := []string{
			fmt.Sprintf("OpConvertSToF (int32) and OpConvertUToF (uint32) to %s (%s) of the same words, with each", dst.SPIRVName(), dst),
			"FPRoundingMode, and with none with and without SaturatedToLargestFloat8NormalConversionEXT",
			"(SPV_EXT_float8 allows the decoration on these two conversions too). Inputs straddle the rounding",
			"steps, the maximum and the overflow thresholds, and reach both ends of the integer ranges; each",
			"out_s_*/out_u_* word packs the four result codes.",
			"",
		}
		about = append(about, policyNote(dst)[:5]...)
		about = append(about, "Expected values: spvx/mx EncodeFloat64 of the exact integer (one rounding).")
		s := newScript(name, about...)
		s.summary = fmt.Sprintf("OpConvertSToF/OpConvertUToF int32/uint32 → %s over %d words, RTE/RTZ/RTP/RTN, and undecorated with and without the saturation decoration", dst, len(in))
		s.require(mxFeatures(dst))
		s.shader("convert", mxTarget, m.text(nil))
		var words []uint64
		for _, w := range in {
			words = append(words, uint64(w))
		}
		s.bufferData("in", "uint32", words)
		bindings := []string{"in"}
		for _, pre := range []string{"out_s_", "out_u_"} {
			for _, v := range vs {
				s.bufferZero(pre+v.tag(), "uint32", len(in)/4)
				bindings = append(bindings, pre+v.tag())
			}
		}
		s.pipeline(pipeline{name: "pipe", shader: "convert", bindings: bindings})
		s.run("pipe", len(in)/4/mxLocal)
		for _, signed := range []bool{true, false} {
			codes := make([][]uint8, len(vs))
			for vi, v := range vs {
				for _, w := range in {
					x := float64(w)
					if signed {
						x = float64(int32(w))
					}
					codes[vi] = append(codes[vi], dst.EncodeFloat64(x, v.mode, v.sat))
				}
			}
			pre := "out_u_"
			if signed {
				pre = "out_s_"
				s.comment("", "OpConvertSToF (int32)")
			} else {
				s.comment("", "OpConvertUToF (uint32)")
			}
			expectVariantsPrefix(s, pre, dst, vs, codes)
		}
		out = append(out, s)
	}
	return out, nil
}
