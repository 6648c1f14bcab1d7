package main

import (
	"fmt"
	"strings"
	"testing"

	"spvx/asm"
	"spvx/mx"
	"spvx/spirv"
	"spvx/subgroup"
)

// Debian's spirv-val does not know the new extensions, so this test checks
// the extensions' own rules on every assembled shader, from the spec texts
// (SPV_INTEL_subgroup_bitcast_shuffle, SPV_EXT_float8,
// SPV_EXT_ocp_microscaling_types; SPV_EXT_long_vector for 8/16-component
// vectors in a Shader module). It is stricter than spirv-val where the
// spec is (allow-list of instruction classes, FP4/FP6 storage classes on
// every pointer type, the saturation decoration's target).

type ltype struct {
	op         spirv.Opcode
	width      uint32 // int / float
	signed     bool
	enc        uint32 // float encoding, 0 = IEEE (BFloat16 is 0 too, unused here)
	hasEnc     bool
	elem       uint32   // vector / array / runtime array / pointer pointee
	count      uint32   // vector components
	members    []uint32 // struct
	storage    uint32   // pointer storage class
	components int
}

// narrow kinds
const (
	kNone = 0
	kFP8  = 1 << iota
	kOCP
	kFP46 // E2M1, E2M3, E3M2 (Function/Private only)
)

func encKind(enc uint32) int {
	switch enc {
	case mx.E4M3.FPEncoding(), mx.E5M2.FPEncoding():
		return kFP8
	case mx.E2M1.FPEncoding(), mx.E2M3.FPEncoding(), mx.E3M2.FPEncoding():
		return kOCP | kFP46
	case mx.E8M0.FPEncoding(), mx.MXINT8.FPEncoding():
		return kOCP
	}
	return kNone
}

type linter struct {
	types  map[uint32]*ltype
	values map[uint32]uint32 // value id → type id
	consts map[uint32]uint32 // scalar integer constant id → value
	defs   map[uint32]spirv.Instruction
	caps   map[string]bool
	exts   map[string]bool
	errs   []string
}

func (l *linter) errf(f string, a ...any) { l.errs = append(l.errs, fmt.Sprintf(f, a...)) }

// contains returns the narrow kinds a type is or includes.
func (l *linter) contains(id uint32) int {
	t := l.types[id]
	if t == nil {
		return kNone
	}
	switch t.op {
	case spirv.OpTypeFloat:
		if t.hasEnc {
			return encKind(t.enc)
		}
	case spirv.OpTypeVector, spirv.OpTypeArray, spirv.OpTypeRuntimeArray, spirv.OpTypePointer:
		return l.contains(t.elem)
	case spirv.OpTypeStruct:
		k := 0
		for _, m := range t.members {
			k |= l.contains(m)
		}
		return k
	}
	return kNone
}

// scalarOf returns a scalar or vector type's component type and count.
func (l *linter) scalarOf(id uint32) (*ltype, int, bool) {
	t := l.types[id]
	if t == nil {
		return nil, 0, false
	}
	switch t.op {
	case spirv.OpTypeInt, spirv.OpTypeFloat:
		return t, 1, true
	case spirv.OpTypeVector:
		c := l.types[t.elem]
		if c == nil || (c.op != spirv.OpTypeInt && c.op != spirv.OpTypeFloat) {
			return nil, 0, false
		}
		return c, int(t.count), true
	}
	return nil, 0, false
}

// allowedClasses are the instruction classes the two extensions allow on
// objects of their types, plus the listed single instructions.
var allowedClasses = map[string]bool{
	"Constant-Creation": true, "Memory": true, "Function": true, "Conversion": true, "Composite": true,
	"Annotation": true, "Debug": true, "Miscellaneous": true, "Extension": true, "Mode-Setting": true,
	"Type-Declaration": true,
}
var allowedOps = map[spirv.Opcode]bool{
	spirv.OpSelect: true, spirv.OpPhi: true, spirv.OpReturnValue: true, spirv.OpLifetimeStart: true, spirv.OpLifetimeStop: true,
}

