package val

import (
	"errors"
	"fmt"
	"math/bits"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"spvx/dis"
	"spvx/spirv"
)

// Error is one validation error: the instruction it is about (an index
// for spirv.Module.Inst, -1 for the module as a whole), that instruction's
// word offset in the module (header included; 0 for none), the message
// as spirv-val words it, and the Vulkan VUID spirv-val prefixes it with,
// if any ("VUID-StandaloneSpirv-OpFConvert-12466").
type Error struct {
	Inst int
	Word int
	Msg  string
	VUID string
}

// Error returns the message as spirv-val prints it after "error: line N: ",
// with the "[VUID-...] " prefix where there is one.
func (e Error) Error() string {
	if e.VUID != "" {
		return "[" + e.VUID + "] " + e.Msg
	}
	return e.Msg
}

// Line is spirv-val's "line N": the 1-based instruction number, 0 for an
// error about the module as a whole.
func (e Error) Line() int { return e.Inst + 1 }

// ErrorList is the error Validate returns: the errors in the order found
// (the first is spirv-val's).
type ErrorList []Error

func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	return fmt.Sprintf("%s (and %d more errors)", l[0].Error(), len(l)-1)
}

// state is one validation run, or a fork of it for the second loop (see
// fork): the part every fork shares, and the part each has its own.
type state struct {
	*shared
	scratch
}

// shared is what the module-level work builds and the forks of the
// second loop only read: the module, the run's settings, what the first
// loop learns, and the lazily built structures prepareShared completes
// before the forks start (and prepareModulePasses before the module
// passes' forks).
type shared struct {
	m    *spirv.Module
	x    *spirv.Index
	opts Options
	lim  Limits

	version spirv.Version // the module's version
	caps    capSet        // declared capabilities and the ones they imply
	exts    map[string]bool
	feat    features

	memoryModelSeen       bool            // first loop
	localVars, globalVars uint32          // first loop
	fwdPtr                map[uint32]bool // OpTypeForwardPointer targets (first loop)
	cfg                   *cfg            // see getCFG; built before the second loop forks (prepareShared)

	envCapLists      [][]spirv.Capability // see envCaps
	envCapImageBasic []spirv.Capability
	envCapSpec       string

	sampled *sharedSampled   // built once on the first OpSampledImage, synchronized (image.go)
	useList sharedUses       // see useIdx (uses.go)
	modes   *modeInfo        // built by the mode-setting pass, completed by prepareShared
	decs    *decorationStore // built on first use, completed by prepareShared
	calls   *callGraph       // built by prepareModulePasses, or on first use (execution_limitations.go)
	mesh    *meshShared      // see getMeshShared (mesh_shading.go)
	// storageLimits: see getStorageLimits (ray_tracing.go)
	storageLimits     []limitKind
	storageLimitsDone bool
	typeTab           []*spirv.Type // x.Types by id, or nil: see typeOf
	graphs            *graphShared  // see getGraphShared (graph.go)
}

// scratch is what a pass writes while it visits instructions: errors,
// caches and the position of the walk. Each fork starts from a zero
// scratch, so no field can be forgotten.
type scratch struct {
	errs ErrorList
	// collectAll: interleaved's passes run to their end, whatever
	// Options.All says (see fail and stopped).
	collectAll bool

	// Friendly names, looked up as messages need them (friendly).
	names       map[uint32]string
	nameLookups int  // ids named by disassembling their definition alone
	allNamed    bool // names holds every defined id's name

	structDepth   map[uint32]uint32 // OpTypeStruct nesting depth, by id (first loop)
	containsCache map[uint32]uint8  // see contains
	curLabel      uint32            // the block the second loop is in
	// inst: the instruction the second loop visits, kept here because a
	// local passed by pointer to the passes' function values would be
	// allocated on the heap for every instruction.
	inst            spirv.Instruction
	logicalPtrCache map[uint32]int64 // see firstLogicalPointer

	uniqueTypes map[string]bool  // see typeUniqueness
	blockNest   map[uint32]bool  // see nestsBlock
	sizedCache  map[uint32]uint8 // per-type cache, see sized (type_contains.go)
	limits      []limitUse       // execution limitations registered by the passes, in order (execution_limitations.go)
	smallCache  map[uint32]uint8 // per-type cache of smallTypes (type_contains.go)
	derivEPs    []derivativeEP   // see derivativeEntryPoints (builtins.go)
	coopLocal   *coopLocalSizes  // see getCoopLocalSizes (cooperative_matrix.go)

	// Memory and block layout.
	layout       *blockLayout     // per-type layout caches of ValidateExplicitLayout
	shallowCache map[uint32]uint8 // see shallow (memory rules), per type
	copyBase     map[uint32]int   // OpCopyObject result: the instruction its chain of copies starts from (untyped_pointers.go)
	heapBase     map[uint32]int   // pointer id: its untyped base's instruction, -1 for none (descriptor_heap.go)
}

