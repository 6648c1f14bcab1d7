package val

import "spvx/spirv"

// This file holds validate_type.cpp's rules, as far as they exist here:
// OpTypeInt widths and signedness, and OpTypeFloat widths and encodings,
// which is where SPV_EXT_float8 and SPV_EXT_ocp_microscaling_types types
// are gated (OCP-MX-RULES.md §2.2 B).

// typeOps reports whether typePass can act on an instruction of opcode op
// (passGate runs it on no other: a new case there needs its opcode here).
func typeOps(op spirv.Opcode) bool {
	return spirv.DeclaresType(op) || op == spirv.OpTypeForwardPointer
}

func (s *state) typePass(i int, in *spirv.Instruction) bool {
	if !spirv.DeclaresType(in.Opcode) && in.Opcode != spirv.OpTypeForwardPointer {
		return false
	}
	if s.typeUniqueness(i, in) {
		return true
	}
	switch in.Opcode {
	case spirv.OpTypeMatrix:
		return s.typeMatrix(i, in)
	case spirv.OpTypeArray:
		return s.typeArray(i, in, "OpTypeArray")
	case spirv.OpTypeRuntimeArray:
		return s.typeArray(i, in, "OpTypeRuntimeArray")
	case spirv.OpTypePointer:
		if len(in.Words) > 3 && !s.isTypeID(in.Words[3]) {
			return s.fail(i, "", "OpTypePointer Type <id> %s is not a type.", s.idName(in.Words[3]))
		}
	case spirv.OpTypeFunction:
		return s.typeFunction(i, in)
	case spirv.OpTypeInt:
		return s.typeInt(i, in)
	case spirv.OpTypeFloat:
		return s.typeFloat(i, in)
	case spirv.OpTypeVector:
		return s.typeVector(i, in)
	case spirv.OpTypeCooperativeMatrixKHR, spirv.OpTypeCooperativeMatrixNV:
		return s.typeCooperativeMatrix(i, in)
	case spirv.OpTypeStruct:
		return s.typeStructMembers(i, in) || s.typeStructBlocks(i, in) || s.typeStructOpaque(i, in)
	case spirv.OpTypeUntypedPointerKHR:
		return s.untypedPointerType(i, in)
	case spirv.OpTypeTensorLayoutNV, spirv.OpTypeTensorViewNV, spirv.OpTypeTensorARM:
		return s.tensorTypePass(i, in)
	}
	return false
}

// typeStructMembers is ValidateTypeStruct's member-type rules: each
// member a type other than the struct itself and void, no struct with
// BuiltIn members inside another, and in Vulkan a runtime array only as
// the last member of a Block or BufferBlock struct.
func (s *state) typeStructMembers(i int, in *spirv.Instruction) bool {
	id, members := in.ResultID, in.Words[2:]
	for k, m := range members {
		if m == id {
			return s.fail(i, "", "Structure members may not be self references")
		}
		j, ok := s.x.Def(m)
		if !ok || !spirv.DeclaresType(s.m.Opcode(j)) {
			return s.fail(i, "", "OpTypeStruct Member Type <id> %s is not a type.", s.idName(m))
		}
		switch s.m.Opcode(j) {
		case spirv.OpTypeVoid:
			return s.fail(i, "", "Structures cannot contain a void type.")
		case spirv.OpTypeStruct:
			if s.builtinMembers(m) > 0 {
				return s.fail(i, "", "Structure <id> %s contains members with BuiltIn decoration. Therefore this structure may not be contained as a member of another structure type. Structure <id> %s contains structure <id> %s.",
					s.idName(m), s.idName(id), s.idName(m))
			}
		case spirv.OpTypeRuntimeArray:
			if !s.opts.Env.IsVulkan() {
				continue
			}
			vuid := s.vuid("VUID-StandaloneSpirv-OpTypeRuntimeArray-04680")
			if k != len(members)-1 {
				return s.fail(i, vuid, "In %s, OpTypeRuntimeArray must only be used for the last member of an OpTypeStruct", s.opts.Env.logName())
			}
			if d := s.decorations(); !d.has(id, spirv.DecorationBlock) && !d.has(id, spirv.DecorationBufferBlock) {
				return s.fail(i, vuid, "%s, OpTypeStruct containing an OpTypeRuntimeArray must be decorated with Block or BufferBlock.", s.opts.Env.logName())
			}
		}
	}
	return false
}