func lintModule(words []uint32) []string {
	m, err := spirv.DecodeWords(words)
	if err != nil {
		return []string{err.Error()}
	}
	l := &linter{types: map[uint32]*ltype{}, values: map[uint32]uint32{}, consts: map[uint32]uint32{},
		defs: map[uint32]spirv.Instruction{}, caps: map[string]bool{}, exts: map[string]bool{}}
	var insts []spirv.Instruction
	for _, in := range m.All() {
		insts = append(insts, in)
		w := in.Words
		if in.ResultID != 0 {
			l.defs[in.ResultID] = in
		}
		switch in.Opcode {
		case spirv.OpCapability:
			if e, ok := spirv.OperandKindCapability.Enumerant(w[1]); ok {
				l.caps[e.Name] = true
			}
		case spirv.OpExtension:
			l.exts[in.String(0)] = true
		case spirv.OpTypeInt:
			l.types[w[1]] = &ltype{op: in.Opcode, width: w[2], signed: w[3] == 1}
		case spirv.OpTypeFloat:
			t := &ltype{op: in.Opcode, width: w[2]}
			if len(w) > 3 {
				t.enc, t.hasEnc = w[3], true
			}
			l.types[w[1]] = t
		case spirv.OpTypeVector:
			l.types[w[1]] = &ltype{op: in.Opcode, elem: w[2], count: w[3]}
		case spirv.OpTypeArray, spirv.OpTypeRuntimeArray:
			l.types[w[1]] = &ltype{op: in.Opcode, elem: w[2]}
		case spirv.OpTypeStruct:
			l.types[w[1]] = &ltype{op: in.Opcode, members: append([]uint32(nil), w[2:]...)}
		case spirv.OpTypePointer:
			l.types[w[1]] = &ltype{op: in.Opcode, storage: w[2], elem: w[3]}
		case spirv.OpTypeBool, spirv.OpTypeVoid, spirv.OpTypeFunction:
			l.types[w[1]] = &ltype{op: in.Opcode}
		}
		if in.TypeID != 0 && in.ResultID != 0 {
			l.values[in.ResultID] = in.TypeID
			if (in.Opcode == spirv.OpConstant || in.Opcode == spirv.OpSpecConstant) && len(w) == 4 {
				if t := l.types[in.TypeID]; t != nil && t.op == spirv.OpTypeInt {
					l.consts[in.ResultID] = w[3]
				}
			}
		}
	}
	need := func(cap, ext, why string) {
		if cap != "" && !l.caps[cap] {
			l.errf("%s needs OpCapability %s", why, cap)
		}
		if ext != "" && !l.exts[ext] {
			l.errf("%s needs OpExtension %q", why, ext)
		}
	}
	for id, t := range l.types {
		switch {
		case t.op == spirv.OpTypeFloat && t.hasEnc:
			var f mx.Format
			for _, g := range mx.Formats {
				if g.FPEncoding() == t.enc {
					f = g
				}
			}
			if f == 0 || int(t.width) != f.Bits() {
				l.errf("%%%d: OpTypeFloat %d with encoding %d", id, t.width, t.enc)
				continue
			}
			caps := map[mx.Format]string{mx.E4M3: "Float8EXT", mx.E5M2: "Float8EXT", mx.E2M1: "Float4EXT", mx.E2M3: "Float6EXT",
				mx.E3M2: "Float6EXT", mx.E8M0: "Float8UnsignedE8M0EXT", mx.MXINT8: "MXInt8EXT"}
			ext := "SPV_EXT_ocp_microscaling_types"
			if f == mx.E4M3 || f == mx.E5M2 {
				ext = "SPV_EXT_float8"
			}
			need(caps[f], ext, f.SPIRVName())
		case t.op == spirv.OpTypeVector && t.count > 4:
			need("LongVectorEXT", "SPV_EXT_long_vector", fmt.Sprintf("a %d-component vector", t.count))
		case t.op == spirv.OpTypeVector && t.count != 2 && t.count != 3 && t.count != 4:
			l.errf("%%%d: vector of %d components", id, t.count)
		case t.op == spirv.OpTypePointer && l.contains(id)&kFP46 != 0:
			if t.storage != uint32(spirv.StorageClassFunction) && t.storage != uint32(spirv.StorageClassPrivate) {
				l.errf("%%%d: FP4/FP6 pointer in storage class %d", id, t.storage)
			}
		}
	}
	for _, in := range insts {
		info, _ := spirv.LookupOpcode(in.Opcode.String())
		uses := kNone
		if in.TypeID != 0 {
			uses |= l.contains(in.TypeID)
		}
		for i, op := range in.Operands {
			if op.Kind == spirv.OperandKindIdRef {
				if ty, ok := l.values[in.Word(i)]; ok {
					uses |= l.contains(ty)
				}
			}
		}
		if uses&(kFP8|kOCP) != 0 && info != nil && !allowedClasses[info.Class] && !allowedOps[in.Opcode] {
			l.errf("%s (class %s) uses a narrow float type", info.Name, info.Class)
		}
		switch in.Opcode {
		case spirv.OpDecorate:
			target, deco := in.Words[1], in.Words[2]
			def, ok := l.defs[target]
			switch deco {
			case uint32(spirv.DecorationSaturatedToLargestFloat8NormalConversionEXT):
				need("Float8EXT", "", "SaturatedToLargestFloat8NormalConversionEXT")
				if !ok || (def.Opcode != spirv.OpFConvert && def.Opcode != spirv.OpConvertSToF && def.Opcode != spirv.OpConvertUToF) {
					l.errf("saturation decoration on %%%d, not an OpFConvert/OpConvertSToF/OpConvertUToF", target)
				} else if c, _, ok := l.scalarOf(def.TypeID); !ok || encKind(c.enc) != kFP8 || !c.hasEnc {
					l.errf("saturation decoration on %%%d, whose Result Type is not E4M3/E5M2", target)
				}
			case uint32(spirv.DecorationFPRoundingMode):
				if !ok || info == nil {
					break
				}
				if di, _ := spirv.LookupOpcode(def.Opcode.String()); di == nil || di.Class != "Conversion" {
					l.errf("FPRoundingMode on %%%d, not a conversion", target)
				}
			}
		case spirv.OpFConvert:
			// Component types must differ (the current OpFConvert rule;
			// with encodings, equal widths are fine: E4M3 → E5M2).
			rc, rn, ok1 := l.scalarOf(in.TypeID)
			vc, vn, ok2 := l.scalarOf(l.values[in.Words[3]])
			if !ok1 || !ok2 || rc.op != spirv.OpTypeFloat || vc.op != spirv.OpTypeFloat || rn != vn ||
				(rc.width == vc.width && rc.hasEnc == vc.hasEnc && rc.enc == vc.enc) {
				l.errf("OpFConvert between %v and %v", rc, vc)
			}
		case spirv.OpBitcastExtractEXT:
			need("BitcastExtractEXT", "SPV_EXT_ocp_microscaling_types", "OpBitcastExtractEXT")
			rc, rn, ok1 := l.scalarOf(in.TypeID)
			bc, bn, ok2 := l.scalarOf(l.values[in.Words[3]])
			oc, on, ok3 := l.scalarOf(l.values[in.Words[4]])
			switch {
			case !ok1 || !ok2:
				l.errf("OpBitcastExtractEXT: Result Type or Base not a numerical scalar/vector")
			case rn != bn:
				l.errf("OpBitcastExtractEXT: %d result components, %d base components", rn, bn)
			case bc.width <= rc.width:
				l.errf("OpBitcastExtractEXT: base width %d not greater than result width %d", bc.width, rc.width)
			case !ok3 || on != 1 || oc.op != spirv.OpTypeInt:
				l.errf("OpBitcastExtractEXT: Offset not a scalar integer")
			default:
				if off, ok := l.consts[in.Words[4]]; ok && off+rc.width > bc.width {
					l.errf("OpBitcastExtractEXT: Offset %d + %d exceeds the base width %d (undefined)", off, rc.width, bc.width)
				}
			}
		case spirv.OpSubgroupBitcastShuffleINTEL:
			need("SubgroupBitcastShuffleINTEL", "SPV_INTEL_subgroup_bitcast_shuffle", "OpSubgroupBitcastShuffleINTEL")
			conv := func(id uint32) subgroup.Type {
				c, n, ok := l.scalarOf(id)
				if !ok {
					return subgroup.Type{Kind: subgroup.Other}
				}
				k := subgroup.Int
				if c.op == spirv.OpTypeFloat {
					k = subgroup.Float
				}
				return subgroup.Type{Kind: k, Width: int(c.width), Components: n, Signed: c.signed}
			}
			if err := subgroup.CheckSupported(conv(l.values[in.Words[3]]), conv(in.TypeID)); err != nil {
				l.errf("OpSubgroupBitcastShuffleINTEL: %v", err)
			}
		}
	}
	// Integer widths need their capabilities in a Shader module.
	for _, t := range l.types {
		if t.op == spirv.OpTypeInt {
			switch t.width {
			case 8:
				need("Int8", "", "an 8-bit integer")
			case 16:
				need("Int16", "", "a 16-bit integer")
			case 64:
				need("Int64", "", "a 64-bit integer")
			}
		}
	}
	return l.errs
}

