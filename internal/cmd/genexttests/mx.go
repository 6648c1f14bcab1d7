package main

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"spvx/mx"
)

// The MX scripts run without subgroups: invocation GlobalInvocationId.x
// handles one 32-bit word (four 8-bit codes) or one v4u32 (four float32
// values, or the packed 4- and 6-bit fields of four words). Results are
// float32 bit patterns or packed codes, so every expectation is exact; a NaN
// float32 result is written as the canonical 0x7FC00000 by the shader
// (OpIsNan + OpSelect), because neither SPIR-V nor the FP8 whitepaper defines
// which NaN a widening conversion produces.

const (
	mxLocal   = 4          // local size x of every MX shader
	canonNaN  = 0x7FC00000 // what the shaders write for a NaN float32
	mxTarget  = "spv1.3"   // SPIR-V version of the MX shaders
	qnanConst = "%qnan"
)

// fmtName is the SPIR-V id of a format's scalar type.
func fmtName(f mx.Format) string { return "%" + f.String() }

// mxModule collects what a shader uses, to emit the right capabilities,
// extensions and types.
type mxModule struct {
	formats  map[mx.Format]bool
	extract  bool // OpBitcastExtractEXT
	int8     bool
	sint     bool // %i32 and %v4i32
	body     strings.Builder
	decos    strings.Builder
	bindings []string // "u32" or "v4": the array type of each binding
}

func newMXModule() *mxModule { return &mxModule{formats: map[mx.Format]bool{}} }

func (m *mxModule) use(fs ...mx.Format) {
	for _, f := range fs {
		m.formats[f] = true
	}
}

// bind adds a storage buffer binding of u32 words ("u32") or v4u32 ("v4")
// and returns its variable name.
func (m *mxModule) bind(kind string) string {
	m.bindings = append(m.bindings, kind)
	return fmt.Sprintf("%%b%d", len(m.bindings)-1)
}

func (m *mxModule) code(f string, a ...any) { fmt.Fprintf(&m.body, f+"\n", a...) }
func (m *mxModule) deco(f string, a ...any) { fmt.Fprintf(&m.decos, f+"\n", a...) }

