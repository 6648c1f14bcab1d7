package val

import (
	"fmt"
	"strings"

	"spvx/spirv"
)

// This file holds validate_extensions.cpp's ValidateExtInst rules for
// GLSL.std.450 and OpenCL.std: no BFloat16 or FP8 type anywhere (the sets
// define floats as IEEE 754), and every instruction's Result Type and
// operand types. The instructions are told apart by their grammar names,
// so no table of numbers is repeated here. Not checked yet: the
// Fragment-only limitation of the GLSL interpolation instructions.

func (s *state) extInstPass(i int, in *spirv.Instruction) bool {
	if in.Opcode != spirv.OpExtInst || in.ExtSet == nil || len(in.Words) < 5 {
		return false
	}
	glsl := in.ExtSet.Name == "GLSL.std.450"
	if !glsl && in.ExtSet.Name != "OpenCL.std" {
		return false
	}
	info, ok := in.ExtSet.Instruction(in.Words[4])
	if !ok {
		return false
	}
	e := extInst{s: s, i: i, in: in, name: info.Name}
	if e.floatEncoding() {
		return true
	}
	if glsl {
		return e.glsl()
	}
	return e.openCL()
}

// extInst is one GLSL.std.450 or OpenCL.std instruction being checked.
type extInst struct {
	s    *state
	i    int
	in   *spirv.Instruction
	name string // the instruction's name in its set
}

// fail records "<set> <instruction>: <msg>", GetExtInstName's prefix.
func (e *extInst) fail(format string, args ...any) bool {
	return e.failRaw(": "+format, args...)
}

// failRaw is fail without the ": " after the name.
func (e *extInst) failRaw(format string, args ...any) bool {
	set := e.s.x.ExtInstImports[e.in.Words[3]]
	// The message is built by concatenation, so that no field of e flows
	// into fail's arguments (which would move the instruction to the heap).
	msg := set + " " + e.name + fmt.Sprintf(format, args...)
	return e.s.fail(e.i, "", "%s", msg)
}

func (e *extInst) res() uint32         { return e.in.TypeID }
func (e *extInst) op(k int) uint32     { return e.s.opType(e.in, k) }
func (e *extInst) numOperands() int    { return len(e.in.Operands) }
func (e *extInst) fsv(t uint32) bool   { return e.s.isFloatScalarOrVector(t) }
func (e *extInst) isv(t uint32) bool   { return e.s.isIntScalarOrVector(t) }
func (e *extInst) dim(t uint32) uint32 { return e.s.dimension(t) }
func (e *extInst) width(t uint32) uint32 {
	return e.s.bitWidth(t)
}

// floatEncoding is ValidateExtInstFloatEncoding: neither the Result Type
// nor an id operand may be BFloat16 or FP8.
func (e *extInst) floatEncoding() bool {
	check := func(t uint32) bool {
		if e.s.isBF16Type(t) {
			return e.failRaw(": doesn't support BFloat16 type.") || true
		}
		if e.s.isFP8Type(t) {
			return e.failRaw(": doesn't support FP8 E4M3/E5M2 types.") || true
		}
		return false
	}
	if check(e.res()) {
		return e.s.stopped()
	}
	for k := 4; k < e.numOperands(); k++ {
		if e.in.Operands[k].Kind.Info().Category != spirv.CategoryID {
			continue
		}
		if check(e.op(k)) {
			return e.s.stopped()
		}
	}
	return false
}

// allOperandsResult: every operand from 4 on has the Result Type.
func (e *extInst) allOperandsResult() bool {
	for k := 4; k < e.numOperands(); k++ {
		if e.op(k) != e.res() {
			return e.fail("expected types of all operands to be equal to Result Type")
		}
	}
	return false
}

