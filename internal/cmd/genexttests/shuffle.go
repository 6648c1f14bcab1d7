package main

import (
	"encoding/binary"
	"fmt"
	"strings"

	"spvx/subgroup"
)

// shuffleRun is one pipeline of a bitcast-shuffle script: subgroup size N,
// local size L (a multiple of N, so every subgroup is full) and G workgroups.
type shuffleRun struct{ N, L, G int }

// shuffleRuns returns the REQUIRED_SIZEs a pair of the given total bits runs
// at. N = 1 is defined (a plain per-invocation bitcast). For pairs of up to 64
// bits most runs hold more than one subgroup per workgroup, or more than one
// workgroup, so that an executor that shuffles across a whole workgroup, or
// numbers invocations by their global id, fails; the wider pairs run one
// subgroup (N = 1: two) per workgroup at three sizes, and the 256- and 512-bit
// pairs stop at N = 16, to keep the scripts a reasonable size.
func shuffleRuns(bits int) []shuffleRun {
	switch bits {
	case 16, 32:
		return []shuffleRun{{1, 4, 1}, {4, 8, 2}, {8, 16, 1}, {16, 32, 1}, {32, 32, 1}}
	case 64:
		return []shuffleRun{{1, 4, 1}, {4, 8, 2}, {16, 16, 1}, {32, 32, 1}}
	case 128:
		return []shuffleRun{{1, 2, 1}, {8, 8, 1}, {32, 32, 1}}
	case 256:
		return []shuffleRun{{1, 2, 1}, {4, 4, 1}, {16, 16, 1}}
	default:
		return []shuffleRun{{1, 2, 1}, {8, 8, 1}, {16, 16, 1}}
	}
}

// supportedPairs returns the 40 directed pairs of the Supported Types table,
// found by asking subgroup.CheckSupported about every unsigned integer scalar
// and 2/4/8/16-vector of width 8..64, in a fixed order (by total bits, then
// source, then destination).
func supportedPairs() ([][2]subgroup.Type, error) {
	var types []subgroup.Type
	for _, w := range []int{8, 16, 32, 64} {
		for _, c := range []int{1, 2, 4, 8, 16} {
			types = append(types, subgroup.U(w, c))
		}
	}
	var pairs [][2]subgroup.Type
	for _, bits := range []int{16, 32, 64, 128, 256, 512} {
		for _, s := range types {
			for _, d := range types {
				if s.Bits() == bits && subgroup.CheckSupported(s, d) == nil {
					pairs = append(pairs, [2]subgroup.Type{s, d})
				}
			}
		}
	}
	if len(pairs) != 40 {
		return nil, fmt.Errorf("Supported Types table has %d directed pairs, want 40", len(pairs))
	}
	return pairs, nil
}

// tname is the SPIR-V id name of an unsigned integer type: %u32, %v4u8.
func tname(t subgroup.Type) string {
	if t.Components == 1 {
		return fmt.Sprintf("%%u%d", t.Width)
	}
	return fmt.Sprintf("%%v%du%d", t.Components, t.Width)
}

// memLayout says how one invocation's T bits sit in a storage buffer: as one
// element of type mem (T ≤ 128) or k consecutive v4u32 (T = 256, 512).
// Everything is 32-bit words except T = 16, which is one uint16.
func memLayout(bits int) (mem subgroup.Type, k int) {
	switch {
	case bits == 16:
		return subgroup.U(16, 1), 1
	case bits == 32:
		return subgroup.U(32, 1), 1
	case bits == 64:
		return subgroup.U(32, 2), 1
	default:
		return subgroup.U(32, 4), bits / 128
	}
}

// shuffleShader returns the shader moving each invocation's value of type src
// through OpSubgroupBitcastShuffleINTEL to type dst. The local size is the
// spec constant SpecId 0 (default 32) on the WorkgroupSize built-in, so one
// shader serves every REQUIRED_SIZE. Invocation data index:
// WorkgroupId.x·L + SubgroupId·SubgroupSize + SubgroupLocalInvocationId,
// since Vulkan leaves the mapping of local invocations to subgroups to the
// implementation.
func shuffleShader(src, dst subgroup.Type) string {
	bits := src.Bits()
	mem, k := memLayout(bits)
	whole := subgroup.U(32, 4*k) // the k loads concatenated (k > 1)
	if k == 1 {
		whole = mem
	}
	widths := map[int]bool{32: true, src.Width: true, dst.Width: true, mem.Width: true}
	long := src.Components > 4 || dst.Components > 4 || whole.Components > 4

	var b strings.Builder
	w := func(f string, a ...any) { fmt.Fprintf(&b, f+"\n", a...) }
	w("OpCapability Shader")
	w("OpCapability GroupNonUniform")
	w("OpCapability SubgroupBitcastShuffleINTEL")
	if widths[8] {
		w("OpCapability Int8")
	}
	if widths[16] {
		w("OpCapability Int16")
	}
	if widths[64] {
		w("OpCapability Int64")
	}
	if bits == 16 {
		w("OpCapability StorageBuffer16BitAccess")
	}
	if long {
		w("OpCapability LongVectorEXT")
	}
	w(`OpExtension "SPV_INTEL_subgroup_bitcast_shuffle"`)
	if long {
		w(`OpExtension "SPV_EXT_long_vector"`)
	}
	w("OpMemoryModel Logical GLSL450")
	w(`OpEntryPoint GLCompute %%main "main" %%wgid %%sgid %%sgsize %%sglid`)
	w("OpDecorate %%wgsize BuiltIn WorkgroupSize")
	w("OpDecorate %%lsx SpecId 0")
	w("OpDecorate %%wgid BuiltIn WorkgroupId")
	w("OpDecorate %%sgid BuiltIn SubgroupId")
	w("OpDecorate %%sgsize BuiltIn SubgroupSize")
	w("OpDecorate %%sglid BuiltIn SubgroupLocalInvocationId")
	w("OpDecorate %%arr ArrayStride %d", mem.Bits()/8)
	w("OpDecorate %%blk Block")
	w("OpMemberDecorate %%blk 0 Offset 0")
	w("OpDecorate %%in DescriptorSet 0")
	w("OpDecorate %%in Binding 0")
	w("OpDecorate %%out DescriptorSet 0")
	w("OpDecorate %%out Binding 1")
	w("%%void = OpTypeVoid")
	w("%%fn = OpTypeFunction %%void")
	for _, width := range []int{8, 16, 32, 64} {
		if widths[width] {
			w("%%u%d = OpTypeInt %d 0", width, width)
		}
	}
	declared := map[string]bool{"%u32": true, "%u8": true, "%u16": true, "%u64": true}
	vec := func(t subgroup.Type) {
		n := tname(t)
		if !declared[n] {
			declared[n] = true
			w("%s = OpTypeVector %%u%d %d", n, t.Width, t.Components)
		}
	}
	vec(subgroup.U(32, 3))
	for _, t := range []subgroup.Type{src, dst, mem, whole} {
		vec(t)
	}
	if k == 4 {
		vec(subgroup.U(32, 8)) // the two halves of the concatenation
	}
	w("%%pin = OpTypePointer Input %%u32")
	w("%%pin3 = OpTypePointer Input %%v3u32")
	w("%%arr = OpTypeRuntimeArray %s", tname(mem))
	w("%%blk = OpTypeStruct %%arr")
	w("%%pblk = OpTypePointer StorageBuffer %%blk")
	w("%%pmem = OpTypePointer StorageBuffer %s", tname(mem))
	w("%%c0 = OpConstant %%u32 0")
	w("%%c1 = OpConstant %%u32 1")
	if k > 1 {
		w("%%ck = OpConstant %%u32 %d", k)
		for j := 1; j < k; j++ {
			w("%%j%d = OpConstant %%u32 %d", j, j)
		}
	}
	w("%%lsx = OpSpecConstant %%u32 32")
	w("%%wgsize = OpSpecConstantComposite %%v3u32 %%lsx %%c1 %%c1")
	w("%%wgid = OpVariable %%pin3 Input")
	w("%%sgid = OpVariable %%pin Input")
	w("%%sgsize = OpVariable %%pin Input")
	w("%%sglid = OpVariable %%pin Input")
	w("%%in = OpVariable %%pblk StorageBuffer")
	w("%%out = OpVariable %%pblk StorageBuffer")
	w("%%main = OpFunction %%void None %%fn")
	w("%%entry = OpLabel")
	w("%%wg = OpLoad %%v3u32 %%wgid")
	w("%%wgx = OpCompositeExtract %%u32 %%wg 0")
	w("%%base = OpIMul %%u32 %%wgx %%lsx")
	w("%%sg = OpLoad %%u32 %%sgid")
	w("%%sgn = OpLoad %%u32 %%sgsize")
	w("%%lane = OpLoad %%u32 %%sglid")
	w("%%sgbase = OpIMul %%u32 %%sg %%sgn")
	w("%%inv = OpIAdd %%u32 %%sgbase %%lane")
	w("%%idx = OpIAdd %%u32 %%base %%inv")
	elem := func(j int) string { // element index of load j
		if k == 1 {
			return "%idx"
		}
		if j == 0 {
			return "%e0"
		}
		return fmt.Sprintf("%%e%d", j)
	}
	if k > 1 {
		w("%%e0 = OpIMul %%u32 %%idx %%ck")
		for j := 1; j < k; j++ {
			w("%%e%d = OpIAdd %%u32 %%e0 %%j%d", j, j)
		}
	}
	for j := 0; j < k; j++ {
		w("%%pi%d = OpAccessChain %%pmem %%in %%c0 %s", j, elem(j))
		w("%%ld%d = OpLoad %s %%pi%d", j, tname(mem), j)
	}
	cur := "%ld0"
	switch k {
	case 2:
		w("%%all = OpVectorShuffle %%v8u32 %%ld0 %%ld1 0 1 2 3 4 5 6 7")
		cur = "%all"
	case 4:
		w("%%lo = OpVectorShuffle %%v8u32 %%ld0 %%ld1 0 1 2 3 4 5 6 7")
		w("%%hi = OpVectorShuffle %%v8u32 %%ld2 %%ld3 0 1 2 3 4 5 6 7")
		w("%%all = OpVectorShuffle %%v16u32 %%lo %%hi 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15")
		cur = "%all"
	}
	if tname(src) != tname(whole) {
		w("%%x = OpBitcast %s %s", tname(src), cur)
		cur = "%x"
	}
	w("%%r = OpSubgroupBitcastShuffleINTEL %s %s", tname(dst), cur)
	res := "%r"
	if tname(dst) != tname(whole) {
		w("%%rw = OpBitcast %s %%r", tname(whole))
		res = "%rw"
	}
	for j := 0; j < k; j++ {
		part := res
		if k > 1 {
			part = fmt.Sprintf("%%st%d", j)
			w("%s = OpVectorShuffle %%v4u32 %s %s %d %d %d %d", part, res, res, 4*j, 4*j+1, 4*j+2, 4*j+3)
		}
		w("%%po%d = OpAccessChain %%pmem %%out %%c0 %s", j, elem(j))
		w("OpStore %%po%d %s", j, part)
	}
	w("OpReturn")
	w("OpFunctionEnd")
	return b.String()
}