// text assembles the module. consts are extra constant lines (after the
// types).
func (m *mxModule) text(consts []string) string {
	var b strings.Builder
	w := func(f string, a ...any) { fmt.Fprintf(&b, f+"\n", a...) }
	fs := make([]mx.Format, 0, len(m.formats))
	for f := range m.formats {
		fs = append(fs, f)
	}
	sort.Slice(fs, func(i, j int) bool { return fs[i] < fs[j] })
	caps := map[string]bool{}
	fp8, ocp := false, false
	for _, f := range fs {
		switch f {
		case mx.E4M3, mx.E5M2:
			caps["Float8EXT"], fp8 = true, true
		case mx.E2M1:
			caps["Float4EXT"], ocp = true, true
		case mx.E2M3, mx.E3M2:
			caps["Float6EXT"], ocp = true, true
		case mx.E8M0:
			caps["Float8UnsignedE8M0EXT"], ocp = true, true
		case mx.MXINT8:
			caps["MXInt8EXT"], ocp = true, true
		}
	}
	if m.extract {
		caps["BitcastExtractEXT"], ocp = true, true
	}
	w("OpCapability Shader")
	if m.int8 {
		w("OpCapability Int8")
	}
	for _, c := range []string{"Float8EXT", "Float4EXT", "Float6EXT", "Float8UnsignedE8M0EXT", "MXInt8EXT", "BitcastExtractEXT"} {
		if caps[c] {
			w("OpCapability %s", c)
		}
	}
	if fp8 {
		w(`OpExtension "SPV_EXT_float8"`)
	}
	if ocp {
		w(`OpExtension "SPV_EXT_ocp_microscaling_types"`)
	}
	w("OpMemoryModel Logical GLSL450")
	w(`OpEntryPoint GLCompute %%main "main" %%gid`)
	w("OpExecutionMode %%main LocalSize %d 1 1", mxLocal)
	w("OpDecorate %%gid BuiltIn GlobalInvocationId")
	w("OpDecorate %%au32 ArrayStride 4")
	w("OpDecorate %%av4 ArrayStride 16")
	w("OpDecorate %%bu32 Block")
	w("OpMemberDecorate %%bu32 0 Offset 0")
	w("OpDecorate %%bv4 Block")
	w("OpMemberDecorate %%bv4 0 Offset 0")
	for i := range m.bindings {
		w("OpDecorate %%b%d DescriptorSet 0", i)
		w("OpDecorate %%b%d Binding %d", i, i)
	}
	b.WriteString(m.decos.String())
	w("%%void = OpTypeVoid")
	w("%%fn = OpTypeFunction %%void")
	w("%%bool = OpTypeBool")
	w("%%v4bool = OpTypeVector %%bool 4")
	w("%%u32 = OpTypeInt 32 0")
	w("%%v3u32 = OpTypeVector %%u32 3")
	w("%%v4u32 = OpTypeVector %%u32 4")
	w("%%f32 = OpTypeFloat 32")
	w("%%v4f32 = OpTypeVector %%f32 4")
	if m.int8 {
		w("%%u8 = OpTypeInt 8 0")
	}
	if m.sint {
		w("%%i32 = OpTypeInt 32 1")
		w("%%v4i32 = OpTypeVector %%i32 4")
	}
	for _, f := range fs {
		w("%s = OpTypeFloat %d %s", fmtName(f), f.Bits(), f.SPIRVName())
		w("%%v4%s = OpTypeVector %s 4", f.String(), fmtName(f))
	}
	w("%%pin3 = OpTypePointer Input %%v3u32")
	w("%%au32 = OpTypeRuntimeArray %%u32")
	w("%%av4 = OpTypeRuntimeArray %%v4u32")
	w("%%bu32 = OpTypeStruct %%au32")
	w("%%bv4 = OpTypeStruct %%av4")
	w("%%pbu32 = OpTypePointer StorageBuffer %%bu32")
	w("%%pbv4 = OpTypePointer StorageBuffer %%bv4")
	w("%%pu32 = OpTypePointer StorageBuffer %%u32")
	w("%%pv4 = OpTypePointer StorageBuffer %%v4u32")
	w("%%c0 = OpConstant %%u32 0")
	w("%%cnan = OpConstant %%u32 %d", canonNaN)
	w("%s = OpConstantComposite %%v4u32 %%cnan %%cnan %%cnan %%cnan", qnanConst)
	for _, c := range consts {
		w("%s", c)
	}
	w("%%gid = OpVariable %%pin3 Input")
	for i, k := range m.bindings {
		w("%%b%d = OpVariable %%pb%s StorageBuffer", i, k)
	}
	w("%%main = OpFunction %%void None %%fn")
	w("%%entry = OpLabel")
	w("%%g = OpLoad %%v3u32 %%gid")
	w("%%i = OpCompositeExtract %%u32 %%g 0")
	b.WriteString(m.body.String())
	w("OpReturn")
	w("OpFunctionEnd")
	return b.String()
}

// widenStore converts the v4 value v of format f to v4f32 and stores its
// bit patterns (NaN canonicalised when f has NaNs) at out[idx] (a v4
// binding). tag makes the ids unique.
func (m *mxModule) widenStore(f mx.Format, v, out, idx, tag string) {
	m.code("%%x%s = OpFConvert %%v4f32 %s", tag, v)
	m.code("%%xb%s = OpBitcast %%v4u32 %%x%s", tag, tag)
	res := "%xb" + tag
	if f.HasNaN() {
		m.code("%%xn%s = OpIsNan %%v4bool %%x%s", tag, tag)
		m.code("%%xs%s = OpSelect %%v4u32 %%xn%s %s %%xb%s", tag, tag, qnanConst, tag)
		res = "%xs" + tag
	}
	m.code("%%xp%s = OpAccessChain %%pv4 %s %%c0 %s", tag, out, idx)
	m.code("OpStore %%xp%s %s", tag, res)
}