// builtinMembers counts the members of struct id decorated BuiltIn (the
// descriptor-heap built-ins aside), as ValidateTypeStruct counts them.
//
// Member indexes past the struct's members (which the decoration rules
// reject) are counted in a map: sizing a slice by them would let one
// OpMemberDecorate allocate gigabytes.
func (s *state) builtinMembers(id uint32) int {
	var seen []bool
	var beyond map[int]bool
	members := 0
	if t := s.typeOf(id); t != nil {
		members = len(t.Members)
	}
	n := 0
	for _, e := range s.decorations().ofKinds(id, spirv.DecorationBuiltIn) {
		if e.Kind != spirv.DecorationBuiltIn || e.Member < 0 || len(e.Params) == 0 {
			continue
		}
		if b := spirv.BuiltIn(e.Params[0]); b == spirv.BuiltInResourceHeapEXT || b == spirv.BuiltInSamplerHeapEXT {
			continue
		}
		if e.Member >= members {
			if beyond == nil {
				beyond = map[int]bool{}
			}
			if !beyond[e.Member] {
				beyond[e.Member] = true
				n++
			}
			continue
		}
		if seen == nil {
			seen = make([]bool, members)
		}
		if !seen[e.Member] {
			seen[e.Member] = true
			n++
		}
	}
	return n
}

// typeStructBlocks is the part of ValidateTypeStruct about Block and
// BuiltIn decorations: no Block or BufferBlock struct nested in another
// (through arrays, vectors, matrices and structs, not pointers), and
// either every member or no member decorated BuiltIn (the descriptor-heap
// built-ins aside). The member-type rules are typeStructMembers.
func (s *state) typeStructBlocks(i int, in *spirv.Instruction) bool {
	d := s.decorations()
	id := in.ResultID
	isBlock := func(t uint32) bool {
		for _, e := range d.ofKinds(t, spirv.DecorationBlock, spirv.DecorationBufferBlock) {
			if e.Member < 0 && (e.Kind == spirv.DecorationBlock || e.Kind == spirv.DecorationBufferBlock) {
				return true
			}
		}
		return false
	}
	if isBlock(id) {
		for _, m := range in.Words[2:] {
			if s.nestsBlock(m, isBlock) {
				return s.fail(i, "", "rules: A Block or BufferBlock cannot be nested within another Block or BufferBlock. ")
			}
		}
	}
	builtin := s.builtinMembers(id)
	if builtin > 0 && builtin != len(in.Words)-2 {
		return s.fail(i, "", "When BuiltIn decoration is applied to a structure-type member, all members of that structure type must also be decorated with BuiltIn (No allowed mixing of built-in variables and non-built-in variables within a single structure). Structure id %d does not meet this requirement.", id)
	}
	return false
}

// nestsBlock reports whether type t is, or holds through arrays, vectors,
// matrices and struct members (not pointers), a struct isBlock accepts;
// cached per type.
func (s *state) nestsBlock(t uint32, isBlock func(uint32) bool) bool {
	if s.blockNest == nil {
		s.blockNest = map[uint32]bool{}
	}
	if v, ok := s.blockNest[t]; ok {
		return v
	}
	s.blockNest[t] = false // a cycle (invalid anyway) ends here
	v := false
	if j, ok := s.x.Def(t); ok {
		d := s.m.Inst(j)
		switch d.Opcode {
		case spirv.OpTypeStruct:
			v = isBlock(t)
			for _, m := range d.Words[2:] {
				if v {
					break
				}
				v = s.nestsBlock(m, isBlock)
			}
		case spirv.OpTypeArray, spirv.OpTypeRuntimeArray, spirv.OpTypeVector, spirv.OpTypeMatrix:
			if len(d.Words) > 2 {
				v = s.nestsBlock(d.Words[2], isBlock)
			}
		}
	}
	s.blockNest[t] = v
	return v
}

