package asm

import (
	"strings"

	"spvx/spirv"
)

// lookups caches the grammar's name lookups for one Assemble call. The
// spirv package answers them by binary search over sorted tables; a text
// uses a few dozen distinct names many times over, so remembering each
// answer in a map (built as names appear, never at start-up) makes the
// common case one hash lookup.
type lookups struct {
	version spirv.Version
	opcodes [opcodeCacheSize]opcodeEntry
	enums   []map[string]*spirv.Enumerant // by operand kind
	extInst map[*spirv.ExtInstSet]map[string]*spirv.ExtInstInfo
}

// opcodeEntry caches one opcode name lookup in a direct-mapped table
// indexed by the name's hash: cheaper than a map for the one lookup every
// instruction makes.
type opcodeEntry struct {
	hash uint64
	name string
	info *spirv.InstructionInfo // nil: not in the grammar or target env
}

const opcodeCacheSize = 512

func newLookups(version spirv.Version) *lookups {
	return &lookups{
		version: version,
		enums:   make([]map[string]*spirv.Enumerant, len(spirv.OperandKinds())),
	}
}

// opcode looks up an instruction by its name without the "Op" prefix, as
// SPIRV-Tools' LookupOpcodeForEnv does: canonical names and aliases, but
// only instructions the target SPIR-V version has, or that an extension
// or capability can enable.
func (l *lookups) opcode(name []byte) (*spirv.InstructionInfo, bool) {
	h := hashName(name)
	c := &l.opcodes[h&(opcodeCacheSize-1)]
	if c.hash == h && c.name == string(name) {
		return c.info, c.info != nil
	}
	info, ok := spirv.LookupOpcode("Op" + string(name))
	if ok && !inVersion(info, l.version) {
		info = nil
	}
	*c = opcodeEntry{h, string(name), info}
	return info, info != nil
}

func inVersion(info *spirv.InstructionInfo, v spirv.Version) bool {
	if len(info.Extensions) > 0 || len(info.Capabilities) > 0 {
		return true
	}
	if info.Version == spirv.VersionNone || v < info.Version {
		return false
	}
	return info.LastVersion == 0 || v <= info.LastVersion
}

// enumerant looks up a ValueEnum or BitEnum name (canonical or alias) of
// kind k.
func (l *lookups) enumerant(k spirv.OperandKind, name []byte) (*spirv.Enumerant, bool) {
	m := l.enums[k]
	if m == nil {
		m = make(map[string]*spirv.Enumerant)
		l.enums[k] = m
	}
	if e, ok := m[string(name)]; ok {
		return e, e != nil
	}
	e, ok := k.LookupEnumerant(string(name))
	if !ok {
		e = nil
	}
	m[string(name)] = e
	return e, ok
}

// extInstruction looks up an extended instruction by name in set.
func (l *lookups) extInstruction(set *spirv.ExtInstSet, name []byte) (*spirv.ExtInstInfo, bool) {
	if l.extInst == nil {
		l.extInst = make(map[*spirv.ExtInstSet]map[string]*spirv.ExtInstInfo)
	}
	m := l.extInst[set]
	if m == nil {
		m = make(map[string]*spirv.ExtInstInfo)
		l.extInst[set] = m
	}
	if e, ok := m[string(name)]; ok {
		return e, e != nil
	}
	e, ok := set.LookupInstruction(string(name))
	if !ok {
		e = nil
	}
	m[string(name)] = e
	return e, ok
}

// specConstantOps are the opcodes OpSpecConstantOp may name: the list in
// the SPIR-V specification's description of OpSpecConstantOp (plus the
// cooperative matrix length queries), as SPIRV-Tools' assembler accepts
// them. The grammar does not mark them, so this one list is kept here, by
// the spirv package's opcode constants.
var specConstantOps = [...]spirv.Opcode{
	// Conversion
	spirv.OpSConvert, spirv.OpFConvert, spirv.OpConvertFToS, spirv.OpConvertSToF,
	spirv.OpConvertFToU, spirv.OpConvertUToF, spirv.OpUConvert, spirv.OpConvertPtrToU,
	spirv.OpConvertUToPtr, spirv.OpGenericCastToPtr, spirv.OpPtrCastToGeneric,
	spirv.OpBitcast, spirv.OpQuantizeToF16,
	// Arithmetic
	spirv.OpSNegate, spirv.OpNot, spirv.OpIAdd, spirv.OpISub, spirv.OpIMul, spirv.OpUDiv,
	spirv.OpSDiv, spirv.OpUMod, spirv.OpSRem, spirv.OpSMod, spirv.OpShiftRightLogical,
	spirv.OpShiftRightArithmetic, spirv.OpShiftLeftLogical, spirv.OpBitwiseOr,
	spirv.OpBitwiseAnd, spirv.OpBitwiseXor, spirv.OpFNegate, spirv.OpFAdd, spirv.OpFSub,
	spirv.OpFMul, spirv.OpFDiv, spirv.OpFRem, spirv.OpFMod,
	// Composite
	spirv.OpVectorShuffle, spirv.OpCompositeExtract, spirv.OpCompositeInsert,
	// Logical
	spirv.OpLogicalOr, spirv.OpLogicalAnd, spirv.OpLogicalNot, spirv.OpLogicalEqual,
	spirv.OpLogicalNotEqual, spirv.OpSelect,
	// Comparison
	spirv.OpIEqual, spirv.OpINotEqual, spirv.OpULessThan, spirv.OpSLessThan,
	spirv.OpUGreaterThan, spirv.OpSGreaterThan, spirv.OpULessThanEqual,
	spirv.OpSLessThanEqual, spirv.OpUGreaterThanEqual, spirv.OpSGreaterThanEqual,
	// Memory
	spirv.OpAccessChain, spirv.OpInBoundsAccessChain, spirv.OpPtrAccessChain,
	spirv.OpInBoundsPtrAccessChain,
	// Cooperative matrices
	spirv.OpCooperativeMatrixLengthNV, spirv.OpCooperativeMatrixLengthKHR,
}

