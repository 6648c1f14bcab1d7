package val

import (
	"fmt"
	"slices"
	"strings"

	"spvx/spirv"
)

// This file holds validate_decorations.cpp's rules (ValidateDecorations):
// CheckDecorationsCompatibility (a decoration at most once per id or
// member, and the mutually exclusive pairs), imported variables and
// linkage, the Vulkan memory model's deprecated decorations, the entry
// points' interfaces (CheckDecorationsOfEntryPoints), buffers
// (CheckDecorationsOfBuffers), variables, and the per-decoration rules
// (Component, FPRoundingMode in shaders and kernels, NonReadable and
// NonWritable). The Vulkan block layout rules, which current spirv-val
// runs apart as ValidateExplicitLayout, are in layout_rules.go; decoration
// groups are stored unexpanded in decoration_store.go.

func decorationName(d spirv.Decoration) string {
	if e, ok := spirv.OperandKindDecoration.Enumerant(uint32(d)); ok {
		return e.Name
	}
	return "Unknown"
}

func (s *state) decorationsCompatibility() bool {
	type idKey struct {
		dec spirv.Decoration
		id  uint32
	}
	type memberKey struct {
		dec        spirv.Decoration
		id, member uint32
	}
	// The maps made at their size (a count of opcodes is cheap next to
	// growing them).
	nID, nMember := 0, 0
	for i := 0; i < s.m.Len(); i++ {
		switch s.m.Opcode(i) {
		case spirv.OpDecorate:
			nID++
		case spirv.OpMemberDecorate, spirv.OpMemberDecorateIdEXT:
			nMember++
		}
	}
	perID := make(map[idKey]bool, nID)
	perMember := make(map[memberKey]bool, nMember)
	exclusiveID := map[spirv.Decoration]spirv.Decoration{
		spirv.DecorationBlock: spirv.DecorationBufferBlock, spirv.DecorationBufferBlock: spirv.DecorationBlock,
		spirv.DecorationRestrict: spirv.DecorationAliased, spirv.DecorationAliased: spirv.DecorationRestrict,
		spirv.DecorationRestrictPointer: spirv.DecorationAliasedPointer, spirv.DecorationAliasedPointer: spirv.DecorationRestrictPointer,
	}
	exclusiveMember := map[spirv.Decoration]spirv.Decoration{
		spirv.DecorationRowMajor: spirv.DecorationColMajor, spirv.DecorationColMajor: spirv.DecorationRowMajor,
		spirv.DecorationOffset: spirv.DecorationOffsetIdEXT, spirv.DecorationOffsetIdEXT: spirv.DecorationOffset,
	}
	at := func(id uint32) int {
		if j, ok := s.x.Def(id); ok {
			return j
		}
		return -1
	}
	for i := 0; i < s.m.Len(); i++ {
		switch s.m.Opcode(i) {
		case spirv.OpDecorate, spirv.OpMemberDecorate, spirv.OpMemberDecorateIdEXT:
		default:
			continue // the opcode alone, for most of the module
		}
		in := s.m.Inst(i)
		w := in.Words
		switch in.Opcode {
		case spirv.OpDecorate:
			if len(w) < 3 {
				continue
			}
			id, dec := w[1], spirv.Decoration(w[2])
			k := idKey{dec, id}
			if perID[k] && dec != spirv.DecorationUserSemantic && dec != spirv.DecorationFuncParamAttr {
				if s.fail(at(id), "", "ID '%d' decorated with %s multiple times is not allowed.", id, decorationName(dec)) {
					return true
				}
			}
			perID[k] = true
			if ex, ok := exclusiveID[dec]; ok && perID[idKey{ex, id}] {
				if s.fail(at(id), "", "ID '%d' decorated with both %s and %s is not allowed.", id, decorationName(dec), decorationName(ex)) {
					return true
				}
			}
		case spirv.OpMemberDecorate, spirv.OpMemberDecorateIdEXT:
			if len(w) < 4 {
				continue
			}
			id, member, dec := w[1], w[2], spirv.Decoration(w[3])
			k := memberKey{dec, id, member}
			if perMember[k] && dec != spirv.DecorationUserSemantic {
				if s.fail(at(id), "", "ID '%d', member '%d' decorated with %s multiple times is not allowed.", id, member, decorationName(dec)) {
					return true
				}
			}
			perMember[k] = true
			if ex, ok := exclusiveMember[dec]; ok && perMember[memberKey{ex, id, member}] {
				if s.fail(at(id), "", "ID '%d', member '%d' decorated with both %s and %s is not allowed.", id, member, decorationName(dec), decorationName(ex)) {
					return true
				}
			}
		}
	}
	return false
}

// validateDecorations is ValidateDecorations, in spirv-val's order.
func (s *state) validateDecorations() bool {
	for _, f := range []func() bool{
		s.importedVariableInitialization,
		s.decorationsOfEntryPoints,
		s.decorationsOfBuffers,
		s.decorationsOfVariables,
		s.decorationsCompatibility,
		s.linkageAttrOfFunctions,
		s.vulkanMemoryModelDeprecatedDecorations,
		s.decorationsFromDecoration,
	} {
		if f() && s.stopped() {
			return true
		}
	}
	return false
}

// defInst returns the index of id's definition, -1 for none.
func (s *state) defInst(id uint32) int {
	if j, ok := s.x.Def(id); ok {
		return j
	}
	return -1
}

// hasImportLinkage is hasImportLinkageAttribute.
func (s *state) hasImportLinkage(id uint32) bool {
	for _, e := range s.decorations().ofKinds(id, spirv.DecorationLinkageAttributes) {
		if e.Kind == spirv.DecorationLinkageAttributes && len(e.Params) >= 2 && e.Params[len(e.Params)-1] == uint32(spirv.LinkageTypeImport) {
			return true
		}
	}
	return false
}