// f32bits is what a shader writes for the float32 value x.
func f32bits(x float32) uint64 {
	if x != x {
		return canonNaN
	}
	return uint64(math.Float32bits(x))
}

func mxFeatures(fs ...mx.Format) (features, extensions []string) {
	fp8, ocp := false, false
	for _, f := range fs {
		if f == mx.E4M3 || f == mx.E5M2 {
			fp8 = true
		} else {
			ocp = true
		}
	}
	if fp8 {
		extensions = append(extensions, "VK_EXT_shader_float8")
	}
	if ocp {
		extensions = append(extensions, "VK_EXT_shader_ocp_microscaling_types")
	}
	return nil, extensions
}

// mxDecodeScripts: OpFConvert from every code of every format to float32.
func mxDecodeScripts() ([]*script, error) {
	var out []*script
	for _, f := range mx.Formats {
		name := fmt.Sprintf("mx_fconvert_%s_to_f32.amber", f)
		m := newMXModule()
		m.use(f)
		in, o := m.bind(map[bool]string{true: "u32", false: "v4"}[f.Bits() == 8]), m.bind("v4")
		var words []uint64 // input buffer elements (u32 words)
		var want []uint64  // expected float32 bits, in output order
		var about []string
		var consts []string
		if f.Bits() == 8 {
			about = []string{
				fmt.Sprintf("OpFConvert from %s (%s) to float32, for every one of its 256 codes.", f.SPIRVName(), f),
				"Invocation i loads word i (codes 4i..4i+3, code 4i+j in byte j), OpBitcasts it to a",
				"4-vector of the format, converts that to v4f32 and stores the bits at out[i].",
			}
			for c := 0; c < 256; c += 4 {
				words = append(words, uint64(c)|uint64(c+1)<<8|uint64(c+2)<<16|uint64(c+3)<<24)
				for j := 0; j < 4; j++ {
					want = append(want, f32bits(f.DecodeFloat32(uint8(c+j))))
				}
			}
			m.code("%%wp = OpAccessChain %%pu32 %s %%c0 %%i", in)
			m.code("%%w = OpLoad %%u32 %%wp")
			m.code("%%v = OpBitcast %%v4%s %%w", f)
			m.widenStore(f, "%v", o, "%i", "")
		} else {
			// Packed fields, read with OpBitcastExtractEXT from a v4u32
			// base: slot k of each of the four words at offset k·W.
			m.extract = true
			wbits := f.Bits()
			slots := 32 / wbits
			nwords := f.Codes() // one pass of each slot over all codes
			if nwords < 4*mxLocal {
				nwords = 4 * mxLocal // whole workgroups
			}
			about = []string{
				fmt.Sprintf("OpFConvert from %s (%s) to float32, for every code, each code in every field", f.SPIRVName(), f),
				fmt.Sprintf("position: the %d-bit fields are read with OpBitcastExtractEXT from a v4u32 Base at Offset", wbits),
				fmt.Sprintf("%d·k (k = 0..%d); word w holds code (w + %d·k) mod %d in slot k.", wbits, slots-1, 3, f.Codes()),
			}
			if 32%wbits != 0 {
				about = append(about, "The top 2 bits of every word hold noise, which the extraction must ignore.")
			}
			rg := rng(0xfeed + uint64(f))
			for w := 0; w < nwords; w++ {
				var word uint64
				for k := 0; k < slots; k++ {
					word |= uint64((w+3*k)%f.Codes()) << (k * wbits)
				}
				if 32%wbits != 0 {
					word |= (rg.next() & 3) << 30
				}
				words = append(words, word)
			}
			m.code("%%bp = OpAccessChain %%pv4 %s %%c0 %%i", in)
			m.code("%%base = OpLoad %%v4u32 %%bp")
			m.code("%%ik = OpIMul %%u32 %%i %%cslots")
			consts = append(consts, fmt.Sprintf("%%cslots = OpConstant %%u32 %d", slots))
			for k := 0; k < slots; k++ {
				consts = append(consts, fmt.Sprintf("%%off%d = OpConstant %%u32 %d", k, k*wbits), fmt.Sprintf("%%k%d = OpConstant %%u32 %d", k, k))
				m.code("%%e%d = OpBitcastExtractEXT %%v4%s %%base %%off%d", k, f, k)
				m.code("%%o%d = OpIAdd %%u32 %%ik %%k%d", k, k)
				m.widenStore(f, fmt.Sprintf("%%e%d", k), o, fmt.Sprintf("%%o%d", k), fmt.Sprint(k))
			}
			// Output element i·slots + k, component j = slot k of word 4i+j.
			for i := 0; i < nwords/4; i++ {
				for k := 0; k < slots; k++ {
					for j := 0; j < 4; j++ {
						c := uint8(words[4*i+j] >> (k * wbits) & (1<<wbits - 1))
						want = append(want, f32bits(f.DecodeFloat32(c)))
					}
				}
			}
		}
		if len(words)%(4*mxLocal) != 0 && f.Bits() != 8 {
			return nil, fmt.Errorf("%s: %d words is not a whole number of workgroups", name, len(words))
		}
		about = append(about, "Expected values: spvx/mx Format.DecodeFloat32 (exact); NaN is written as 0x7FC00000.")
		s := newScript(name, about...)
		s.summary = fmt.Sprintf("OpFConvert %s → float32 for all %d codes", f, f.Codes())
		if f.Bits() != 8 {
			s.summary += ", each in every field position, read with OpBitcastExtractEXT"
		}
		s.require(mxFeatures(f))
		s.shader("decode", mxTarget, m.text(consts))
		s.bufferData("in", "uint32", words)
		s.bufferZero("out", "uint32", len(want))
		s.pipeline(pipeline{name: "pipe", shader: "decode", bindings: []string{"in", "out"}})
		invocations := len(words)
		if f.Bits() != 8 {
			invocations /= 4
		}
		s.run("pipe", invocations/mxLocal)
		s.expect("out", 4, 0, want)
		out = append(out, s)
	}
	return out, nil
}