// specConstantOp looks up an OpSpecConstantOp operation by its name
// without "Op" (canonical or alias).
func specConstantOp(name []byte) (*spirv.InstructionInfo, bool) {
	info, ok := spirv.LookupOpcode("Op" + string(name))
	if !ok {
		return nil, false
	}
	for _, op := range specConstantOps {
		if op == info.Opcode {
			return info, true
		}
	}
	return nil, false
}

// kindDesc is how SPIRV-Tools names an operand kind in "Invalid <kind>
// '<text>'." messages (its spvOperandTypeStr).
func kindDesc(k spirv.OperandKind) string {
	info := k.Info()
	if info == nil {
		return "unknown"
	}
	switch info.Set {
	case "":
	case "DebugInfo":
		return debugKindDesc(info.Name)
	case "OpenCL.DebugInfo.100":
		return "OpenCL.DebugInfo.100 " + debugKindDesc(info.Name)
	case "NonSemantic.Shader.DebugInfo.100", "NonSemantic.Shader.DebugInfo":
		switch info.Name {
		case "BuildIdentifierFlags":
			return "NonSemantic.Shader.DebugInfo.100 debug build identifier flags"
		case "DebugBaseTypeAttributeEncoding":
			return "NonSemantic.Shader.DebugInfo.100 debug base type attribute encoding"
		}
		return "NonSemantic.Shader.DebugInfo.100 " + debugKindDesc(info.Name)
	default:
		return words(info.Name)
	}
	switch info.Name {
	case "IdRef":
		return "ID"
	case "IdResultType":
		return "type ID"
	case "IdResult":
		return "result ID"
	case "IdMemorySemantics":
		return "memory semantics ID"
	case "IdScope":
		return "scope ID"
	case "LiteralInteger", "LiteralFloat":
		return "literal number"
	case "LiteralContextDependentNumber":
		return "possibly multi-word literal number"
	case "LiteralExtInstInteger":
		return "extension instruction number"
	case "LiteralSpecConstantOpInteger":
		return "OpSpecConstantOp opcode"
	case "LiteralString":
		return "literal string"
	case "Dim":
		return "dimensionality"
	case "ImageFormat":
		return "image format"
	case "FPFastMathMode":
		return "floating-point fast math mode"
	case "FPRoundingMode":
		return "floating-point rounding mode"
	case "BuiltIn":
		return "built-in"
	case "FragmentShadingRate":
		return "shading rate"
	case "KernelEnqueueFlags":
		return "kernel enqeue flags" // sic, as SPIRV-Tools spells it
	case "ImageOperands":
		return "image"
	case "FPEncoding":
		return "FP encoding"
	case "FPDenormMode":
		return "FP denorm mode"
	case "FPOperationMode":
		return "FP operation mode"
	case "QuantizationModes":
		return "quantization mode"
	case "OverflowModes":
		return "overflow mode"
	}
	return words(info.Name)
}

// debugKindDesc names the DebugInfo-family kinds: "debug info flags",
// "debug base type encoding", ...
func debugKindDesc(name string) string {
	if name == "DebugBaseTypeAttributeEncoding" {
		return "debug base type encoding"
	}
	return words(name)
}

// words turns a CamelCase kind name into SPIRV-Tools' lower-case phrase:
// "StorageClass" → "storage class", "RayQueryIntersection" → "ray query
// intersection".
func words(name string) string {
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		c := name[i]
		if 'A' <= c && c <= 'Z' {
			// A capital starts a word unless it continues an acronym.
			if i > 0 && !(isUpper(name[i-1]) && (i+1 == len(name) || isUpper(name[i+1]))) {
				b.WriteByte(' ')
			}
			if i+1 < len(name) && !isUpper(name[i+1]) || i > 0 && !isUpper(name[i-1]) {
				c += 'a' - 'A'
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }
