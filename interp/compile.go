package interp

import (
	"errors"
	"fmt"
	"sort"

	"spvx/spirv"
)

// compiler holds the state of one Compile call.
type compiler struct {
	m *spirv.Module
	x *spirv.Index
	// imgByKey: the image and sampler bindings' indexes in p.bufs, by
	// kind (see imageBinding)
	imgByKey map[ResourceKind]map[BindingKey]int
	opts     Options
	p        *Program
	kernel   bool
	// derivGroups: the entry point declares a derivative group, so the
	// derivative instructions may run (derivative.go)
	derivGroups bool

	ptrBytes uint32
	types    map[uint32]*tinfo
	slots    map[uint32]int32
	nslots   int32
	cv       []uint64 // constant values, one lane, by slot
	// coopSlots: the element layout of each cooperative matrix shape (coopmat.go)
	coopSlots map[[2]int][]int32
	cdone     map[uint32]bool
	cbusy     map[uint32]bool
	ptrs      map[uint32]*ptrInfo
	funcs     map[uint32]*function
	fnIndex   map[uint32]*spirv.Function
	invSize   uint32
	wgSize    uint32
	wgBlock   uint32 // size of the aliased explicit-layout workgroup blocks
	code      []inst
	blockOf   map[uint32]int32 // label -> program-wide block (current function)
	phis      map[uint32][]phiInfo
	curLabel  uint32
	curFn     *function
	curFnID   uint32
	instIdx   int
	extSets   map[uint32]uint8
	privT     []byte
	// privInitialized: some Private variable has an initializer.
	privInitialized bool
	lastInvOff      uint32
	fixed           map[int32]fixedPtr // slots whose pointer is known at compile time
	inputMem        map[int]bool       // inputs (by index) some instruction reads from memory
	zero            int32
	regVars         map[uint32]int32
	regVarN         map[uint32]int32
	ssa             *ssaFn              // the current function's promoted variables in SSA form, or nil
	memOnly         map[uint32]bool     // the current function's ids used only as load/store pointers
	fused           map[uint32]fusedRef // deferred access chains (fused.go)
	fc              *floatCtl           // float-controls execution modes (floatctl.go); nil: none changes a result
}

type phiInfo struct {
	slot  int32
	n     int32
	pairs []uint32 // value, parent label, ...
	mvar  int      // 1 + index of the promoted variable (ssaFn) it merges; 0 an OpPhi
}

// ptrInfo is what the compiler knows statically about a pointer value.
type ptrInfo struct {
	pointee *tinfo
	ml      matLay
	vs      uint32 // vector component stride (0 natural)
	desc    bool   // a descriptor array variable (first index selects the buffer)
	descN   int
	storage spirv.StorageClass
}

// ptrOf is what pointer type t alone tells of a pointer: its pointee type
// and storage class, with no layout or descriptor facts.
func (c *compiler) ptrOf(t *tinfo) (*ptrInfo, error) {
	pe, err := c.typ(t.pointeeID)
	if err != nil {
		return nil, err
	}
	return &ptrInfo{pointee: pe, storage: t.storage}, nil
}

// pointee is the type that pointer id, of type pt, points at: the
// pointee recorded for id (an access chain's or a cast's) or else pt's.
func (c *compiler) pointee(id uint32, pt *tinfo) (*tinfo, error) {
	pe, err := c.typ(pt.pointeeID)
	if err != nil {
		return nil, err
	}
	if pi := c.ptrs[id]; pi != nil {
		return pi.pointee, nil
	}
	return pe, nil
}

// notePtr records ptrOf(t) as what is known of pointer id.
func (c *compiler) notePtr(id uint32, t *tinfo) error {
	pi, err := c.ptrOf(t)
	if err != nil {
		return err
	}
	c.ptrs[id] = pi
	return nil
}

