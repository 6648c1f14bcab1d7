package val

import (
	"fmt"
	"strings"
	"testing"

	"spvx/asm"
	"spvx/spirv"
)

// vpModule is a compute shader with VariablePointersStorageBuffer (and
// caps), SB buffers %v1 %v2 of struct %sint, a Workgroup %wg of a struct
// holding a matrix, untyped SB variables %u1 %u2, and body in main.
func vpModule(caps, decls, body string) string {
	return `OpCapability Shader
OpCapability VariablePointersStorageBuffer
OpCapability UntypedPointersKHR
` + caps + `OpExtension "SPV_KHR_untyped_pointers"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %sint Block
OpMemberDecorate %sint 0 Offset 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%cond = OpUndef %bool
%int = OpTypeInt 32 0
%int_0 = OpConstant %int 0
%int_1 = OpConstant %int 1
%int_2 = OpConstant %int 2
%index = OpUndef %int
%float = OpTypeFloat 32
%v2float = OpTypeVector %float 2
%mat2x2 = OpTypeMatrix %v2float 2
%marr = OpTypeArray %mat2x2 %int_2
%smat = OpTypeStruct %marr %float
%sint = OpTypeStruct %int
%psint = OpTypePointer StorageBuffer %sint
%pint = OpTypePointer StorageBuffer %int
%pwsmat = OpTypePointer Workgroup %smat
%pwv2 = OpTypePointer Workgroup %v2float
%pwf = OpTypePointer Workgroup %float
%usb = OpTypeUntypedPointerKHR StorageBuffer
%uwg = OpTypeUntypedPointerKHR Workgroup
%v1 = OpVariable %psint StorageBuffer
%v2 = OpVariable %psint StorageBuffer
%wg = OpVariable %pwsmat Workgroup
%u1 = OpUntypedVariableKHR %usb StorageBuffer %sint
%u2 = OpUntypedVariableKHR %usb StorageBuffer %sint
%uw = OpUntypedVariableKHR %uwg Workgroup %smat
%nsb = OpConstantNull %psint
%nusb = OpConstantNull %usb
` + decls + `%main = OpFunction %void None %fn
%entry = OpLabel
` + body + `OpReturn
OpFunctionEnd
`
}

// vpLoop puts a loop after body whose OpPhi %phi of type t takes %gep
// from the entry and its own OpCopyObject from the continue block.
func vpLoop(caps, t, gep string) string {
	return strings.Replace(vpModule(caps, "", "%gep = "+gep+"\nOpBranch %loop\n%loop = OpLabel\n%phi = OpPhi "+t+" %gep %entry %copy %cont\n"+
		"OpLoopMerge %merge %cont None\nOpBranchConditional %cond %merge %cont\n%cont = OpLabel\n%copy = OpCopyObject "+t+" %phi\nOpBranch %loop\n%merge = OpLabel\n"),
		"OpReturn\nOpFunctionEnd\n", "OpReturn\nOpFunctionEnd\n", 1)
}

// vpCall adds decls and a function %g of type %gfn with parameter %gp of type pt
// and body gbody after main, and main's body.
func vpCall(caps, decls, pt, gret, gbody, body string) string {
	m := vpModule(caps, decls+"%gfn = OpTypeFunction "+gret+" "+pt+"\n", body)
	return m + "%g = OpFunction " + gret + " None %gfn\n%gp = OpFunctionParameter " + pt + "\n%ge = OpLabel\n" + gbody + "OpFunctionEnd\n"
}

// TestVariablePointerRules is the variable-pointer rule table
// (variable_pointers.go); with $SPVX_CURRENT_SPIRV_TOOLS each case is
// also run through current spirv-val, which must agree.
func TestVariablePointerRules(t *testing.T) { runTable(t, vpCases()) }