// shuffleFeatures lists the Amber device features a pair's shader needs.
func shuffleFeatures(src, dst subgroup.Type) []string {
	f := []string{"SubgroupSizeControl.subgroupSizeControl", "SubgroupSizeControl.computeFullSubgroups"}
	has := func(w int) bool { return src.Width == w || dst.Width == w }
	if has(8) {
		f = append(f, "Float16Int8Features.shaderInt8")
	}
	if has(16) {
		f = append(f, "shaderInt16")
	}
	if has(64) {
		f = append(f, "shaderInt64")
	}
	if src.Bits() == 16 {
		f = append(f, "Storage16BitFeatures.storageBuffer16BitAccess")
	}
	if src.Components > 4 || dst.Components > 4 || src.Bits() > 128 {
		f = append(f, "ShaderLongVectorFeaturesEXT.longVector")
	}
	return f
}

// words splits packed little-endian bytes into buffer elements of the given
// byte size (2 or 4).
func words(b []byte, size int) []uint64 {
	out := make([]uint64, len(b)/size)
	for i := range out {
		if size == 2 {
			out[i] = uint64(binary.LittleEndian.Uint16(b[2*i:]))
		} else {
			out[i] = uint64(binary.LittleEndian.Uint32(b[4*i:]))
		}
	}
	return out
}

