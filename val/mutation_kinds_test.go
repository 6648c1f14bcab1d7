package val

import (
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"spvx/spirv"
)

// currentKinds are mutations of the families that came after 2023.1
// (FP8/OCP types and their conversion, instruction and decoration
// rules), judged only by the current-spirv-val differential: 2023.1's
// assembler does not know their operands, and TestMutationDifferential's
// set stays as triaged.
var currentKinds = []string{
	"fpencoding", // change an OpTypeFloat's width and FP encoding, declaring what the encoding needs
	"opcode",     // replace an instruction by another of the same shape
	"fpdecorate", // decorate a result with a float-control decoration
}

// floatTypes are the (width, encoding) pairs "fpencoding" picks from:
// every encoding at its width, and widths no encoding allows.
var floatTypes = [][2]string{
	{"16", ""}, {"32", ""}, {"64", ""}, {"16", "BFloat16KHR"},
	{"8", "Float8E4M3EXT"}, {"8", "Float8E5M2EXT"}, {"6", "Float6E2M3EXT"}, {"6", "Float6E3M2EXT"},
	{"4", "Float4E2M1EXT"}, {"8", "Float8UnsignedE8M0EXT"}, {"8", "MXInt8EXT"},
	{"8", ""}, {"16", "Float8E4M3EXT"}, {"32", "Float4E2M1EXT"},
}

// encodingNeeds is the capability and extension of each FP encoding.
var encodingNeeds = map[string][2]string{
	"BFloat16KHR":           {"BFloat16TypeKHR", "SPV_KHR_bfloat16"},
	"Float8E4M3EXT":         {"Float8EXT", "SPV_EXT_float8"},
	"Float8E5M2EXT":         {"Float8EXT", "SPV_EXT_float8"},
	"Float6E2M3EXT":         {"Float6EXT", "SPV_EXT_ocp_microscaling_types"},
	"Float6E3M2EXT":         {"Float6EXT", "SPV_EXT_ocp_microscaling_types"},
	"Float4E2M1EXT":         {"Float4EXT", "SPV_EXT_ocp_microscaling_types"},
	"Float8UnsignedE8M0EXT": {"Float8UnsignedE8M0EXT", "SPV_EXT_ocp_microscaling_types"},
	"MXInt8EXT":             {"MXInt8EXT", "SPV_EXT_ocp_microscaling_types"},
}

// sameShape are opcodes "opcode" swaps within a group: same operands
// (a result type and one or two ids), other rules.
var sameShape = [][]string{
	{"OpFConvert", "OpConvertFToU", "OpConvertFToS", "OpConvertUToF", "OpConvertSToF", "OpBitcast",
		"OpUConvert", "OpSConvert", "OpFNegate", "OpSNegate", "OpNot", "OpQuantizeToF16"},
	{"OpFAdd", "OpFSub", "OpFMul", "OpFDiv", "OpFRem", "OpFMod", "OpIAdd", "OpISub", "OpIMul",
		"OpUDiv", "OpSDiv", "OpBitwiseAnd", "OpBitwiseOr", "OpShiftLeftLogical"},
	{"OpFOrdEqual", "OpFOrdLessThan", "OpFUnordNotEqual", "OpIEqual", "OpULessThan", "OpSLessThan"},
}

// floatDecorations are the decorations "fpdecorate" adds.
var floatDecorations = [][]string{
	{"FPRoundingMode", "RTE"}, {"FPRoundingMode", "RTZ"}, {"SaturatedToLargestFloat8NormalConversionEXT"},
	{"NoContraction"}, {"RelaxedPrecision"}, {"FPFastMathMode", "NotNaN"},
}

// mutateKind applies kind, one of mutationKinds or currentKinds.
func mutateKind(insts []asmInst, kind string, rng *rand.Rand) ([]asmInst, bool) {
	switch kind {
	case "fpencoding":
		return mutateEncoding(insts, rng)
	case "opcode":
		return mutateOpcode(insts, rng)
	case "fpdecorate":
		return mutateDecorate(insts, rng)
	}
	return mutate(insts, kind, rng)
}

// pickInst returns the index of a random instruction pred holds for, -1
// when there is none.
func pickInst(insts []asmInst, rng *rand.Rand, pred func(asmInst) bool) int {
	var c []int
	for i, in := range insts {
		if pred(in) {
			c = append(c, i)
		}
	}
	if len(c) == 0 {
		return -1
	}
	return c[rng.Intn(len(c))]
}

// withInst returns insts with instruction i replaced by toks.
func withInst(insts []asmInst, i int, toks []string) []asmInst {
	out := append([]asmInst(nil), insts...)
	out[i].toks = toks
	return out
}

