package val

import "spvx/spirv"

// This file holds validate_misc.cpp's rules: OpUndef (and OpPoisonKHR)
// of a non-void type, without 8- or 16-bit components the module has no
// capability for; OpReadClockKHR's scope and result; OpIsHelperInvocationEXT's
// result; OpAssumeTrueKHR and OpExpectKHR's operand types. The
// fragment-only instructions register their execution-model limitations
// in execution_limitations.go; OpAbortKHR's Message logically matches its
// Message Type.

// miscOps reports whether miscPass can act on an instruction of opcode op
// (passGate runs it on no other: a new case there needs its opcode here).
func miscOps(op spirv.Opcode) bool {
	return opIn(op, spirv.OpUndef, spirv.OpPoisonKHR, spirv.OpIsHelperInvocationEXT, spirv.OpReadClockKHR,
		spirv.OpAssumeTrueKHR, spirv.OpAbortKHR, spirv.OpExpectKHR)
}

func (s *state) miscPass(i int, in *spirv.Instruction) bool {
	switch in.Opcode {
	case spirv.OpUndef, spirv.OpPoisonKHR:
		t := s.typeOf(in.TypeID)
		if t != nil && t.Kind == spirv.TypeVoid {
			return s.fail(i, "", "Cannot create undefined values with void type")
		}
		isPtr := t != nil && (t.Kind == spirv.TypePointer || t.Op == spirv.OpTypeUntypedPointerKHR)
		if s.caps.has(spirv.CapabilityShader) && !isPtr && s.holdsLimitedUse(in.TypeID) {
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