// isGlobalVar reports whether instruction i is a module-scope variable
// (SPIRV-Tools registers every OpVariable not in Function storage).
func isGlobalVar(in *spirv.Instruction) bool {
	return in.Opcode == spirv.OpVariable && len(in.Words) > 3 && spirv.StorageClass(in.Words[3]) != spirv.StorageClassFunction
}

// importedVariableInitialization is CheckImportedVariableInitialization.
func (s *state) importedVariableInitialization() bool {
	for i := 0; i < s.m.Len(); i++ {
		if s.m.Opcode(i) != spirv.OpVariable {
			continue
		}
		in := s.m.Inst(i)
		if isGlobalVar(&in) && len(in.Words) == 5 && s.hasImportLinkage(in.ResultID) {
			if s.fail(i, "", "A module-scope OpVariable with initialization value cannot be marked with the Import Linkage Type.") {
				return true
			}
		}
	}
	return false
}

// linkageAttrOfFunctions is CheckLinkageAttrOfFunctions.
func (s *state) linkageAttrOfFunctions() bool {
	for _, f := range s.x.Functions {
		imported := s.hasImportLinkage(f.ID)
		switch {
		case len(f.Blocks) == 0 && !imported:
			if s.fail(f.Start, "", "Function declaration (id %d) must have a LinkageAttributes decoration with the Import Linkage type.", f.ID) {
				return true
			}
		case len(f.Blocks) > 0 && imported:
			if s.fail(f.Start, "", "Function definition (id %d) may not be decorated with Import Linkage type.", f.ID) {
				return true
			}
		}
	}
	return false
}

// vulkanMemoryModelDeprecatedDecorations is
// CheckVulkanMemoryModelDeprecatedDecorations.
func (s *state) vulkanMemoryModelDeprecatedDecorations() bool {
	if s.x.MemoryModel != spirv.MemoryModelVulkan {
		return false
	}
	d := s.decorations()
	for _, id := range d.ids {
		at := s.defInst(id)
		if at < 0 {
			continue
		}
		for _, e := range d.ofKinds(id, spirv.DecorationCoherent, spirv.DecorationVolatile) {
			if e.Kind != spirv.DecorationCoherent && e.Kind != spirv.DecorationVolatile {
				continue
			}
			msg := decorationName(e.Kind) + " decoration targeting " + s.idName(id)
			if e.Member >= 0 {
				msg += fmt.Sprintf(" (member index %d)", e.Member)
			}
			if s.fail(at, "", "%s is banned when using the Vulkan memory model.", msg) {
				return true
			}
			break
		}
	}
	return false
}

// decodeParamsString is MakeString over a decoration's words.
func decodeParamsString(words []uint32) string {
	var b []byte
	for _, w := range words {
		for k := 0; k < 4; k++ {
			c := byte(w >> (8 * k))
			if c == 0 {
				return string(b)
			}
			b = append(b, c)
		}
	}
	return string(b)
}

// entryPointFunctions returns the entry-point functions in the order of
// their first OpEntryPoint, each with its OpEntryPoints.
func (s *state) entryPointFunctions() ([]uint32, map[uint32][]*spirv.EntryPoint) {
	n := len(s.x.EntryPoints) // at most that many functions: made at that size
	order := make([]uint32, 0, n)
	by := make(map[uint32][]*spirv.EntryPoint, n)
	for k := range s.x.EntryPoints {
		ep := &s.x.EntryPoints[k]
		if _, ok := by[ep.Function]; !ok {
			order = append(order, ep.Function)
		}
		by[ep.Function] = append(by[ep.Function], ep)
	}
	return order, by
}

// decorationsOfEntryPoints is CheckDecorationsOfEntryPoints: for each
// entry-point function, each of its OpEntryPoints' interface variables,
// then the rules on the whole interface.
func (s *state) decorationsOfEntryPoints() bool {
	d := s.decorations()
	vulkan := s.opts.Env.IsVulkan()
	order, by := s.entryPointFunctions()
	for _, fn := range order {
		eps := by[fn]
		models := map[spirv.ExecutionModel]bool{}
		for _, ep := range eps {
			models[ep.Model] = true
		}
		c := epInterfaces{s: s, d: d, vulkan: vulkan, fn: fn, nModels: len(models),
			hasFrag: models[spirv.ExecutionModelFragment], hasVert: models[spirv.ExecutionModelVertex]}
		for _, ep := range eps {
			if c.interfaces(ep) || c.builtinBlocks() || c.linkage() || c.workgroupLayout() {
				return true
			}
		}
	}
	return false
}

// epInterfaces walks the interfaces of one entry-point function. The
// counts run on across all its OpEntryPoints, as in SPIRV-Tools.
type epInterfaces struct {
	s                *state
	d                *decorationStore
	vulkan           bool
	fn               uint32
	nModels          int // distinct execution models of fn
	hasFrag, hasVert bool

	builtinIn, builtinOut      int // interface blocks with BuiltIn members
	wgVars, wgBlock, wgAliased int // Workgroup variables, Block ones, Aliased ones
	hasTaskPayload             bool
}

// ifaceVar is one interface variable of an entry point.
type ifaceVar struct {
	id       uint32 // the interface id
	vi       int    // its OpVariable
	v        *spirv.Instruction
	sc       spirv.StorageClass
	untyped  bool
	typeID   uint32 // the variable's data type
	tt       *spirv.Type
	isStruct bool
}

// interfaces checks each interface variable of ep and reports whether
// validation stops.
func (c *epInterfaces) interfaces(ep *spirv.EntryPoint) bool {
	seen := map[uint32]bool{}
	inBuiltins, outBuiltins := map[uint32]bool{}, map[uint32]bool{}
	for _, id := range ep.Interface {
		stop, brk := c.iface(id, seen, inBuiltins, outBuiltins)
		if stop {
			return true
		}
		if brk {
			break
		}
	}
	return false
}

