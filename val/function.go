package val

import "spvx/spirv"

// This file holds validate_function.cpp's rules, as far as they exist
// here: OpFunctionCall's callee, return type, logical-pointer return,
// argument count and argument types.

func (s *state) functionPass(i int, in *spirv.Instruction) bool {
	if in.Opcode != spirv.OpFunctionCall || len(in.Words) < 4 {
		return false
	}
	fid := in.Words[3]
	j, ok := s.x.Def(fid)
	if !ok || s.m.Inst(j).Opcode != spirv.OpFunction {
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
	}
	return false
}