// Compile turns one entry point of a decoded module into a Program. entry ""
// means the only (or first) GLCompute/Kernel entry point. Errors are plain
// errors with a clear message.
func Compile(m *spirv.Module, entry string, opts Options) (p *Program, err error) {
	if m == nil {
		return nil, errors.New("interp: nil module")
	}
	defer func() {
		// The compiler checks what it reads; a panic here is a bug, but a bad
		// module must never take the caller down with it.
		if r := recover(); r != nil {
			p, err = nil, fmt.Errorf("interp: internal error compiling the module: %v", r)
		}
	}()
	if S := opts.SubgroupSize; S < 0 || S > 128 {
		return nil, fmt.Errorf("interp: subgroup size %d out of range 1..128", S)
	}
	c := &compiler{
		m: m, x: m.Index(), opts: opts,
		types: map[uint32]*tinfo{}, slots: map[uint32]int32{}, cdone: map[uint32]bool{}, fixed: map[int32]fixedPtr{}, inputMem: map[int]bool{}, cbusy: map[uint32]bool{},
		ptrs: map[uint32]*ptrInfo{}, funcs: map[uint32]*function{}, fnIndex: map[uint32]*spirv.Function{},
		extSets: map[uint32]uint8{}, regVars: map[uint32]int32{}, regVarN: map[uint32]int32{}, fused: map[uint32]fusedRef{},
	}
	c.p = &Program{m: m, opts: opts, names: c.x.Names}
	if err := checkTypeDepth(m); err != nil {
		return nil, fmt.Errorf("interp: %w", err)
	}
	if err := c.compile(entry); err != nil {
		return nil, fmt.Errorf("interp: %w", err)
	}
	return c.p, nil
}

// subgroupSize settles the subgroup size: Options.SubgroupSize, else the
// size the entry point requires with OpExecutionMode SubgroupSize (an
// OpenCL kernel's reqd_sub_group_size), else 32. A size given that
// differs from the required one is an error, as an OpenCL runtime
// cannot run such a kernel at another size.
func (c *compiler) subgroupSize(ep *spirv.EntryPoint) error {
	S := c.opts.SubgroupSize
	for _, md := range ep.Modes {
		if md.Mode != spirv.ExecutionModeSubgroupSize || len(md.Params) != 1 {
			continue
		}
		req := md.Params[0]
		if req < 1 || req > 128 {
			return fmt.Errorf("entry point %q requires subgroup size %d (OpExecutionMode SubgroupSize), out of range 1..128", ep.Name, req)
		}
		if S != 0 && uint32(S) != req {
			return fmt.Errorf("entry point %q requires subgroup size %d (OpExecutionMode SubgroupSize), not %d", ep.Name, req, S)
		}
		S = int(req)
	}
	if S == 0 {
		S = 32
	}
	c.opts.SubgroupSize, c.p.opts.SubgroupSize, c.p.S = S, S, S
	return nil
}