// iface checks one interface id. brk says that the rest of the entry
// point's interface is skipped: a second built-in block was counted.
func (c *epInterfaces) iface(id uint32, seen, inBuiltins, outBuiltins map[uint32]bool) (stop, brk bool) {
	s := c.s
	vi := s.defInst(id)
	if vi < 0 {
		return false, false // the id checks reported it
	}
	v := s.m.Inst(vi)
	if v.Opcode != spirv.OpVariable && v.Opcode != spirv.OpUntypedVariableKHR {
		return s.fail(vi, "", "Interfaces passed to OpEntryPoint must be variables. Found Op%s.", opName(v.Opcode)), false
	}
	if len(v.Words) < 4 {
		return false, false
	}
	x := ifaceVar{id: id, vi: vi, v: &v, sc: spirv.StorageClass(v.Words[3]), untyped: v.Opcode == spirv.OpUntypedVariableKHR}
	if c.storageClass(&x, seen) {
		return true, false
	}
	if x.untyped {
		if len(v.Words) < 5 {
			return false, false
		}
		x.typeID = v.Words[4]
	} else if pt := s.typeOf(v.TypeID); pt != nil && pt.Kind == spirv.TypePointer {
		x.typeID = pt.Elem
	}
	x.tt = s.typeOf(x.typeID)
	x.isStruct = x.tt != nil && x.tt.Kind == spirv.TypeStruct
	hasBuiltIn, stop := c.builtinDuplicates(&x, inBuiltins, outBuiltins)
	if stop {
		return true, false
	}
	if hasBuiltIn {
		if stop, brk := c.builtinVariable(&x); stop || brk {
			return stop, brk
		}
	}
	if c.workgroupVariable(&x) {
		return true, false
	}
	if c.vulkan {
		return c.interpolation(&x), false
	}
	return false, false
}

// storageClass: from SPIR-V 1.4 the interface lists global variables,
// each once, and at most one TaskPayloadWorkgroupEXT; before, only Input
// and Output variables.
func (c *epInterfaces) storageClass(x *ifaceVar, seen map[uint32]bool) bool {
	s, vi, sc := c.s, x.vi, x.sc
	if s.version < spirv.MakeVersion(1, 4) {
		if sc != spirv.StorageClassInput && sc != spirv.StorageClassOutput {
			if s.fail(vi, "", "In SPIR-V 1.3 or earlier, OpEntryPoint interfaces must be OpVariables with Storage Class of Input(1) or Output(3). Found Storage Class %d for Entry Point id %d.", uint32(sc), c.fn) {
				return true
			}
		}
		return false
	}
	if sc == spirv.StorageClassTaskPayloadWorkgroupEXT {
		if c.hasTaskPayload {
			if s.fail(vi, "", "There can be at most one OpVariable with storage class TaskPayloadWorkgroupEXT associated with an OpEntryPoint") {
				return true
			}
		}
		c.hasTaskPayload = true
	}
	if sc == spirv.StorageClassFunction {
		if s.fail(vi, "", "In SPIR-V 1.4 or later, OpEntryPoint interfaces should only list global variables") {
			return true
		}
	}
	if seen[x.id] {
		if s.fail(vi, "", "In SPIR-V 1.4 or later, non-unique OpEntryPoint interface %s is disallowed", s.idName(x.id)) {
			return true
		}
	}
	seen[x.id] = true
	return false
}

// builtinDuplicates reports whether the variable (or its struct type)
// has BuiltIn decorations and, in Vulkan, checks that no built-in is
// both on this and on an earlier input (output) variable.
func (c *epInterfaces) builtinDuplicates(x *ifaceVar, inBuiltins, outBuiltins map[uint32]bool) (hasBuiltIn, stop bool) {
	s := c.s
	decTarget := x.id
	if x.isStruct {
		decTarget = x.typeID
	}
	for _, e := range c.d.ofKinds(decTarget, spirv.DecorationBuiltIn) {
		if e.Kind != spirv.DecorationBuiltIn {
			continue
		}
		hasBuiltIn = true
		if !c.vulkan || len(e.Params) == 0 {
			continue
		}
		b := e.Params[0]
		if x.sc == spirv.StorageClassInput {
			if inBuiltins[b] {
				if s.fail(x.vi, s.vuid("VUID-StandaloneSpirv-OpEntryPoint-09658"), "OpEntryPoint contains duplicate input variables with %s builtin", enumName(spirv.OperandKindBuiltIn, b)) {
					return hasBuiltIn, true
				}
			}
			inBuiltins[b] = true
		}
		if x.sc == spirv.StorageClassOutput {
			if outBuiltins[b] {
				if s.fail(x.vi, s.vuid("VUID-StandaloneSpirv-OpEntryPoint-09659"), "OpEntryPoint contains duplicate output variables with %s builtin", enumName(spirv.OperandKindBuiltIn, b)) {
					return hasBuiltIn, true
				}
			}
			outBuiltins[b] = true
		}
	}
	return hasBuiltIn, false
}

// builtinVariable: a built-in variable has no Location or Component
// (Vulkan); a built-in struct is a Block, and is counted per storage
// class. brk once a class has two.
func (c *epInterfaces) builtinVariable(x *ifaceVar) (stop, brk bool) {
	s := c.s
	if c.vulkan {
		for _, e := range c.d.ofKinds(x.id, spirv.DecorationLocation, spirv.DecorationComponent) {
			if e.Kind == spirv.DecorationLocation || e.Kind == spirv.DecorationComponent {
				if s.fail(x.vi, s.vuid("VUID-StandaloneSpirv-Location-04915"), "A BuiltIn variable (id %d) cannot have any Location or Component decorations", x.id) {
					return true, false
				}
				break
			}
		}
	}
	if !x.isStruct {
		return false, false
	}
	if !c.d.has(x.typeID, spirv.DecorationBlock) {
		if s.fail(s.defInst(x.typeID), s.vuid("VUID-StandaloneSpirv-Location-04919"), "Interface struct has no Block decoration but has BuiltIn members. Location decorations must be used on each member of OpVariable with a structure type that is a block not decorated with Location.") {
			return true, false
		}
	}
	if x.sc == spirv.StorageClassInput {
		c.builtinIn++
	}
	if x.sc == spirv.StorageClassOutput {
		c.builtinOut++
	}
	return false, c.builtinIn > 1 || c.builtinOut > 1
}