func mutateEncoding(insts []asmInst, rng *rand.Rand) ([]asmInst, bool) {
	i := pickInst(insts, rng, func(in asmInst) bool { return in.op == "OpTypeFloat" && len(in.toks) > 3 })
	if i < 0 {
		return nil, false
	}
	ft := floatTypes[rng.Intn(len(floatTypes))]
	toks := append([]string(nil), insts[i].toks[:4]...)
	toks[3] = ft[0]
	if ft[1] != "" {
		toks = append(toks, ft[1])
	}
	if joinAsm([]asmInst{{toks: toks}}) == joinAsm(insts[i:i+1]) {
		return nil, false
	}
	out := withInst(insts, i, toks)
	if need, ok := encodingNeeds[ft[1]]; ok {
		// Declared, so that the mutant reaches the type, instruction and
		// conversion rules rather than stopping at the capability check
		// (dropcap and dropext of the FP8/OCP modules test that).
		out = declare(out, "OpCapability "+need[0], "OpExtension \""+need[1]+"\"")
	}
	return out, true
}

// declare inserts the instructions of texts missing from insts after the
// last OpCapability.
func declare(insts []asmInst, texts ...string) []asmInst {
	last := -1
	have := map[string]bool{}
	for i, in := range insts {
		have[in.text()] = true
		if in.op == "OpCapability" {
			last = i
		}
	}
	var add []asmInst
	for _, t := range texts {
		if !have[t] {
			add = append(add, tokenizeAsm(t+"\n")...)
		}
	}
	out := append([]asmInst(nil), insts[:last+1]...)
	out = append(out, add...)
	return append(out, insts[last+1:]...)
}

func mutateOpcode(insts []asmInst, rng *rand.Rand) ([]asmInst, bool) {
	group := map[string][]string{}
	for _, g := range sameShape {
		for _, op := range g {
			group[op] = g
		}
	}
	i := pickInst(insts, rng, func(in asmInst) bool { return group[in.op] != nil })
	if i < 0 {
		return nil, false
	}
	g := group[insts[i].op]
	op := g[rng.Intn(len(g))]
	if op == insts[i].op {
		return nil, false
	}
	toks := append([]string(nil), insts[i].toks...)
	toks[insts[i].ops-1] = op
	return withInst(insts, i, toks), true
}

// mutateDecorate decorates the result of a random instruction of a
// function (an OpFunction's or OpLabel's excepted), the decoration going
// where the annotations are: before the first type declaration.
func mutateDecorate(insts []asmInst, rng *rand.Rand) ([]asmInst, bool) {
	inFn := false
	var results []string
	at := -1
	for i, in := range insts {
		if info, ok := spirv.LookupOpcode(in.op); ok && info.DeclaresType && at < 0 {
			at = i
		}
		switch in.op {
		case "OpFunction":
			inFn = true
		case "OpFunctionEnd":
			inFn = false
		case "OpLabel", "OpFunctionParameter":
		default:
			if inFn && in.res != "" {
				results = append(results, in.res)
			}
		}
	}
	if at < 0 || len(results) == 0 {
		return nil, false
	}
	dec := floatDecorations[rng.Intn(len(floatDecorations))]
	toks := append([]string{"OpDecorate", results[rng.Intn(len(results))]}, dec...)
	out := append([]asmInst(nil), insts[:at]...)
	out = append(out, asmInst{toks: toks, op: "OpDecorate", ops: 1})
	return append(out, insts[at:]...), true
}

// TestCurrentKinds: each of currentKinds changes a small FP8 module
// within a few seeds, and keeps it assemblable text (one instruction per
// line).
func TestCurrentKinds(t *testing.T) {
	mod := tokenizeAsm(valHeadAsm + "OpCapability Float8EXT\nOpExtension \"SPV_EXT_float8\"\n" + domTypesAsm +
		"%f32 = OpTypeFloat 32\n%e4 = OpTypeFloat 8 Float8E4M3EXT\n%one = OpConstant %f32 1\n" +
		"%main = OpFunction %void None %fn\n%e = OpLabel\n%x = OpFConvert %e4 %one\n%y = OpFAdd %f32 %one %one\nOpReturn\nOpFunctionEnd\n")
	base := joinAsm(mod)
	for _, kind := range currentKinds {
		done := false
		for seed := 0; seed < 20 && !done; seed++ {
			out, ok := mutateKind(mod, kind, seededRand(kind+strconv.Itoa(seed)))
			if !ok {
				continue
			}
			done = true
			if text := joinAsm(out); text == base || len(tokenizeAsm(text)) < len(mod) {
				t.Errorf("%s: mutant %q", kind, text)
			}
			if kind == "fpencoding" {
				for _, in := range out {
					if in.op == "OpTypeFloat" && len(in.toks) > 4 && !strings.Contains(joinAsm(out), "OpCapability "+encodingNeeds[in.toks[4]][0]+"\n") {
						t.Errorf("fpencoding: %s without its capability", in.text())
					}
				}
			}
		}
		if !done {
			t.Errorf("%s: never applied", kind)
		}
	}
}
