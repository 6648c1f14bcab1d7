package val

import (
	"fmt"

	"spvx/spirv"
)

// The ray-tracing built-ins, as validate_builtins.cpp's
// ValidateRayTracingBuiltinsAt{Definition,Reference} check them in Vulkan
// environments: the type at the definition; at every reference the Input
// storage class and the execution models each built-in is for
// (IsExecutionModelValidForRtBuiltIn). CurrentRayTimeNV and the other
// ray-tracing built-ins spirv-val does not route here are not checked.

// Type shapes of the ray-tracing built-ins.
const (
	rtbF32 = iota
	rtbI32
	rtbF32Vec3
	rtbI32Vec3
	rtbMat4x3
	rtbArr3F32Vec3
)

// rtBuiltin is one ray-tracing built-in: its type shape, the models it
// may be used with, and its execution model, storage class and type
// VUID numbers (GetVUIDForBuiltin).
type rtBuiltin struct {
	shape  uint8
	models uint64
	vuids  [3]int
}

const (
	mbHitStages   = mbAnyHit | mbClosestHit
	mbHitOrInter  = mbIntersection | mbAnyHit | mbClosestHit
	mbAfterLaunch = mbIntersection | mbAnyHit | mbClosestHit | mbMiss
)

var rtBuiltins = map[spirv.BuiltIn]rtBuiltin{
	spirv.BuiltInHitKindKHR:                    {rtbI32, mbHitStages, [3]int{4242, 4243, 4244}},
	spirv.BuiltInHitTNV:                        {rtbF32, mbHitStages, [3]int{4245, 4246, 4247}},
	spirv.BuiltInHitTriangleVertexPositionsKHR: {rtbArr3F32Vec3, mbHitStages, [3]int{8747, 8748, 8749}},
	spirv.BuiltInInstanceCustomIndexKHR:        {rtbI32, mbHitOrInter, [3]int{4251, 4252, 4253}},
	spirv.BuiltInInstanceId:                    {rtbI32, mbHitOrInter, [3]int{4254, 4255, 4256}},
	spirv.BuiltInRayGeometryIndexKHR:           {rtbI32, mbHitOrInter, [3]int{4345, 4346, 4347}},
	spirv.BuiltInObjectRayDirectionKHR:         {rtbF32Vec3, mbHitOrInter, [3]int{4299, 4300, 4301}},
	spirv.BuiltInObjectRayOriginKHR:            {rtbF32Vec3, mbHitOrInter, [3]int{4302, 4303, 4304}},
	spirv.BuiltInObjectToWorldKHR:              {rtbMat4x3, mbHitOrInter, [3]int{4305, 4306, 4307}},
	spirv.BuiltInWorldToObjectKHR:              {rtbMat4x3, mbHitOrInter, [3]int{4434, 4435, 4436}},
	spirv.BuiltInIncomingRayFlagsKHR:           {rtbI32, mbAfterLaunch, [3]int{4248, 4249, 4250}},
	spirv.BuiltInRayTminKHR:                    {rtbF32, mbAfterLaunch, [3]int{4351, 4352, 4353}},
	spirv.BuiltInRayTmaxKHR:                    {rtbF32, mbAfterLaunch, [3]int{4348, 4349, 4350}},
	spirv.BuiltInWorldRayDirectionKHR:          {rtbF32Vec3, mbAfterLaunch, [3]int{4428, 4429, 4430}},
	spirv.BuiltInWorldRayOriginKHR:             {rtbF32Vec3, mbAfterLaunch, [3]int{4431, 4432, 4433}},
	spirv.BuiltInCullMaskKHR:                   {rtbI32, mbAfterLaunch, [3]int{6735, 6736, 6737}},
	spirv.BuiltInLaunchIdKHR:                   {rtbI32Vec3, mbRayTracing, [3]int{4266, 4267, 4268}},
	spirv.BuiltInLaunchSizeKHR:                 {rtbI32Vec3, mbRayTracing, [3]int{4269, 4270, 4271}},
}

// isRTBuiltin reports whether b is checked here.
func isRTBuiltin(b spirv.BuiltIn) bool {
	_, ok := rtBuiltins[b]
	return ok
}