func (c *compiler) compile(entry string) error {
	x := c.x
	var ep *spirv.EntryPoint
	for i := range x.EntryPoints {
		e := &x.EntryPoints[i]
		if e.Model != spirv.ExecutionModelGLCompute && e.Model != spirv.ExecutionModelKernel {
			continue
		}
		if entry == "" || e.Name == entry {
			ep = e
			break
		}
	}
	if ep == nil {
		if entry == "" {
			return errors.New("the module has no GLCompute or Kernel entry point")
		}
		return fmt.Errorf("no GLCompute or Kernel entry point named %q", entry)
	}
	if err := c.subgroupSize(ep); err != nil {
		return err
	}
	c.p.model = ep.Model
	c.kernel = ep.Model == spirv.ExecutionModelKernel
	c.ptrBytes = 8
	c.p.ptrShift = 40
	switch x.AddressingModel {
	case spirv.AddressingModelPhysical32:
		c.ptrBytes, c.p.ptrShift, c.p.physical = 4, 26, true
	case spirv.AddressingModelPhysical64:
		c.p.physical = true
	}
	c.p.ptrBytes = c.ptrBytes
	for id, name := range x.ExtInstImports {
		switch name {
		case "GLSL.std.450":
			c.extSets[id] = 1
		case "OpenCL.std":
			c.extSets[id] = 2
		case "SPV_AMD_shader_ballot":
			c.extSets[id] = extSetAMDBallot
		default:
			c.extSets[id] = 0 // NonSemantic.* and others: ignored
		}
	}
	for i := range x.Functions {
		f := &x.Functions[i]
		if f.End < 0 {
			return fmt.Errorf("function %%%d has no OpFunctionEnd", f.ID)
		}
		c.fnIndex[f.ID] = f
	}
	if err := c.localSize(ep); err != nil {
		return err
	}
	if err := c.derivativeGroups(ep); err != nil {
		return err
	}
	if err := c.floatModes(ep); err != nil {
		return err
	}
	if err := c.globals(ep); err != nil {
		return err
	}
	c.lazyInputs()
	// Functions: the entry and everything it calls, recursion rejected.
	order, err := c.callOrder(ep.Function)
	if err != nil {
		return err
	}
	for _, fid := range order {
		if err := c.function(fid); err != nil {
			return err
		}
	}
	c.p.entry = c.funcs[ep.Function]
	if c.kernel {
		if err := c.kernelParams(); err != nil {
			return err
		}
	}
	for i := range c.p.inputs {
		iv := &c.p.inputs[i]
		iv.lazy = iv.lazy && !c.inputMem[i]
		switch iv.builtin {
		case spirv.BuiltInGlobalInvocationId, spirv.BuiltInWorkgroupId, spirv.BuiltInGlobalLinearId:
			c.p.initPerWG = c.p.initPerWG || !iv.lazy
		}
	}
	for _, pa := range c.p.params {
		if pa.pointer && pa.storage == spirv.StorageClassFunction {
			c.p.initPerWG = true
		}
	}
	c.p.code = c.code
	c.p.tabulateConversions()
	for i := range c.p.code {
		c.p.code[i].wide = c.p.wideOK(&c.p.code[i])
	}
	c.p.findJoins()
	c.p.setCosts()
	for _, lv := range c.p.leafLists {
		c.p.leafExt = append(c.p.leafExt, leafExtent(lv))
	}
	c.p.nslots = int(c.nslots)
	if int64(c.nslots)*int64(c.p.S) > 1<<23 {
		return fmt.Errorf("the program needs %d registers per lane, too many for subgroup size %d", c.nslots, c.p.S)
	}
	c.growCV()
	c.p.constVals = c.cv
	c.p.invSize = alignUp(c.invSize, 8)
	if c.p.invSize > 1<<26 {
		return fmt.Errorf("invocation memory of %d bytes is too large", c.p.invSize)
	}
	c.p.privInit = c.privT
	if len(c.p.privInit) < int(c.p.invSize) {
		c.p.privInit = append(c.p.privInit, make([]byte, int(c.p.invSize)-len(c.p.privInit))...)
	}
	// An initialized Private variable must be reset for every workgroup,
	// even to zeros: a subgroup's invocation memory is reused, and an
	// earlier workgroup may have written the variable.
	c.p.privSet = c.privInitialized
	for _, b := range c.p.privInit {
		if b != 0 {
			c.p.privSet = true
			break
		}
	}
	c.p.wgSize = max(c.wgSize, c.wgBlock)
	c.p.maxDepth = c.p.entry.depth + 1
	return nil
}

func (c *compiler) growCV() {
	if len(c.cv) < int(c.nslots) {
		c.cv = append(c.cv, make([]uint64, int(c.nslots)-len(c.cv))...)
	}
}