func (e *extInst) glsl() bool {
	s, res := e.s, e.res()
	half := s.exts["SPV_AMD_gpu_shader_half_float"]
	int16 := s.exts["SPV_AMD_gpu_shader_int16"]
	switch e.name {
	case "Round", "RoundEven", "FAbs", "Trunc", "FSign", "Floor", "Ceil", "Fract", "Sqrt", "InverseSqrt",
		"FMin", "FMax", "FClamp", "FMix", "Step", "SmoothStep", "Fma", "Normalize", "FaceForward", "Reflect",
		"NMin", "NMax", "NClamp":
		coop := false
		switch e.name {
		case "FMin", "FMax", "FClamp", "NMin", "NMax", "NClamp", "Step", "Fma":
			coop = true
		}
		if !e.fsv(res) && !(coop && s.isFloatCoopVec(res)) {
			return e.fail("expected Result Type to be a float scalar or vector type")
		}
		return e.allOperandsResult()
	case "SAbs", "SSign", "UMin", "SMin", "UMax", "SMax", "UClamp", "SClamp", "FindILsb", "FindUMsb", "FindSMsb":
		coop := false
		switch e.name {
		case "UMin", "UMax", "UClamp", "SMin", "SMax", "SClamp":
			coop = true
		}
		if !e.isv(res) && !(coop && s.isIntCoopVec(res)) {
			return e.fail("expected Result Type to be an int scalar or vector type")
		}
		w, d := e.width(res), e.dim(res)
		for k := 4; k < e.numOperands(); k++ {
			t := e.op(k)
			switch {
			case t == 0 || !e.isv(t) && !(coop && s.isIntCoopVec(t)):
				return e.fail("expected all operands to be int scalars or vectors")
			case d != e.dim(t):
				return e.fail("expected all operands to have the same dimension as Result Type")
			case w != e.width(t):
				return e.fail("expected all operands to have the same bit width as Result Type")
			case (e.name == "FindUMsb" || e.name == "FindSMsb") && w != 32:
				return e.fail("this instruction is currently limited to 32-bit width components")
			}
		}
	case "Radians", "Degrees", "Sin", "Cos", "Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh", "Tanh", "Asinh",
		"Acosh", "Atanh", "Exp", "Exp2", "Log", "Log2", "Atan2", "Pow":
		coop := e.name == "Atan" || e.name == "Tanh" || e.name == "Exp" || e.name == "Log"
		if !e.fsv(res) && !(coop && s.isFloatCoopVec(res)) {
			return e.fail("expected Result Type to be a 16 or 32-bit scalar or vector float type")
		}
		if w := e.width(res); w != 16 && w != 32 {
			return e.fail("expected Result Type to be a 16 or 32-bit scalar or vector float type")
		}
		return e.allOperandsResult()
	case "Determinant":
		rows, cols, _, comp, ok := s.matrixInfo(e.op(4))
		if !ok || rows != cols {
			return e.fail("expected operand X to be a square matrix")
		}
		if res != comp {
			return e.fail("expected operand X component type to be equal to Result Type")
		}
	case "MatrixInverse":
		rows, cols, _, _, ok := s.matrixInfo(res)
		if !ok || rows != cols {
			return e.fail("expected Result Type to be a square matrix")
		}
		if e.op(4) != res {
			return e.fail("expected operand X type to be equal to Result Type")
		}
	case "Modf", "Frexp":
		if !e.fsv(res) {
			return e.fail("expected Result Type to be a scalar or vector float type")
		}
		if e.op(4) != res {
			return e.fail("expected operand X type to be equal to Result Type")
		}
		data, _, ok := s.ptrInfo(e.op(5))
		if e.name == "Modf" {
			if !ok {
				return e.fail("expected operand I to be a pointer")
			}
			if data != res {
				return e.fail("expected operand I data type to be equal to Result Type")
			}
			return false
		}
		if !ok {
			return e.fail("expected operand Exp to be a pointer")
		}
		if w := e.width(data); !e.isv(data) || !int16 && w != 32 || int16 && w != 16 && w != 32 {
			return e.fail("expected operand Exp data type to be a %sint scalar or vector type", pick(int16, "16-bit or 32-bit ", "32-bit "))
		}
		if e.dim(res) != e.dim(data) {
			return e.fail("expected operand Exp data type to have the same component number as Result Type")
		}
	case "ModfStruct":
		ty := s.typeOf(res)
		if ty == nil || ty.Kind != spirv.TypeStruct || len(ty.Members) != 2 || !e.fsv(ty.Members[0]) || ty.Members[1] != ty.Members[0] {
			return e.fail("expected Result Type to be a struct with two identical scalar or vector float type members")
		}
		if e.op(4) != ty.Members[0] {
			return e.fail("expected operand X type to be equal to members of Result Type struct")
		}
	case "Ldexp":
		if !e.fsv(res) {
			return e.fail("expected Result Type to be a scalar or vector float type")
		}
		if e.op(4) != res {
			return e.fail("expected operand X type to be equal to Result Type")
		}
		exp := e.op(5)
		if !e.isv(exp) {
			return e.fail("expected operand Exp to be a 32-bit int scalar or vector type")
		}
		if e.dim(res) != e.dim(exp) {
			return e.fail("expected operand Exp to have the same component number as Result Type")
		}
	case "FrexpStruct":
		ty := s.typeOf(res)
		bad := ty == nil || ty.Kind != spirv.TypeStruct || len(ty.Members) != 2
		if !bad {
			m0, m1 := ty.Members[0], ty.Members[1]
			w := e.width(m1)
			bad = !e.fsv(m0) || !e.isv(m1) || !int16 && w != 32 || int16 && w != 16 && w != 32 || e.dim(m0) != e.dim(m1)
		}
		if bad {
			return e.fail("expected Result Type to be a struct with two members, first member a float scalar or vector, second member a %sint scalar or vector with the same number of components as the first member",
				pick(int16, "16-bit or 32-bit ", "32-bit "))
		}
		if e.op(4) != ty.Members[0] {
			return e.fail("expected operand X type to be equal to the first member of Result Type struct")
		}
	case "PackSnorm4x8", "PackUnorm4x8", "PackSnorm2x16", "PackUnorm2x16", "PackHalf2x16":
		if !s.isIntScalar(res) || e.width(res) != 32 {
			return e.fail("expected Result Type to be 32-bit int scalar type")
		}
		n := uint32(2)
		if e.name == "PackSnorm4x8" || e.name == "PackUnorm4x8" {
			n = 4
		}
		if v := e.op(4); !s.isFloatVector(v) || e.dim(v) != n || e.width(v) != 32 {
			return e.fail("expected operand V to be a 32-bit float vector of size %d", n)
		}
	case "PackDouble2x32":
		if !s.isFloatScalar(res) || e.width(res) != 64 {
			return e.fail("expected Result Type to be 64-bit float scalar type")
		}
		if v := e.op(4); !s.isIntVector(v) || e.dim(v) != 2 || e.width(v) != 32 {
			return e.fail("expected operand V to be a 32-bit int vector of size 2")
		}
	case "UnpackSnorm4x8", "UnpackUnorm4x8", "UnpackSnorm2x16", "UnpackUnorm2x16", "UnpackHalf2x16":
		n := uint32(2)
		if e.name == "UnpackSnorm4x8" || e.name == "UnpackUnorm4x8" {
			n = 4
		}
		if !s.isFloatVector(res) || e.dim(res) != n || e.width(res) != 32 {
			return e.fail("expected Result Type to be a 32-bit float vector of size %d", n)
		}
		if v := e.op(4); !s.isIntScalar(v) || e.width(v) != 32 {
			return e.fail("expected operand P to be a 32-bit int scalar")
		}
	case "UnpackDouble2x32":
		if !s.isIntVector(res) || e.dim(res) != 2 || e.width(res) != 32 {
			return e.fail("expected Result Type to be a 32-bit int vector of size 2")
		}
		if v := e.op(4); !s.isFloatScalar(v) || e.width(v) != 64 {
			return e.fail("expected operand V to be a 64-bit float scalar")
		}
	case "Length":
		if !s.isFloatScalar(res) {
			return e.fail("expected Result Type to be a float scalar type")
		}
		x := e.op(4)
		if !e.fsv(x) {
			return e.fail("expected operand X to be of float scalar or vector type")
		}
		if res != s.componentType(x) {
			return e.fail("expected operand X component type to be equal to Result Type")
		}
	case "Distance":
		if !s.isFloatScalar(res) {
			return e.fail("expected Result Type to be a float scalar type")
		}
		p0, p1 := e.op(4), e.op(5)
		switch {
		case !e.fsv(p0):
			return e.fail("expected operand P0 to be of float scalar or vector type")
		case res != s.componentType(p0):
			return e.fail("expected operand P0 component type to be equal to Result Type")
		case !e.fsv(p1):
			return e.fail("expected operand P1 to be of float scalar or vector type")
		case res != s.componentType(p1):
			return e.fail("expected operand P1 component type to be equal to Result Type")
		case e.dim(p0) != e.dim(p1):
			return e.fail("expected operands P0 and P1 to have the same number of components")
		}
	case "Cross":
		switch {
		case !s.isFloatVector(res):
			return e.fail("expected Result Type to be a float vector type")
		case e.dim(res) != 3:
			return e.fail("expected Result Type to have 3 components")
		case e.op(4) != res:
			return e.fail("expected operand X type to be equal to Result Type")
		case e.op(5) != res:
			return e.fail("expected operand Y type to be equal to Result Type")
		}
	case "Refract":
		switch {
		case !e.fsv(res):
			return e.fail("expected Result Type to be a float scalar or vector type")
		case e.op(4) != res:
			return e.fail("expected operand I to be of type equal to Result Type")
		case e.op(5) != res:
			return e.fail("expected operand N to be of type equal to Result Type")
		case !s.isFloatScalar(e.op(6)):
			return e.fail("expected operand Eta to be a float scalar")
		}
	case "InterpolateAtCentroid", "InterpolateAtSample", "InterpolateAtOffset":
		return e.interpolate(half)
	case "IMix":
		return s.fail(e.i, "", "Extended instruction GLSLstd450IMix is not supported")
	}
	return false
}

