package val

import (
	"strings"

	"spvx/spirv"
)

// This file holds validate_function.cpp's rules: OpFunction's type and
// the uses of its result, OpFunctionParameter's index and type, and
// OpFunctionCall's callee, return type, logical-pointer return, argument
// count, argument types and pointer arguments.
// (OpCooperativeMatrixPerElementOpEXT's function rules are not written.)

// functionOps reports whether functionPass can act on an instruction of opcode op
// (passGate runs it on no other: a new case there needs its opcode here).
func functionOps(op spirv.Opcode) bool {
	return op == spirv.OpFunction || op == spirv.OpFunctionParameter || op == spirv.OpFunctionCall
}

func (s *state) functionPass(i int, in *spirv.Instruction) bool {
	switch in.Opcode {
	case spirv.OpFunction:
		return s.function(i, in)
	case spirv.OpFunctionParameter:
		return s.functionParameter(i, in)
	}
	if in.Opcode != spirv.OpFunctionCall || len(in.Words) < 4 {
		return false
	}
	fid := in.Words[3]
	j, ok := s.x.Def(fid)
	if !ok || s.m.Opcode(j) != spirv.OpFunction {
		return s.fail(i, "", "OpFunctionCall Function <id> %s is not a function.", s.idName(fid))
	}
	fn := s.m.Inst(j)
	ret := fn.TypeID
	if ret != in.TypeID {
		return s.fail(i, "", "OpFunctionCall Result Type <id> %ss type does not match Function <id> %ss return type.",
			s.idName(in.TypeID), s.idName(ret))
	}
	if !s.opts.RelaxLogicalPointer && !s.opts.BeforeHLSLLegalization &&
		(s.x.AddressingModel == spirv.AddressingModelLogical || s.x.AddressingModel == spirv.AddressingModelPhysicalStorageBuffer64) {
		if rt := s.typeOf(ret); rt != nil && (rt.Op == spirv.OpTypePointer || rt.Op == spirv.OpTypeUntypedPointerKHR) {
			sc := rt.Storage
			if rt.Op == spirv.OpTypeUntypedPointerKHR {
				if j, ok := s.x.Def(ret); ok && len(s.m.Inst(j).Words) > 2 {
					sc = spirv.StorageClass(s.m.Inst(j).Words[2])
				}
			}
			if sc != spirv.StorageClassPhysicalStorageBuffer {
				switch {
				case !s.caps.has(spirv.CapabilityVariablePointersStorageBuffer) && sc == spirv.StorageClassStorageBuffer:
					return s.fail(i, "", "In Logical addressing, functions may only return a storage buffer pointer if the VariablePointersStorageBuffer capability is declared")
				case !s.caps.has(spirv.CapabilityVariablePointers) && sc == spirv.StorageClassWorkgroup:
					return s.fail(i, "", "In Logical addressing, functions may only return a workgroup pointer if the VariablePointers capability is declared")
				case sc != spirv.StorageClassStorageBuffer && sc != spirv.StorageClassWorkgroup:
					return s.fail(i, "", "In Logical addressing, functions may not return a pointer in this storage class")
				}
			}
		}
	}
	if len(fn.Words) < 5 {
		return false
	}
	ft := s.typeOf(fn.Words[4])
	if ft == nil || ft.Kind != spirv.TypeFunction {
		return s.fail(i, "", "Missing function type definition.")
	}
	args := in.Words[4:]
	if len(ft.Members) != len(args) {
		return s.fail(i, "", "OpFunctionCall Function <id>'s parameter count does not match the argument count.")
	}
	for k, a := range args {
		at := s.typeOfValue(a)
		if at == 0 {
			if _, ok := s.x.Def(a); !ok {
				return s.fail(i, "", "Missing argument %d definition.", k)
			}
			return s.fail(i, "", "Missing argument %d type definition.", k)
		}
		if pt := ft.Members[k]; at != pt && !s.opts.BeforeHLSLLegalization {
			// With --before-hlsl-legalization spirv-val accepts pointees
			// that match logically; that comparison is not written yet,
			// so nothing is rejected then.
			return s.fail(i, "", "OpFunctionCall Argument <id> %ss type does not match Function <id> %ss parameter type.",
				s.idName(a), s.idName(pt))
		}
		if s.pointerArgument(i, a, ft.Members[k]) {
			return true
		}
	}
	return false
}

// pointerArgument is ValidateFunctionCall's rule for a pointer parameter
// in the Logical and PhysicalStorageBuffer64 addressing models: the
// storage classes a pointer argument may have, and that it be a memory
// object declaration.
func (s *state) pointerArgument(i int, arg, paramType uint32) bool {
	if s.x.AddressingModel != spirv.AddressingModelLogical && s.x.AddressingModel != spirv.AddressingModelPhysicalStorageBuffer64 {
		return false
	}
	j, ok := s.x.Def(paramType)
	if !ok || s.opts.RelaxLogicalPointer {
		return false
	}
	pt := s.m.Inst(j)
	if (pt.Opcode != spirv.OpTypePointer && pt.Opcode != spirv.OpTypeUntypedPointerKHR) || len(pt.Words) < 3 {
		return false
	}
	sc := spirv.StorageClass(pt.Words[2])
	switch sc {
	case spirv.StorageClassPhysicalStorageBuffer:
		return false
	case spirv.StorageClassUniformConstant, spirv.StorageClassFunction, spirv.StorageClassPrivate,
		spirv.StorageClassWorkgroup, spirv.StorageClassAtomicCounter, spirv.StorageClassTileImageEXT,
		spirv.StorageClassShaderRecordBufferKHR:
	case spirv.StorageClassStorageBuffer:
		if !s.caps.has(spirv.CapabilityVariablePointers) && !s.caps.has(spirv.CapabilityVariablePointersStorageBuffer) {
			return s.fail(i, "", "StorageBuffer pointer operand %s requires a variable pointers capability", s.idName(arg))
		}
	default:
		return s.fail(i, "", "Invalid storage class for pointer operand %s", s.idName(arg))
	}
	a, ok := s.x.Def(arg)
	if !ok {
		return false
	}
	switch s.m.Opcode(a) {
	case spirv.OpVariable, spirv.OpUntypedVariableKHR, spirv.OpFunctionParameter:
		return false
	}
	ssboVptr := s.caps.has(spirv.CapabilityVariablePointersStorageBuffer) && sc == spirv.StorageClassStorageBuffer
	wgVptr := s.caps.has(spirv.CapabilityVariablePointers) && sc == spirv.StorageClassWorkgroup
	if !s.opts.BeforeHLSLLegalization && !ssboVptr && !wgVptr && sc != spirv.StorageClassUniformConstant {
		return s.fail(i, "", "Pointer operand %s must be a memory object declaration", s.idName(arg))
	}
	return false
}

