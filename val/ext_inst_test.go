package val

import (
	"strings"
	"testing"
)

// glslMod is tr with %glsl imported.
func glslMod(decls, body string) module {
	m := tr(decls, body)
	m.importGLSL = true
	return m
}

func TestExtInstGLSLRules(t *testing.T) {
	const pre = "GLSL.std.450 "
	g := func(name, body, want string) ruleCase {
		return ruleCase{name: name, oracle: true, mod: glslMod("", body), want: want}
	}
	runRuleCases(t, []ruleCase{
		{name: "valid", oracle: true, mod: glslMod(`
%pf = OpTypePointer Function %f32
%pv2f = OpTypePointer Function %v2f
%pv2i = OpTypePointer Function %v2i
%sFF = OpTypeStruct %f32 %f32
%sFI = OpTypeStruct %v2f %v2i
`, `
%vf = OpVariable %pf Function
%vv = OpVariable %pv2f Function
%vi = OpVariable %pv2i Function
%a = OpExtInst %f32 %glsl FAbs %f1
%b = OpExtInst %v2f %glsl FClamp %fv %fv %fv
%c = OpExtInst %i32 %glsl SAbs %i1
%d = OpExtInst %v2u %glsl UMin %uv %iv
%e = OpExtInst %f32 %glsl Sin %f1
%f = OpExtInst %f32 %glsl Determinant %m
%g = OpExtInst %m22 %glsl MatrixInverse %m
%h = OpExtInst %f32 %glsl Modf %f1 %vf
%k = OpExtInst %sFF %glsl ModfStruct %f1
%l = OpExtInst %v2f %glsl Frexp %fv %vi
%n = OpExtInst %sFI %glsl FrexpStruct %fv
%o = OpExtInst %v2f %glsl Ldexp %fv %uv
%p = OpExtInst %u32 %glsl PackHalf2x16 %fv
%q = OpExtInst %u32 %glsl PackUnorm4x8 %fv4
%r = OpExtInst %v2f %glsl UnpackHalf2x16 %u1
%s = OpExtInst %v4f %glsl UnpackSnorm4x8 %i1
%t = OpExtInst %f32 %glsl Length %fv
%u = OpExtInst %f32 %glsl Distance %fv %fv
%w = OpExtInst %v3f %glsl Cross %fv3 %fv3
%x = OpExtInst %v2f %glsl Refract %fv %fv %f1
%y = OpExtInst %i32 %glsl FindUMsb %u1
`)},
		g("float result", "%a = OpExtInst %u32 %glsl FAbs %u1", pre+"FAbs: expected Result Type to be a float scalar or vector type"),
		g("float operands", "%a = OpExtInst %f32 %glsl FMin %f1 %u1", pre+"FMin: expected types of all operands to be equal to Result Type"),
		g("int result", "%a = OpExtInst %f32 %glsl SMax %i1 %i1", pre+"SMax: expected Result Type to be an int scalar or vector type"),
		g("int operand", "%a = OpExtInst %i32 %glsl SMax %i1 %f1", pre+"SMax: expected all operands to be int scalars or vectors"),
		g("int dimension", "%a = OpExtInst %i32 %glsl UClamp %i1 %uv %u1", pre+"UClamp: expected all operands to have the same dimension as Result Type"),
		{name: "int width", oracle: true, mod: func() module {
			m := glslMod("%i64 = OpTypeInt 64 1\n%l1 = OpConstant %i64 1", "%a = OpExtInst %i32 %glsl SSign %l1")
			m.caps += " Int64"
			return m
		}(), want: pre + "SSign: expected all operands to have the same bit width as Result Type"},
		{name: "find msb 32", oracle: true, mod: func() module {
			m := glslMod("%i64 = OpTypeInt 64 1\n%l1 = OpConstant %i64 1", "%a = OpExtInst %i64 %glsl FindSMsb %l1")
			m.caps += " Int64"
			return m
		}(), want: pre + "FindSMsb: this instruction is currently limited to 32-bit width components"},
		g("trig result", "%a = OpExtInst %u32 %glsl Cos %u1", pre+"Cos: expected Result Type to be a 16 or 32-bit scalar or vector float type"),
		g("trig operands", "%a = OpExtInst %f32 %glsl Pow %f1 %fv", pre+"Pow: expected types of all operands to be equal to Result Type"),
		g("determinant square", "%a = OpExtInst %f32 %glsl Determinant %m3", pre+"Determinant: expected operand X to be a square matrix"),
		g("determinant result", "%a = OpExtInst %u32 %glsl Determinant %m", pre+"Determinant: expected operand X component type to be equal to Result Type"),
		g("inverse square", "%a = OpExtInst %m32 %glsl MatrixInverse %m3", pre+"MatrixInverse: expected Result Type to be a square matrix"),
		g("inverse operand", "%a = OpExtInst %m22 %glsl MatrixInverse %fv", pre+"MatrixInverse: expected operand X type to be equal to Result Type"),
		g("modf result", "%a = OpExtInst %u32 %glsl Modf %u1 %u1", pre+"Modf: expected Result Type to be a scalar or vector float type"),
		g("modf x", "%a = OpExtInst %f32 %glsl Modf %fv %f1", pre+"Modf: expected operand X type to be equal to Result Type"),
		g("modf pointer", "%a = OpExtInst %f32 %glsl Modf %f1 %f1", pre+"Modf: expected operand I to be a pointer"),
		g("modf struct", "%a = OpExtInst %sUU %glsl ModfStruct %f1", pre+"ModfStruct: expected Result Type to be a struct with two identical scalar or vector float type members"),
		g("frexp pointer", "%a = OpExtInst %f32 %glsl Frexp %f1 %u1", pre+"Frexp: expected operand Exp to be a pointer"),
		g("frexp struct", "%a = OpExtInst %sUU %glsl FrexpStruct %f1", pre+"FrexpStruct: expected Result Type to be a struct with two members, first member a float scalar or vector, second member a 32-bit int scalar or vector with the same number of components as the first member"),
		g("ldexp exp", "%a = OpExtInst %f32 %glsl Ldexp %f1 %f1", pre+"Ldexp: expected operand Exp to be a 32-bit int scalar or vector type"),
		g("ldexp size", "%a = OpExtInst %f32 %glsl Ldexp %f1 %uv", pre+"Ldexp: expected operand Exp to have the same component number as Result Type"),
		g("pack result", "%a = OpExtInst %f32 %glsl PackSnorm2x16 %fv", pre+"PackSnorm2x16: expected Result Type to be 32-bit int scalar type"),
		g("pack operand", "%a = OpExtInst %u32 %glsl PackSnorm4x8 %fv", pre+"PackSnorm4x8: expected operand V to be a 32-bit float vector of size 4"),
		g("unpack result", "%a = OpExtInst %v4f %glsl UnpackUnorm2x16 %u1", pre+"UnpackUnorm2x16: expected Result Type to be a 32-bit float vector of size 2"),
		g("unpack operand", "%a = OpExtInst %v2f %glsl UnpackHalf2x16 %f1", pre+"UnpackHalf2x16: expected operand P to be a 32-bit int scalar"),
		g("length result", "%a = OpExtInst %v2f %glsl Length %fv", pre+"Length: expected Result Type to be a float scalar type"),
		g("length operand", "%a = OpExtInst %f32 %glsl Length %uv", pre+"Length: expected operand X to be of float scalar or vector type"),
		g("distance sizes", "%a = OpExtInst %f32 %glsl Distance %fv %fv3", pre+"Distance: expected operands P0 and P1 to have the same number of components"),
		g("distance p1", "%a = OpExtInst %f32 %glsl Distance %fv %uv", pre+"Distance: expected operand P1 to be of float scalar or vector type"),
		g("cross size", "%a = OpExtInst %v2f %glsl Cross %fv %fv", pre+"Cross: expected Result Type to have 3 components"),
		g("cross y", "%a = OpExtInst %v3f %glsl Cross %fv3 %fv", pre+"Cross: expected operand Y type to be equal to Result Type"),
		g("refract eta", "%a = OpExtInst %v2f %glsl Refract %fv %fv %fv", pre+"Refract: expected operand Eta to be a float scalar"),
		g("refract n", "%a = OpExtInst %v2f %glsl Refract %fv %f1 %f1", pre+"Refract: expected operand N to be of type equal to Result Type"),
		g("interpolate capability", "%a = OpExtInst %f32 %glsl InterpolateAtCentroid %f1", pre+"InterpolateAtCentroid requires capability InterpolationFunction"),
		g("imix", "%a = OpExtInst %f32 %glsl IMix %f1 %f1 %f1", "Extended instruction GLSLstd450IMix is not supported"),
	})
}

// clMod is an OpenCL kernel module importing OpenCL.std as %cl.
func clMod(decls, body string) string {
	m := module{caps: "Kernel Addresses Int64", kernel: true, decls: `
%u32 = OpTypeInt 32 0
%u64 = OpTypeInt 64 0
%f32 = OpTypeFloat 32
%v2u = OpTypeVector %u32 2
%v2f = OpTypeVector %f32 2
%v3f = OpTypeVector %f32 3
%u1 = OpConstant %u32 1
%l1 = OpConstant %u64 1
%f1 = OpConstant %f32 1
%uv = OpConstantComposite %v2u %u1 %u1
%fv = OpConstantComposite %v2f %f1 %f1
%fv3 = OpConstantComposite %v3f %f1 %f1 %f1
%pf = OpTypePointer Function %f32
%pu = OpTypePointer Function %u32
%pc = OpTypePointer UniformConstant %f32
` + decls, body: "%vf = OpVariable %pf Function\n%vu = OpVariable %pu Function\n" + body}
	return strings.Replace(m.text(), "OpMemoryModel", "%cl = OpExtInstImport \"OpenCL.std\"\nOpMemoryModel", 1)
}

func TestExtInstOpenCLRules(t *testing.T) {
	const pre = "OpenCL.std "
	c := func(name, body, want string) ruleCase {
		return ruleCase{name: name, oracle: true, src: clMod("", body), want: want}
	}
	runRuleCases(t, []ruleCase{
		c("valid", `
%a = OpExtInst %f32 %cl fabs %f1
%b = OpExtInst %f32 %cl fract %f1 %vf
%c = OpExtInst %f32 %cl frexp %f1 %vu
%d = OpExtInst %u32 %cl ilogb %f1
%e = OpExtInst %f32 %cl ldexp %f1 %u1
%f = OpExtInst %f32 %cl nan %u1
%g = OpExtInst %u32 %cl s_abs %u1
%h = OpExtInst %u64 %cl u_upsample %u1 %u1
%k = OpExtInst %u32 %cl u_mul24 %u1 %u1
%l = OpExtInst %v3f %cl cross %fv3 %fv3
%n = OpExtInst %f32 %cl distance %fv %fv
%o = OpExtInst %f32 %cl length %fv
%p = OpExtInst %v2f %cl normalize %fv
%q = OpExtInst %u32 %cl bitselect %u1 %u1 %u1
%r = OpExtInst %f32 %cl select %f1 %f1 %u1
`, ""),
		c("math result", "%a = OpExtInst %u32 %cl sqrt %u1", pre+"sqrt: expected Result Type to be a float scalar or vector type"),
		c("math operands", "%a = OpExtInst %f32 %cl fmax %f1 %u1", pre+"fmax: expected types of all operands to be equal to Result Type"),
		c("fract x", "%a = OpExtInst %f32 %cl fract %fv %vf", pre+"fract: expected type of operand X to be equal to Result Type"),
		c("fract pointer", "%a = OpExtInst %f32 %cl fract %f1 %f1", pre+"fract: expected the last operand to be a pointer"),
		{name: "fract class", oracle: true, src: clMod("%vc = OpVariable %pc UniformConstant", "%a = OpExtInst %f32 %cl modf %f1 %vc"),
			want: pre + "modf: expected storage class of the pointer to be Generic, CrossWorkgroup, Workgroup or Function"},
		c("fract data", "%a = OpExtInst %f32 %cl sincos %f1 %vu", pre+"sincos: expected data type of the pointer to be equal to Result Type"),
		c("frexp data", "%a = OpExtInst %f32 %cl frexp %f1 %vf", pre+"frexp: expected data type of the pointer to be a 32-bit int scalar or vector type"),
		c("frexp size", "%a = OpExtInst %v2f %cl lgamma_r %fv %vu", pre+"lgamma_r: expected data type of the pointer to have the same number of components as Result Type"),
		c("remquo y", "%a = OpExtInst %f32 %cl remquo %f1 %u1 %vu", pre+"remquo: expected type of operand Y to be equal to Result Type"),
		c("ilogb result", "%a = OpExtInst %f32 %cl ilogb %f1", pre+"ilogb: expected Result Type to be a 32-bit int scalar or vector type"),
		c("ilogb x", "%a = OpExtInst %u32 %cl ilogb %u1", pre+"ilogb: expected operand X to be a float scalar or vector"),
		c("ilogb size", "%a = OpExtInst %u32 %cl ilogb %fv", pre+"ilogb: expected operand X to have the same number of components as Result Type"),
		c("ldexp exponent", "%a = OpExtInst %f32 %cl pown %f1 %f1", pre+"pown: expected the exponent to be a 32-bit int scalar or vector"),
		c("ldexp size", "%a = OpExtInst %f32 %cl rootn %f1 %uv", pre+"rootn: expected the exponent to have the same number of components as Result Type"),
		c("nan code", "%a = OpExtInst %f32 %cl nan %f1", pre+"nan: expected Nancode to be an int scalar or vector type"),
		c("nan width", "%a = OpExtInst %f32 %cl nan %l1", pre+"nan: expected Nancode to have the same bit width as Result Type"),
		c("int result", "%a = OpExtInst %f32 %cl s_max %f1 %f1", pre+"s_max: expected Result Type to be an int scalar or vector type"),
		c("int operands", "%a = OpExtInst %u32 %cl popcount %uv", pre+"popcount: expected types of all operands to be equal to Result Type"),
		c("upsample width", "%a = OpExtInst %u32 %cl s_upsample %u1 %u1", pre+"s_upsample: expected bit width of components of Hi and Lo operands to be half of the bit width of components of Result Type"),
		c("upsample types", "%a = OpExtInst %u64 %cl s_upsample %u1 %uv", pre+"s_upsample: expected Hi and Lo operands to have the same type"),
		c("mul24 result", "%a = OpExtInst %u64 %cl s_mul24 %l1 %l1", pre+"s_mul24: expected Result Type to be a 32-bit int scalar or vector type"),
		c("cross size", "%a = OpExtInst %v2f %cl cross %fv %fv", pre+"cross: expected Result Type to have 3 or 4 components"),
		c("distance same", "%a = OpExtInst %f32 %cl fast_distance %fv %fv3", pre+"fast_distance: expected operands P0 and P1 to be of the same type"),
		c("length component", "%a = OpExtInst %u32 %cl length %fv", pre+"length: expected Result Type to be a float scalar type"),
		c("normalize operand", "%a = OpExtInst %v2f %cl fast_normalize %fv3", pre+"fast_normalize: expected operand P type to be equal to Result Type"),
		c("select c", "%a = OpExtInst %f32 %cl select %f1 %f1 %f1", pre+"select: expected operand C to be an int scalar or vector"),
		c("vloadn", "%a = OpExtInst %v2f %cl vloadn %l1 %vf 2", ""),
		c("vloadn n", "%a = OpExtInst %v2f %cl vloadn %l1 %vf 3", pre+"vloadn: expected literal N to be equal to the number of components of Result Type"),
		c("vloadn offset", "%a = OpExtInst %v2f %cl vloadn %u1 %vf 2", pre+"vloadn: expected operand Offset to be of type size_t (64-bit integer for the addressing model used in the module)"),
		c("vloadn pointer", "%a = OpExtInst %v2f %cl vloadn %l1 %f1 2", pre+"vloadn: expected operand P to be a pointer"),
		c("vloadn data", "%a = OpExtInst %v2f %cl vloadn %l1 %vu 2", pre+"vloadn: expected operand P data type to be equal to component type of Result Type"),
		c("vloadn result", "%a = OpExtInst %f32 %cl vloadn %l1 %vf 2", pre+"vloadn: expected Result Type to be an int or float vector type"),
		c("vstoren", "%void2 = OpExtInst %void %cl vstoren %fv %l1 %vf", ""),
		c("vstoren void", "%a = OpExtInst %f32 %cl vstoren %fv %l1 %vf", pre+"vstoren: expected Result Type to be void"),
		c("vstoren data", "%a = OpExtInst %void %cl vstoren %f1 %l1 %vf", pre+"vstoren: expected Data to be an int or float vector"),
		c("vstoren pointee", "%a = OpExtInst %void %cl vstoren %fv %l1 %vu", pre+"vstoren: expected operand P data type to be equal to the type of operand Data components"),
		c("vload_half data", "%a = OpExtInst %f32 %cl vload_half %l1 %vf", pre+"vload_half: expected operand P data type to be 16-bit float scalar"),
		c("vstore_half data", "%a = OpExtInst %void %cl vstore_half %fv %l1 %vf", pre+"vstore_half: expected Data to be a 32 or 64-bit float scalar"),
		c("shuffle", "%a = OpExtInst %v2f %cl shuffle %fv %uv", ""),
		c("shuffle result", "%a = OpExtInst %v3f %cl shuffle %fv %uv", pre+"shuffle: expected Result Type to have 2, 4, 8 or 16 components"),
		c("shuffle2 same", "%a = OpExtInst %v2f %cl shuffle2 %fv %uv %uv", pre+"shuffle2: expected operands X and Y to be of the same type"),
		c("shuffle mask", "%a = OpExtInst %v2f %cl shuffle %fv %fv", pre+"shuffle: expected operand Shuffle Mask to be an int vector"),
		c("printf result", "%a = OpExtInst %f32 %cl printf %vf", pre+"printf: expected Result Type to be a 32-bit int type"),
		c("printf class", "%a = OpExtInst %u32 %cl printf %vf", pre+"printf: expected Format storage class to be UniformConstant"),
		c("prefetch class", "%a = OpExtInst %void %cl prefetch %vf %l1", pre+"prefetch: expected operand Ptr storage class to be CrossWorkgroup"),
		c("select c width", "%a = OpExtInst %f32 %cl select %f1 %f1 %l1", pre+"select: expected operand C to have the same bit width as Result Type"),
	})
}