// features are SPIRV-Tools' ValidationState_t::Feature flags that change
// rules; they follow from capabilities and extensions.
type features struct {
	freeFPRoundingMode      bool
	groupOpsReduceAndScans  bool
	declareInt8, declareI16 bool
	declareFloat16          bool
	declareFloat8           bool
	// uconvertSpecConstantOp: OpSpecConstantOp UConvert without Kernel.
	// SPIR-V 1.4 allows it everywhere; SPV_AMD_gpu_shader_int16 enables
	// it before 1.4 (glslang emits it for 16-bit spec constants).
	uconvertSpecConstantOp bool
}

// capSet is a set of capabilities. Capability values go up to about 6500,
// so a bitmap is small and fast.
type capSet struct{ bits []uint64 }

func (s *capSet) has(c spirv.Capability) bool {
	i := int(c) / 64
	return i < len(s.bits) && s.bits[i]&(1<<(uint(c)%64)) != 0
}

func (s *capSet) add(c spirv.Capability) bool {
	i := int(c) / 64
	if i > 1<<12 { // no capability is this large; keep the bitmap bounded
		return false
	}
	for len(s.bits) <= i {
		s.bits = append(s.bits, 0)
	}
	if s.bits[i]&(1<<(uint(c)%64)) != 0 {
		return false
	}
	s.bits[i] |= 1 << (uint(c) % 64)
	return true
}

// interleaved runs passes that spirv-val runs together in one loop over
// the instructions, so that the first error is the one of the earliest
// instruction (the earlier pass first on the same instruction): each pass
// runs to the end, and their errors are merged in instruction order. It
// reports whether an error was recorded.
func (s *state) interleaved(passes ...func() bool) bool {
	start, all := len(s.errs), s.opts.All || s.collectAll
	s.collectAll = true
	for _, p := range passes {
		p()
	}
	s.collectAll = false
	found := s.errs[start:]
	sort.SliceStable(found, func(a, b int) bool { return found[a].Inst < found[b].Inst })
	if !all && len(found) > 1 {
		s.errs = s.errs[:start+1]
	}
	return len(s.errs) > start
}

// fail records an error at instruction i (-1: none). It reports whether
// validation must stop (always, unless Options.All).
func (s *state) fail(i int, vuid, format string, args ...any) bool {
	e := Error{Inst: i, Msg: fmt.Sprintf(format, args...), VUID: vuid}
	if i >= 0 {
		e.Word = int(s.m.Inst(i).Offset)
	}
	s.errs = append(s.errs, e)
	return !s.opts.All && !s.collectAll
}

// stopped reports whether an error has been found and validation must
// stop.
func (s *state) stopped() bool { return len(s.errs) > 0 && !s.opts.All && !s.collectAll }

// vuid returns id's VUID name in a Vulkan environment, "" elsewhere
// (SPIRV-Tools' VkErrorID prints nothing outside Vulkan).
func (s *state) vuid(name string) string {
	if s.opts.Env.IsVulkan() {
		return name
	}
	return ""
}

// Validate checks m against the rules of opts.Env and returns nil or an
// ErrorList. The module is read, never modified; m.Index is built if it
// was not.
func Validate(m *spirv.Module, opts Options) error {
	s := &state{shared: &shared{m: m, opts: opts, lim: opts.Limits.withDefaults(), exts: map[string]bool{}, sampled: &sharedSampled{}}}
	s.run()
	// The def-use index may still be building on another goroutine (run
	// starts it early): wait, so that nothing reads the module once
	// Validate has returned it to its caller.
	s.useList.once.Do(func() {})
	if len(s.errs) == 0 {
		return nil
	}
	return s.errs
}

// run applies the passes in spirv-val's order (validate.cpp
// ValidateBinaryUsingContextAndValidationState).
func (s *state) run() {
	m := s.m
	h := m.Header
	s.version = h.Version
	if h.Version > s.opts.Env.Version() {
		s.fail(-1, "", "Invalid SPIR-V binary version %d.%d for target environment %s.",
			h.Version.Major(), h.Version.Minor(), s.opts.Env.Description())
		return
	}
	if h.Bound > s.lim.MaxIDBound {
		s.fail(-1, "", "Invalid SPIR-V.  The id bound is larger than the max id bound %d.", s.lim.MaxIDBound)
		return
	}
	s.x = m.Index()
	s.typeTab = denseTypes(s.x.Types)
	if m.Len() >= parallelMinInsts && !s.opts.sequential && runtime.GOMAXPROCS(0) > 1 {
		// The def-use index needs only the module and its index: build it
		// on the other core while the first loop runs.
		go s.useIdx()
	}
	// ProcessExtensions: the OpExtensions of the leading block of
	// capabilities and extensions are registered before the first
	// per-instruction loop; one out of place is never registered.
extensions:
	for i := 0; i < m.Len(); i++ {
		in := m.Inst(i)
		switch in.Opcode {
		case spirv.OpExtension:
			if len(in.Operands) > 0 {
				s.registerExtension(in.String(0))
			}
			continue
		case spirv.OpCapability, spirv.OpConditionalCapabilityINTEL, spirv.OpConditionalExtensionINTEL:
		default:
			break extensions
		}
	}
	// Capabilities are registered as the first loop meets them (by
	// instructionPass), as spirv-val does: a capability declared out of
	// place does not count for the instructions before it.

	s.firstLoop()
	if s.stopped() || s.typeDepthLimit() {
		return
	}
	s.secondLoop()
	if s.stopped() {
		return
	}
	s.modulePasses()

}

// typeDepthLimit reports (and records, unless an error is already
// recorded) a type nested deeper than spirv.MaxTypeDepth or one that
// refers to itself: the later passes walk types recursively, so
// validation stops here even under Options.All. spirv-val has no such
// limit beyond --max-struct-depth; its message is the model.
func (s *state) typeDepthLimit() bool {
	x := s.x
	if x.TypeCycle != 0 {
		if len(s.errs) == 0 {
			j, _ := x.Def(x.TypeCycle)
			s.fail(j, "", "Type %s is defined in terms of itself.", s.idName(x.TypeCycle))
		}
		return true
	}
	if x.MaxTypeDepth <= spirv.MaxTypeDepth {
		return false
	}
	for i := 0; i < s.m.Len(); i++ {
		id := s.m.Inst(i).ResultID
		if t := x.Types[id]; t != nil && t.Depth > spirv.MaxTypeDepth {
			if j, _ := x.Def(id); j == i {
				s.fail(i, "", "Type Nesting Depth may not be larger than %d. Found %d.", spirv.MaxTypeDepth, t.Depth)
				return true
			}
		}
	}
	return true
}

// firstLoop is spirv-val's first per-instruction loop: ids, capabilities
// in the environment, layout, instruction-level capability/version checks.
func (s *state) firstLoop() {
	ids := newIDState(s)
	lay := newLayoutState(s)
	cf := newCFGFirst(s)
	m := s.m
	var entryNames map[entryKey]bool
	var graphNames map[string]bool
	for i := 0; i < m.Len(); i++ {
		in := m.Inst(i)
		switch in.Opcode {
		case spirv.OpEntryPoint:
			if len(in.Operands) > 2 {
				if entryNames == nil {
					entryNames = map[entryKey]bool{}
				}
				k := entryKey{in.Words[1], in.String(2)}
				if entryNames[k] {
					if s.fail(i, "", "2 Entry points cannot share the same name and ExecutionMode.") {
						return
					}
				}
				entryNames[k] = true
			}
		case spirv.OpGraphEntryPointARM:
			if s.graphEntryName(i, &in, &graphNames) {
				return
			}
		case spirv.OpFunctionCall:
			if !lay.inFunction && s.fail(i, "", "A FunctionCall must happen within a function body.") {
				return
			}
		}
		if ids.check(i, &in) && s.stopped() {
			return
		}
		if s.capabilityPass(i, &in) && s.stopped() {
			return
		}
		if lay.check(i, &in) && s.stopped() {
			return
		}
		if cf.check(i, &in) && s.stopped() {
			return
		}
		if s.instructionPass(i, &in) && s.stopped() {
			return
		}
		ids.define(i, &in)
	}
	if lay.finish() && s.stopped() {
		return
	}
	ids.finish()
}