// localSize resolves LocalSize / LocalSizeId / a WorkgroupSize built-in.
func (c *compiler) localSize(ep *spirv.EntryPoint) error {
	for _, md := range ep.Modes {
		switch md.Mode {
		case spirv.ExecutionModeLocalSize, spirv.ExecutionModeLocalSizeHint:
			if len(md.Params) == 3 && md.Mode == spirv.ExecutionModeLocalSize {
				c.p.localSize, c.p.hasLocal = [3]uint32{md.Params[0], md.Params[1], md.Params[2]}, true
			}
		case spirv.ExecutionModeLocalSizeId:
			if len(md.Params) == 3 {
				for k := 0; k < 3; k++ {
					v, ok := c.constScalar(md.Params[k])
					if !ok {
						return fmt.Errorf("LocalSizeId operand %%%d is not an integer constant", md.Params[k])
					}
					c.p.localSize[k] = uint32(v)
				}
				c.p.hasLocal = true
			}
		}
	}
	for id, ds := range c.x.Decorations {
		for _, d := range ds {
			if d.Kind == spirv.DecorationBuiltIn && d.Member < 0 && len(d.Params) > 0 && spirv.BuiltIn(d.Params[0]) == spirv.BuiltInWorkgroupSize {
				if _, isConst := c.x.Constants[id]; !isConst {
					continue
				}
				if err := c.constant(id); err != nil {
					return err
				}
				s := c.slots[id]
				t, _ := c.typ(c.x.Constants[id].Type)
				if t == nil || t.ncomp != 3 {
					return fmt.Errorf("WorkgroupSize constant %%%d is not a 3-component vector", id)
				}
				for k := 0; k < 3; k++ {
					c.p.localSize[k] = uint32(c.cv[s+int32(k)])
				}
				c.p.hasLocal = true
			}
		}
	}
	if c.p.hasLocal {
		ls := c.p.localSize
		if ls[0] == 0 || ls[1] == 0 || ls[2] == 0 || uint64(ls[0])*uint64(ls[1])*uint64(ls[2]) > 1<<20 {
			return fmt.Errorf("workgroup size %dx%dx%d out of range", ls[0], ls[1], ls[2])
		}
	} else if !c.kernel {
		return errors.New("the entry point has no LocalSize or LocalSizeId execution mode")
	}
	return nil
}

// slot returns the register slot of a value id, allocating it from its
// defining instruction's type on first use.
func (c *compiler) slot(id uint32) (int32, *tinfo, error) {
	i, ok := c.x.Def(id)
	if !ok {
		return 0, nil, fmt.Errorf("%%%d is not defined", id)
	}
	in := c.m.Inst(i)
	if in.TypeID == 0 {
		return 0, nil, fmt.Errorf("%%%d has no type", id)
	}
	t, err := c.typ(in.TypeID)
	if err != nil {
		return 0, nil, err
	}
	if s, ok := c.slots[id]; ok {
		return s, t, nil
	}
	if t.ncomp > maxComponents {
		return 0, nil, fmt.Errorf("%%%d: value of %d components is too large", id, t.ncomp)
	}
	if t.ncomp == 0 {
		return 0, nil, fmt.Errorf("%%%d has no value (type %%%d)", id, in.TypeID)
	}
	s := c.nslots
	c.nslots += int32(t.ncomp)
	if c.nslots > 1<<22 {
		return 0, nil, errors.New("too many registers")
	}
	c.slots[id] = s
	return s, t, nil
}

// newSlots allocates n anonymous slots.
func (c *compiler) newSlots(n int) int32 {
	s := c.nslots
	c.nslots += int32(n)
	return s
}

// val returns an operand's slot and type, evaluating it if it is a constant.
func (c *compiler) val(id uint32) (int32, *tinfo, error) {
	if k, ok := c.x.Constants[id]; ok && k != nil {
		if err := c.constant(id); err != nil {
			return 0, nil, err
		}
	} else if i, ok := c.x.Def(id); ok {
		in := c.m.Inst(i)
		switch in.Opcode {
		case spirv.OpUndef, spirv.OpConstantSampler, spirv.OpConstantFunctionPointerINTEL:
			s, t, err := c.slot(id)
			c.cdone[id] = true
			return s, t, err
		case spirv.OpVariable:
			if c.isGlobal(i) {
				if _, ok := c.slots[id]; !ok {
					return 0, nil, fmt.Errorf("global variable %%%d is not in the entry point's interface", id)
				}
			}
		}
	}
	return c.slot(id)
}

func (c *compiler) isGlobal(instIdx int) bool {
	for _, f := range c.x.Functions {
		if instIdx > f.Start && instIdx < f.End {
			return false
		}
	}
	return true
}

// constScalar evaluates a scalar constant and returns its bits.
func (c *compiler) constScalar(id uint32) (uint64, bool) {
	if _, ok := c.x.Constants[id]; !ok {
		return 0, false
	}
	if err := c.constant(id); err != nil {
		return 0, false
	}
	s, ok := c.slots[id]
	if !ok {
		return 0, false
	}
	c.growCV()
	return c.cv[s], true
}