// rtBuiltinAtDefinition checks the type of built-in b decorating the
// definition j (member of a struct when member >= 0). It reports
// whether an error was recorded.
func (s *state) rtBuiltinAtDefinition(b spirv.BuiltIn, j, member int) bool {
	rb := rtBuiltins[b]
	t, failed := s.underlyingType(j, member)
	if failed {
		return true
	}
	desc := s.defDesc(j, member)
	var what, p string
	switch rb.shape {
	case rtbF32:
		what, p = "a 32-bit float scalar", s.f32Problem(desc, t)
	case rtbI32:
		what, p = "a 32-bit int scalar", s.i32Problem(desc, t)
	case rtbF32Vec3:
		what, p = "a 3-component 32-bit float vector", s.f32VecProblem(desc, t, 3)
	case rtbI32Vec3:
		what, p = "a 3-component 32-bit int vector", s.i32VecProblem(desc, t, 3)
	case rtbMat4x3:
		what, p = "a matrix with 4 columns of 3-component vectors of 32-bit floats", s.mat4x3Problem(desc, t)
	default:
		what, p = "an array of 3, 32-bit float 3-component vectors", s.arr3Vec3Problem(desc, t)
	}
	if p == "" {
		return false
	}
	return s.failStop(j, s.rtBuiltinVUID(b, 2), "According to the Vulkan spec BuiltIn %s variable needs to be %s. %s", builtinName(b), what, p)
}

// mat4x3Problem is ValidateF32Mat's message for 3 rows and 4 columns.
func (s *state) mat4x3Problem(desc string, t uint32) string {
	rows, cols, col, _, ok := s.matrixInfo(t)
	if !ok {
		rows, cols = 0, 0
	}
	if !ok || rows != 3 || cols != 4 {
		return fmt.Sprintf("%s has columns %d and rows %d not equal to expected 4x3.", desc, cols, rows)
	}
	return s.f32VecProblem(desc, col, 3)
}

// arr3Vec3Problem is ValidateArrayedF32Vec's message for an array of 3
// 3-component vectors.
func (s *state) arr3Vec3Problem(desc string, t uint32) string {
	if s.typeOp(t) != spirv.OpTypeArray {
		return desc + " is not an array."
	}
	n, ok := s.constUint(s.typeWord(t, 3))
	switch {
	case !ok:
		return desc + " array has a non constant length."
	case n != 3:
		return desc + " array length must be 3"
	}
	return s.f32VecProblem(desc, s.typeWord(t, 2), 3)
}

// rtBuiltinVUID is VkErrorID(GetVUIDForBuiltin(b, which)).
func (s *state) rtBuiltinVUID(b spirv.BuiltIn, which int) string {
	name := builtinName(b)
	return s.vuid(fmt.Sprintf("VUID-%s-%s-%05d", name, name, rtBuiltins[b].vuids[which]))
}

// rtBuiltinAtReference is ValidateRayTracingBuiltinsAtReference for rule
// r at instruction i, in function fnID called with the models in models.
func (s *state) rtBuiltinAtReference(r biRule, i int, in *spirv.Instruction, fnID uint32, models uint64, bj, rj int) bool {
	name := builtinName(r.builtin)
	if sc, ok := s.storageClassOf(in); ok && sc != spirv.StorageClassInput {
		return s.failStop(i, s.rtBuiltinVUID(r.builtin, 1), "Vulkan spec allows BuiltIn %s to be only used for variables with Input storage class. %s %s",
			name, s.refDesc(r.builtin, bj, rj, i, -1, fnID), s.storageDesc(in, i))
	}
	bad := models &^ rtBuiltins[r.builtin].models
	for k, bit := 0, uint64(1); k < len(modelOfBit); k, bit = k+1, bit<<1 {
		if bad&bit != 0 {
			return s.failStop(i, s.rtBuiltinVUID(r.builtin, 0), "Vulkan spec does not allow BuiltIn %s to be used with the execution model %s.\n%s",
				name, executionModelName(modelOfBit[k]), s.refDesc(r.builtin, bj, rj, i, int64(modelOfBit[k]), fnID))
		}
	}
	return false
}