// workgroupVariable counts Workgroup variables, Block and Aliased ones,
// and checks that untyped ones in shaders are Block structs.
func (c *epInterfaces) workgroupVariable(x *ifaceVar) bool {
	s := c.s
	if x.sc != spirv.StorageClassWorkgroup {
		return false
	}
	c.wgVars++
	if x.tt == nil {
		return false
	}
	if !x.isStruct {
		if x.untyped && s.caps.has(spirv.CapabilityShader) {
			return s.fail(x.vi, "", "Untyped workgroup variables in shaders must be block decorated structs")
		}
		return false
	}
	if s.hasNested(x.typeID, spirv.DecorationBlock, 0) {
		c.wgBlock++
	} else if x.untyped && s.caps.has(spirv.CapabilityShader) {
		if s.fail(x.vi, "", "Untyped workgroup variables in shaders must be block decorated") {
			return true
		}
	}
	if s.hasNested(x.v.ResultID, spirv.DecorationAliased, 0) {
		c.wgAliased++
	}
	return false
}

// interpolation is Vulkan's rules on interpolation decorations: none on
// vertex inputs or fragment outputs, and Flat on integer and 64-bit
// float fragment inputs.
func (c *epInterfaces) interpolation(x *ifaceVar) bool {
	s, vi, sc, fn := c.s, x.vi, x.sc, c.fn
	for _, e := range c.d.ofKinds(x.v.ResultID, spirv.DecorationFlat, spirv.DecorationNoPerspective, spirv.DecorationSample, spirv.DecorationCentroid) {
		switch e.Kind {
		case spirv.DecorationFlat, spirv.DecorationNoPerspective, spirv.DecorationSample, spirv.DecorationCentroid:
		default:
			continue
		}
		if sc == spirv.StorageClassInput && (c.nModels > 1 || c.hasVert) {
			if s.fail(vi, s.vuid("VUID-StandaloneSpirv-Flat-06202"), "%s decorated variable must not be used in vertex execution model as an Input storage class for Entry Point id %d.", decorationName(e.Kind), fn) {
				return true
			}
		} else if sc == spirv.StorageClassOutput && (c.nModels > 1 || c.hasFrag) {
			if s.fail(vi, s.vuid("VUID-StandaloneSpirv-Flat-06201"), "%s decorated variable must not be used in fragment execution model as an Output storage class for Entry Point id %d.", decorationName(e.Kind), fn) {
				return true
			}
		}
	}
	typeID := x.typeID
	flat := s.hasNested(x.v.ResultID, spirv.DecorationFlat, 0)
	if c.hasFrag && sc == spirv.StorageClassInput && !flat &&
		((s.isFloatScalar(typeID) && s.typeOf(typeID).Width == 64) || s.scalarOrLiteralVector(typeID, s.isIntScalar)) {
		if s.fail(vi, s.vuid("VUID-StandaloneSpirv-Flat-04744"), "Fragment OpEntryPoint operand %d with Input interfaces with integer or float type must have a Flat decoration for Entry Point id %d.", x.id, fn) {
			return true
		}
	}
	return false
}

// builtinBlocks: at most one built-in block per storage class.
func (c *epInterfaces) builtinBlocks() bool {
	if c.builtinIn > 1 || c.builtinOut > 1 {
		return c.s.fail(c.s.defInst(c.fn), "", "There must be at most one object per Storage Class that can contain a structure type containing members decorated with BuiltIn, consumed per entry-point. Entry Point id %d does not meet this requirement.", c.fn)
	}
	return false
}

// linkage: an entry-point function has no LinkageAttributes.
func (c *epInterfaces) linkage() bool {
	for _, e := range c.d.ofKinds(c.fn, spirv.DecorationLinkageAttributes) {
		if e.Kind == spirv.DecorationLinkageAttributes {
			return c.s.fail(c.s.defInst(c.fn), "", "The LinkageAttributes Decoration (Linkage name: %s) cannot be applied to function id %d because it is targeted by an OpEntryPoint instruction.", decodeParamsString(e.Params), c.fn)
		}
	}
	return false
}

// workgroupLayout: Block on Workgroup variables needs
// WorkgroupMemoryExplicitLayoutKHR, and then all or none are Blocks, and
// several Blocks are all Aliased.
func (c *epInterfaces) workgroupLayout() bool {
	s, fn := c.s, c.fn
	explicit := s.caps.has(spirv.CapabilityWorkgroupMemoryExplicitLayoutKHR)
	if explicit && !s.caps.has(spirv.CapabilityUntypedPointersKHR) && c.wgVars > 0 && c.wgBlock > 0 {
		if c.wgVars != c.wgBlock {
			if s.fail(s.defInst(fn), "", "When declaring WorkgroupMemoryExplicitLayoutKHR, either all or none of the Workgroup Storage Class variables in the entry point interface must point to struct types decorated with Block (unless the UntypedPointersKHR capability is declared).  Entry point id %d does not meet this requirement.", fn) {
				return true
			}
		}
		if c.wgBlock > 1 && c.wgBlock != c.wgAliased {
			return s.fail(s.defInst(fn), "", "When declaring WorkgroupMemoryExplicitLayoutKHR, if more than one Workgroup Storage Class variable in the entry point interface point to a type decorated with Block, all of them must be decorated with Aliased (unless the UntypedPointerWorkgroupKHR capability is declared). Entry point id %d does not meet this requirement.", fn)
		}
	} else if !explicit && c.wgBlock > 0 {
		return s.fail(s.defInst(fn), "", "Workgroup Storage Class variables can't be decorated with Block unless declaring the WorkgroupMemoryExplicitLayoutKHR capability.")
	}
	return false
}