func (s *state) typeInt(i int, in *spirv.Instruction) bool {
	if len(in.Words) < 4 {
		return false
	}
	bits, signedness := in.Words[2], in.Words[3]
	if bits != 32 {
		switch bits {
		case 4:
			if s.caps.has(spirv.CapabilityInt4TypeINTEL) || s.caps.has(spirv.CapabilityArbitraryPrecisionIntegersINTEL) {
				return false
			}
			return s.fail(i, "", "Using a 4-bit integer type requires the Int4TypeINTEL or ArbitraryPrecisionIntegersINTEL capability.")
		case 8:
			if s.feat.declareInt8 {
				return false
			}
			return s.fail(i, "", "Using an 8-bit integer type requires the Int8 capability, or an extension that explicitly enables 8-bit integers.")
		case 16:
			if s.feat.declareI16 {
				return false
			}
			return s.fail(i, "", "Using a 16-bit integer type requires the Int16 capability, or an extension that explicitly enables 16-bit integers.")
		case 64:
			if s.caps.has(spirv.CapabilityInt64) {
				return false
			}
			return s.fail(i, "", "Using a 64-bit integer type requires the Int64 capability.")
		default:
			if s.caps.has(spirv.CapabilityArbitraryPrecisionIntegersINTEL) {
				if bits == 0 {
					return s.fail(i, "", "OpTypeInt has 0 bits, which is not allowed even with ArbitraryPrecisionIntegersINTEL.")
				}
				return false
			}
			return s.fail(i, "", "Invalid number of bits (%d) used for OpTypeInt.", bits)
		}
	}
	if signedness != 0 && signedness != 1 {
		return s.fail(i, "", "OpTypeInt has invalid signedness:")
	}
	if s.caps.has(spirv.CapabilityKernel) && signedness != 0 {
		return s.fail(i, "", "The Signedness in OpTypeInt must always be 0 when Kernel capability is used.")
	}
	return false
}

func (s *state) typeFloat(i int, in *spirv.Instruction) bool {
	if len(in.Words) < 3 {
		return false
	}
	bits := in.Words[2]
	hasEnc := len(in.Words) > 3
	var enc spirv.FPEncoding
	if hasEnc {
		enc = spirv.FPEncoding(in.Words[3])
	}
	switch bits {
	case 32:
		if hasEnc {
			return s.fail(i, "", "32-bit floating point type must not have encoding parameter.")
		}
	case 4:
		if !hasEnc {
			return s.fail(i, "", "4-bit floating point type requires an encoding.")
		}
		if enc != spirv.FPEncodingFloat4E2M1EXT {
			return s.fail(i, "", "Unsupported 4-bit floating point encoding (%d).", enc)
		}
	case 6:
		if !hasEnc {
			return s.fail(i, "", "6-bit floating point type requires an encoding.")
		}
		if enc != spirv.FPEncodingFloat6E2M3EXT && enc != spirv.FPEncodingFloat6E3M2EXT {
			return s.fail(i, "", "Unsupported 6-bit floating point encoding (%d).", enc)
		}
	case 16:
		if !hasEnc && !s.feat.declareFloat16 {
			return s.fail(i, "", "Using a 16-bit floating point type requires the Float16 or Float16Buffer capability, or an extension that explicitly enables 16-bit floating point.")
		}
		if hasEnc && enc != spirv.FPEncodingBFloat16KHR {
			return s.fail(i, "", "Unsupported 16-bit floating point encoding (%d).", enc)
		}
	case 8:
		if !s.feat.declareFloat8 {
			return s.fail(i, "", "Using a 8-bit floating point type requires one of the following capabilities: Float8EXT, Float8UnsignedE8M0EXT, MXInt8EXT.")
		}
		if !hasEnc {
			return s.fail(i, "", "8-bit floating point type requires an encoding.")
		}
		switch enc {
		case spirv.FPEncodingFloat8E4M3EXT, spirv.FPEncodingFloat8E5M2EXT, spirv.FPEncodingFloat8UnsignedE8M0EXT, spirv.FPEncodingMXInt8EXT:
		default:
			return s.fail(i, "", "Unsupported 8-bit floating point encoding (%d).", enc)
		}
	case 64:
		if !s.caps.has(spirv.CapabilityFloat64) {
			return s.fail(i, "", "Using a 64-bit floating point type requires the Float64 capability.")
		}
		if hasEnc {
			return s.fail(i, "", "64-bit floating point type must not have encoding parameter.")
		}
	default:
		return s.fail(i, "", "Invalid number of bits (%d) used for OpTypeFloat.", bits)
	}
	return false
}

// isScalarTypeOp is spvOpcodeIsScalarType.
func isScalarTypeOp(op spirv.Opcode) bool {
	return op == spirv.OpTypeInt || op == spirv.OpTypeFloat || op == spirv.OpTypeBool
}

