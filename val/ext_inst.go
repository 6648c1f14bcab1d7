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

// extInstOps reports whether extInstPass can act on an instruction of opcode op
// (passGate runs it on no other: a new case there needs its opcode here).
func extInstOps(op spirv.Opcode) bool {
	return op == spirv.OpExtInst
}

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

// glsl checks one GLSL.std.450 instruction; each family has its own
// method.
func (e *extInst) glsl() bool {
	s := e.s
	half := s.exts["SPV_AMD_gpu_shader_half_float"]
	switch e.name {
	case "Round", "RoundEven", "FAbs", "Trunc", "FSign", "Floor", "Ceil", "Fract", "Sqrt", "InverseSqrt",
		"FMin", "FMax", "FClamp", "FMix", "Step", "SmoothStep", "Fma", "Normalize", "FaceForward", "Reflect",
		"NMin", "NMax", "NClamp":
		return e.glslFloatOp()
	case "SAbs", "SSign", "UMin", "SMin", "UMax", "SMax", "UClamp", "SClamp", "FindILsb", "FindUMsb", "FindSMsb":
		return e.glslIntOp()
	case "Radians", "Degrees", "Sin", "Cos", "Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh", "Tanh", "Asinh",
		"Acosh", "Atanh", "Exp", "Exp2", "Log", "Log2", "Atan2", "Pow":
		return e.glslTranscendental()
	case "Determinant":
		return e.glslDeterminant()
	case "MatrixInverse":
		return e.glslMatrixInverse()
	case "Modf", "Frexp":
		return e.glslModfFrexp()
	case "ModfStruct":
		return e.glslModfStruct()
	case "Ldexp":
		return e.glslLdexp()
	case "FrexpStruct":
		return e.glslFrexpStruct()
	case "PackSnorm4x8", "PackUnorm4x8", "PackSnorm2x16", "PackUnorm2x16", "PackHalf2x16":
		return e.glslPack()
	case "PackDouble2x32":
		return e.glslPackDouble()
	case "UnpackSnorm4x8", "UnpackUnorm4x8", "UnpackSnorm2x16", "UnpackUnorm2x16", "UnpackHalf2x16":
		return e.glslUnpack()
	case "UnpackDouble2x32":
		return e.glslUnpackDouble()
	case "Length":
		return e.glslLength()
	case "Distance":
		return e.glslDistance()
	case "Cross":
		return e.glslCross()
	case "Refract":
		return e.glslRefract()
	case "InterpolateAtCentroid", "InterpolateAtSample", "InterpolateAtOffset":
		return e.interpolate(half)
	case "IMix":
		return s.fail(e.i, "", "Extended instruction GLSLstd450IMix is not supported")
	}
	return false
}

// glslFloatOp checks the float operations whose operands all have the
// Result Type (some also take cooperative vectors).
func (e *extInst) glslFloatOp() bool {
	s := e.s
	res := e.res()
	coop := false
	switch e.name {
	case "FMin", "FMax", "FClamp", "NMin", "NMax", "NClamp", "Step", "Fma":
		coop = true
	}
	if !e.fsv(res) && !(coop && s.isFloatCoopVec(res)) {
		return e.fail("expected Result Type to be a float scalar or vector type")
	}
	return e.allOperandsResult()
}

// glslIntOp checks the integer operations: int operands of the Result
// Type's dimension and width (some also take cooperative vectors).
func (e *extInst) glslIntOp() bool {
	s := e.s
	res := e.res()
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
	return false
}

// glslTranscendental checks the angle, trigonometry, exponent and
// logarithm operations, limited to 16- and 32-bit floats.
func (e *extInst) glslTranscendental() bool {
	s := e.s
	res := e.res()
	coop := e.name == "Atan" || e.name == "Tanh" || e.name == "Exp" || e.name == "Log"
	if !e.fsv(res) && !(coop && s.isFloatCoopVec(res)) {
		return e.fail("expected Result Type to be a 16 or 32-bit scalar or vector float type")
	}
	if w := e.width(res); w != 16 && w != 32 {
		return e.fail("expected Result Type to be a 16 or 32-bit scalar or vector float type")
	}
	return e.allOperandsResult()
}