// entryPointRefs is EntryPointReferences for a module-scope variable: the
// entry points (their functions, ascending) whose call graphs reach a
// function that uses the variable. Built once for all variables.
func (s *state) entryPointRefs(v uint32) []uint32 {
	d := s.decorations()
	if d.epRefs == nil {
		d.epRefs = map[uint32][]uint32{}
		m, x := s.m, s.x
		fnIndex := map[uint32]int{}
		for k, f := range x.Functions {
			fnIndex[f.ID] = k
		}
		// Per function: the global variables it uses and the functions it
		// calls.
		uses := make([][]uint32, len(x.Functions))
		calls := make([][]uint32, len(x.Functions))
		for k, f := range x.Functions {
			if f.End < 0 {
				continue
			}
			for i := f.Start; i <= f.End; i++ {
				in := m.Inst(i)
				if in.Opcode == spirv.OpFunctionCall && len(in.Words) > 3 {
					calls[k] = append(calls[k], in.Words[3])
				}
				for _, id := range in.UsedIDs() {
					if j, ok := x.Def(id); ok && j < f.Start {
						if g := m.Inst(j); isGlobalVar(&g) {
							uses[k] = append(uses[k], id)
						}
					}
				}
			}
		}
		order, _ := s.entryPointFunctions()
		visited := make([]uint32, len(x.Functions)) // last entry point (+1) that visited
		for n, ep := range order {
			stack := []uint32{ep}
			for len(stack) > 0 {
				f := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				k, ok := fnIndex[f]
				if !ok || visited[k] == uint32(n+1) {
					continue
				}
				visited[k] = uint32(n + 1)
				for _, u := range uses[k] {
					if l := d.epRefs[u]; len(l) == 0 || l[len(l)-1] != ep {
						d.epRefs[u] = append(l, ep)
					}
				}
				stack = append(stack, calls[k]...)
			}
		}
		for u, l := range d.epRefs {
			slices.Sort(l)
			d.epRefs[u] = slices.Compact(l)
		}
	}
	return d.epRefs[v]
}

// decorationsOfBuffers is CheckDecorationsOfBuffers (typed variables).
func (s *state) decorationsOfBuffers() bool {
	d := s.decorations()
	vulkan, opengl := s.opts.Env.IsVulkan(), s.opts.Env.IsOpenGL()
	usesPushConstant := map[uint32]bool{}
	for i := 0; i < s.m.Len(); i++ {
		if op := s.m.Opcode(i); op != spirv.OpVariable && op != spirv.OpUntypedVariableKHR {
			continue
		}
		in := s.m.Inst(i)
		if in.Opcode == spirv.OpUntypedVariableKHR && vulkan && s.heapStorage(i, in) {
			return true
		}
		if in.Opcode != spirv.OpVariable || len(in.Words) < 4 {
			continue
		}
		v := in.ResultID
		sc := spirv.StorageClass(in.Words[3])
		uniform := sc == spirv.StorageClassUniform
		pushConstant := sc == spirv.StorageClassPushConstant
		storageBuffer := sc == spirv.StorageClassStorageBuffer
		if vulkan && pushConstant && !s.caps.has(spirv.CapabilityPushConstantBanksNV) {
			for _, ep := range s.entryPointRefs(v) {
				if usesPushConstant[ep] {
					if s.fail(i, s.vuid("VUID-StandaloneSpirv-OpEntryPoint-06674"), "Entry point id '%d' uses more than one PushConstant interface.\nFrom Vulkan spec:\nThere must be no more than one push constant block statically used per shader entry point.", ep) {
						return true
					}
				}
				usesPushConstant[ep] = true
			}
		}
		if opengl {
			block, bufferBlock := s.hasNested(v, spirv.DecorationBlock, 0), s.hasNested(v, spirv.DecorationBufferBlock, 0)
			if (uniform && (block || bufferBlock)) || (storageBuffer && block) {
				if len(s.entryPointRefs(v)) > 0 && !s.hasNested(v, spirv.DecorationBinding, 0) {
					if s.fail(i, "", "%s id '%d' is missing Binding decoration.\nFrom ARB_gl_spirv extension:\nUniform and shader storage block variables must also be decorated with a *Binding*.", storageClassName(sc), v) {
						return true
					}
				}
			}
		}
		physical := sc == spirv.StorageClassPhysicalStorageBuffer
		workgroup := sc == spirv.StorageClassWorkgroup && s.caps.has(spirv.CapabilityWorkgroupMemoryExplicitLayoutKHR)
		if !(uniform || pushConstant || storageBuffer || physical || workgroup) {
			continue
		}
		pt := s.typeOf(in.TypeID)
		if pt == nil || pt.Kind != spirv.TypePointer {
			continue
		}
		id := pt.Elem
		if at := s.typeOf(id); !workgroup && at != nil && (at.Kind == spirv.TypeArray || at.Kind == spirv.TypeRuntimeArray) {
			id = at.Elem
		}
		if vulkan {
			block, bufferBlock := s.hasNested(id, spirv.DecorationBlock, 0), s.hasNested(id, spirv.DecorationBufferBlock, 0)
			var failed bool
			switch {
			case storageBuffer && bufferBlock:
				failed = s.fail(i, s.vuid("VUID-StandaloneSpirv-PushConstant-06675"), "Storage buffer id '%d In Vulkan, BufferBlock is disallowed on variables in the StorageBuffer storage class", v)
			case pushConstant && !block:
				failed = s.fail(s.defInst(id), s.vuid("VUID-StandaloneSpirv-PushConstant-06675"), "PushConstant id '%d' is missing Block decoration.\nFrom Vulkan spec:\nSuch variables must be identified with a Block decoration", id)
			case storageBuffer && !block:
				failed = s.fail(s.defInst(id), s.vuid("VUID-StandaloneSpirv-PushConstant-06675"), "StorageBuffer id '%d' is missing Block decoration.\nFrom Vulkan spec:\nSuch variables must be identified with a Block decoration", id)
			case uniform && !block && !bufferBlock:
				failed = s.fail(s.defInst(id), s.vuid("VUID-StandaloneSpirv-Uniform-06676"), "Uniform id '%d' is missing Block or BufferBlock decoration.\nFrom Vulkan spec:\nSuch variables must be identified with a Block or BufferBlock decoration", id)
			}
			if failed && s.stopped() {
				return true
			}
		}
		// Remember the buffer pointer types for the NonWritable rule.
		for _, e := range d.ofKinds(id, spirv.DecorationBlock, spirv.DecorationBufferBlock) {
			if (uniform && e.Kind == spirv.DecorationBlock) ||
				(uniform && e.Kind == spirv.DecorationBufferBlock) || ((storageBuffer || physical) && e.Kind == spirv.DecorationBlock) {
				d.bufferPtr[in.TypeID] = true
			}
		}
	}
	return false
}