// vpCases covers each rule of ValidateVariablePointers with its valid
// neighbour, typed and untyped, through selects, phis, calls, parameters
// and pointers stored in Function variables.
func vpCases() []rqCase {
	const vp = "OpCapability VariablePointers\n"
	same := "Variable pointers must point into the same structure (or OpConstantNull)"
	blockArr := "Variable pointer must not point to an array of Block- or BufferBlock-decorated structs"
	matrix := "Variable pointer must not point to an object that is or contains a matrix"
	column := "Variable pointer must not point to a column or a component of a column of a matrix"
	arrLen := "Pointer operand must not be a variable pointer"
	rtDecls := "%rta = OpTypeRuntimeArray %int\n%srt = OpTypeStruct %rta\n%psrt = OpTypePointer StorageBuffer %srt\n%rv = OpVariable %psrt StorageBuffer\n%rnull = OpConstantNull %psrt\n"
	rtDecorate := "OpDecorate %srt Block\nOpMemberDecorate %srt 0 Offset 0\nOpDecorate %rta ArrayStride 4\n"
	withDec := func(m, d string) string {
		return strings.Replace(m, "OpDecorate %sint Block\n", "OpDecorate %sint Block\n"+d, 1)
	}
	blockDecls := "%barr = OpTypeArray %sint %int_2\n%pbarr = OpTypePointer StorageBuffer %barr\n%bv = OpVariable %pbarr StorageBuffer\n%bnull = OpConstantNull %pbarr\n%ubv = OpUntypedVariableKHR %usb StorageBuffer %barr\n"
	cases := []rqCase{
		rq("select of one buffer", vpModule("", "", "%s = OpSelect %psint %cond %v1 %v1\n"), ""),
		rq("select of a buffer and null", vpModule("", "", "%s = OpSelect %psint %cond %nsb %v1\n"), ""),
		rq("select of two buffers", vpModule("", "", "%s = OpSelect %psint %cond %v1 %v2\n"), same),
		rq("select of two buffers with VariablePointers", vpModule(vp, "", "%s = OpSelect %psint %cond %v1 %v2\n"), ""),
		rq("select of access chains into two buffers", vpModule("", "", "%a = OpAccessChain %pint %v1 %int_0\n%b = OpAccessChain %pint %v2 %int_0\n%s = OpSelect %pint %cond %a %b\n"), same),
		rq("select of access chains into one buffer", vpModule("", "", "%a = OpAccessChain %pint %v1 %int_0\n%b = OpAccessChain %pint %v1 %int_0\n%s = OpSelect %pint %cond %a %b\n"), ""),
		rq("phi of two untyped buffers", vpModule("", "", "OpSelectionMerge %m None\nOpBranchConditional %cond %t %m\n%t = OpLabel\nOpBranch %m\n%m = OpLabel\n%p = OpPhi %usb %u1 %entry %u2 %t\n"), same),
		rq("phi of one untyped buffer", vpModule("", "", "OpSelectionMerge %m None\nOpBranchConditional %cond %t %m\n%t = OpLabel\nOpBranch %m\n%m = OpLabel\n%p = OpPhi %usb %u1 %entry %nusb %t\n"), ""),
		rq("select of a call result and another buffer", vpCall("", "", "%psint", "%psint", "OpReturnValue %gp\n",
			"%c = OpFunctionCall %psint %g %v1\n%s = OpSelect %psint %cond %c %v2\n"), same),
		rq("select of a call result and the same buffer", vpCall("", "", "%psint", "%psint", "OpReturnValue %gp\n",
			"%c = OpFunctionCall %psint %g %v1\n%s = OpSelect %psint %cond %c %v1\n"), ""),
		rq("null pointer to a block array", vpModule(vp, blockDecls, ""), blockArr),
		rq("block array typed", vpModule(vp, "%barr = OpTypeArray %sint %int_2\n%pbarr = OpTypePointer StorageBuffer %barr\n%bv = OpVariable %pbarr StorageBuffer\n", "%s = OpSelect %pbarr %cond %bv %bv\n"), blockArr),
		rq("block array untyped", vpModule(vp, "%barr = OpTypeArray %sint %int_2\n%ubv = OpUntypedVariableKHR %usb StorageBuffer %barr\n", "%s = OpSelect %usb %cond %nusb %ubv\n"), blockArr),
		rq("block struct untyped", vpModule(vp, "%barr = OpTypeArray %sint %int_2\n%ubv = OpUntypedVariableKHR %usb StorageBuffer %barr\n", "%s = OpSelect %usb %cond %nusb %u1\n"), ""),
		rq("pointer to a matrix", vpModule(vp, "%pwm = OpTypePointer Workgroup %mat2x2\n", "%a = OpAccessChain %pwm %wg %int_0 %int_0\n%s = OpSelect %pwm %cond %a %a\n"), matrix),
		rq("pointer to a struct holding a matrix", vpModule(vp, "", "%s = OpSelect %pwsmat %cond %wg %wg\n"), matrix),
		rq("pointer to a float beside a matrix", vpLoop(vp, "%pwf", "OpAccessChain %pwf %wg %int_1"), ""),
		rq("pointer to a matrix column", vpLoop(vp, "%pwv2", "OpAccessChain %pwv2 %wg %int_0 %index %index"), column),
		rq("pointer to a matrix component", vpLoop(vp, "%pwf", "OpAccessChain %pwf %wg %int_0 %index %index %index"), column),
		rq("untyped pointer to a float beside a matrix", vpLoop(vp, "%uwg", "OpUntypedAccessChainKHR %uwg %smat %uw %int_1"), ""),
		rq("untyped pointer to a matrix column", vpLoop(vp, "%uwg", "OpUntypedAccessChainKHR %uwg %smat %uw %int_0 %index %index"), column+"."),
		rq("column through a call parameter", vpCall(vp, "", "%pwv2", "%void", "%gs = OpSelect %pwv2 %cond %gp %gp\nOpReturn\n",
			"%a = OpAccessChain %pwv2 %wg %int_0 %index %index\n%c = OpFunctionCall %void %g %a\n"), column),
		rq("untyped load of a matrix", vpModule(vp, "%smt = OpTypeStruct %mat2x2\n", "%l = OpLoad %smt %uw\n"), ""),
		rq("untyped load of a matrix through a variable pointer", vpModule(vp, "%smt = OpTypeStruct %mat2x2\n", "%s = OpSelect %uwg %cond %uw %uw\n%l = OpLoad %mat2x2 %s\n"), matrix),
		rq("untyped load of a float through a variable pointer", vpModule(vp, "", "%s = OpSelect %uwg %cond %uw %uw\n%l = OpLoad %float %s\n"), ""),
		rq("untyped store of a matrix through a variable pointer", vpModule(vp, "%mn = OpConstantNull %mat2x2\n", "%s = OpSelect %uwg %cond %uw %uw\nOpStore %s %mn\n"), matrix),
		rq("array length of a variable pointer", withDec(vpModule("", rtDecls, "%s = OpSelect %psrt %cond %rv %rnull\n%n = OpArrayLength %int %s 0\n"), rtDecorate), arrLen),
		rq("array length of a variable", withDec(vpModule("", rtDecls, "%s = OpSelect %psrt %cond %rv %rnull\n%n = OpArrayLength %int %rv 0\n"), rtDecorate), ""),
		rq("untyped array length of a variable pointer", withDec(vpModule("", rtDecls+"%ur = OpUntypedVariableKHR %usb StorageBuffer %srt\n", "%s = OpSelect %usb %cond %ur %nusb\n%n = OpUntypedArrayLengthKHR %int %srt %s 0\n"), rtDecorate), arrLen),
		rq("pointer stored in a function variable", vpModule("", "%pp = OpTypePointer Function %psint\n",
			"%fv = OpVariable %pp Function\nOpStore %fv %v1\n%l = OpLoad %psint %fv\n%s = OpSelect %psint %cond %l %v2\n"), same),
		rq("pointer stored in a function variable, one buffer", vpModule("", "%pp = OpTypePointer Function %psint\n",
			"%fv = OpVariable %pp Function\nOpStore %fv %v1\n%l = OpLoad %psint %fv\n%s = OpSelect %psint %cond %l %v1\n"), ""),
		rq("array length through a parameter", withDec(vpCall("", rtDecls, "%psrt", "%void", "%n = OpArrayLength %int %gp 0\nOpReturn\n",
			"%s = OpSelect %psrt %cond %rv %rnull\n%c = OpFunctionCall %void %g %s\n"), rtDecorate), arrLen),
		rq("array length of a parameter", withDec(vpCall("", rtDecls, "%psrt", "%void", "%n = OpArrayLength %int %gp 0\nOpReturn\n",
			"%c = OpFunctionCall %void %g %rv\n"), rtDecorate), ""),
	}
	for k := range cases {
		cases[k].env = EnvUniversal1_3
	}
	return cases
}

// vpChains is a valid module with n OpSelects each picking between the
// previous one and a buffer, and n calls passing them to one function
// whose parameter is selected again: spirv-val retraces each select's
// whole chain (quadratic); the memoized traces must not.
func vpChains(n int) string {
	var b strings.Builder
	b.WriteString("%s0 = OpCopyObject %psint %v1\n")
	for k := 1; k <= n; k++ {
		fmt.Fprintf(&b, "%%s%d = OpSelect %%psint %%cond %%s%d %%v1\n%%c%d = OpFunctionCall %%void %%g %%s%d\n", k, k-1, k, k)
	}
	return vpCall("", "", "%psint", "%void", "%gs = OpSelect %psint %cond %gp %v1\nOpReturn\n", b.String())
}

// vpStoredChains is a valid module with n Function variables, each
// holding the previous select, loaded into the next: the walk from each
// variable over the uses of what is made from it reaches the rest of the
// chain, so a walk per variable would be quadratic.
func vpStoredChains(n int) string {
	var vars, body strings.Builder
	body.WriteString("%s0 = OpCopyObject %psint %v1\n")
	for k := 1; k <= n; k++ {
		fmt.Fprintf(&vars, "%%f%d = OpVariable %%pp Function\n", k)
		fmt.Fprintf(&body, "OpStore %%f%d %%s%d\n%%l%d = OpLoad %%psint %%f%d\n%%s%d = OpSelect %%psint %%cond %%l%d %%v1\n", k, k-1, k, k, k, k)
	}
	return vpModule("", "%pp = OpTypePointer Function %psint\n", vars.String()+body.String())
}