// constant evaluates a constant or spec constant into its slot.
func (c *compiler) constant(id uint32) error {
	if c.cdone[id] {
		return nil
	}
	if c.cbusy[id] {
		return fmt.Errorf("constant %%%d depends on itself", id)
	}
	c.cbusy[id] = true
	defer delete(c.cbusy, id)
	k := c.x.Constants[id]
	s, t, err := c.slot(id)
	if err != nil {
		return err
	}
	c.growCV()
	switch k.Op {
	case spirv.OpConstantTrue, spirv.OpConstantFalse, spirv.OpSpecConstantTrue, spirv.OpSpecConstantFalse:
		if t.kind != spirv.TypeBool {
			return fmt.Errorf("boolean constant %%%d has a non-bool type", id)
		}
		v := uint64(k.Value[0])
		if k.Spec {
			if o, ok := c.specOverride(id); ok {
				v = o & 1
			}
		}
		c.cv[s] = v
	case spirv.OpConstant, spirv.OpSpecConstant:
		if t.kind != spirv.TypeInt && t.kind != spirv.TypeFloat {
			return fmt.Errorf("constant %%%d has a non-numeric type", id)
		}
		var v uint64
		if len(k.Value) > 0 {
			v = uint64(k.Value[0])
		}
		if len(k.Value) > 1 {
			v |= uint64(k.Value[1]) << 32
		}
		if k.Spec {
			if o, ok := c.specOverride(id); ok {
				v = o
			}
		}
		v &= t.sc.mask()
		c.cv[s] = v
	case spirv.OpConstantComposite, spirv.OpSpecConstantComposite:
		if t.coop != nil {
			return c.coopConstFill(id, k.Parts, s, t)
		}
		off := s
		for _, part := range k.Parts {
			ps, pt, err := c.val(part)
			if err != nil {
				return err
			}
			if int(off-s)+pt.ncomp > t.ncomp {
				return fmt.Errorf("composite constant %%%d: constituents do not match its type", id)
			}
			c.growCV()
			copy(c.cv[off:off+int32(pt.ncomp)], c.cv[ps:ps+int32(pt.ncomp)])
			off += int32(pt.ncomp)
		}
		if int(off-s) != t.ncomp {
			return fmt.Errorf("composite constant %%%d: constituents do not match its type", id)
		}
	case spirv.OpConstantNull:
		for i := int32(0); i < int32(t.ncomp); i++ {
			c.cv[s+i] = 0
		}
	case spirv.OpSpecConstantOp:
		if err := c.specOp(id); err != nil {
			return err
		}
	}
	c.cdone[id] = true
	return nil
}

func (c *compiler) specOverride(id uint32) (uint64, bool) {
	for _, d := range c.x.Decorations[id] {
		if d.Kind == spirv.DecorationSpecId && len(d.Params) > 0 {
			v, ok := c.opts.SpecConstants[d.Params[0]]
			return v, ok
		}
	}
	return 0, false
}

// specOp evaluates an OpSpecConstantOp by compiling the embedded operation
// and running it on one lane over the constant registers.
func (c *compiler) specOp(id uint32) error {
	i, _ := c.x.Def(id)
	in := c.m.Inst(i)
	if len(in.Words) < 4 {
		return fmt.Errorf("OpSpecConstantOp %%%d is too short", id)
	}
	opc := spirv.Opcode(in.Words[3])
	ops := in.Words[4:]
	for _, o := range ops {
		if opc == spirv.OpCompositeExtract || opc == spirv.OpCompositeInsert || opc == spirv.OpVectorShuffle {
			break // literal operands follow
		}
		if opc == spirv.OpCooperativeMatrixLengthKHR || opc == spirv.OpCooperativeMatrixLengthNV {
			break // the operand is a type (glslang's coopMat.length())
		}
		if !c.specOperand(o) {
			return fmt.Errorf("OpSpecConstantOp %%%d: operand %%%d is not a constant", id, o)
		}
	}
	switch opc {
	case spirv.OpCompositeExtract, spirv.OpCompositeInsert, spirv.OpVectorShuffle:
		n := 1
		if opc != spirv.OpCompositeExtract {
			n = 2
		}
		for k := 0; k < n && k < len(ops); k++ {
			if !c.specOperand(ops[k]) {
				return fmt.Errorf("OpSpecConstantOp %%%d: operand %%%d is not a constant", id, ops[k])
			}
		}
	}
	save := c.code
	c.code = nil
	err := c.opFC(opc, in.TypeID, id, ops, i)
	code := c.code
	c.code = save
	if err != nil {
		return fmt.Errorf("OpSpecConstantOp %%%d: %w", id, err)
	}
	c.growCV()
	for k := range code {
		if code[k].op < opLastControl {
			return fmt.Errorf("OpSpecConstantOp %%%d: opcode %s is not allowed", id, opc)
		}
		in := code[k]
		if f := constExec(c, &in); f != nil {
			return fmt.Errorf("OpSpecConstantOp %%%d: %s", id, f.Msg)
		}
	}
	return nil
}