// glslDeterminant checks Determinant.
func (e *extInst) glslDeterminant() bool {
	s := e.s
	res := e.res()
	rows, cols, _, comp, ok := s.matrixInfo(e.op(4))
	if !ok || rows != cols {
		return e.fail("expected operand X to be a square matrix")
	}
	if res != comp {
		return e.fail("expected operand X component type to be equal to Result Type")
	}
	return false
}

// glslMatrixInverse checks MatrixInverse.
func (e *extInst) glslMatrixInverse() bool {
	s := e.s
	res := e.res()
	rows, cols, _, _, ok := s.matrixInfo(res)
	if !ok || rows != cols {
		return e.fail("expected Result Type to be a square matrix")
	}
	if e.op(4) != res {
		return e.fail("expected operand X type to be equal to Result Type")
	}
	return false
}

// glslModfFrexp checks Modf and Frexp, which write through a pointer.
func (e *extInst) glslModfFrexp() bool {
	s := e.s
	res := e.res()
	int16 := e.s.exts["SPV_AMD_gpu_shader_int16"]
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
	return false
}

// glslModfStruct checks ModfStruct.
func (e *extInst) glslModfStruct() bool {
	s := e.s
	res := e.res()
	ty := s.typeOf(res)
	if ty == nil || ty.Kind != spirv.TypeStruct || len(ty.Members) != 2 || !e.fsv(ty.Members[0]) || ty.Members[1] != ty.Members[0] {
		return e.fail("expected Result Type to be a struct with two identical scalar or vector float type members")
	}
	if e.op(4) != ty.Members[0] {
		return e.fail("expected operand X type to be equal to members of Result Type struct")
	}
	return false
}

// glslLdexp checks Ldexp.
func (e *extInst) glslLdexp() bool {
	res := e.res()
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
	return false
}

// glslFrexpStruct checks FrexpStruct.
func (e *extInst) glslFrexpStruct() bool {
	s := e.s
	res := e.res()
	int16 := e.s.exts["SPV_AMD_gpu_shader_int16"]
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
	return false
}

// glslPack checks the Pack*4x8 and Pack*2x16 operations.
func (e *extInst) glslPack() bool {
	s := e.s
	res := e.res()
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
	return false
}

// glslPackDouble checks PackDouble2x32.
func (e *extInst) glslPackDouble() bool {
	s := e.s
	res := e.res()
	if !s.isFloatScalar(res) || e.width(res) != 64 {
		return e.fail("expected Result Type to be 64-bit float scalar type")
	}
	if v := e.op(4); !s.isIntVector(v) || e.dim(v) != 2 || e.width(v) != 32 {
		return e.fail("expected operand V to be a 32-bit int vector of size 2")
	}
	return false
}

// glslUnpack checks the Unpack*4x8 and Unpack*2x16 operations.
func (e *extInst) glslUnpack() bool {
	s := e.s
	res := e.res()
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
	return false
}

// glslUnpackDouble checks UnpackDouble2x32.
func (e *extInst) glslUnpackDouble() bool {
	s := e.s
	res := e.res()
	if !s.isIntVector(res) || e.dim(res) != 2 || e.width(res) != 32 {
		return e.fail("expected Result Type to be a 32-bit int vector of size 2")
	}
	if v := e.op(4); !s.isFloatScalar(v) || e.width(v) != 64 {
		return e.fail("expected operand V to be a 64-bit float scalar")
	}
	return false
}

// glslLength checks Length.
func (e *extInst) glslLength() bool {
	s := e.s
	res := e.res()
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
	return false
}

// glslDistance checks Distance.
func (e *extInst) glslDistance() bool {
	s := e.s
	res := e.res()
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
	return false
}

// glslCross checks Cross.
func (e *extInst) glslCross() bool {
	s := e.s
	res := e.res()
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
	return false
}