// variant is one conversion of a script: a rounding mode and, for FP8
// results, whether the conversion carries
// SaturatedToLargestFloat8NormalConversionEXT.
type variant struct {
	mode mx.RoundingMode
	sat  bool
	// undecorated: no FPRoundingMode decoration; the rounding is then the
	// implementation's, and spvx's policy is RTE (mode).
	undecorated bool
}

func (v variant) tag() string {
	t := v.mode.String()
	if v.undecorated {
		t = "default"
	}
	if v.sat {
		return t + "_sat"
	}
	return t
}

func (v variant) describe() string {
	d := "FPRoundingMode " + spirvMode[v.mode]
	if v.undecorated {
		d = "no FPRoundingMode (implementation-defined rounding; spvx policy: RTE)"
	}
	if v.sat {
		d += ", SaturatedToLargestFloat8NormalConversionEXT"
	}
	return d
}

var modes = []mx.RoundingMode{mx.RTE, mx.RTZ, mx.RTP, mx.RTN}

// variantsFor lists the conversions into f: every FPRoundingMode, and for FP8
// each again with the saturation decoration (SPV_EXT_float8 allows it only on
// conversions whose Result Type is E4M3 or E5M2), plus, for FP8, the
// undecorated conversion with and without saturation: Vulkan allows
// FPRoundingMode only on conversions to 16-bit floats, so that is the form a
// Vulkan shader uses.
func variantsFor(f mx.Format) []variant {
	var vs []variant
	for _, m := range modes {
		vs = append(vs, variant{mode: m})
	}
	if f == mx.E4M3 || f == mx.E5M2 {
		for _, m := range modes {
			vs = append(vs, variant{mode: m, sat: true})
		}
		vs = append(vs, variant{mode: mx.RTE, undecorated: true}, variant{mode: mx.RTE, sat: true, undecorated: true})
	}
	return vs
}

