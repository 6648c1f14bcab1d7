package main

import (
	"fmt"
	"math"
	"strings"

	"spvx/mx"
)

// extractCase is one OpBitcastExtractEXT of the bitcast-extract script.
type extractCase struct {
	about string
	// base: which input the Base is built from and its bit width.
	base     string // "w0".."w3" (u32), "u64" (w1 | w2<<32), "v2u16" (w3), "f32" (w0)
	baseBits int
	// offset: a constant, or the invocation's dynamic offset d plus add.
	offset  int
	dynamic bool
	// result: an integer width (8, 16) or a format.
	resInt int
	resFmt mx.Format
}

var extractCases = []extractCase{
	{about: "u16 from u32 at Offset 16 (Offset + 16 = 32: the top field)", base: "w0", baseBits: 32, offset: 16, resInt: 16},
	{about: "u8 from u32 at Offset 5, the Offset an int32 constant (read as unsigned)", base: "w0", baseBits: 32, offset: 5, resInt: 8},
	{about: "E2M1 from u64 at Offset 60 (the top nibble)", base: "u64", baseBits: 64, offset: 60, resFmt: mx.E2M1},
	{about: "E2M1 from u64 at Offset 30 (across the two 32-bit halves)", base: "u64", baseBits: 64, offset: 30, resFmt: mx.E2M1},
	{about: "v2 E3M2 from v2u16 at Offset 10 (per component; Offset + 6 = 16)", base: "v2u16", baseBits: 16, offset: 10, resFmt: mx.E3M2},
	{about: "E2M3 from a float32 Base at Offset 26 (its sign and top exponent bits)", base: "f32", baseBits: 32, offset: 26, resFmt: mx.E2M3},
	{about: "E4M3 from u32 at Offset 13", base: "w1", baseBits: 32, offset: 13, resFmt: mx.E4M3},
	{about: "E8M0 from u32 at Offset 24", base: "w2", baseBits: 32, offset: 24, resFmt: mx.E8M0},
	{about: "MXINT8 from u32 at Offset 0", base: "w3", baseBits: 32, offset: 0, resFmt: mx.MXINT8},
	{about: "E2M1 from u32 at the dynamic int32 Offset d (d = 7i mod 27, so 0..26)", base: "w2", baseBits: 32, offset: 0, dynamic: true, resFmt: mx.E2M1},
	{about: "E3M2 from u32 at the dynamic Offset d (d + 6 ≤ 32 holds up to d = 26)", base: "w3", baseBits: 32, offset: 0, dynamic: true, resFmt: mx.E3M2},
	{about: "u8 from u64 at the dynamic Offset d + 28", base: "u64", baseBits: 64, offset: 28, dynamic: true, resInt: 8},
}

const extractInvocations = 16

// extractWidth is the result component width of a case.
func (c extractCase) width() int {
	if c.resInt != 0 {
		return c.resInt
	}
	return c.resFmt.Bits()
}

// results is the number of output words of a case (2 for the v2 case).
func (c extractCase) results() int {
	if c.base == "v2u16" {
		return 2
	}
	return 1
}