// decorationsOfVariables is CheckDecorationsOfVariables.
func (s *state) decorationsOfVariables() bool {
	if !s.opts.Env.IsVulkan() {
		return false
	}
	for i := 0; i < s.m.Len(); i++ {
		if op := s.m.Opcode(i); op != spirv.OpVariable && op != spirv.OpUntypedVariableKHR {
			continue
		}
		in := s.m.Inst(i)
		if len(in.Words) < 4 {
			continue
		}
		v := in.ResultID
		sc := spirv.StorageClass(in.Words[3])
		switch sc {
		case spirv.StorageClassUniform, spirv.StorageClassUniformConstant, spirv.StorageClassStorageBuffer:
			if in.Opcode == spirv.OpUntypedVariableKHR && s.descriptorHeapBase(v) {
				continue // a heap has no DescriptorSet or Binding (IsDescriptorHeapBaseVariable)
			}
			if s.opts.BeforeHLSLLegalization && len(s.entryPointRefs(v)) == 0 {
				continue
			}
			name := storageClassName(sc)
			for _, dec := range []spirv.Decoration{spirv.DecorationDescriptorSet, spirv.DecorationBinding} {
				if !s.hasNested(v, dec, 0) {
					if s.fail(i, s.vuid("VUID-StandaloneSpirv-UniformConstant-06677"), "%s id '%d' is missing %s decoration.\nFrom Vulkan spec:\nThese variables must have DescriptorSet and Binding decorations specified", name, v, decorationName(dec)) {
						return true
					}
					break
				}
			}
		case spirv.StorageClassTileImageEXT:
			if !s.hasNested(v, spirv.DecorationLocation, 0) {
				if s.fail(i, s.vuid("VUID-StandaloneSpirv-TileImageEXT-08723"), "Variable with TileImageEXT Storage Class must be decorated with Location.") {
					return true
				}
			}
		}
	}
	return false
}

// isPointerToStorageImage: a UniformConstant pointer to an image (or an
// array of them) with Sampled 2 (ValidateTypePointer registers these).
func (s *state) isPointerToStorageImage(t uint32) bool {
	pt := s.typeOf(t)
	if pt == nil || pt.Kind != spirv.TypePointer || pt.Storage != spirv.StorageClassUniformConstant {
		return false
	}
	e := s.typeOf(pt.Elem)
	if e != nil && (e.Kind == spirv.TypeArray || e.Kind == spirv.TypeRuntimeArray) {
		e = s.typeOf(e.Elem)
	}
	if e == nil || e.Kind != spirv.TypeImage {
		return false
	}
	j, ok := s.x.Def(e.ID)
	return ok && len(s.m.Inst(j).Words) > 7 && s.m.Inst(j).Words[7] == 2
}

func (s *state) isPointerToTensor(t uint32) bool {
	pt := s.typeOf(t)
	if pt == nil || pt.Kind != spirv.TypePointer {
		return false
	}
	e := s.typeOf(pt.Elem)
	return e != nil && e.Op == spirv.OpTypeTensorARM
}

// usesOf returns, for the ids in want, the (instruction, operand word
// index) pairs that use them, in module order, from the def-use lists.
func (s *state) usesOf(want map[uint32]bool) map[uint32][][2]int {
	out := map[uint32][][2]int{}
	if len(want) == 0 {
		return out
	}
	u := s.useIdx()
	for id := range want {
		for _, x := range u.of(s.x, id) {
			in := s.m.Inst(int(x.inst))
			out[id] = append(out[id], [2]int{int(x.inst), int(in.Operands[x.op].Offset)})
		}
	}
	return out
}

// fromDecorationKinds are the decorations decorationsFromDecoration
// checks (its switch's cases).
var fromDecorationKinds = []spirv.Decoration{
	spirv.DecorationComponent, spirv.DecorationFPRoundingMode, spirv.DecorationNonReadable, spirv.DecorationNonWritable,
	spirv.DecorationUniform, spirv.DecorationUniformId, spirv.DecorationNoSignedWrap, spirv.DecorationNoUnsignedWrap,
	spirv.DecorationBlock, spirv.DecorationBufferBlock, spirv.DecorationLocation, spirv.DecorationRelaxedPrecision,
}