func (e *extInst) interpolate(half bool) bool {
	s, res := e.s, e.res()
	if !s.caps.has(spirv.CapabilityInterpolationFunction) {
		return e.failRaw(" requires capability InterpolationFunction")
	}
	bits := pick(half, "16-bit or 32-bit ", "32-bit ")
	if w := e.width(res); !e.fsv(res) || w != 32 && (!half || w != 16) {
		return e.fail("expected Result Type to be a %sfloat scalar or vector type", bits)
	}
	interp := e.op(4)
	if s.opts.BeforeHLSLLegalization {
		if j, ok := s.x.Def(s.opWord(e.in, 4)); ok {
			if ld := s.m.Inst(j); ld.Opcode == spirv.OpLoad {
				interp = s.opType(&ld, 2)
			}
		}
	}
	data, sc, ok := s.ptrInfo(interp)
	switch {
	case !ok:
		return e.fail("expected Interpolant to be a pointer")
	case res != data:
		return e.fail("expected Interpolant data type to be equal to Result Type")
	case sc != spirv.StorageClassInput:
		return e.fail("expected Interpolant storage class to be Input")
	}
	if e.name == "InterpolateAtSample" {
		if t := e.op(5); !s.isIntScalar(t) || e.width(t) != 32 {
			return e.fail("expected Sample to be 32-bit integer")
		}
	}
	if e.name == "InterpolateAtOffset" {
		if t, w := e.op(5), e.width(e.op(5)); !s.isFloatVector(t) || e.dim(t) != 2 || w != 32 && (!half || w != 16) {
			return e.fail("expected Offset to be a vector of 2 %sfloats", bits)
		}
	}
	return false
}