// entryKey is an entry point's execution model and name, which no two
// OpEntryPoints may share.
type entryKey struct {
	model uint32
	name  string
}

// secondLoop is spirv-val's second per-instruction loop. The
// instructions before the first function are visited in order on s; then
// every function, and any instruction between or after them, is a
// segment visited on a fork of s (see fork), the segments on a few
// goroutines in parallel. Each fork's errors are kept apart and appended
// in segment order, which is instruction order, so the errors (and with
// it the first, spirv-val's) are those of a sequential run whatever the
// schedule. Without Options.All a segment after one that failed is
// skipped, as the sequential loop would never reach it.
func (s *state) secondLoop() {
	m := s.m
	start := m.Len()
	if len(s.x.Functions) > 0 {
		start = s.x.Functions[0].Start
	}
	for i := 0; i < start; i++ {
		if s.secondLoopInst(i) {
			return
		}
	}
	segs := s.segments(start)
	if len(segs) == 0 {
		return
	}
	s.prepareShared()
	results := make([]ErrorList, len(segs))
	var next, firstFail atomic.Int64
	firstFail.Store(int64(len(segs)))
	var forksMu sync.Mutex
	var forks []*state
	work := func() {
		f := s.fork()
		forksMu.Lock()
		forks = append(forks, f)
		forksMu.Unlock()
		for {
			k := int(next.Add(1) - 1)
			if k >= len(segs) || !s.opts.All && int64(k) > firstFail.Load() {
				return
			}
			f.errs = nil
			for i := segs[k].lo; i < segs[k].hi; i++ {
				if f.secondLoopInst(i) {
					break
				}
				if !s.opts.All && i&255 == 0 && int64(k) > firstFail.Load() {
					break // an earlier segment failed: this one's errors are not needed
				}
			}
			if len(f.errs) == 0 {
				continue
			}
			results[k] = f.errs
			for !s.opts.All {
				cur := firstFail.Load()
				if int64(k) >= cur || firstFail.CompareAndSwap(cur, int64(k)) {
					break
				}
			}
		}
	}
	workers := min(runtime.GOMAXPROCS(0), len(segs))
	if m.Len()-start < parallelMinInsts && !s.opts.forceParallel || s.opts.sequential {
		workers = 1
	}
	if s.opts.forceParallel && !s.opts.sequential {
		workers = max(workers, 2)
	}
	if workers <= 1 {
		work()
	} else {
		var wg sync.WaitGroup
		for range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				work()
			}()
		}
		wg.Wait()
	}
	// The execution limitations the forks registered, in function order
	// (each function was visited by one fork, in instruction order).
	for _, f := range forks {
		s.limits = append(s.limits, f.limits...)
	}
	// Within a function, spirv-val registers the storage-class consumers
	// (its first loop) before the passes' limitations.
	sort.SliceStable(s.limits, func(a, b int) bool {
		la, lb := s.limits[a], s.limits[b]
		if la.fn != lb.fn {
			return la.fn < lb.fn
		}
		return la.kind.storageConsumer() && !lb.kind.storageConsumer()
	})
	for _, r := range results {
		s.errs = append(s.errs, r...)
		if s.stopped() {
			s.errs = s.errs[:1]
			return
		}
	}
}

// parallelMinInsts is the number of function instructions below which
// the second loop stays on one goroutine: starting goroutines and forks
// costs more than it saves on small modules.
const parallelMinInsts = 4096

// segment is a range [lo, hi) of instruction indexes.
type segment struct{ lo, hi int }

// segments splits the instructions from start on into functions and the
// runs between them. An irregular function list (possible only with
// Options.All after a layout error) makes the rest one segment.
func (s *state) segments(start int) []segment {
	var segs []segment
	cur, n := start, s.m.Len()
	for _, fn := range s.x.Functions {
		if fn.Start < cur || fn.End < fn.Start || fn.End >= n {
			break
		}
		if fn.Start > cur {
			segs = append(segs, segment{cur, fn.Start})
		}
		segs = append(segs, segment{fn.Start, fn.End + 1})
		cur = fn.End + 1
	}
	if cur < n {
		segs = append(segs, segment{cur, n})
	}
	return segs
}