// typeVector is ValidateTypeVector: a scalar component, and 2, 3 or 4
// components unless Vector16 (8, 16) or LongVectorEXT (any) is declared.
func (s *state) typeVector(i int, in *spirv.Instruction) bool {
	if len(in.Words) < 4 {
		return false
	}
	comp, n := in.Words[2], in.Words[3]
	var compOp spirv.Opcode
	if j, ok := s.x.Def(comp); ok {
		compOp = s.m.Opcode(j)
	}
	if s.caps.has(spirv.CapabilityMaskedGatherScatterINTEL) {
		if compOp != spirv.OpTypePointer && !isScalarTypeOp(compOp) {
			return s.fail(i, "", "Invalid OpTypeVector Component Type<id> %s: Expected a scalar or pointer type when using the SPV_INTEL_masked_gather_scatter extension.", s.idName(comp))
		}
	} else if !isScalarTypeOp(compOp) {
		return s.fail(i, "", "OpTypeVector Component Type <id> %s is not a scalar type.", s.idName(comp))
	}
	switch {
	case n == 2 || n == 3 || n == 4:
	case n > 0 && s.caps.has(spirv.CapabilityLongVectorEXT):
	case n == 8 || n == 16:
		if !s.caps.has(spirv.CapabilityVector16) {
			return s.fail(i, s.vuid("VUID-StandaloneSpirv-None-12295"), "Having %d components for TypeVector requires the Vector16 or LongVectorEXT capability", n)
		}
	default:
		return s.fail(i, s.vuid("VUID-StandaloneSpirv-None-12295"), "Illegal number of components (%d) for TypeVector", n)
	}
	return false
}

// defOp returns the opcode defining id, OpNop for none.
func (s *state) defOp(id uint32) spirv.Opcode {
	if j, ok := s.x.Def(id); ok {
		return s.m.Opcode(j)
	}
	return spirv.OpNop
}

// isTypeID: id is defined by a type declaration (spvOpcodeGeneratesType).
func (s *state) isTypeID(id uint32) bool {
	op := s.defOp(id)
	return op != spirv.OpNop && spirv.DeclaresType(op)
}

// typeUniqueness is ValidateUniqueness: two declarations of one
// non-aggregate type (same opcode and operands) are not allowed.
func (s *state) typeUniqueness(i int, in *spirv.Instruction) bool {
	switch in.Opcode {
	case spirv.OpTypeArray, spirv.OpTypeRuntimeArray, spirv.OpTypeNodePayloadArrayAMDX, spirv.OpTypeStruct,
		spirv.OpTypePointer, spirv.OpTypeUntypedPointerKHR, spirv.OpTypeForwardPointer:
		return false
	}
	if s.exts["SPV_VALIDATOR_ignore_type_decl_unique"] || len(in.Words) < 2 {
		return false
	}
	if s.uniqueTypes == nil {
		s.uniqueTypes = map[string]bool{}
	}
	// The key: the opcode and every word but the result id (words[1]).
	key := make([]byte, 0, 4*len(in.Words))
	for k, w := range in.Words {
		if k == 1 {
			continue
		}
		if k == 0 {
			w &= 0xFFFF
		}
		key = append(key, byte(w), byte(w>>8), byte(w>>16), byte(w>>24))
	}
	if s.uniqueTypes[string(key)] {
		return s.fail(i, "", "Duplicate non-aggregate type declarations are not allowed. Opcode: %s id: %d", opName(in.Opcode), in.ResultID)
	}
	s.uniqueTypes[string(key)] = true
	return false
}

// typeMatrix is ValidateTypeMatrix.
func (s *state) typeMatrix(i int, in *spirv.Instruction) bool {
	if len(in.Words) < 4 {
		return false
	}
	j, ok := s.x.Def(in.Words[2])
	if !ok || s.m.Opcode(j) != spirv.OpTypeVector {
		return s.fail(i, "", "Columns in a matrix must be of type vector.")
	}
	col := s.m.Inst(j)
	if len(col.Words) < 3 || s.defOp(col.Words[2]) != spirv.OpTypeFloat {
		return s.fail(i, "", "Matrix types can only be parameterized with floating-point types.")
	}
	if n := in.Words[3]; n < 2 || n > 4 {
		return s.fail(i, "", "Matrix types can only be parameterized as having only 2, 3, or 4 columns.")
	}
	return false
}