// glslRefract checks Refract.
func (e *extInst) glslRefract() bool {
	s := e.s
	res := e.res()
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
// clComponents is OpenCL.std's rule that vectors have 2, 3, 4, 8 or 16
// components.
func clComponents(n uint32) bool { return n <= 4 || n == 8 || n == 16 }

// clComponentsMsg and clClassesMsg are the OpenCL.std diagnostics that
// several instructions share.
const (
	clComponentsMsg = "expected Result Type to be a scalar or a vector with 2, 3, 4, 8 or 16 components"
	clClassesMsg    = "expected storage class of the pointer to be Generic, CrossWorkgroup, Workgroup or Function"
)

// clPtrClass reports whether a pointer of class sc may be written by
// OpenCL.std's pointer-taking math.
func clPtrClass(sc spirv.StorageClass) bool {
	switch sc {
	case spirv.StorageClassGeneric, spirv.StorageClassCrossWorkgroup, spirv.StorageClassWorkgroup, spirv.StorageClassFunction:
		return true
	}
	return false
}

// openCL checks one OpenCL.std instruction; each family has its own
// method.
func (e *extInst) openCL() bool {
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
		return e.clFloatOp()
	case "fract", "modf", "sincos", "frexp", "lgamma_r", "remquo":
		return e.clOutPointer()
	case "ilogb":
		return e.clIlogb()
	case "ldexp", "pown", "rootn":
		return e.clLdexp()
	case "nan":
		return e.clNan()
	case "s_abs", "s_abs_diff", "s_add_sat", "u_add_sat", "s_hadd", "u_hadd", "s_rhadd", "u_rhadd", "s_clamp",
		"u_clamp", "clz", "ctz", "s_mad_hi", "u_mad_sat", "s_mad_sat", "s_max", "u_max", "s_min", "u_min",
		"s_mul_hi", "rotate", "s_sub_sat", "u_sub_sat", "popcount", "u_abs", "u_abs_diff", "u_mul_hi", "u_mad_hi":
		return e.clIntOp()
	case "u_upsample", "s_upsample":
		return e.clUpsample()
	case "s_mad24", "u_mad24", "s_mul24", "u_mul24":
		return e.clMul24()
	case "cross":
		return e.clCross()
	case "distance", "fast_distance":
		return e.clDistance()
	case "length", "fast_length":
		return e.clLength()
	case "normalize", "fast_normalize":
		return e.clNormalize()
	case "bitselect":
		return e.clBitselect()
	case "vloadn", "vstoren", "vload_half", "vload_halfn", "vloada_halfn", "vstore_half", "vstore_half_r",
		"vstore_halfn", "vstore_halfn_r", "vstorea_halfn", "vstorea_halfn_r":
		return e.loadStore()
	case "shuffle", "shuffle2":
		return e.clShuffle()
	case "printf":
		return e.clPrintf()
	case "prefetch":
		return e.clPrefetch()
	case "select":
		return e.clSelect()
	}
	return false
}

// clFloatOp checks the float math operations whose operands all have
// the Result Type.
func (e *extInst) clFloatOp() bool {
	res := e.res()
	n := e.dim(res)
	if !e.fsv(res) {
		return e.fail("expected Result Type to be a float scalar or vector type")
	}
	if !clComponents(n) {
		return e.fail(clComponentsMsg)
	}
	return e.allOperandsResult()
}