// specOperand says whether id may be an operand of OpSpecConstantOp: a
// constant, or an OpUndef (spvx reads undefined values as zero; spirv-opt
// and spirv-cross emit them, e.g. as the unused half of a VectorShuffle).
func (c *compiler) specOperand(id uint32) bool {
	if _, isConst := c.x.Constants[id]; isConst {
		return true
	}
	i, ok := c.x.Def(id)
	return ok && c.m.Inst(i).Opcode == spirv.OpUndef
}

// callOrder returns the functions reachable from the entry, callees first,
// and rejects recursion.
func (c *compiler) callOrder(entry uint32) ([]uint32, error) {
	const (
		white = iota
		grey
		black
	)
	color := map[uint32]int{}
	var order []uint32
	var visit func(id uint32, depth int) error
	visit = func(id uint32, depth int) error {
		if depth > 1000 {
			return errors.New("call graph too deep")
		}
		f := c.fnIndex[id]
		if f == nil {
			return fmt.Errorf("%%%d is not a function", id)
		}
		switch color[id] {
		case grey:
			return fmt.Errorf("function %s is recursive, which SPIR-V does not allow", c.fnName(id))
		case black:
			return nil
		}
		color[id] = grey
		for i := f.Start; i < f.End; i++ {
			in := c.m.Inst(i)
			if in.Opcode == spirv.OpFunctionCall && len(in.Words) >= 4 {
				if err := visit(in.Words[3], depth+1); err != nil {
					return err
				}
			}
		}
		color[id] = black
		order = append(order, id)
		return nil
	}
	if err := visit(entry, 0); err != nil {
		return nil, err
	}
	return order, nil
}

func (c *compiler) fnName(id uint32) string {
	if n, ok := c.x.Names[id]; ok && n != "" {
		return n
	}
	return fmt.Sprintf("%%%d", id)
}

