package val

import "spvx/spirv"

// This file holds validate_misc.cpp's rules: OpUndef (and OpPoisonKHR)
// of a non-void type, without 8- or 16-bit components the module has no
// capability for; OpReadClockKHR's scope and result; OpIsHelperInvocationEXT's
// result; OpAssumeTrueKHR and OpExpectKHR's operand types. The
// fragment-only instructions register their execution-model limitations
// in execution_limitations.go; OpAbortKHR's Message logically matches its
// Message Type.

// Bits of the limited-use cache: the type contains a 16-bit integer, an
// 8-bit integer, a 16-bit float (not BFloat16), through arrays, vectors,
// matrices, images, cooperative matrices and structs, not pointers
// (ContainsSizedIntOrFloatType).
const (
	smallDone = 1 << iota
	smallI16
	smallI8
	smallF16
)

func (s *state) smallTypes(t uint32) uint8 {
	if s.smallCache == nil {
		s.smallCache = map[uint32]uint8{}
	}
	if v, ok := s.smallCache[t]; ok {
		return v
	}
	s.smallCache[t] = smallDone
	var v uint8 = smallDone
	if ty := s.typeOf(t); ty != nil {
		switch ty.Kind {
		case spirv.TypeInt:
			switch ty.Width {
			case 16:
				v |= smallI16
			case 8:
				v |= smallI8
			}
		case spirv.TypeFloat:
			if ty.Width == 16 && !ty.HasEncoding {
				v |= smallF16
			}
		case spirv.TypeVector, spirv.TypeMatrix, spirv.TypeArray, spirv.TypeRuntimeArray,
			spirv.TypeImage, spirv.TypeSampledImage, spirv.TypeCooperativeMatrix:
			v |= s.smallTypes(ty.Elem)
		case spirv.TypeStruct:
			for _, m := range ty.Members {
				v |= s.smallTypes(m)
			}
		}
	}
	s.smallCache[t] = v
	return v
}

// containsLimitedUse is ContainsLimitedUseIntOrFloatType.
func (s *state) containsLimitedUse(t uint32) bool {
	v := s.smallTypes(t)
	return v&smallI16 != 0 && !s.caps.has(spirv.CapabilityInt16) ||
		v&smallI8 != 0 && !s.caps.has(spirv.CapabilityInt8) ||
		v&smallF16 != 0 && !s.caps.has(spirv.CapabilityFloat16)
}

func (s *state) miscPass(i int, in *spirv.Instruction) bool {
	switch in.Opcode {
	case spirv.OpUndef, spirv.OpPoisonKHR:
		t := s.typeOf(in.TypeID)
		if t != nil && t.Kind == spirv.TypeVoid {
			return s.fail(i, "", "Cannot create undefined values with void type")
		}
		isPtr := t != nil && (t.Kind == spirv.TypePointer || t.Op == spirv.OpTypeUntypedPointerKHR)
		if s.caps.has(spirv.CapabilityShader) && !isPtr && s.containsLimitedUse(in.TypeID) {
			return s.fail(i, "", "Cannot create undefined values with 8- or 16-bit types")
		}
	case spirv.OpIsHelperInvocationEXT:
		if !s.isBoolScalar(in.TypeID) {
			return s.fail(i, "", "Expected bool scalar type as Result Type: %s", opName(in.Opcode))
		}
	case spirv.OpReadClockKHR:
		return s.readClock(i, in)
	case spirv.OpAssumeTrueKHR:
		if len(in.Words) > 1 && !s.isBoolScalar(s.typeOfValue(in.Words[1])) {
			return s.fail(i, "", "Value operand of OpAssumeTrueKHR must be a boolean scalar")
		}
	case spirv.OpAbortKHR:
		if len(in.Words) < 3 {
			return false
		}
		msgType, srcType := in.Words[1], s.typeOfValue(in.Words[2])
		if srcType != msgType && !s.logicallyMatch(srcType, msgType, 0) {
			return s.fail(i, "", "Type of Message operand does not logically match the type of the Message Type operand")
		}
	case spirv.OpExpectKHR:
		res := in.TypeID
		if !s.scalarOrLiteralVector(res, s.isBoolScalar) && !s.isIntScalarOrVector(res) {
			return s.fail(i, "", "Result of OpExpectKHR must be a scalar or vector of integer type or boolean type")
		}
		if s.opType(in, 2) != res {
			return s.fail(i, "", "Type of Value operand of OpExpectKHR does not match the result type ")
		}
		if s.opType(in, 3) != res {
			return s.fail(i, "", "Type of ExpectedValue operand of OpExpectKHR does not match the result type ")
		}
	}
	return false
}

// readClock is ValidateShaderClock.
func (s *state) readClock(i int, in *spirv.Instruction) bool {
	if len(in.Words) < 4 {
		return false
	}
	scope := in.Words[3]
	if s.validateScope(i, in, scope) {
		return true
	}
	if _, isConst, v := s.evalInt32IfConst(scope); isConst {
		sc := spirv.Scope(v)
		switch {
		case s.opts.Env.IsVulkan():
			if sc != spirv.ScopeSubgroup && sc != spirv.ScopeDevice {
				return s.fail(i, s.vuid("VUID-StandaloneSpirv-OpReadClockKHR-04652"), "Scope must be Subgroup or Device")
			}
		case s.opts.Env.IsOpenCL():
			if sc != spirv.ScopeWorkgroup && sc != spirv.ScopeSubgroup && sc != spirv.ScopeDevice {
				return s.fail(i, "", "Scope must be Subgroup, Workgroup, or Device")
			}
		}
	}
	res := s.typeOf(in.TypeID)
	ok := res != nil && (res.Kind == spirv.TypeInt && !res.Signed && res.Width == 64 ||
		res.Kind == spirv.TypeVector && res.Count == 2 && s.isUintScalar(res.Elem) && s.bitWidth(in.TypeID) == 32)
	if !ok {
		return s.fail(i, "", "Expected Value to be a vector of two components of unsigned integer or 64bit unsigned integer")
	}
	return false
}