// prepareShared builds, before the forks start, the lazily built
// structures the forks share read-only: the CFG and its predecessor
// lists.
func (s *state) prepareShared() {
	if g := s.getCFG(); len(g.blocks) > 0 {
		g.predecessors(0)
	}
	s.decorations()
	s.getModeInfo()
	s.getMeshShared()
	s.getStorageLimits()
	s.getGraphShared()
}

// fork returns a state for visiting segments on another goroutine: it
// shares s's shared part, which the second loop only reads, and starts
// from a zero scratch (its own errors, caches and names).
func (s *state) fork() *state {
	return &state{shared: s.shared}
}

// secondLoopPass is one pass of the second loop: run checks instruction
// i, ops (nil for a pass that looks at every instruction) says which
// opcodes it can act on.
type secondLoopPass struct {
	run func(s *state, i int, in *spirv.Instruction) bool
	ops func(op spirv.Opcode) bool
}

// secondLoopPasses are the second loop's passes, in SPIRV-Tools' order. A
// new pass gets one line here, at the position spirv-val runs it.
var secondLoopPasses = [...]secondLoopPass{
	{(*state).miscPass, miscOps},
	{(*state).debugPass, debugOps},
	{(*state).annotationPass, annotationOps},
	{(*state).extensionPass, extensionOps},
	{(*state).extInstPass, extInstOps},
	{(*state).modeSettingPass, modeSettingOps},
	{(*state).typePass, typeOps},
	{(*state).constantPass, constantOps},
	{(*state).memoryPass, memoryOps},
	{(*state).functionPass, functionOps},
	{(*state).imagePass, imagePassOps},
	{(*state).conversionPass, conversionOps},
	{(*state).compositesPass, compositesOps},
	{(*state).arithmeticsPass, arithmeticsOps},
	{(*state).bitwisePass, bitwiseOps},
	{(*state).logicalsPass, logicalsOps},
	{(*state).controlFlowPass, nil}, // tracks the current block on every OpLabel
	{(*state).derivativesPass, derivativesOps},
	{(*state).executionLimitsPass, executionLimitsOps},
	{(*state).atomicsPass, atomicsOps},
	{(*state).barriersPass, barriersOps},
	{(*state).dotProductPass, dotProductOps},
	{(*state).bitcastShufflePass, bitcastShuffleOps},
	{(*state).nonUniformPass, nonUniformOps},
	{(*state).literalsPass, nil}, // any instruction's typed literals
	{(*state).rayQueryPass, rayQueryOps},
	{(*state).rayTracingPass, nil}, // any instruction using a ray-tracing storage class
	{(*state).rayReorderNVPass, rayReorderNVOps},
	{(*state).rayReorderEXTPass, rayReorderEXTOps},
	{(*state).meshShadingPass, meshShadingOps},
	{(*state).tensorLayoutPass, tensorLayoutOps},
	{(*state).tensorPass, tensorOps},
	{(*state).graphPass, graphOps},
	{(*state).invalidTypePass, nil}, // spec-strict rules of any instruction
}

// passGate gives, by opcode, the bit set of the secondLoopPasses that can
// act on it: most passes look at a few opcodes, and asking all of them
// about every instruction was a quarter of the second loop's time on
// big.spv. Opcodes the grammar does not know get every pass.
var passGate = sync.OnceValue(func() []uint64 {
	var gate []uint64
	for _, info := range spirv.Instructions() {
		op := info.Opcode
		for int(op) >= len(gate) {
			gate = append(gate, ^uint64(0))
		}
		var set uint64
		for k, p := range secondLoopPasses {
			if p.ops == nil || p.ops(op) {
				set |= 1 << k
			}
		}
		gate[op] = set
	}
	return gate
})

// passesFor is passGate's bit set for op.
func passesFor(op spirv.Opcode) uint64 {
	if gate := passGate(); int(op) < len(gate) {
		return gate[op]
	}
	return ^uint64(0)
}

// opIn reports whether op is one of ops.
func opIn(op spirv.Opcode, ops ...spirv.Opcode) bool {
	return slices.Contains(ops, op)
}