// shuffleBuffers writes the input buffer (the packed bytes in) and a zeroed
// output buffer of the same size, and returns their element size in bytes.
func shuffleBuffers(s *script, inName, outName string, src subgroup.Type, in []byte) int {
	elemBytes, typ := 4, "uint32"
	if src.Bits() == 16 {
		elemBytes, typ = 2, "uint16"
	}
	s.bufferData(inName, typ, words(in, elemBytes))
	s.bufferZero(outName, typ, len(in)/elemBytes)
	return elemBytes
}

// addShuffleRun writes the pipeline, RUN and EXPECTs of one run of pair src →
// dst over the first G·L invocations' values of the input in (packed bytes, one
// T-bit value per invocation), with expected values from
// subgroup.BitcastShuffleBytes. Runs of one script share their buffers: each
// RUN is checked before the next overwrites the output, and consecutive runs
// differ in subgroup size, so their expected values differ too.
func addShuffleRun(s *script, shaderName, tag, inName, outName string, elemBytes int, src, dst subgroup.Type, r shuffleRun, in []byte) {
	n := r.G * r.L * src.Bits() / 8
	if len(in) < n {
		s.fail("run %s: %d input bytes, want %d", tag, len(in), n)
		return
	}
	in = in[:n]
	want := make([]byte, len(in))
	if err := subgroup.BitcastShuffleBytes(want, in, src, dst, r.N); err != nil {
		s.fail("run %s: %v", tag, err)
		return
	}
	pipe := "pipe_" + tag
	s.pipeline(pipeline{
		name: pipe, shader: shaderName, subgroupSize: r.N,
		specialize: [][2]uint32{{0, uint32(r.L)}},
		bindings:   []string{inName, outName},
	})
	s.comment(fmt.Sprintf("SubgroupSize %d, local size %d, %d workgroup(s).", r.N, r.L, r.G))
	s.run(pipe, r.G)
	s.expect(outName, elemBytes, 0, words(want, elemBytes))
}

func fileType(t subgroup.Type) string {
	if t.Components == 1 {
		return fmt.Sprintf("u%d", t.Width)
	}
	return fmt.Sprintf("%dxu%d", t.Components, t.Width)
}

func shufflePairs() ([]*script, error) {
	pairs, err := supportedPairs()
	if err != nil {
		return nil, err
	}
	var out []*script
	for pi, p := range pairs {
		src, dst := p[0], p[1]
		name := fmt.Sprintf("bitcast_shuffle_%s_to_%s.amber", fileType(src), fileType(dst))
		s := newScript(name,
			fmt.Sprintf("SPV_INTEL_subgroup_bitcast_shuffle: OpSubgroupBitcastShuffleINTEL from %s to %s (Supported Types", src, dst),
			fmt.Sprintf("table) at REQUIRED_SIZE %s, fully populated. Layout and index: see README.md.", runSizes(src.Bits())),
			"Expected values: spvx/subgroup.BitcastShuffleBytes.")
		s.summary = fmt.Sprintf("OpSubgroupBitcastShuffleINTEL %s → %s at SubgroupSize %s", src, dst, runSizes(src.Bits()))
		s.require(shuffleFeatures(src, dst), nil)
		s.shader("shuffle", "spv1.3", shuffleShader(src, dst))
		rg := rng(0x5eed0000 + uint64(pi))
		most := 0
		for _, r := range shuffleRuns(src.Bits()) {
			most = max(most, r.G*r.L)
		}
		in := make([]byte, most*src.Bits()/8)
		for i := 0; i < len(in); i += 8 {
			var w [8]byte
			binary.LittleEndian.PutUint64(w[:], rg.next())
			copy(in[i:], w[:])
		}
		eb := shuffleBuffers(s, "in", "out", src, in)
		for _, r := range shuffleRuns(src.Bits()) {
			addShuffleRun(s, "shuffle", fmt.Sprintf("n%d", r.N), "in", "out", eb, src, dst, r, in)
		}
		out = append(out, s)
	}
	return out, nil
}

