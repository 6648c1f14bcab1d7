package val

import "spvx/spirv"

// This file holds validate_adjacency.cpp: OpPhi only at the start of a
// non-entry block (OpLine between them allowed), function variables only
// at the start of the entry block, and merge instructions immediately
// before their branch.

const (
	adjNewFunction = iota
	adjEntryBlock
	adjPhiValid
	adjInvalid
)

func (s *state) adjacency() bool {
	status := adjInvalid
	n := s.m.Len()
	for i := 0; i < n; i++ {
		in := s.m.Inst(i)
		switch in.Opcode {
		case spirv.OpFunction, spirv.OpFunctionParameter:
			status = adjNewFunction
		case spirv.OpLabel:
			if status == adjNewFunction {
				status = adjEntryBlock
			} else {
				status = adjPhiValid
			}
		case spirv.OpExtInst, spirv.OpExtInstWithForwardRefsKHR:
			set := ""
			if len(in.Words) > 3 {
				set = s.x.ExtInstImports[in.Words[3]]
			}
			if set != "DebugInfo" && set != "OpenCL.DebugInfo.100" {
				status = adjInvalid
			}
		case spirv.OpPhi:
			if status != adjPhiValid {
				if s.fail(i, "", "OpPhi must appear within a non-entry block before all non-OpPhi instructions (except for OpLine, which can be mixed with OpPhi).") {
					return true
				}
			}
		case spirv.OpLine, spirv.OpNoLine:
		case spirv.OpLoopMerge:
			status = adjInvalid
			if i+1 < n {
				if op := s.m.Inst(i + 1).Opcode; op != spirv.OpBranch && op != spirv.OpBranchConditional {
					if s.fail(i, "", "OpLoopMerge must immediately precede either an OpBranch or OpBranchConditional instruction. OpLoopMerge must be the second-to-last instruction in its block.") {
						return true
					}
				}
			}
		case spirv.OpSelectionMerge:
			status = adjInvalid
			if i+1 < n {
				if op := s.m.Inst(i + 1).Opcode; op != spirv.OpBranchConditional && op != spirv.OpSwitch {
					if s.fail(i, "", "OpSelectionMerge must immediately precede either an OpBranchConditional or OpSwitch instruction. OpSelectionMerge must be the second-to-last instruction in its block.") {
						return true
					}
				}
			}
		case spirv.OpVariable, spirv.OpUntypedVariableKHR:
			if len(in.Words) > 3 && spirv.StorageClass(in.Words[3]) == spirv.StorageClassFunction && status != adjEntryBlock {
				what := "OpVariable"
				if in.Opcode == spirv.OpUntypedVariableKHR {
					what = "OpUntypedVariableKHR"
				}
				if s.fail(i, "", "All %s instructions in a function must be the first instructions in the first block.", what) {
					return true
				}
			}
		default:
			status = adjInvalid
		}
	}
	return false
}