// TestExtensionRules applies lintModule to every shader of every script.
func TestExtensionRules(t *testing.T) {
	n := 0
	for name, p := range generated(t) {
		for _, sh := range p.shaders {
			words, err := asm.Assemble([]byte(sh.text), asm.Options{TargetEnv: sh.targetEnv})
			if err != nil {
				t.Errorf("%s %s: %v", name, sh.name, err)
				continue
			}
			for _, e := range lintModule(words) {
				t.Errorf("%s shader %s: %s", name, sh.name, e)
			}
			n++
		}
	}
	t.Logf("%d shaders checked", n)
}

// TestLintCatches: the checker rejects modules that break each rule.
func TestLintCatches(t *testing.T) {
	base := lines(
		"OpCapability Shader",
		"OpCapability Float8EXT",
		"OpCapability Float4EXT",
		`OpExtension "SPV_EXT_float8"`,
		`OpExtension "SPV_EXT_ocp_microscaling_types"`,
		"OpMemoryModel Logical GLSL450",
		`OpEntryPoint GLCompute %main "main"`,
		"OpExecutionMode %main LocalSize 1 1 1",
		"DECO",
		"%void = OpTypeVoid",
		"%fn = OpTypeFunction %void",
		"%f32 = OpTypeFloat 32",
		"%u32 = OpTypeInt 32 0",
		"%e4m3 = OpTypeFloat 8 Float8E4M3EXT",
		"%e2m1 = OpTypeFloat 4 Float4E2M1EXT",
		"%one = OpConstant %f32 1",
		"TYPES",
		"%main = OpFunction %void None %fn",
		"%entry = OpLabel",
		"BODY",
		"OpReturn",
		"OpFunctionEnd")
	cases := []struct{ deco, types, body, want string }{
		{"", "", "%x = OpFConvert %e4m3 %one", ""},
		{"OpDecorate %x SaturatedToLargestFloat8NormalConversionEXT", "", "%x = OpFConvert %e2m1 %one", "not E4M3/E5M2"},
		{"OpDecorate %x SaturatedToLargestFloat8NormalConversionEXT", "", "%x = OpFConvert %e4m3 %one\n%y = OpFAdd %f32 %one %one", ""},
		{"OpDecorate %y SaturatedToLargestFloat8NormalConversionEXT", "", "%y = OpFAdd %f32 %one %one", "not an OpFConvert"},
		{"", "", "%x = OpFConvert %e4m3 %one\n%y = OpFAdd %e4m3 %x %x", "uses a narrow float type"},
		{"", "%p = OpTypePointer StorageBuffer %e2m1", "", "FP4/FP6 pointer"},
		{"", "%v8 = OpTypeVector %u32 8", "", "LongVectorEXT"},
		{"", "%c40 = OpConstant %u32 30", "%x = OpBitcastExtractEXT %e2m1 %c40 %c40", "BitcastExtractEXT"},
	}
	for _, c := range cases {
		src := strings.NewReplacer("DECO\n", c.deco+"\n", "TYPES\n", c.types+"\n", "BODY\n", c.body+"\n").Replace(base)
		words, err := asm.Assemble([]byte(src), asm.Options{TargetEnv: "spv1.3"})
		if err != nil {
			t.Fatalf("%q: %v", c.body, err)
		}
		errs := strings.Join(lintModule(words), "; ")
		if c.want == "" && errs != "" || c.want != "" && !strings.Contains(errs, c.want) {
			t.Errorf("deco %q types %q body %q: got %q, want %q", c.deco, c.types, c.body, errs, c.want)
		}
	}
}