// sizeT is GetSizeTBitWidth: 32 or 64 with physical addressing, else 0.
func (e *extInst) sizeT() uint32 {
	switch e.s.x.AddressingModel {
	case spirv.AddressingModelPhysical32:
		return 32
	case spirv.AddressingModelPhysical64:
		return 64
	}
	return 0
}

// loadStore checks OpenCL.std's vloadn, vstoren and the half-precision
// loads and stores.
func (e *extInst) loadStore() bool {
	s, res := e.s, e.res()
	store := strings.HasPrefix(e.name, "vstore")
	half := strings.Contains(e.name, "half")
	var data, offset, p uint32
	if store {
		if s.typeOp(res) != spirv.OpTypeVoid {
			return e.fail("expected Result Type to be void")
		}
		data, offset, p = e.op(4), e.op(5), e.op(6)
		switch {
		case !half:
			if !s.isFloatVector(data) && !s.isIntVector(data) {
				return e.fail("expected Data to be an int or float vector")
			}
			if !clComponents(e.dim(data)) {
				return e.fail("expected Data to have 2, 3, 4, 8 or 16 components")
			}
		case e.name == "vstore_half" || e.name == "vstore_half_r":
			if w := e.width(data); !s.isFloatScalar(data) || w != 32 && w != 64 {
				return e.fail("expected Data to be a 32 or 64-bit float scalar")
			}
		default:
			if w := e.width(data); !s.isFloatVector(data) || w != 32 && w != 64 {
				return e.fail("expected Data to be a 32 or 64-bit float vector")
			}
			if !clComponents(e.dim(data)) {
				return e.fail("expected Data to have 2, 3, 4, 8 or 16 components")
			}
		}
	} else {
		offset, p = e.op(4), e.op(5)
		switch e.name {
		case "vloadn":
			if !s.isFloatVector(res) && !s.isIntVector(res) {
				return e.fail("expected Result Type to be an int or float vector type")
			}
		case "vload_half":
			if !s.isFloatScalar(res) {
				return e.fail("expected Result Type to be a float scalar type")
			}
		default:
			if !s.isFloatVector(res) {
				return e.fail("expected Result Type to be a float vector type")
			}
		}
		if e.name != "vload_half" && !clComponents(e.dim(res)) {
			return e.fail("expected Result Type to have 2, 3, 4, 8 or 16 components")
		}
	}
	size := e.sizeT()
	if size == 0 {
		return e.failRaw(" can only be used with physical addressing models")
	}
	if !s.isIntScalar(offset) || e.width(offset) != size {
		return e.fail("expected operand Offset to be of type size_t (%d-bit integer for the addressing model used in the module)", size)
	}
	pData, sc, ok := s.ptrInfo(p)
	if !ok {
		return e.fail("expected operand P to be a pointer")
	}
	switch sc {
	case spirv.StorageClassGeneric, spirv.StorageClassCrossWorkgroup, spirv.StorageClassWorkgroup, spirv.StorageClassFunction:
	case spirv.StorageClassUniformConstant:
		if store {
			return e.fail("expected operand P storage class to be Generic, CrossWorkgroup, Workgroup or Function")
		}
	default:
		if store {
			return e.fail("expected operand P storage class to be Generic, CrossWorkgroup, Workgroup or Function")
		}
		return e.fail("expected operand P storage class to be UniformConstant, Generic, CrossWorkgroup, Workgroup or Function")
	}
	untyped := s.typeOp(p) == spirv.OpTypeUntypedPointerKHR
	switch {
	case half:
		if !(s.isFloatScalar(pData) && e.width(pData) == 16) && !untyped {
			return e.fail("expected operand P data type to be 16-bit float scalar")
		}
	case store:
		if s.componentType(data) != pData {
			return e.fail("expected operand P data type to be equal to the type of operand Data components")
		}
		return false
	default:
		if s.componentType(res) != pData {
			return e.fail("expected operand P data type to be equal to component type of Result Type")
		}
	}
	if !store && e.name != "vload_half" {
		if len(e.in.Words) > 7 && e.dim(res) != e.in.Words[7] {
			return e.fail("expected literal N to be equal to the number of components of Result Type")
		}
	}
	return false
}