func bitcastExtractScripts() ([]*script, error) {
	var b strings.Builder
	w := func(f string, a ...any) { fmt.Fprintf(&b, f+"\n", a...) }
	w("OpCapability Shader")
	w("OpCapability Int8")
	w("OpCapability Int16")
	w("OpCapability Int64")
	w("OpCapability Float8EXT")
	w("OpCapability Float4EXT")
	w("OpCapability Float6EXT")
	w("OpCapability Float8UnsignedE8M0EXT")
	w("OpCapability MXInt8EXT")
	w("OpCapability BitcastExtractEXT")
	w(`OpExtension "SPV_EXT_float8"`)
	w(`OpExtension "SPV_EXT_ocp_microscaling_types"`)
	w("OpMemoryModel Logical GLSL450")
	w(`OpEntryPoint GLCompute %%main "main" %%gid`)
	w("OpExecutionMode %%main LocalSize %d 1 1", extractInvocations)
	w("OpDecorate %%gid BuiltIn GlobalInvocationId")
	w("OpDecorate %%au32 ArrayStride 4")
	w("OpDecorate %%ai32 ArrayStride 4")
	w("OpDecorate %%bu32 Block")
	w("OpMemberDecorate %%bu32 0 Offset 0")
	w("OpDecorate %%bi32 Block")
	w("OpMemberDecorate %%bi32 0 Offset 0")
	for i, v := range []string{"%in", "%offs", "%out"} {
		w("OpDecorate %s DescriptorSet 0", v)
		w("OpDecorate %s Binding %d", v, i)
	}
	w("%%void = OpTypeVoid")
	w("%%fn = OpTypeFunction %%void")
	w("%%u8 = OpTypeInt 8 0")
	w("%%u16 = OpTypeInt 16 0")
	w("%%u32 = OpTypeInt 32 0")
	w("%%i32 = OpTypeInt 32 1")
	w("%%u64 = OpTypeInt 64 0")
	w("%%f32 = OpTypeFloat 32")
	w("%%v2u16 = OpTypeVector %%u16 2")
	w("%%v2u32 = OpTypeVector %%u32 2")
	w("%%v3u32 = OpTypeVector %%u32 3")
	w("%%v2f32 = OpTypeVector %%f32 2")
	for _, f := range []mx.Format{mx.E2M1, mx.E2M3, mx.E3M2, mx.E4M3, mx.E8M0, mx.MXINT8} {
		w("%s = OpTypeFloat %d %s", fmtName(f), f.Bits(), f.SPIRVName())
	}
	w("%%v2e3m2 = OpTypeVector %%e3m2 2")
	w("%%pin3 = OpTypePointer Input %%v3u32")
	w("%%au32 = OpTypeRuntimeArray %%u32")
	w("%%ai32 = OpTypeRuntimeArray %%i32")
	w("%%bu32 = OpTypeStruct %%au32")
	w("%%bi32 = OpTypeStruct %%ai32")
	w("%%pbu32 = OpTypePointer StorageBuffer %%bu32")
	w("%%pbi32 = OpTypePointer StorageBuffer %%bi32")
	w("%%pu32 = OpTypePointer StorageBuffer %%u32")
	w("%%pi32 = OpTypePointer StorageBuffer %%i32")
	outs := 0
	for _, c := range extractCases {
		outs += c.results()
	}
	w("%%c0 = OpConstant %%u32 0")
	for k := 1; k < max(outs, 4); k++ {
		w("%%c%d = OpConstant %%u32 %d", k, k)
	}
	w("%%cR = OpConstant %%u32 %d", outs)
	w("%%s5 = OpConstant %%i32 5")
	offConst := map[int]bool{}
	for _, c := range extractCases {
		if c.offset != 0 && c.offset != 5 && !offConst[c.offset] {
			offConst[c.offset] = true
			w("%%o%d = OpConstant %%u32 %d", c.offset, c.offset)
		}
	}
	w("%%gid = OpVariable %%pin3 Input")
	w("%%in = OpVariable %%pbu32 StorageBuffer")
	w("%%offs = OpVariable %%pbi32 StorageBuffer")
	w("%%out = OpVariable %%pbu32 StorageBuffer")
	w("%%main = OpFunction %%void None %%fn")
	w("%%entry = OpLabel")
	w("%%g = OpLoad %%v3u32 %%gid")
	w("%%i = OpCompositeExtract %%u32 %%g 0")
	w("%%i4 = OpIMul %%u32 %%i %%c4")
	for k := 0; k < 4; k++ {
		w("%%a%d = OpIAdd %%u32 %%i4 %%c%d", k, k)
		w("%%p%d = OpAccessChain %%pu32 %%in %%c0 %%a%d", k, k)
		w("%%w%d = OpLoad %%u32 %%p%d", k, k)
	}
	w("%%pair = OpCompositeConstruct %%v2u32 %%w1 %%w2")
	w("%%u64v = OpBitcast %%u64 %%pair")
	w("%%v2u16v = OpBitcast %%v2u16 %%w3")
	w("%%f32v = OpBitcast %%f32 %%w0")
	w("%%dp = OpAccessChain %%pi32 %%offs %%c0 %%i")
	w("%%d = OpLoad %%i32 %%dp")
	w("%%d28 = OpIAdd %%u32 %%d %%o28") // OpIAdd allows operands of either signedness
	w("%%ir = OpIMul %%u32 %%i %%cR")
	base := map[string]string{"w0": "%w0", "w1": "%w1", "w2": "%w2", "w3": "%w3", "u64": "%u64v", "v2u16": "%v2u16v", "f32": "%f32v"}
	r := 0
	for ci, c := range extractCases {
		off := fmt.Sprintf("%%o%d", c.offset)
		switch {
		case c.dynamic && c.offset == 0:
			off = "%d"
		case c.dynamic:
			off = fmt.Sprintf("%%d%d", c.offset)
		case c.offset == 0:
			off = "%c0"
		case c.offset == 5:
			off = "%s5"
		}
		var rt string
		switch {
		case c.resInt != 0:
			rt = fmt.Sprintf("%%u%d", c.resInt)
		case c.base == "v2u16":
			rt = "%v2" + c.resFmt.String()
		default:
			rt = fmtName(c.resFmt)
		}
		x := fmt.Sprintf("%%x%d", ci)
		w("%s = OpBitcastExtractEXT %s %s %s", x, rt, base[c.base], off)
		var vals []string // u32 words to store
		switch {
		case c.resInt != 0:
			w("%%y%d = OpUConvert %%u32 %s", ci, x)
			vals = append(vals, fmt.Sprintf("%%y%d", ci))
		case c.resFmt.Bits() == 8:
			w("%%z%d = OpBitcast %%u8 %s", ci, x)
			w("%%y%d = OpUConvert %%u32 %%z%d", ci, ci)
			vals = append(vals, fmt.Sprintf("%%y%d", ci))
		case c.base == "v2u16":
			w("%%z%d = OpFConvert %%v2f32 %s", ci, x)
			w("%%y%d = OpBitcast %%v2u32 %%z%d", ci, ci)
			for k := 0; k < 2; k++ {
				w("%%y%d_%d = OpCompositeExtract %%u32 %%y%d %d", ci, k, ci, k)
				vals = append(vals, fmt.Sprintf("%%y%d_%d", ci, k))
			}
		default:
			w("%%z%d = OpFConvert %%f32 %s", ci, x)
			w("%%y%d = OpBitcast %%u32 %%z%d", ci, ci)
			vals = append(vals, fmt.Sprintf("%%y%d", ci))
		}
		for _, v := range vals {
			w("%%q%d = OpIAdd %%u32 %%ir %%c%d", r, r)
			w("%%qp%d = OpAccessChain %%pu32 %%out %%c0 %%q%d", r, r)
			w("OpStore %%qp%d %s", r, v)
			r++
		}
	}
	w("OpReturn")
	w("OpFunctionEnd")
	shader := b.String()
	// %c0 is declared; %c<r> for r < outs are the per-result constants. The
	// offset constant %o28 doubles as the dynamic case's addend.
	if !offConst[28] {
		return nil, fmt.Errorf("bitcast extract: no constant 28")
	}

	about := []string{
		"SPV_EXT_ocp_microscaling_types: OpBitcastExtractEXT. Result = bits [Offset, Offset + W - 1] of each",
		"Base component, W the Result component width, reinterpreted as the Result type. Invocation i reads",
		"words w0..w3 = in[4i..4i+3] and the int32 d = offs[i], and writes one word per result to",
		fmt.Sprintf("out[%d·i + r]: integer results zero-extended, 8-bit floats as their code (OpBitcast to u8,", outs),
		"OpUConvert), 4- and 6-bit floats widened to float32 bits (exact; these formats have no NaN).",
		"Every Offset keeps Offset + W within the Base width (the result is undefined beyond).",
		"Results, in order:",
	}
	for k, c := range extractCases {
		about = append(about, fmt.Sprintf("  %d. %s", k, c.about))
	}
	about = append(about, "Expected values: bit extraction in Go, spvx/mx Format.DecodeFloat32 for the float results.")
	s := newScript("mx_bitcast_extract.amber", about...)
	s.summary = fmt.Sprintf("OpBitcastExtractEXT: %d cases (integer, FP4, FP6, FP8, E8M0, MXINT8 results; u32, u64, v2u16 and float32 bases; constant, boundary and dynamic int32 offsets)", len(extractCases))
	s.require([]string{"shaderInt16", "shaderInt64", "Float16Int8Features.shaderInt8"},
		[]string{"VK_EXT_shader_float8", "VK_EXT_shader_ocp_microscaling_types"})
	s.shader("extract", mxTarget, shader)
	rg := rng(0xb17ca57)
	var in, offs []uint64
	for i := 0; i < 4*extractInvocations; i++ {
		in = append(in, rg.next()&0xFFFFFFFF)
	}
	// The dynamic cases share d; take the smallest limit so each is valid.
	limit := 64
	for _, c := range extractCases {
		if c.dynamic {
			limit = min(limit, c.baseBits-c.width()-c.offset)
		}
	}
	if limit != 26 {
		return nil, fmt.Errorf("bitcast extract: dynamic offset limit %d, the case texts say 26", limit)
	}
	for i := 0; i < extractInvocations; i++ {
		offs = append(offs, uint64((i*7)%(limit+1)))
	}
	var want []uint64
	for i := 0; i < extractInvocations; i++ {
		wd := in[4*i : 4*i+4]
		for _, c := range extractCases {
			var bases []uint64
			switch c.base {
			case "w0", "f32":
				bases = []uint64{wd[0]}
			case "w1":
				bases = []uint64{wd[1]}
			case "w2":
				bases = []uint64{wd[2]}
			case "w3":
				bases = []uint64{wd[3]}
			case "u64":
				bases = []uint64{wd[1] | wd[2]<<32}
			case "v2u16":
				bases = []uint64{wd[3] & 0xFFFF, wd[3] >> 16}
			}
			off := c.offset
			if c.dynamic {
				off += int(offs[i])
			}
			if off+c.width() > c.baseBits {
				return nil, fmt.Errorf("bitcast extract: case %q invalid offset %d", c.about, off)
			}
			for _, bv := range bases {
				bits := bv >> off & (1<<c.width() - 1)
				if c.resFmt != 0 && c.resFmt.Bits() < 8 {
					bits = uint64(math.Float32bits(c.resFmt.DecodeFloat32(uint8(bits))))
				}
				want = append(want, bits)
			}
		}
	}
	s.bufferData("in", "uint32", in)
	s.bufferData("offs", "int32", offs)
	s.bufferZero("out", "uint32", len(want))
	s.pipeline(pipeline{name: "pipe", shader: "extract", bindings: []string{"in", "offs", "out"}})
	s.run("pipe", 1)
	for i := 0; i < extractInvocations; i++ {
		s.expect("out", 4, i*outs, want[i*outs:(i+1)*outs])
	}
	return []*script{s}, nil
}
