package interp

import (
	"spvx/spirv"
)

// Program is one compiled entry point. It is immutable and safe for
// concurrent Dispatch calls.
type Program struct {
	m         *spirv.Module
	model     spirv.ExecutionModel
	S         int
	localSize [3]uint32
	hasLocal  bool
	// derivQuads: the DerivativeGroupQuadsKHR execution mode, under which
	// each 2x2 block of local ids takes four consecutive lanes
	// (derivative.go).
	derivQuads bool
	bindings   []Binding
	params     []param
	opts       Options

	code   []inst
	blocks []block
	funcs  []*function
	entry  *function

	nslots    int
	constVals []uint64 // one lane, by slot: constants, undefs, uniform pointers
	constSet  []slotRange
	lanePtrs  []lanePtr // slots holding a per-lane pointer into invocation memory

	invSize  uint32 // bytes of invocation memory per lane
	inputs   []inputVar
	privInit []byte // per-lane template of invocation memory (Private initializers)
	privSet  bool   // invocation memory is reset from privInit per workgroup (an initialized Private variable)
	// initPerWG: some invocation memory depends on the workgroup (a
	// written workgroup-dependent built-in, a byval kernel argument)
	initPerWG bool
	wgSize    uint32 // bytes of module workgroup variables

	bufs      []bufBinding
	nregions  int // buffer regions' end (exclusive)
	ptrShift  uint
	ptrBytes  uint32
	maxDepth  int
	physical  bool
	leafLists [][]leaf
	leafExt   []int
	chains    []chain
	edges     []edge
	switches  []switchTab
	calls     []callInfo
	shuffles  [][]int32
	groups    []groupInfo
	atomics   []atomicInfo
	images    []imageInfo
	samples   []sampleInfo
	dpas      []dpasInfo
	block2d   []block2dInfo
	coop      []coopOp // cooperative matrix loads, stores, MulAdds (coopmat.go)
	exts      []extInfo
	bloads    []builtinLoad
	convTabs  [][]uint64 // conversions from 8 bits or fewer, by value (opConv c-1)
	joins     []join     // conditional branches with short arms (join.go; opBranchCond c-1)
	names     map[uint32]string
	undefined []string // opUndefinedOp's messages
}

// Region numbers of pointers. Buffers and kernel arguments follow.
const (
	regNull = iota
	regInv  // invocation memory (Input, Private, Function)
	regWG   // workgroup memory
	regPush // push constants
	regFirstBuf
)

type slotRange struct{ start, n int32 }

// fixedPtr describes a pointer known at compile time: a uniform one (its
// value in constVals) or a per-lane one into invocation memory at off,
// with size bytes of its variable from there.
type fixedPtr struct {
	lane      bool
	off, size uint32
	input     int32 // 1 + index of the built-in input variable it points into; 0 none
}

type lanePtr struct {
	slot int32
	off  uint32
}

type inputVar struct {
	builtin spirv.BuiltIn
	leaves  []leaf // at their offsets in invocation memory
	id      uint32
	// lazy: the variable is only loaded (directly or through constant
	// access chains), and every load computes the value (opBuiltin), so
	// nothing is written to invocation memory
	lazy bool
}

// builtinLoad is an opBuiltin: components comps of input number input,
// each truncated to its leaf's size.
type builtinLoad struct {
	input int
	comps []int
}

type bufBinding struct {
	key    BindingKey
	kind   ResourceKind
	count  int        // descriptors; 0 runtime array
	region int        // first region number
	span   int        // region numbers reserved
	img    *imageType // image kinds: the first variable's image type
}

// param is one kernel parameter.
type param struct {
	slot    int32
	n       int32
	pointer bool
	storage spirv.StorageClass
	size    int
	leaves  []leaf // by-value: where each component lies in Bytes
	invOff  uint32 // byval pointer: offset in invocation memory
	sc      scalar
}

// function is one compiled function.
type function struct {
	id         uint32
	name       string
	firstBlock int32 // program-wide index of the entry block
	nblocks    int32
	params     []int32 // slots
	paramN     []int32
	retN       int32
	depth      int // call depth below this function
}

// block is one basic block: code[start:end], the last instruction its
// terminator.
type block struct {
	start, end int32
	label      uint32
	fn         *function
}

// inst is one compiled instruction.
type inst struct {
	op      op
	sc, sc2 scalar
	n       int32
	dst     int32
	a, b, c int32
	aux     int32
	src     int32 // module instruction index, for faults
	imm     uint64
	// bk 1: operand b is a scalar constant, k its value (b still names its
	// register, which the lane-list paths read); full subgroups use k
	bk uint8
	// wide: the instruction means the same over a workgroup's lanes as per
	// subgroup (wideOK): a wide group runs it at once
	wide bool
	// cost is the work units (Options.MaxSteps) the instruction charges
	// per active lane, set by setCosts
	cost uint32
	k    uint64
}

// chain is an access chain: a constant offset and dynamic steps.
type chain struct {
	constOff int64
	steps    []chainStep
	desc     bool  // the base is a descriptor array: the first index selects a region
	descN    int   // its length, 0 for a runtime array
	descIdx  int32 // slot of the descriptor index (-1: constant descConst)
	descC    uint64
	descW    uint8
	src      int32 // module instruction index of the OpAccessChain (fused chains' faults)
}

type chainStep struct {
	slot   int32 // index slot
	w      uint8 // index width
	stride int64
	count  uint64 // bound to check (0: none)
}

// edge is a control-flow edge with its phi moves.
type edge struct {
	target int32 // program-wide block index
	moves  []move
	twoPh  bool // moves go through temporaries (a phi reads another phi of the target)
	tmp    int32
}

type move struct{ dst, src, n int32 }

type switchTab struct {
	vals  []uint64
	edges []int32 // edge index per value
	def   int32
}

// edge returns the index of the edge an OpSwitch takes for selector v.
// Both schedulers (run and runWide) look cases up here.
func (t *switchTab) edge(v uint64) int32 {
	for k, cv := range t.vals {
		if cv == v {
			return t.edges[k]
		}
	}
	return t.def
}

type callInfo struct {
	fn   *function
	args []int32
}

type extInfo struct {
	set    uint8 // 1 GLSL, 2 OpenCL
	op     uint32
	res    extType
	args   []int32
	argT   []extType
	ptrArg int32   // slot of the pointer operand (out2 destination), -1 none
	ptrLv  []leaf  // leaves of the pointee
	out2   int32   // struct result: slot of member 1, -1 none
	clmem  clMemOp // OpenCL memory ops
}