// clOutPointer checks the operations that write a second result through
// their last operand, a pointer: fract, modf, sincos, frexp, lgamma_r and
// remquo.
func (e *extInst) clOutPointer() bool {
	s := e.s
	res := e.res()
	n := e.dim(res)
	if !e.fsv(res) {
		return e.fail("expected Result Type to be a float scalar or vector type")
	}
	if !clComponents(n) {
		return e.fail(clComponentsMsg)
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
	case !clPtrClass(sc):
		return e.fail(clClassesMsg)
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
	return false
}

// clIlogb checks ilogb.
func (e *extInst) clIlogb() bool {
	res := e.res()
	n := e.dim(res)
	if !e.isv(res) || e.width(res) != 32 {
		return e.fail("expected Result Type to be a 32-bit int scalar or vector type")
	}
	if !clComponents(n) {
		return e.fail(clComponentsMsg)
	}
	x := e.op(4)
	if !e.fsv(x) {
		return e.fail("expected operand X to be a float scalar or vector")
	}
	if e.dim(x) != n {
		return e.fail("expected operand X to have the same number of components as Result Type")
	}
	return false
}

// clLdexp checks ldexp, pown and rootn.
func (e *extInst) clLdexp() bool {
	res := e.res()
	n := e.dim(res)
	if !e.fsv(res) {
		return e.fail("expected Result Type to be a float scalar or vector type")
	}
	if !clComponents(n) {
		return e.fail(clComponentsMsg)
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
	return false
}

// clNan checks nan.
func (e *extInst) clNan() bool {
	res := e.res()
	n := e.dim(res)
	if !e.fsv(res) {
		return e.fail("expected Result Type to be a float scalar or vector type")
	}
	if !clComponents(n) {
		return e.fail(clComponentsMsg)
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
	return false
}

// clIntOp checks the integer operations whose operands all have the
// Result Type.
func (e *extInst) clIntOp() bool {
	res := e.res()
	n := e.dim(res)
	if !e.isv(res) {
		return e.fail("expected Result Type to be an int scalar or vector type")
	}
	if !clComponents(n) {
		return e.fail(clComponentsMsg)
	}
	return e.allOperandsResult()
}

// clUpsample checks u_upsample and s_upsample.
func (e *extInst) clUpsample() bool {
	res := e.res()
	n := e.dim(res)
	if !e.isv(res) {
		return e.fail("expected Result Type to be an int scalar or vector type")
	}
	if !clComponents(n) {
		return e.fail(clComponentsMsg)
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
	return false
}

// clMul24 checks the 24-bit multiplications, on 32-bit ints.
func (e *extInst) clMul24() bool {
	res := e.res()
	n := e.dim(res)
	if !e.isv(res) || e.width(res) != 32 {
		return e.fail("expected Result Type to be a 32-bit int scalar or vector type")
	}
	if !clComponents(n) {
		return e.fail(clComponentsMsg)
	}
	return e.allOperandsResult()
}

// clCross checks cross.
func (e *extInst) clCross() bool {
	s := e.s
	res := e.res()
	n := e.dim(res)
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
	return false
}

// clDistance checks distance and fast_distance.
func (e *extInst) clDistance() bool {
	s := e.s
	res := e.res()
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
	return false
}

// clLength checks length and fast_length.
func (e *extInst) clLength() bool {
	s := e.s
	res := e.res()
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
	return false
}

// clNormalize checks normalize and fast_normalize.
func (e *extInst) clNormalize() bool {
	res := e.res()
	n := e.dim(res)
	switch {
	case !e.fsv(res):
		return e.fail("expected Result Type to be a float scalar or vector type")
	case n > 4:
		return e.fail("expected Result Type to have no more than 4 components")
	case e.op(4) != res:
		return e.fail("expected operand P type to be equal to Result Type")
	}
	return false
}

// clBitselect checks bitselect.
func (e *extInst) clBitselect() bool {
	res := e.res()
	n := e.dim(res)
	if !e.fsv(res) && !e.isv(res) {
		return e.fail("expected Result Type to be an int or float scalar or vector type")
	}
	if !clComponents(n) {
		return e.fail(clComponentsMsg)
	}
	return e.allOperandsResult()
}

// clShuffle checks shuffle and shuffle2.
func (e *extInst) clShuffle() bool {
	s := e.s
	res := e.res()
	n := e.dim(res)
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
	return false
}

// clPrintf checks printf.
func (e *extInst) clPrintf() bool {
	s := e.s
	res := e.res()
	if !s.isIntScalar(res) || e.width(res) != 32 {
		return e.fail("expected Result Type to be a 32-bit int type")
	}
	p := e.op(4)
	data, sc, ok := s.ptrInfo(p)
	if !ok {
		return e.fail("expected operand Format to be a pointer")
	}
	if s.exts["SPV_EXT_relaxed_printf_string_address_space"] {
		if sc != spirv.StorageClassUniformConstant && !clPtrClass(sc) {
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
	return false
}

// clPrefetch checks prefetch.
func (e *extInst) clPrefetch() bool {
	s := e.s
	res := e.res()
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
		return e.fail(clComponentsMsg)
	}
	size := e.sizeT()
	if size == 0 {
		return e.failRaw(" can only be used with physical addressing models")
	}
	if t := e.op(5); !s.isIntScalar(t) || e.width(t) != size {
		return e.fail("expected operand Num Elements to be of type size_t (%d-bit integer for the addressing model used in the module)", size)
	}
	return false
}

// clSelect checks select.
func (e *extInst) clSelect() bool {
	res := e.res()
	n := e.dim(res)
	if !e.fsv(res) && !e.isv(res) {
		return e.fail("expected Result Type to be an int or float scalar or vector type")
	}
	if !clComponents(n) {
		return e.fail(clComponentsMsg)
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
	return false
}