// opNamed reports whether op's grammar name starts with prefix: a family
// of opcodes named alike, which a pass gate may take whole.
func opNamed(op spirv.Opcode, prefix string) bool {
	return op.Info() != nil && strings.HasPrefix(op.String(), prefix)
}

// secondLoopInst applies the second loop's passes that can act on
// instruction i's opcode, in SPIRV-Tools' order, and reports whether
// validation must stop.
func (s *state) secondLoopInst(i int) bool {
	s.inst = s.m.Inst(i)
	in := &s.inst
	for g := passesFor(in.Opcode); g != 0; g &= g - 1 {
		if secondLoopPasses[bits.TrailingZeros64(g)].run(s, i, in) && s.stopped() {
			return true
		}
	}
	return false
}

// idName is SPIRV-Tools' getIdName: '5[%name]'.
func (s *state) idName(id uint32) string {
	return "'" + strconv.FormatUint(uint64(id), 10) + "[%" + s.friendly(id) + "]'"
}

// undefinedName is the friendly name of an id without a definition.
func (s *state) undefinedName(id uint32) string {
	if n, ok := s.x.Names[id]; ok && n != "" {
		// An id named but never defined: the name as the friendly-name
		// mapper spells it (letters, digits and _ kept, others _).
		b := []byte(n)
		for k, c := range b {
			if !(c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
				b[k] = '_'
			}
		}
		return string(b)
	}
	return strconv.FormatUint(uint64(id), 10)
}

// friendlyNames maps result ids to the names dis gives them (see
// InstructionTexts).
func friendlyNames(m *spirv.Module) map[uint32]string {
	names := map[uint32]string{}
	texts := InstructionTexts(m)
	for i := 0; i < m.Len() && i < len(texts); i++ {
		in := m.Inst(i)
		if in.ResultID == 0 {
			continue
		}
		l := texts[i]
		if strings.HasPrefix(l, "%") {
			if k := strings.Index(l, " = "); k > 1 {
				if _, dup := names[in.ResultID]; !dup {
					names[in.ResultID] = l[1:k]
				}
			}
		}
	}
	return names
}

// InstructionTexts returns each instruction's disassembly as spirv-val
// shows it under a message (friendly names, no alignment), indexed like
// m.Inst. A string operand may hold newlines (OpSource's source text), so
// an instruction's text is the next 1+n lines of the unindented
// disassembly, n the newlines in its strings.
func InstructionTexts(m *spirv.Module) []string {
	textedInsts.Add(int64(m.Len()))
	text := string(dis.Disassemble(m, dis.Options{NoHeader: true, NoIndent: true}))
	texts := make([]string, 0, m.Len())
	pos := 0
	for i := 0; i < m.Len(); i++ {
		in := m.Inst(i)
		n := 1
		for k, o := range in.Operands {
			if o.Kind == spirv.OperandKindLiteralString {
				n += strings.Count(in.String(k), "\n")
			}
		}
		end := pos
		for ; n > 0 && end <= len(text); n-- {
			j := strings.IndexByte(text[end:], '\n')
			if j < 0 {
				end = len(text) + 1
				break
			}
			end += j + 1
		}
		if end > len(text) {
			texts = append(texts, strings.TrimRight(text[pos:], "\n"))
			pos = len(text)
			continue
		}
		texts = append(texts, text[pos:end-1])
		pos = end
	}
	return texts
}

// FromDecodeError words the spirv.Decode errors that spirv-val's binary
// parser also reports as spirv-val does (a bad magic number, a short
// header, a zero word count), as an Error of the instruction it names;
// false for other errors, which keep spirv.Decode's wording.
func FromDecodeError(err error) (Error, bool) {
	var de *spirv.DecodeError
	if !errors.As(err, &de) {
		return Error{}, false
	}
	switch {
	case errors.Is(err, spirv.ErrBadMagic):
		return Error{Inst: -1, Msg: "Invalid SPIR-V magic number."}, true
	case errors.Is(err, spirv.ErrShortHeader):
		return Error{Inst: -1, Msg: "Invalid SPIR-V header."}, true
	case errors.Is(err, spirv.ErrZeroWordCount):
		return Error{Inst: de.Inst, Word: de.Word, Msg: "Invalid instruction word count: 0"}, true
	}
	return Error{}, false
}

// passGate's bit sets hold at most 64 passes.
var _ [64 - len(secondLoopPasses)]struct{}