// TestVariablePointersLinear counts the trace work at n and 4n.
func TestVariablePointersLinear(t *testing.T) {
	t.Run("selects and calls", func(t *testing.T) { vpLinear(t, vpChains) })
	t.Run("pointers stored in variables", func(t *testing.T) { vpLinear(t, vpStoredChains) })
}

func vpLinear(t *testing.T, build func(int) string) {
	work := func(n int) int {
		words, err := asm.Assemble([]byte(build(n)), asm.Options{TargetEnv: "spv1.3"})
		if err != nil {
			t.Fatal(err)
		}
		m, err := spirv.DecodeWords(words)
		if err != nil {
			t.Fatal(err)
		}
		if err := Validate(m, Options{Env: EnvUniversal1_3}); err != nil {
			t.Fatalf("n=%d rejected: %v", n, err)
		}
		s := &state{shared: &shared{m: m, opts: Options{Env: EnvUniversal1_3}, lim: Limits{}.withDefaults(), exts: map[string]bool{}, sampled: &sharedSampled{}}}
		s.run()
		vp := s.newVarPointers()
		for i := 0; i < m.Len(); i++ {
			in := m.Inst(i)
			s.variablePointerRules(vp, i, &in)
		}
		return vp.steps
	}
	small, big := work(500), work(2000)
	t.Logf("trace steps: n=500 %d, 4n %d", small, big)
	if big > 5*small {
		t.Errorf("4x the selects took %d trace steps against %d: not linear", big, small)
	}
}