func pick(c bool, a, b string) string {
	if c {
		return a
	}
	return b
}

// clComponents is OpenCL.std's rule that vectors have 2, 3, 4, 8 or 16
// components.
func clComponents(n uint32) bool { return n <= 4 || n == 8 || n == 16 }

func (e *extInst) openCL() bool {
	s, res := e.s, e.res()
	n := e.dim(res)
	const components = "expected Result Type to be a scalar or a vector with 2, 3, 4, 8 or 16 components"
	const classes = "expected storage class of the pointer to be Generic, CrossWorkgroup, Workgroup or Function"
	ptrClass := func(sc spirv.StorageClass) bool {
		switch sc {
		case spirv.StorageClassGeneric, spirv.StorageClassCrossWorkgroup, spirv.StorageClassWorkgroup, spirv.StorageClassFunction:
			return true
		}
		return false
	}
	switch e.name {
	case "acos", "acosh", "acospi", "asin", "asinh", "asinpi", "atan", "atan2", "atanh", "atanpi", "atan2pi",
		"cbrt", "ceil", "copysign", "cos", "cosh", "cospi", "erfc", "erf", "exp", "exp2", "exp10", "expm1",
		"fabs", "fdim", "floor", "fma", "fmax", "fmin", "fmod", "hypot", "lgamma", "log", "log2", "log10",
		"log1p", "logb", "mad", "maxmag", "minmag", "nextafter", "pow", "powr", "remainder", "rint", "round",
		"rsqrt", "sin", "sinh", "sinpi", "sqrt", "tan", "tanh", "tanpi", "tgamma", "trunc",
		"half_cos", "half_divide", "half_exp", "half_exp2", "half_exp10", "half_log", "half_log2", "half_log10",
		"half_powr", "half_recip", "half_rsqrt", "half_sin", "half_sqrt", "half_tan",
		"native_cos", "native_divide", "native_exp", "native_exp2", "native_exp10", "native_log", "native_log2",
		"native_log10", "native_powr", "native_recip", "native_rsqrt", "native_sin", "native_sqrt", "native_tan",
		"fclamp", "degrees", "fmax_common", "fmin_common", "mix", "radians", "step", "smoothstep", "sign":
		if !e.fsv(res) {
			return e.fail("expected Result Type to be a float scalar or vector type")
		}
		if !clComponents(n) {
			return e.fail(components)
		}
		return e.allOperandsResult()
	case "fract", "modf", "sincos", "frexp", "lgamma_r", "remquo":
		if !e.fsv(res) {
			return e.fail("expected Result Type to be a float scalar or vector type")
		}
		if !clComponents(n) {
			return e.fail(components)
		}
		if e.op(4) != res {
			return e.fail("expected type of operand X to be equal to Result Type")
		}
		k := 5
		if e.name == "remquo" {
			if e.op(5) != res {
				return e.fail("expected type of operand Y to be equal to Result Type")
			}
			k = 6
		}
		p := e.op(k)
		data, sc, ok := s.ptrInfo(p)
		untyped := s.typeOp(p) == spirv.OpTypeUntypedPointerKHR
		switch {
		case !ok:
			return e.fail("expected the last operand to be a pointer")
		case !ptrClass(sc):
			return e.fail(classes)
		}
		switch e.name {
		case "fract", "modf", "sincos":
			if !untyped && res != data {
				return e.fail("expected data type of the pointer to be equal to Result Type")
			}
		default:
			if (!e.isv(data) || e.width(data) != 32) && !untyped {
				return e.fail("expected data type of the pointer to be a 32-bit int scalar or vector type")
			}
			if !untyped && e.dim(data) != n {
				return e.fail("expected data type of the pointer to have the same number of components as Result Type")
			}
		}
	case "ilogb":
		if !e.isv(res) || e.width(res) != 32 {
			return e.fail("expected Result Type to be a 32-bit int scalar or vector type")
		}
		if !clComponents(n) {
			return e.fail(components)
		}
		x := e.op(4)
		if !e.fsv(x) {
			return e.fail("expected operand X to be a float scalar or vector")
		}
		if e.dim(x) != n {
			return e.fail("expected operand X to have the same number of components as Result Type")
		}
	case "ldexp", "pown", "rootn":
		if !e.fsv(res) {
			return e.fail("expected Result Type to be a float scalar or vector type")
		}
		if !clComponents(n) {
			return e.fail(components)
		}
		if e.op(4) != res {
			return e.fail("expected type of operand X to be equal to Result Type")
		}
		exp := e.op(5)
		if !e.isv(exp) || e.width(exp) != 32 {
			return e.fail("expected the exponent to be a 32-bit int scalar or vector")
		}
		if e.dim(exp) != n {
			return e.fail("expected the exponent to have the same number of components as Result Type")
		}
	case "nan":
		if !e.fsv(res) {
			return e.fail("expected Result Type to be a float scalar or vector type")
		}
		if !clComponents(n) {
			return e.fail(components)
		}
		c := e.op(4)
		switch {
		case !e.isv(c):
			return e.fail("expected Nancode to be an int scalar or vector type")
		case e.dim(c) != n:
			return e.fail("expected Nancode to have the same number of components as Result Type")
		case e.width(res) != e.width(c):
			return e.fail("expected Nancode to have the same bit width as Result Type")
		}
	case "s_abs", "s_abs_diff", "s_add_sat", "u_add_sat", "s_hadd", "u_hadd", "s_rhadd", "u_rhadd", "s_clamp",
		"u_clamp", "clz", "ctz", "s_mad_hi", "u_mad_sat", "s_mad_sat", "s_max", "u_max", "s_min", "u_min",
		"s_mul_hi", "rotate", "s_sub_sat", "u_sub_sat", "popcount", "u_abs", "u_abs_diff", "u_mul_hi", "u_mad_hi":
		if !e.isv(res) {
			return e.fail("expected Result Type to be an int scalar or vector type")
		}
		if !clComponents(n) {
			return e.fail(components)
		}
		return e.allOperandsResult()
	case "u_upsample", "s_upsample":
		if !e.isv(res) {
			return e.fail("expected Result Type to be an int scalar or vector type")
		}
		if !clComponents(n) {
			return e.fail(components)
		}
		w := e.width(res)
		if w != 16 && w != 32 && w != 64 {
			return e.fail("expected bit width of Result Type components to be 16, 32 or 64")
		}
		hi, lo := e.op(4), e.op(5)
		switch {
		case hi != lo:
			return e.fail("expected Hi and Lo operands to have the same type")
		case n != e.dim(hi):
			return e.fail("expected Hi and Lo operands to have the same number of components as Result Type")
		case w != 2*e.width(hi):
			return e.fail("expected bit width of components of Hi and Lo operands to be half of the bit width of components of Result Type")
		}
	case "s_mad24", "u_mad24", "s_mul24", "u_mul24":
		if !e.isv(res) || e.width(res) != 32 {
			return e.fail("expected Result Type to be a 32-bit int scalar or vector type")
		}
		if !clComponents(n) {
			return e.fail(components)
		}
		return e.allOperandsResult()
	case "cross":
		switch {
		case !s.isFloatVector(res):
			return e.fail("expected Result Type to be a float vector type")
		case n != 3 && n != 4:
			return e.fail("expected Result Type to have 3 or 4 components")
		case e.op(4) != res:
			return e.fail("expected operand X type to be equal to Result Type")
		case e.op(5) != res:
			return e.fail("expected operand Y type to be equal to Result Type")
		}
	case "distance", "fast_distance":
		if !s.isFloatScalar(res) {
			return e.fail("expected Result Type to be a float scalar type")
		}
		p0 := e.op(4)
		switch {
		case !e.fsv(p0):
			return e.fail("expected operand P0 to be of float scalar or vector type")
		case e.dim(p0) > 4:
			return e.fail("expected operand P0 to have no more than 4 components")
		case res != s.componentType(p0):
			return e.fail("expected operand P0 component type to be equal to Result Type")
		case p0 != e.op(5):
			return e.fail("expected operands P0 and P1 to be of the same type")
		}
	case "length", "fast_length":
		if !s.isFloatScalar(res) {
			return e.fail("expected Result Type to be a float scalar type")
		}
		p := e.op(4)
		switch {
		case !e.fsv(p):
			return e.fail("expected operand P to be a float scalar or vector")
		case e.dim(p) > 4:
			return e.fail("expected operand P to have no more than 4 components")
		case res != s.componentType(p):
			return e.fail("expected operand P component type to be equal to Result Type")
		}
	case "normalize", "fast_normalize":
		switch {
		case !e.fsv(res):
			return e.fail("expected Result Type to be a float scalar or vector type")
		case n > 4:
			return e.fail("expected Result Type to have no more than 4 components")
		case e.op(4) != res:
			return e.fail("expected operand P type to be equal to Result Type")
		}
	case "bitselect":
		if !e.fsv(res) && !e.isv(res) {
			return e.fail("expected Result Type to be an int or float scalar or vector type")
		}
		if !clComponents(n) {
			return e.fail(components)
		}
		return e.allOperandsResult()
	case "vloadn", "vstoren", "vload_half", "vload_halfn", "vloada_halfn", "vstore_half", "vstore_half_r",
		"vstore_halfn", "vstore_halfn_r", "vstorea_halfn", "vstorea_halfn_r":
		return e.loadStore()
	case "shuffle", "shuffle2":
		if !s.isFloatVector(res) && !s.isIntVector(res) {
			return e.fail("expected Result Type to be an int or float vector type")
		}
		if n != 2 && n != 4 && n != 8 && n != 16 {
			return e.fail("expected Result Type to have 2, 4, 8 or 16 components")
		}
		x, k := e.op(4), 5
		if e.name == "shuffle2" {
			if e.op(5) != x {
				return e.fail("expected operands X and Y to be of the same type")
			}
			k = 6
		}
		mask := e.op(k)
		if !s.isFloatVector(x) && !s.isIntVector(x) {
			return e.fail("expected operand X to be an int or float vector")
		}
		if xn := e.dim(x); xn != 2 && xn != 4 && xn != 8 && xn != 16 {
			return e.fail("expected operand X to have 2, 4, 8 or 16 components")
		}
		rc := s.componentType(res)
		switch {
		case rc != s.componentType(x):
			return e.fail("expected operand X and Result Type to have equal component types")
		case !s.isIntVector(mask):
			return e.fail("expected operand Shuffle Mask to be an int vector")
		case n != e.dim(mask):
			return e.fail("expected operand Shuffle Mask to have the same number of components as Result Type")
		case e.width(rc) != e.width(mask):
			return e.fail("expected operand Shuffle Mask components to have the same bit width as Result Type components")
		}
	case "printf":
		if !s.isIntScalar(res) || e.width(res) != 32 {
			return e.fail("expected Result Type to be a 32-bit int type")
		}
		p := e.op(4)
		data, sc, ok := s.ptrInfo(p)
		if !ok {
			return e.fail("expected operand Format to be a pointer")
		}
		if s.exts["SPV_EXT_relaxed_printf_string_address_space"] {
			if sc != spirv.StorageClassUniformConstant && !ptrClass(sc) {
				return e.fail("expected Format storage class to be UniformConstant, Crossworkgroup, Workgroup, Function, or Generic")
			}
		} else if sc != spirv.StorageClassUniformConstant {
			return e.fail("expected Format storage class to be UniformConstant")
		}
		if op := s.typeOp(data); (op == spirv.OpTypeArray || op == spirv.OpTypeRuntimeArray) && s.isIntScalar(s.componentType(data)) {
			data = s.componentType(data)
		}
		if !(s.isIntScalar(data) && e.width(data) == 8) && s.typeOp(p) != spirv.OpTypeUntypedPointerKHR {
			return e.fail("expected Format data type to be 8-bit int")
		}
	case "prefetch":
		if s.typeOp(res) != spirv.OpTypeVoid {
			return e.fail("expected Result Type to be void")
		}
		data, sc, ok := s.ptrInfo(e.op(4))
		switch {
		case !ok:
			return e.fail("expected operand Ptr to be a pointer")
		case sc != spirv.StorageClassCrossWorkgroup:
			return e.fail("expected operand Ptr storage class to be CrossWorkgroup")
		case !e.fsv(data) && !e.isv(data):
			return e.fail("expected Ptr data type to be int or float scalar or vector")
		case !clComponents(e.dim(data)):
			return e.fail(components)
		}
		size := e.sizeT()
		if size == 0 {
			return e.failRaw(" can only be used with physical addressing models")
		}
		if t := e.op(5); !s.isIntScalar(t) || e.width(t) != size {
			return e.fail("expected operand Num Elements to be of type size_t (%d-bit integer for the addressing model used in the module)", size)
		}
	case "select":
		if !e.fsv(res) && !e.isv(res) {
			return e.fail("expected Result Type to be an int or float scalar or vector type")
		}
		if !clComponents(n) {
			return e.fail(components)
		}
		c := e.op(6)
		switch {
		case e.op(4) != res:
			return e.fail("expected operand A type to be equal to Result Type")
		case e.op(5) != res:
			return e.fail("expected operand B type to be equal to Result Type")
		case !e.isv(c):
			return e.fail("expected operand C to be an int scalar or vector")
		case n != e.dim(c):
			return e.fail("expected operand C to have the same number of components as Result Type")
		case e.width(res) != e.width(c):
			return e.fail("expected operand C to have the same bit width as Result Type")
		}
	}
	return false
}