// decorationsFromDecoration is CheckDecorationsFromDecoration.
func (s *state) decorationsFromDecoration() bool {
	d := s.decorations()
	shader, kernel := s.caps.has(spirv.CapabilityShader), s.caps.has(spirv.CapabilityKernel)
	var rounded map[uint32]bool
	for _, id := range d.ids {
		for _, e := range d.ofKinds(id, spirv.DecorationFPRoundingMode) {
			if e.Kind == spirv.DecorationFPRoundingMode {
				if rounded == nil {
					rounded = map[uint32]bool{}
				}
				rounded[id] = true
			}
		}
	}
	var roundedUses map[uint32][][2]int
	if shader && rounded != nil {
		roundedUses = s.usesOf(rounded)
	}
	for _, id := range d.ids {
		at := s.defInst(id)
		if at < 0 {
			continue
		}
		in := s.m.Inst(at)
		if in.Opcode == spirv.OpDecorationGroup {
			continue
		}
		for _, e := range d.ofKinds(id, fromDecorationKinds[0], fromDecorationKinds[1:]...) {
			var failed bool
			switch e.Kind {
			case spirv.DecorationComponent:
				failed = s.componentDecoration(at, &in, e)
			case spirv.DecorationFPRoundingMode:
				if shader {
					failed = s.fpRoundingModeShader(at, &in, e, roundedUses[id])
				}
				if kernel && !failed {
					failed = s.fpRoundingModeKernel(at, &in)
				}
			case spirv.DecorationNonReadable, spirv.DecorationNonWritable:
				failed = s.nonReadableWritable(at, &in, e)
			case spirv.DecorationUniform, spirv.DecorationUniformId:
				name := "Uniform"
				if e.Kind == spirv.DecorationUniformId {
					name = "UniformId"
				}
				switch t := s.typeOf(in.TypeID); {
				case in.TypeID == 0:
					failed = s.fail(at, "", "%s decoration applied to a non-object", name)
				case t == nil && s.defInst(in.TypeID) < 0:
					failed = s.fail(at, "", "%s decoration applied to an object with invalid type", name)
				case t != nil && t.Kind == spirv.TypeVoid:
					failed = s.fail(at, "", "%s decoration applied to a value with void type", name)
				}
			case spirv.DecorationNoSignedWrap, spirv.DecorationNoUnsignedWrap:
				switch in.Opcode {
				case spirv.OpIAdd, spirv.OpISub, spirv.OpIMul, spirv.OpShiftLeftLogical, spirv.OpSNegate,
					spirv.OpExtInst, spirv.OpExtInstWithForwardRefsKHR:
				default:
					failed = s.fail(at, "", "%s decoration may not be applied to %s", decorationName(e.Kind), opName(in.Opcode))
				}
			case spirv.DecorationBlock, spirv.DecorationBufferBlock:
				if in.Opcode != spirv.OpTypeStruct {
					failed = s.fail(at, "", "%s decoration on a non-struct type.", decorationName(e.Kind))
				}
			case spirv.DecorationLocation:
				if in.Opcode != spirv.OpVariable && !(e.Member >= 0 && in.Opcode == spirv.OpTypeStruct) {
					failed = s.fail(at, "", "Location decoration can only be applied to a variable or member of a structure type")
				}
			case spirv.DecorationRelaxedPrecision:
				if info := in.Opcode.Info(); info != nil && info.DeclaresType && !(e.Member >= 0 && in.Opcode == spirv.OpTypeStruct) {
					failed = s.fail(at, "", "RelaxPrecision decoration cannot be applied to a type")
				}
			}
			if failed && s.stopped() {
				return true
			}
		}
	}
	return false
}

// componentDecoration is CheckComponentDecoration.
func (s *state) componentDecoration(at int, in *spirv.Instruction, e spirv.DecorationEntry) bool {
	var t uint32
	if e.Member < 0 {
		if in.Opcode != spirv.OpVariable && in.Opcode != spirv.OpFunctionParameter {
			return s.fail(at, "", "Target of Component decoration must be a memory object declaration (a variable or a function parameter)")
		}
		if in.Opcode == spirv.OpVariable && len(in.Words) > 3 {
			if sc := spirv.StorageClass(in.Words[3]); sc != spirv.StorageClassInput && sc != spirv.StorageClassOutput {
				return s.fail(at, "", "Target of Component decoration is invalid: must point to a Storage Class of Input(1) or Output(3). Found Storage Class %d", uint32(sc))
			}
		}
		t = in.TypeID
		if pt := s.typeOf(t); pt != nil && pt.Kind == spirv.TypePointer {
			t = pt.Elem
		}
	} else {
		if in.Opcode != spirv.OpTypeStruct {
			return s.fail(at, "", "Attempted to get underlying data type via member index for non-struct type.")
		}
		if e.Member+2 >= len(in.Words) {
			return false
		}
		t = in.Words[e.Member+2]
	}
	if !s.opts.Env.IsVulkan() || len(e.Params) == 0 {
		return false
	}
	for k := 0; k < 64; k++ {
		at := s.typeOf(t)
		if at == nil || at.Kind != spirv.TypeArray {
			break
		}
		t = at.Elem
	}
	if !s.scalarOrLiteralVector(t, s.isIntScalar) && !s.scalarOrLiteralVector(t, s.isFloatScalar) {
		return s.fail(at, s.vuid("VUID-StandaloneSpirv-Component-10583"), "Component decoration specified for type %s that is not a scalar or vector", s.idName(t))
	}
	c := e.Params[0]
	if c > 3 {
		return s.fail(at, s.vuid("VUID-StandaloneSpirv-Component-04920"), "Component decoration value must not be greater than 3")
	}
	dim, width := s.dimension(t), s.bitWidth(t)
	switch width {
	case 16, 32:
		if sum := c + dim; sum > 4 {
			return s.fail(at, s.vuid("VUID-StandaloneSpirv-Component-04921"), "Sequence of components starting with %d and ending with %d gets larger than 3", c, sum-1)
		}
	case 64:
		if dim > 2 {
			return s.fail(at, s.vuid("VUID-StandaloneSpirv-Component-07703"), "Component decoration only allowed on 64-bit scalar and 2-component vector")
		}
		if c == 1 || c == 3 {
			return s.fail(at, s.vuid("VUID-StandaloneSpirv-Component-04923"), "Component decoration value must not be 1 or 3 for 64-bit data types")
		}
		if sum := c + 2*dim; sum > 4 {
			return s.fail(at, s.vuid("VUID-StandaloneSpirv-Component-04922"), "Sequence of components starting with %d and ending with %d gets larger than 3", c, sum-1)
		}
	}
	return false
}