// function is ValidateFunction: the function type, its return type, and
// where the function's result id may be used.
func (s *state) function(i int, in *spirv.Instruction) bool {
	if len(in.Words) < 5 {
		return false
	}
	ftID := in.Words[4]
	j, ok := s.x.Def(ftID)
	if !ok || s.m.Opcode(j) != spirv.OpTypeFunction {
		return s.fail(i, "", "OpFunction Function Type <id> %s is not a function type.", s.idName(ftID))
	}
	if ft := s.m.Inst(j); len(ft.Words) > 2 && ft.Words[2] != in.TypeID {
		return s.fail(i, "", "OpFunction Result Type <id> %s does not match the Function Type's return type <id> %s.",
			s.idName(in.TypeID), s.idName(ft.Words[2]))
	}
	if u, bad := s.badFunctionUse(in.ResultID); bad {
		return s.fail(u, "", "Invalid use of function result id %s.", s.idName(in.ResultID))
	}
	return false
}

// badFunctionUse returns the first use (by instruction) of the function
// fn that ValidateFunction refuses.
func (s *state) badFunctionUse(fn uint32) (int, bool) {
	if d, ok := s.x.Def(fn); !ok || s.m.Opcode(d) != spirv.OpFunction {
		return 0, false // uses of the id belong to its first definition
	}
	for _, u := range s.useIdx().of(s.x, fn) {
		if in := s.m.Inst(int(u.inst)); !s.functionUseOK(&in) {
			return int(u.inst), true
		}
	}
	return 0, false
}

// functionUseOK reports whether in may name a function id.
func (s *state) functionUseOK(in *spirv.Instruction) bool {
	switch in.Opcode {
	case spirv.OpGroupDecorate, spirv.OpDecorate, spirv.OpEnqueueKernel, spirv.OpEntryPoint,
		spirv.OpExecutionMode, spirv.OpExecutionModeId, spirv.OpFunctionCall,
		spirv.OpGetKernelNDrangeSubGroupCount, spirv.OpGetKernelNDrangeMaxSubGroupSize,
		spirv.OpGetKernelWorkGroupSize, spirv.OpGetKernelPreferredWorkGroupSizeMultiple,
		spirv.OpGetKernelLocalSizeForSubgroupCount, spirv.OpGetKernelMaxNumSubgroups, spirv.OpName,
		spirv.OpCooperativeMatrixPerElementOpEXT, spirv.OpCooperativeMatrixReduceEXT,
		spirv.OpCooperativeMatrixLoadTensorNV, spirv.OpConditionalEntryPointINTEL,
		spirv.OpConstantFunctionPointerINTEL,
		spirv.OpDecorateId, spirv.OpMemberDecorate, spirv.OpGroupMemberDecorate,
		spirv.OpDecorateString, spirv.OpMemberDecorateString, spirv.OpDecorationGroup:
		return true
	case spirv.OpExtInst, spirv.OpExtInstWithForwardRefsKHR:
		if len(in.Words) > 3 {
			switch set := s.x.ExtInstImports[in.Words[3]]; {
			case strings.HasPrefix(set, "NonSemantic."), set == "DebugInfo", set == "OpenCL.DebugInfo.100":
				return true
			}
		}
	}
	return false
}

// functionParameter is ValidateFunctionParameter: the parameter's index
// within its function's type, and its type.
func (s *state) functionParameter(i int, in *spirv.Instruction) bool {
	k := 0
	f := i - 1
	for ; f > 0 && s.m.Opcode(f) == spirv.OpFunctionParameter; f-- {
		k++
	}
	if f < 0 || s.m.Opcode(f) != spirv.OpFunction {
		return false // the layout check has said so
	}
	fn := s.m.Inst(f)
	if len(fn.Words) < 5 {
		return false
	}
	j, ok := s.x.Def(fn.Words[4])
	if !ok {
		return s.fail(f, "", "Missing function type definition.")
	}
	ft := s.m.Inst(j)
	if k >= len(ft.Words)-3 {
		return s.fail(i, "", "Too many OpFunctionParameters for %d: expected %d based on the function's type", fn.ResultID, len(ft.Words)-3)
	}
	if pt := ft.Words[3+k]; in.TypeID != pt {
		return s.fail(i, "", "OpFunctionParameter Result Type <id> %s does not match the OpTypeFunction parameter type of the same index.", s.idName(in.TypeID))
	}
	return false
}