// globals lays out the module-scope variables the entry point can reach.
func (c *compiler) globals(ep *spirv.EntryPoint) error {
	byKey := map[BindingKey]int{} // index in c.p.bufs
	region := regFirstBuf
	for i := 0; i < c.m.Len(); i++ {
		in := c.m.Inst(i)
		if in.Opcode == spirv.OpFunction {
			break
		}
		if in.Opcode != spirv.OpVariable || len(in.Words) < 4 {
			continue
		}
		id := in.ResultID
		pt, err := c.typ(in.TypeID)
		if err != nil {
			return err
		}
		if pt.kind != spirv.TypePointer {
			return fmt.Errorf("variable %%%d does not have a pointer type", id)
		}
		sc := spirv.StorageClass(in.Words[3])
		pointee, err := c.typ(pt.pointeeID)
		if err != nil {
			return err
		}
		s, _, err := c.slot(id)
		if err != nil {
			return err
		}
		c.growCV()
		pi := &ptrInfo{pointee: pointee, storage: sc}
		c.ptrs[id] = pi
		var init uint32
		if len(in.Words) > 4 {
			init = in.Words[4]
		}
		switch sc {
		case spirv.StorageClassStorageBuffer, spirv.StorageClassUniform, spirv.StorageClassUniformConstant:
			if c.kernel && sc == spirv.StorageClassUniformConstant {
				// An OpenCL program-scope __constant variable: it lives in
				// invocation memory with its initializer (read-only anyway).
				if err := c.invVar(id, s, pointee, init, true); err != nil {
					return err
				}
				continue
			}
			if err := c.descriptorVar(id, s, pi, sc, &region, byKey); err != nil {
				return err
			}
		case spirv.StorageClassPushConstant:
			c.cv[s] = uint64(regPush) << c.p.ptrShift
			c.fixed[s] = fixedPtr{}
		case spirv.StorageClassWorkgroup:
			if err := c.layout(pointee); err != nil {
				return err
			}
			if pointee.block && pointee.explicitL {
				// WorkgroupMemoryExplicitLayoutKHR: Block variables alias.
				c.wgBlock = max(c.wgBlock, pointee.size)
				c.cv[s] = uint64(regWG) << c.p.ptrShift
				continue
			}
			off := alignUp(max(c.wgSize, 0), max(pointee.align, 8))
			if uint64(off)+uint64(pointee.size) > 1<<30 {
				return errors.New("workgroup memory too large")
			}
			c.wgSize = off + pointee.size
			c.cv[s] = uint64(regWG)<<c.p.ptrShift | uint64(off)
			c.fixed[s] = fixedPtr{}
		case spirv.StorageClassInput, spirv.StorageClassPrivate, spirv.StorageClassCrossWorkgroup, spirv.StorageClassOutput:
			if err := c.invVar(id, s, pointee, init, sc != spirv.StorageClassInput); err != nil {
				return err
			}
			if sc == spirv.StorageClassInput {
				var bi spirv.BuiltIn
				var isB bool
				for _, d := range c.x.Decorations[id] {
					if d.Kind == spirv.DecorationBuiltIn && len(d.Params) > 0 {
						bi, isB = spirv.BuiltIn(d.Params[0]), true
					}
				}
				if isB {
					lv, err := c.leaves(nil, pointee, c.lastInvOff, matLay{}, 0)
					if err != nil {
						return err
					}
					c.p.inputs = append(c.p.inputs, inputVar{builtin: bi, leaves: lv, id: id})
					fp := c.fixed[s]
					fp.input = int32(len(c.p.inputs))
					c.fixed[s] = fp
				}
			}
		default:
			c.cv[s] = 0
		}
	}
	c.p.nregions = region
	sort.Slice(c.p.bindings, func(i, j int) bool {
		a, b := c.p.bindings[i], c.p.bindings[j]
		return a.Set < b.Set || a.Set == b.Set && a.Binding < b.Binding
	})
	return nil
}

// descriptorVar lays out a buffer descriptor variable (Uniform,
// StorageBuffer or UniformConstant) at its set and binding: a region of
// pointer space per descriptor. Several variables may use one binding, as
// Vulkan allows and glslang emits to reinterpret a buffer under another
// type: they share the binding's regions, so they see the same memory.
// Descriptors that are no buffers (images, samplers) and variables
// without a binding get a null pointer.
func (c *compiler) descriptorVar(id uint32, s int32, pi *ptrInfo, sc spirv.StorageClass, region *int, byKey map[BindingKey]int) error {
	var key BindingKey
	var hasB bool
	for _, d := range c.x.Decorations[id] {
		switch {
		case len(d.Params) == 0:
		case d.Kind == spirv.DecorationDescriptorSet:
			key.Set = d.Params[0]
		case d.Kind == spirv.DecorationBinding:
			key.Binding, hasB = d.Params[0], true
		}
	}
	if !hasB {
		c.cv[s] = 0
		return nil
	}
	pointee := pi.pointee
	blockT, count := pointee, 1
	if pointee.kind == spirv.TypeArray || pointee.kind == spirv.TypeRuntimeArray {
		blockT, count = pointee.elem, pointee.count
		pi.desc, pi.descN = true, count
		pi.pointee = blockT
	}
	if blockT.kind == spirv.TypeSampler || blockT.kind == spirv.TypeSampledImage {
		b, err := c.samplerDescriptor(key, blockT, count, region)
		if err != nil {
			c.cv[s] = 0
			return err
		}
		c.cv[s] = uint64(b.region) << c.p.ptrShift
		return nil
	}
	if blockT.kind == spirv.TypeImage {
		b, ok, err := c.imageDescriptor(key, blockT, count, region)
		if err != nil || !ok {
			c.cv[s] = 0
			return err
		}
		c.cv[s] = uint64(b.region) << c.p.ptrShift
		return nil
	}
	if blockT.kind != spirv.TypeStruct {
		c.cv[s] = 0
		return nil
	}
	kind := StorageBuffer
	if sc == spirv.StorageClassUniform && !blockT.bufBlock {
		kind = UniformBuffer
	}
	b, err := c.bindingRegions(key, kind, count, region, byKey)
	if err != nil {
		return err
	}
	c.cv[s] = uint64(b.region) << c.p.ptrShift
	if !pi.desc {
		c.fixed[s] = fixedPtr{}
	}
	return nil
}