// typeArray is ValidateTypeArray and ValidateTypeRuntimeArray, as far as
// they do not need decorations: the element type, and an array's length.
func (s *state) typeArray(i int, in *spirv.Instruction, name string) bool {
	if len(in.Words) < 3 {
		return false
	}
	elem := in.Words[2]
	op := s.defOp(elem)
	if op == spirv.OpNop || !spirv.DeclaresType(op) {
		return s.fail(i, "", "%s Element Type <id> %s is not a type.", name, s.idName(elem))
	}
	if op == spirv.OpTypeVoid {
		return s.fail(i, "", "%s Element Type <id> %s is a void type.", name, s.idName(elem))
	}
	if s.opts.Env.IsVulkan() && op == spirv.OpTypeRuntimeArray {
		return s.fail(i, s.vuid("VUID-StandaloneSpirv-OpTypeRuntimeArray-04680"), "%s Element Type <id> %s is not valid in %s environments.", name, s.idName(elem), s.opts.Env.logName())
	}
	if in.Opcode != spirv.OpTypeArray || len(in.Words) < 4 {
		return false
	}
	length := in.Words[3]
	j, ok := s.x.Def(length)
	if !ok || !isConstantOp(s.m.Opcode(j)) {
		return s.fail(i, "", "OpTypeArray Length <id> %s is not a scalar constant type.", s.idName(length))
	}
	c := s.m.Inst(j)
	lt := s.typeOf(c.Words[1])
	if len(c.Words) < 2 || lt == nil || lt.Kind != spirv.TypeInt {
		return s.fail(i, "", "OpTypeArray Length <id> %s is not a constant integer type.", s.idName(length))
	}
	if k, ok := s.intConstant(length); ok && !k.spec && !k.null {
		v := int64(k.val)
		if k.words == 1 && lt.Signed && lt.Width == 32 {
			v = int64(int32(k.val))
		}
		if lt.Width < 32 && lt.Signed && lt.Width > 0 {
			shift := 64 - lt.Width
			v = v << shift >> shift
		}
		if v == 0 || v < 0 && lt.Signed {
			return s.fail(i, "", "OpTypeArray Length <id> %s default value must be at least 1: found %d", s.idName(length), v)
		}
	}
	return false
}

// typeFunction is ValidateTypeFunction: return and parameter types, the
// --max-function-args limit, and where a function type may be used.
func (s *state) typeFunction(i int, in *spirv.Instruction) bool {
	if len(in.Words) < 3 {
		return false
	}
	if !s.isTypeID(in.Words[2]) {
		return s.fail(i, "", "OpTypeFunction Return Type <id> %s is not a type.", s.idName(in.Words[2]))
	}
	for _, p := range in.Words[3:] {
		op := s.defOp(p)
		if op == spirv.OpNop || !spirv.DeclaresType(op) {
			return s.fail(i, "", "OpTypeFunction Parameter Type <id> %s is not a type.", s.idName(p))
		}
		if op == spirv.OpTypeVoid {
			return s.fail(i, "", "OpTypeFunction Parameter Type <id> %s cannot be OpTypeVoid.", s.idName(p))
		}
	}
	if n := len(in.Words) - 3; uint32(n) > s.lim.MaxFunctionArgs {
		return s.fail(i, "", "OpTypeFunction may not take more than %d arguments. OpTypeFunction <id> %s has %d arguments.",
			s.lim.MaxFunctionArgs, s.idName(in.ResultID), n)
	}
	if use, bad := s.badFunctionTypeUse(in.ResultID); bad {
		return s.fail(use, "", "Invalid use of function type result id %s.", s.idName(in.ResultID))
	}
	return false
}

// badFunctionTypeUse returns the first instruction using function type t
// where only OpFunction, OpAsmINTEL, debug, non-semantic and decoration
// instructions (and OpTypePointer, with FunctionPointersINTEL) may.
func (s *state) badFunctionTypeUse(t uint32) (int, bool) {
	if ty := s.x.Types[t]; ty == nil || ty.Kind != spirv.TypeFunction {
		return 0, false
	}
	for _, u := range s.useIdx().of(s.x, t) {
		in := s.m.Inst(int(u.inst))
		switch in.Opcode {
		case spirv.OpFunction, spirv.OpAsmINTEL:
			continue
		case spirv.OpTypePointer:
			if s.caps.has(spirv.CapabilityFunctionPointersINTEL) {
				continue
			}
		}
		if isDebugOpcode(in.Opcode) || isDecorationOpcode(in.Opcode) {
			continue
		}
		if _, nonSem := s.extInstKind(&in); nonSem {
			continue
		}
		return int(u.inst), true
	}
	return 0, false
}