// specExample is one of the four examples of the extension's text.
type specExample struct {
	tag      string
	src, dst subgroup.Type
	n        int
	about    string
}

var specExamples = []specExample{
	{"u32_to_2xu16", subgroup.U(32, 1), subgroup.U(16, 2), 8, "32-bit Scalar to Vector of 16-bit Data (subgroup size 8): operand 0|1, 2|3, ...; result <0,8>, <1,9>, ..."},
	{"2xu16_to_u32", subgroup.U(16, 2), subgroup.U(32, 1), 8, "Vector of 16-bit Data to 32-bit Scalar (subgroup size 8): operand <0,1>, <2,3>, ...; result 0|2, 4|6, ..., 1|3, ..."},
	{"u32_to_4xu8", subgroup.U(32, 1), subgroup.U(8, 4), 4, "32-bit Scalar to Vector of 8-bit Data (subgroup size 4): operand 0|1|2|3, ...; result <0,4,8,12>, ..."},
	{"4xu8_to_u32", subgroup.U(8, 4), subgroup.U(32, 1), 4, "Vector of 8-bit Data to 32-bit Scalar (subgroup size 4): operand <0,1,2,3>, ...; result 0|4|8|12, ..."},
}

// specExampleInput is the operand of an example as packed bytes: the
// numbers 0, 1, 2, ... in consecutive components of the element width
// (16-bit pieces for the first two examples, bytes for the last two).
func specExampleInput(e specExample) []byte {
	piece := min(e.src.Width, e.dst.Width)
	total := e.n * e.src.Bits() / piece
	b := make([]byte, e.n*e.src.Bits()/8)
	for v := 0; v < total; v++ {
		if piece == 16 {
			binary.LittleEndian.PutUint16(b[2*v:], uint16(v))
		} else {
			b[v] = byte(v)
		}
	}
	return b
}

func shuffleSpecExamples() ([]*script, error) {
	s := newScript("bitcast_shuffle_spec_examples.amber",
		"SPV_INTEL_subgroup_bitcast_shuffle: the four examples of the extension's text, one kernel each,",
		"with the operands the text gives, at the subgroup size it gives (one full subgroup per run).",
		"Expected values: spvx/subgroup.BitcastShuffleBytes (a test checks them against the text).")
	s.summary = "the four examples of the SPV_INTEL_subgroup_bitcast_shuffle text (u32 ↔ 2xu16 at N = 8, u32 ↔ 4xu8 at N = 4), checked against the printed results"
	s.require(shuffleFeatures(subgroup.U(8, 4), subgroup.U(16, 2)), nil)
	for _, e := range specExamples {
		s.comment("", "Example: "+e.about)
		name := "ex_" + e.tag
		s.shader(name, "spv1.3", shuffleShader(e.src, e.dst))
		in := specExampleInput(e)
		eb := shuffleBuffers(s, "in_"+e.tag, "out_"+e.tag, e.src, in)
		addShuffleRun(s, name, e.tag, "in_"+e.tag, "out_"+e.tag, eb, e.src, e.dst, shuffleRun{N: e.n, L: e.n, G: 1}, in)
	}
	return []*script{s}, nil
}

func runSizes(bits int) string {
	var ns []string
	for _, r := range shuffleRuns(bits) {
		ns = append(ns, fmt.Sprint(r.N))
	}
	return strings.Join(ns, ", ")
}