// bindingRegions returns the regions of binding key, reserving them for
// its first variable. A later variable must agree on the descriptor type
// and fit in the descriptors reserved.
func (c *compiler) bindingRegions(key BindingKey, kind ResourceKind, count int, region *int, byKey map[BindingKey]int) (*bufBinding, error) {
	if i, ok := byKey[key]; ok {
		b := &c.p.bufs[i]
		switch {
		case b.kind != kind:
			return nil, fmt.Errorf("descriptor set %d binding %d is used as both a %s and a %s", key.Set, key.Binding, b.kind, kind)
		case count == 0 && b.count != 0 || count > b.span:
			return nil, fmt.Errorf("descriptor set %d binding %d: variables declare %d and %d descriptors", key.Set, key.Binding, b.count, count)
		}
		return b, nil
	}
	span := count
	if count == 0 {
		span = 1 << 12
	}
	if *region+span >= 1<<(64-c.p.ptrShift) {
		return nil, errors.New("too many descriptors")
	}
	byKey[key] = len(c.p.bufs)
	c.p.bufs = append(c.p.bufs, bufBinding{key: key, kind: kind, count: count, region: *region, span: span})
	c.p.bindings = append(c.p.bindings, Binding{Set: key.Set, Binding: key.Binding, Kind: kind, ArraySize: count})
	*region += span
	return &c.p.bufs[len(c.p.bufs)-1], nil
}

// lastInvOff is the offset of the variable invVar placed last.
func (c *compiler) invAlloc(t *tinfo) (uint32, error) {
	if err := c.layout(t); err != nil {
		return 0, err
	}
	off := alignUp(c.invSize, max(t.align, 8))
	if uint64(off)+uint64(t.size) > 1<<26 {
		return 0, errors.New("invocation memory too large")
	}
	c.invSize = off + t.size
	c.lastInvOff = off
	return off, nil
}

// invVar places a per-invocation variable and, for a module-scope variable
// with an initializer, writes the initial value into the template.
func (c *compiler) invVar(id uint32, s int32, pointee *tinfo, init uint32, withInit bool) error {
	off, err := c.invAlloc(pointee)
	if err != nil {
		return err
	}
	c.p.lanePtrs = append(c.p.lanePtrs, lanePtr{slot: s, off: off})
	c.fixed[s] = fixedPtr{lane: true, off: off, size: pointee.size}
	if init != 0 && withInit {
		is, it, err := c.val(init)
		if err != nil {
			return err
		}
		if it.id != pointee.id && it.ncomp != pointee.ncomp {
			return fmt.Errorf("variable %%%d: initializer type does not match", id)
		}
		if _, isConst := c.x.Constants[init]; !isConst {
			return fmt.Errorf("variable %%%d: initializer %%%d is not a constant", id, init)
		}
		lv, err := c.leaves(nil, pointee, off, matLay{}, 0)
		if err != nil {
			return err
		}
		if len(c.privT) < int(off+pointee.size) {
			c.privT = append(c.privT, make([]byte, int(off+pointee.size)-len(c.privT))...)
		}
		c.growCV()
		c.privInitialized = true
		for k, l := range lv {
			putLE(c.privT[l.off:], l.size, c.cv[is+int32(k)])
		}
	}
	return nil
}

// constExec runs one compiled instruction on a single lane over the
// compiler's constant registers (OpSpecConstantOp).
func constExec(c *compiler, in *inst) *Fault {
	p := &Program{S: 1, shuffles: c.p.shuffles, leafLists: c.p.leafLists, chains: c.p.chains, opts: c.opts, ptrShift: c.p.ptrShift}
	sg := &subgroup{p: p, S: 1, R: 1, regs: c.cv}
	return sg.exec(in, identity[:1])
}