// fpRoundingModeShader is CheckFPRoundingModeForShaders.
func (s *state) fpRoundingModeShader(at int, in *spirv.Instruction, e spirv.DecorationEntry, uses [][2]int) bool {
	if in.Opcode != spirv.OpFConvert {
		return s.fail(at, "", "FPRoundingMode decoration can be applied only to a width-only conversion instruction for floating-point object.")
	}
	if s.opts.Env.IsVulkan() && len(e.Params) > 0 {
		if mode := spirv.FPRoundingMode(e.Params[0]); mode != spirv.FPRoundingModeRTE && mode != spirv.FPRoundingModeRTZ {
			return s.fail(at, s.vuid("VUID-StandaloneSpirv-FPRoundingMode-04675"), "In Vulkan, the FPRoundingMode mode must only by RTE or RTZ.")
		}
	}
	const onlyStore = "FPRoundingMode decoration can be applied only to the Object operand of an OpStore."
	for _, u := range uses {
		user := s.m.Inst(u[0])
		info := user.Opcode.Info()
		switch {
		case user.Opcode == spirv.OpFConvert:
			continue
		case info != nil && (info.Class == "Debug" || info.Class == "Annotation"):
			continue
		case user.Opcode == spirv.OpExtInst && s.isNonSemantic(&user):
			continue
		case user.Opcode != spirv.OpStore, u[1] != 2:
			return s.fail(at, "", onlyStore)
		}
		pj, ok := s.x.Def(user.Words[1])
		if !ok {
			continue
		}
		pt := s.typeOf(s.m.Inst(pj).TypeID)
		if pt == nil || pt.Kind != spirv.TypePointer {
			continue
		}
		if !s.scalarOrLiteralVector(pt.Elem, s.isFloatScalar) || s.bitWidth(pt.Elem) != 16 {
			return s.fail(at, "", "FPRoundingMode decoration can be applied only to the Object operand of an OpStore storing through a pointer to a 16-bit floating-point scalar or vector object.")
		}
		switch pt.Storage {
		case spirv.StorageClassStorageBuffer, spirv.StorageClassUniform, spirv.StorageClassPushConstant,
			spirv.StorageClassInput, spirv.StorageClassOutput, spirv.StorageClassPhysicalStorageBuffer:
		default:
			return s.fail(at, "", "FPRoundingMode decoration can be applied only to the Object operand of an OpStore in the StorageBuffer, PhysicalStorageBuffer, Uniform, PushConstant, Input, or Output Storage Classes.")
		}
	}
	return false
}

// isNonSemantic: an OpExtInst of a NonSemantic.* set.
func (s *state) isNonSemantic(in *spirv.Instruction) bool {
	return len(in.Words) > 3 && strings.HasPrefix(s.x.ExtInstImports[in.Words[3]], "NonSemantic.")
}

// fpRoundingModeKernel is CheckFPRoundingModeForKernels.
func (s *state) fpRoundingModeKernel(at int, in *spirv.Instruction) bool {
	sqrt := in.Opcode == spirv.OpExtInst && len(in.Words) > 4 && s.x.ExtInstImports[in.Words[3]] == "OpenCL.std" && in.Words[4] == 61
	switch {
	case in.Opcode == spirv.OpFDiv || sqrt:
		if !s.caps.has(spirv.CapabilityRoundedDivideSqrtINTEL) {
			return s.fail(at, "", "FPRoundingMode decoration can be applied to OpFDiv and sqrt extended instructions only if the RoundedDivideSqrtINTEL capability is enabled.")
		}
	case in.Opcode != spirv.OpConvertFToU && in.Opcode != spirv.OpConvertFToS && in.Opcode != spirv.OpConvertSToF &&
		in.Opcode != spirv.OpConvertUToF && in.Opcode != spirv.OpFConvert:
		return s.fail(at, "", "FPRoundingMode decoration can be applied only to a conversion instruction to or from a floating-point type.")
	}
	return false
}

// nonReadableWritable is CheckNonReadableWritableDecorations.
func (s *state) nonReadableWritable(at int, in *spirv.Instruction, e spirv.DecorationEntry) bool {
	if e.Member >= 0 {
		return false
	}
	nonWritable := e.Kind == spirv.DecorationNonWritable
	name := "NonReadable"
	if nonWritable {
		name = "NonWritable"
	}
	switch in.Opcode {
	case spirv.OpVariable, spirv.OpUntypedVariableKHR, spirv.OpBufferPointerEXT, spirv.OpFunctionParameter, spirv.OpRawAccessChainNV:
	default:
		return s.fail(at, "", "Target of %s decoration must be a memory object declaration (a variable or a function parameter)", name)
	}
	sc := spirv.StorageClass(0x7fffffff)
	switch in.Opcode {
	case spirv.OpVariable, spirv.OpUntypedVariableKHR:
		if len(in.Words) > 3 {
			sc = spirv.StorageClass(in.Words[3])
		}
	case spirv.OpBufferPointerEXT:
		if pt := s.typeOf(in.TypeID); pt != nil && pt.Storage == spirv.StorageClassUniform && nonWritable {
			return s.fail(at, "", "Target of NonWritable decoration is invalid: cannot be used to OpBufferPointerEXT with Uniform storage class")
		}
		return false
	}
	fnPriv := s.version >= spirv.MakeVersion(1, 4)
	d := s.decorations()
	switch {
	case (sc == spirv.StorageClassFunction || sc == spirv.StorageClassPrivate) && fnPriv && nonWritable:
	case sc == spirv.StorageClassTileAttachmentQCOM:
	case d.bufferPtr[in.TypeID] || s.isPointerToStorageImage(in.TypeID) || s.isPointerToTensor(in.TypeID) ||
		in.Opcode == spirv.OpRawAccessChainNV:
	default:
		tail := "or storage buffer"
		if fnPriv && nonWritable {
			tail = "storage buffer, or variable in Private or Function storage class"
		}
		return s.fail(at, "", "Target of %s decoration is invalid: must point to a storage image, tensor variable in UniformConstant storage class, uniform block, %s", name, tail)
	}
	return false
}