// shortVariantsFor is variantsFor into FP8 without the saturating directed
// modes (the float32 scripts cover those): the four modes, and the
// undecorated conversion with and without saturation.
func shortVariantsFor(f mx.Format) []variant {
	var vs []variant
	for _, v := range variantsFor(f) {
		if !v.sat || v.undecorated {
			vs = append(vs, v)
		}
	}
	return vs
}

var spirvMode = map[mx.RoundingMode]string{mx.RTE: "RTE", mx.RTZ: "RTZ", mx.RTP: "RTP", mx.RTN: "RTN"}

// convertVariants emits, for each variant, an OpFConvert of the v4 value src
// to format dst with its decorations, and stores the result at out_v[i] as a
// word packing the four result codes (OpBitcast of the v4 result). 4- and
// 6-bit results have no integer of their width to be bitcast to (and may not
// live in a StorageBuffer), so they are first widened to E4M3 by an
// undecorated OpFConvert, which is exact for E2M1, E2M3 and E3M2 and
// injective on their codes.
func convertVariants(m *mxModule, dst mx.Format, src string, vs []variant) {
	convertVariantsOp(m, "OpFConvert", "cv", dst, src, vs)
}

// convertVariantsOp is convertVariants with the conversion opcode (OpFConvert,
// OpConvertSToF, OpConvertUToF) and an id prefix.
func convertVariantsOp(m *mxModule, op, pre string, dst mx.Format, src string, vs []variant) {
	if dst.Bits() != 8 {
		m.use(mx.E4M3)
	}
	for vi, v := range vs {
		o := m.bind("u32")
		id := fmt.Sprintf("%%%s%d", pre, vi)
		if !v.undecorated {
			m.deco("OpDecorate %s FPRoundingMode %s", id, spirvMode[v.mode])
		}
		if v.sat {
			m.deco("OpDecorate %s SaturatedToLargestFloat8NormalConversionEXT", id)
		}
		m.code("%s = %s %%v4%s %s", id, op, dst, src)
		packed := id
		if dst.Bits() != 8 {
			packed = fmt.Sprintf("%%%sx%d", pre, vi)
			m.code("%s = OpFConvert %%v4e4m3 %s", packed, id)
		}
		m.code("%%%sw%d = OpBitcast %%u32 %s", pre, vi, packed)
		m.code("%%%sp%d = OpAccessChain %%pu32 %s %%c0 %%i", pre, vi, o)
		m.code("OpStore %%%sp%d %%%sw%d", pre, vi, pre, vi)
	}
}

// packedCodes returns the words a conversion's output buffer holds for result
// codes of format dst: four codes per word, 4- and 6-bit codes as the E4M3
// code of the same value.
func packedCodes(dst mx.Format, codes []uint8) []uint64 {
	var want []uint64
	for n := 0; n < len(codes); n += 4 {
		var w uint64
		for j := 0; j < 4; j++ {
			c := codes[n+j]
			if dst.Bits() != 8 {
				c = mx.E4M3.EncodeFloat64(dst.Decode(c), mx.RTE, false)
			}
			w |= uint64(c) << (8 * j)
		}
		want = append(want, w)
	}
	return want
}

// expectVariants writes the output buffers' EXPECTs for results codes[v][n]
// of format dst (n = input number).
func expectVariants(s *script, dst mx.Format, vs []variant, codes [][]uint8) {
	expectVariantsPrefix(s, "out_", dst, vs, codes)
}

func expectVariantsPrefix(s *script, prefix string, dst mx.Format, vs []variant, codes [][]uint8) {
	for vi, v := range vs {
		s.comment("", v.describe())
		s.expect(prefix+v.tag(), 4, 0, packedCodes(dst, codes[vi]))
	}
}

// encodeInputs returns the float32 inputs of the conversions into f: every
// value of the format (both zeros), the midpoints between neighbours and, for
// some, the float32 values next to them, the overflow boundary, huge values,
// ±Inf, float32 denormals, the underflow boundary and (where the policy
// defines it) NaN. They are sorted by bit pattern and deduplicated.
func encodeInputs(f mx.Format) []float32 {
	set := map[uint32]bool{}
	add := func(x float32) { set[math.Float32bits(x)] = true }
	addBoth := func(x float32) { add(x); add(-x) }
	if f == mx.E8M0 {
		// Every negative value gives 0xFF: a few (below) are enough.
		addBoth = add
	}
	near := func(x float32) {
		addBoth(x)
		addBoth(math.Nextafter32(x, float32(math.Inf(1))))
		addBoth(math.Nextafter32(x, 0))
	}
	var vals []float64 // positive finite values, ascending
	for c := 0; c < f.Codes(); c++ {
		v := f.Decode(uint8(c))
		if math.IsNaN(v) {
			continue
		}
		add(float32(v))
		if v >= 0 && !math.IsInf(v, 0) {
			vals = append(vals, v)
		}
	}
	sort.Float64s(vals)
	vals = dedup(vals)
	for i := 0; i+1 < len(vals); i++ {
		mid := float32((vals[i] + vals[i+1]) / 2)
		if f == mx.E8M0 {
			mid = float32(vals[i] * 1.5) // E8M0's rounding tie is 1.5·2^k
		}
		if i < 4 || i+4 >= len(vals) || i%16 == 0 {
			near(mid)
		} else {
			addBoth(mid)
		}
	}
	max, minSub := f.Max(), vals[0]
	if minSub == 0 {
		minSub = vals[1]
	}
	// The overflow boundary: half an ulp of the top binade above max (for
	// E8M0, the tie 1.5·2^127 between 2^127 and the missing 2^128).
	top := max - vals[len(vals)-2]
	if f == mx.E8M0 {
		top = max
	}
	near(float32(max + top/2))
	near(float32(max + top))
	for _, x := range []float64{2 * max, 1e30, math.MaxFloat32} {
		addBoth(float32(x))
	}
	addBoth(float32(math.Inf(1)))
	// Underflow: half the smallest step, around it, and float32 denormals.
	near(float32(minSub / 2))
	addBoth(float32(minSub / 4))
	addBoth(float32(minSub * 0.75))
	for _, b := range []uint32{1, 2, 0x0003FFFF, 0x00400000, 0x007FFFFF} {
		addBoth(math.Float32frombits(b))
	}
	addBoth(0)
	// NaN: FP8 and E8M0 define it; into E2M1, E2M3, E3M2 and MXINT8 it is
	// implementation-defined (MX-NUMERICS.md: do not assert it).
	if f.HasNaN() {
		add(math.Float32frombits(0x7FC00000))
		add(math.Float32frombits(0x7F800001)) // signalling
		if f == mx.E8M0 {
			add(math.Float32frombits(0xFFC00000))
		}
	}
	if f == mx.E8M0 {
		for _, x := range []float64{1, 3, 5, 7, 0.1, 1e-39, 6e-39, 1e30, math.MaxFloat32} {
			add(float32(x))
			add(float32(-x))
		}
		add(float32(math.Inf(-1)))
		add(float32(math.Copysign(0, -1)))
	}
	if f == mx.MXINT8 {
		for _, x := range []float64{-2, -2.0078125, 1.9921875, 1.984375 + 1.0/256, 3, 0.01, 1.0 / 128} {
			addBoth(float32(x))
		}
	}
	bits := make([]uint32, 0, len(set))
	for b := range set {
		bits = append(bits, b)
	}
	sort.Slice(bits, func(i, j int) bool { return bits[i] < bits[j] })
	xs := make([]float32, len(bits))
	for i, b := range bits {
		xs[i] = math.Float32frombits(b)
	}
	return xs
}

func dedup(v []float64) []float64 {
	out := v[:0]
	for i, x := range v {
		if i == 0 || x != v[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// policyNote says which expectations of conversions into f are spvx policy
// rather than spec rules.
func policyNote(f mx.Format) []string {
	switch f {
	case mx.E4M3, mx.E5M2:
		return []string{
			"SPV_EXT_float8 rules: out-of-range values and ±Inf give NaN (E4M3) or ±Inf (E5M2) without the",
			"saturation decoration and ±max with it; NaN stays NaN. spvx policy (MX-NUMERICS.md) where the",
			"text is silent: the range check applies to the value rounded in the requested mode on the format's",
			"unbounded grid (so RTZ of 500 into E4M3 is NaN without saturation, like ml_dtypes' truncation;",
			"IEEE would give 448: ambiguous, the out_rtz/rtp/rtn expectations for |x| above max), NaN keeps its sign",
			"(E4M3 0x7F, E5M2 0x7E).",
		}
	case mx.E8M0:
		return []string{
			"SPV_EXT_ocp_microscaling_types defines no conversion semantics (Issue 2): every expectation is",
			"spvx policy (ml_dtypes' rules, MX-NUMERICS.md): RTE rounds the exponent with ties (1.5·2^k) up,",
			"RTZ/RTN floor it, RTP ceils it; NaN, ±Inf, zero, negative values and overflow give 0xFF;",
			"positive values below 2^-127 give 0x00.",
		}
	default:
		return []string{
			"SPV_EXT_ocp_microscaling_types defines no conversion semantics (Issue 2): every expectation is",
			"spvx policy (MX-NUMERICS.md): the FPRoundingMode on the format's grid, finite overflow and ±Inf",
			fmt.Sprintf("saturate to ±max%s. NaN inputs are left out: their result is implementation-defined.",
				map[bool]string{true: " (MXINT8: to [-128, 127]/64, so -2.0 is produced)", false: ""}[f == mx.MXINT8]),
		}
	}
}

// mxEncodeScripts: OpFConvert from float32 into every format, in every mode.
func mxEncodeScripts() ([]*script, error) {
	var out []*script
	for _, f := range mx.Formats {
		name := fmt.Sprintf("mx_fconvert_f32_to_%s.amber", f)
		xs := encodeInputs(f)
		for len(xs)%(4*mxLocal) != 0 {
			xs = append(xs, 0)
		}
		vs := variantsFor(f)
		m := newMXModule()
		m.use(f)
		in := m.bind("v4")
		m.code("%%ip = OpAccessChain %%pv4 %s %%c0 %%i", in)
		m.code("%%iw = OpLoad %%v4u32 %%ip")
		m.code("%%x = OpBitcast %%v4f32 %%iw")
		convertVariants(m, f, "%x", vs)
		about := []string{
			fmt.Sprintf("OpFConvert from float32 to %s (%s), decorated with each FPRoundingMode%s.", f.SPIRVName(), f,
				map[bool]string{true: " and with none, each with and without SaturatedToLargestFloat8NormalConversionEXT", false: ""}[len(vs) > 4]),
			"Inputs (float32 bit patterns, four per invocation): every value of the format, midpoints between",
			"neighbours (and the float32 values next to some), the overflow boundary, huge values, ±Inf, float32",
			"denormals, the underflow boundary" + map[bool]string{true: ", NaN.", false: "."}[f.HasNaN()],
		}
		if f.Bits() == 8 {
			about = append(about, "Each out_* word packs the four result codes (OpBitcast of the v4 result).")
		} else {
			about = append(about, "Each result is widened to E4M3 (exact, and injective on the codes; 4- and 6-bit values have no",
				"integer to be bitcast to) and each out_* word packs the four E4M3 codes.")
		}
		about = append(about, "")
		about = append(about, policyNote(f)...)
		about = append(about, "Expected values: spvx/mx Format.EncodeFloat32(x, mode, saturate).")
		s := newScript(name, about...)
		s.summary = fmt.Sprintf("OpFConvert float32 → %s with FPRoundingMode RTE/RTZ/RTP/RTN%s over %d inputs (every value, midpoints, boundaries, overflow, ±Inf, denormals%s)",
			f, map[bool]string{true: " and undecorated, each with and without the saturation decoration", false: ""}[len(vs) > 4], len(xs), map[bool]string{true: ", NaN", false: ""}[f.HasNaN()])
		if f.Bits() == 8 {
			s.require(mxFeatures(f))
		} else {
			s.require(mxFeatures(f, mx.E4M3)) // the widening to E4M3
		}
		s.shader("convert", mxTarget, m.text(nil))
		var inWords []uint64
		for _, x := range xs {
			inWords = append(inWords, uint64(math.Float32bits(x)))
		}
		s.bufferData("in", "uint32", inWords)
		bindings := []string{"in"}
		for _, v := range vs {
			s.bufferZero("out_"+v.tag(), "uint32", len(xs)/4)
			bindings = append(bindings, "out_"+v.tag())
		}
		s.pipeline(pipeline{name: "pipe", shader: "convert", bindings: bindings})
		s.run("pipe", len(xs)/4/mxLocal)
		codes := make([][]uint8, len(vs))
		for vi, v := range vs {
			for _, x := range xs {
				codes[vi] = append(codes[vi], f.EncodeFloat32(x, v.mode, v.sat))
			}
		}
		expectVariants(s, f, vs, codes)
		out = append(out, s)
	}
	return out, nil
}

// mxNarrowScripts: OpFConvert between two narrow formats (source 8 bits, every
// code), into FP8 with every mode and the saturation decoration.
func mxNarrowScripts() ([]*script, error) {
	pairs := [][2]mx.Format{
		{mx.E4M3, mx.E5M2}, {mx.E5M2, mx.E4M3},
		{mx.E8M0, mx.E5M2}, {mx.MXINT8, mx.E4M3},
	}
	var out []*script
	for _, p := range pairs {
		src, dst := p[0], p[1]
		name := fmt.Sprintf("mx_fconvert_%s_to_%s.amber", src, dst)
		vs := shortVariantsFor(dst)
		m := newMXModule()
		m.use(src, dst)
		in := m.bind("u32")
		m.code("%%wp = OpAccessChain %%pu32 %s %%c0 %%i", in)
		m.code("%%w = OpLoad %%u32 %%wp")
		m.code("%%v = OpBitcast %%v4%s %%w", src)
		convertVariants(m, dst, "%v", vs)
		about := []string{
			fmt.Sprintf("OpFConvert from %s (%s) to %s (%s), for every source code, with each FPRoundingMode, and", src.SPIRVName(), src, dst.SPIRVName(), dst),
			"with none with and without SaturatedToLargestFloat8NormalConversionEXT. Word i holds codes 4i..4i+3;",
			"each out_* word packs the four result codes.",
			"",
			"The value is converted exactly once (the source decodes exactly). NaN sources give the",
			"target's NaN with the source's sign (spvx policy; the sign of a NaN is not meaningful).",
		}
		about = append(about, policyNote(dst)[:5]...)
		about = append(about, "Expected values: spvx/mx dst.EncodeFloat64(src.Decode(code), mode, saturate).")
		s := newScript(name, about...)
		s.summary = fmt.Sprintf("OpFConvert %s → %s for all 256 codes, RTE/RTZ/RTP/RTN, and undecorated with and without the saturation decoration", src, dst)
		s.require(mxFeatures(src, dst))
		s.shader("convert", mxTarget, m.text(nil))
		var words []uint64
		for c := 0; c < 256; c += 4 {
			words = append(words, uint64(c)|uint64(c+1)<<8|uint64(c+2)<<16|uint64(c+3)<<24)
		}
		s.bufferData("in", "uint32", words)
		bindings := []string{"in"}
		for _, v := range vs {
			s.bufferZero("out_"+v.tag(), "uint32", 64)
			bindings = append(bindings, "out_"+v.tag())
		}
		s.pipeline(pipeline{name: "pipe", shader: "convert", bindings: bindings})
		s.run("pipe", 64/mxLocal)
		codes := make([][]uint8, len(vs))
		for vi, v := range vs {
			for c := 0; c < 256; c++ {
				codes[vi] = append(codes[vi], dst.EncodeFloat64(src.Decode(uint8(c)), v.mode, v.sat))
			}
		}
		expectVariants(s, dst, vs, codes)
		out = append(out, s)
	}
	return out, nil
}
