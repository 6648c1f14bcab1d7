package val

import (
	"spvx/spirv"
	"spvx/subgroup"
)

// This file holds the rules of SPV_INTEL_subgroup_bitcast_shuffle, which
// SPIRV-Tools does not know. The capability and extension gating is the
// generic grammar check (instruction.go: the opcode needs the
// SubgroupBitcastShuffleINTEL capability, which needs the extension); the
// vector sizes are the core OpTypeVector rule (type.go: 8 and 16
// components need Vector16 or LongVectorEXT); here is the Supported Types
// rule, in both directions, with subgroup.CheckSupported's wording, which
// spvx shuffle prints too.

// shuffleType describes type id t as the rule sees it.
func (s *state) shuffleType(t uint32) subgroup.Type {
	ty := s.typeOf(t)
	if ty == nil {
		return subgroup.Type{Kind: subgroup.Other}
	}
	comps := 1
	if ty.Kind == spirv.TypeVector {
		comps = int(ty.Count)
		ty = s.typeOf(ty.Elem)
		if ty == nil {
			return subgroup.Type{Kind: subgroup.Other}
		}
	}
	switch ty.Kind {
	case spirv.TypeInt:
		return subgroup.Type{Kind: subgroup.Int, Width: int(ty.Width), Components: comps, Signed: ty.Signed}
	case spirv.TypeFloat:
		return subgroup.Type{Kind: subgroup.Float, Width: int(ty.Width), Components: comps}
	}
	return subgroup.Type{Kind: subgroup.Other}
}

// bitcastShuffleOps reports whether bitcastShufflePass can act on an instruction of opcode op
// (passGate runs it on no other: a new case there needs its opcode here).
func bitcastShuffleOps(op spirv.Opcode) bool {
	return op == spirv.OpSubgroupBitcastShuffleINTEL
}

func (s *state) bitcastShufflePass(i int, in *spirv.Instruction) bool {
	if in.Opcode != spirv.OpSubgroupBitcastShuffleINTEL || len(in.Words) < 4 {
		return false
	}
	dst := s.shuffleType(in.TypeID)
	src := s.shuffleType(s.typeOfValue(in.Words[3]))
	if err := subgroup.CheckSupported(src, dst); err != nil {
		return s.fail(i, "", "%s", err.Error())
	}
	return false
}
