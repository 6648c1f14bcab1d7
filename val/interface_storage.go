package val

import "spvx/spirv"

// This file holds validate_interfaces.cpp's ValidateStorageClass: in a
// Vulkan environment, per entry point and in its interface's order,
//   - at most one PushConstant (unless PushConstantBanksNV),
//     IncomingRayPayloadKHR, HitAttributeKHR and IncomingCallableDataKHR
//     variable;
//   - no Input or Output variable whose type contains a BFloat16 (VUID
//     10370), or an FP8 (E4M3/E5M2) or OCP microscaling type (VUID 10823,
//     OCP-MX-RULES.md §2.2 E).
// spirv-val runs it after the interface listing check, once per entry
// point after that entry point's location checks.

// interfaceStorageClasses reports whether an error was recorded. Like
// spirv-val, it stops at the first error, even under Options.All.
func (s *state) interfaceStorageClasses() bool {
	if !s.opts.Env.IsVulkan() {
		return false
	}
	for k := range s.x.EntryPoints {
		if s.entryPointStorageClasses(&s.x.EntryPoints[k]) {
			return true
		}
	}
	return false
}

// singleInterfaceClasses are the storage classes an entry point's
// interface may hold one variable of, with their names as spirv-val
// spells them and their VUIDs.
var singleInterfaceClasses = map[spirv.StorageClass][2]string{
	spirv.StorageClassPushConstant:            {"PushConstant", "VUID-StandaloneSpirv-OpVariable-06673"},
	spirv.StorageClassIncomingRayPayloadKHR:   {"IncomingRayPayloadKHR", "VUID-StandaloneSpirv-IncomingRayPayloadKHR-04700"},
	spirv.StorageClassHitAttributeKHR:         {"HitAttributeKHR", "VUID-StandaloneSpirv-HitAttributeKHR-04702"},
	spirv.StorageClassIncomingCallableDataKHR: {"IncomingCallableDataKHR", "VUID-StandaloneSpirv-IncomingCallableDataKHR-04706"},
}

func (s *state) entryPointStorageClasses(ep *spirv.EntryPoint) bool {
	var seen []spirv.StorageClass
	for _, id := range ep.Interface {
		j, ok := s.x.Def(id)
		if !ok {
			continue
		}
		v := s.m.Inst(j)
		// Earlier passes reject an interface that is not a variable.
		if (v.Opcode != spirv.OpVariable && v.Opcode != spirv.OpUntypedVariableKHR) || len(v.Words) < 4 {
			continue
		}
		sc := spirv.StorageClass(v.Words[3])
		if named, single := singleInterfaceClasses[sc]; single {
			if sc == spirv.StorageClassPushConstant && s.caps.has(spirv.CapabilityPushConstantBanksNV) {
				continue
			}
			for _, c := range seen {
				if c == sc {
					s.fail(ep.Inst, named[1], "Entry-point has more than one variable with the %s storage class in the interface", named[0])
					return true
				}
			}
			seen = append(seen, sc)
			continue
		}
		if (sc == spirv.StorageClassInput || sc == spirv.StorageClassOutput) && s.smallFloatInterface(j, v.Words[1], id) {
			return true
		}
	}
	return false
}

// smallFloatInterface checks an Input or Output variable's pointee
// type for BFloat16, FP8 and OCP types. Only a typed pointer is looked
// at: spirv-val reads the pointee operand, which an untyped pointer lacks.
func (s *state) smallFloatInterface(j int, ptrType, varID uint32) bool {
	ptr := s.typeOf(ptrType)
	if ptr == nil || ptr.Kind != spirv.TypePointer {
		return false
	}
	c := s.contains(ptr.Elem)
	switch {
	case c&containsBF16 != 0:
		s.fail(j, "VUID-StandaloneSpirv-OpTypeFloat-10370", "Bfloat16 OpVariable <id> %s must not be declared with a Storage Class of Input or Output.", s.idName(varID))
		return true
	case c&(containsFP8|containsOCP) != 0:
		s.fail(j, "VUID-StandaloneSpirv-OpTypeFloat-10823", "FP8 or OCP microscaling OpVariable <id> %s must not be declared with a Storage Class of Input or Output.", s.idName(varID))
		return true
	}
	return false
}
