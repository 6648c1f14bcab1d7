package interp

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand"
	"runtime"
	"sync"
	"sync/atomic"

	"spvx/internal/checked"
	"spvx/spirv"
)

// dispatch is the state shared by the workers of one Dispatch call.
type dispatch struct {
	p         *Program
	ctx       context.Context
	regions   [][]byte
	images    []*boundImage // by region: the images bound (image.go)
	samplers  []*Sampler    // by region: the samplers bound (sampler.go)
	push      []byte
	args      []KernelArg
	localOff  []uint32 // workgroup-memory offset of each __local argument
	wgBytes   int
	trace     io.Writer
	budget    atomic.Int64
	maxSteps  int64
	unlimited bool
	stop      atomic.Bool // the whole dispatch ends: budget, deadline, executor bug
	// stopAt is the hand-out position of the workgroup whose fault is
	// recorded (faultPos): workgroups after it stop, those before it run
	// on, since one of them may fault too and is reported instead.
	stopAt    atomic.Uint64
	groups    [3]uint32 // number of workgroups
	local     [3]uint32 // workgroup size (enqueued)
	global    [3]uint32 // Kernel: global size
	offset    [3]uint32
	workDim   uint32
	wideSteps atomic.Int64 // subgroup-instructions run by wide groups (not the budget's units)
	faultMu   sync.Mutex
	fault     *Fault
	faultPos  uint64 // hand-out position of fault's workgroup; math.MaxUint64: a fault of the whole dispatch
	perm      []uint32
}

// lastDispatchSteps is the work budget the last finished dispatch used (to
// within a chunk per subgroup state): the benchmarks' work count.
var lastDispatchSteps atomic.Int64

// lastDispatchWideSteps is how many of the last dispatch's
// subgroup-instructions wide groups ran (exactly).
var lastDispatchWideSteps atomic.Int64

// wgState is a worker's storage for one workgroup at a time.
type wgState struct {
	d    *dispatch
	pos  uint64 // the workgroup's position in the hand-out order
	id   [3]uint32
	size [3]uint32 // this workgroup's size (Kernel non-uniform: may be smaller)
	mem  []byte
	sgs  []*subgroup
	rng  *rand.Rand
	ord  []int
	// the workgroup's registers and invocation memory, shared by its
	// subgroups (views) and the wide group
	regs     []uint64
	inv      []byte
	localID  [][3]uint32
	localIdx []uint32
	wide     *subgroup // nil: the subgroups always run one by one
	// lastShape is the shape of the workgroup the invocation memory was
	// last set up for
	lastShape initKey
	// credit is the work units left for setting up workgroups (budget.go)
	credit int64
}

func (d *dispatch) regionName(reg int) string {
	p := d.p
	if reg == regInv {
		return "invocation memory"
	}
	if reg == regWG {
		return "workgroup memory"
	}
	if reg == regPush {
		return "push constants"
	}
	if p.model == spirv.ExecutionModelKernel {
		return fmt.Sprintf("kernel argument %d", reg-regFirstBuf)
	}
	for _, b := range p.bufs {
		if reg >= b.region && reg < b.region+b.span {
			what := "buffer"
			if b.kind.isImage() {
				what = "image"
			} else if b.kind == SamplerDescriptor {
				what = "sampler"
			}
			if b.count == 1 {
				return fmt.Sprintf("%s (set %d, binding %d)", what, b.key.Set, b.key.Binding)
			}
			return fmt.Sprintf("%s (set %d, binding %d)[%d]", what, b.key.Set, b.key.Binding, reg-b.region)
		}
	}
	return fmt.Sprintf("region %d", reg)
}

// Dispatch runs x*y*z workgroups of a GLCompute program.
func (p *Program) Dispatch(ctx context.Context, x, y, z uint32, res *Resources) error {
	if p.model == spirv.ExecutionModelKernel {
		ls := p.localSize
		if !p.hasLocal {
			ls = [3]uint32{1, 1, 1}
		}
		global, err := globalSize([3]uint32{x, y, z}, ls)
		if err != nil {
			return err
		}
		return p.DispatchND(ctx, global, ls, res)
	}
	global, err := globalSize([3]uint32{x, y, z}, p.localSize)
	if err != nil {
		return err
	}
	d, err := p.newDispatch(ctx, res)
	if err != nil {
		return err
	}
	d.groups, d.local, d.global = [3]uint32{x, y, z}, p.localSize, global
	d.workDim = 3
	return d.run()
}

// globalSize is the invocations per dimension of groups workgroups of
// local invocations, or an error naming the sizes if one does not fit
// the 32 bits of GlobalInvocationId.
func globalSize(groups, local [3]uint32) ([3]uint32, error) {
	var g [3]uint32
	for k := 0; k < 3; k++ {
		n, ok := checked.Mul(int(groups[k]), int(local[k]))
		if !ok || n > math.MaxUint32 {
			return g, fmt.Errorf("interp: %d workgroups of %d invocations in dimension %c: more than 2^32-1 invocations", groups[k], local[k], "xyz"[k])
		}
		g[k] = uint32(n)
	}
	return g, nil
}

// DispatchND runs a Kernel program over an NDRange (global size, local size;
// local zero means the module's reqd_work_group_size / LocalSize or a
// default). The last workgroup of a dimension may be smaller (OpenCL 2.0
// non-uniform workgroups).
func (p *Program) DispatchND(ctx context.Context, global, local [3]uint32, res *Resources) error {
	d, err := p.newDispatch(ctx, res)
	if err != nil {
		return err
	}
	dim := uint32(1)
	for k := 0; k < 3; k++ {
		if global[k] == 0 {
			global[k] = 1
		} else if k > 0 && global[k] > 1 {
			dim = uint32(k + 1)
		}
	}
	if local == ([3]uint32{}) {
		if p.hasLocal {
			local = p.localSize
		} else {
			local = [3]uint32{min(global[0], 64), 1, 1}
		}
	}
	for k := 0; k < 3; k++ {
		if local[k] == 0 {
			local[k] = 1
		}
		// in 64 bits: global + local - 1 may not fit in 32
		d.groups[k] = uint32((uint64(global[k]) + uint64(local[k]) - 1) / uint64(local[k]))
	}
	inv, ok := checked.Product([]int{int(local[0]), int(local[1]), int(local[2])}, 1)
	if !ok || inv > 1<<20 || (p.nslots*8+int(p.invSize))*(inv+p.S) > 1<<31 {
		return fmt.Errorf("interp: workgroup size %dx%dx%d too large for this kernel", local[0], local[1], local[2])
	}
	d.local, d.global, d.workDim = local, global, dim
	if res != nil {
		d.offset = res.GlobalOffset
	}
	return d.run()
}

func (p *Program) newDispatch(ctx context.Context, res *Resources) (*dispatch, error) {
	if res == nil {
		res = &Resources{}
	}
	if ctx == nil {
		ctx = context.Background()
	}
	d := &dispatch{p: p, ctx: ctx, push: res.PushConstants, trace: p.opts.Trace, args: res.Args}
	switch {
	case p.opts.MaxSteps < 0:
		d.unlimited = true
	case p.opts.MaxSteps == 0:
		d.maxSteps = DefaultMaxSteps
	default:
		d.maxSteps = p.opts.MaxSteps
	}
	d.budget.Store(d.maxSteps)
	n := p.nregions
	for _, b := range p.bufs {
		cnt := b.count
		if cnt == 0 {
			cnt = min(b.given(res), b.span)
		}
		n = max(n, b.region+cnt)
	}
	d.regions = make([][]byte, n)
	if err := d.bindImages(res); err != nil {
		return nil, err
	}
	if err := d.bindSamplers(res); err != nil {
		return nil, err
	}
	for _, b := range p.bufs {
		bs := res.Buffers[b.key]
		if b.kind.isImage() || b.kind == SamplerDescriptor {
			continue
		}
		for i, buf := range bs {
			if i >= b.span || (b.count > 0 && i >= b.count) {
				break
			}
			if buf != nil {
				d.regions[b.region+i] = buf.Data
			}
		}
	}
	d.wgBytes = int(p.wgSize)
	if p.model == spirv.ExecutionModelKernel {
		if len(res.Args) != len(p.params) {
			return nil, fmt.Errorf("interp: the kernel has %d parameters, %d arguments given", len(p.params), len(res.Args))
		}
		d.localOff = make([]uint32, len(p.params))
		for i, a := range res.Args {
			pa := p.params[i]
			switch {
			case pa.pointer && pa.storage == spirv.StorageClassWorkgroup:
				if a.Kind != ArgLocal || a.LocalSize < 0 || a.LocalSize > 1<<28 {
					return nil, fmt.Errorf("interp: kernel argument %d is a __local pointer: give its size", i)
				}
				off := (d.wgBytes + 15) &^ 15
				d.localOff[i] = uint32(off)
				d.wgBytes = off + a.LocalSize
			case pa.pointer && pa.storage == spirv.StorageClassFunction:
				if a.Kind != ArgBytes || len(a.Bytes) < pa.size {
					return nil, fmt.Errorf("interp: kernel argument %d is passed by value (%d bytes): give its bytes", i, pa.size)
				}
			case pa.pointer:
				if a.Kind != ArgGlobal {
					return nil, fmt.Errorf("interp: kernel argument %d is a global pointer: give a buffer", i)
				}
				d.regions[regFirstBuf+i] = a.Global
			case a.Kind == ArgBytes:
				if len(a.Bytes) < pa.size {
					return nil, fmt.Errorf("interp: kernel argument %d needs %d bytes, %d given", i, pa.size, len(a.Bytes))
				}
			case a.Kind != ArgScalar:
				return nil, fmt.Errorf("interp: kernel argument %d is a value: give a scalar or bytes", i)
			}
		}
	}
	ls := p.localSize
	inv, ok := checked.Product([]int{int(ls[0]), int(ls[1]), int(ls[2])}, 1)
	if p.model == spirv.ExecutionModelKernel {
		inv, ok = 1<<10, true // checked again in DispatchND
	}
	if !ok || inv > 1<<31 {
		return nil, fmt.Errorf("interp: workgroup size %dx%dx%d too large", ls[0], ls[1], ls[2])
	}
	per, ok := checked.Mul(p.nslots*8+int(p.invSize), inv+p.S)
	if !ok || per > 1<<31 {
		return nil, fmt.Errorf("interp: a workgroup needs %d bytes of registers and invocation memory, too many", per)
	}
	if d.wgBytes > 1<<30 {
		return nil, fmt.Errorf("interp: workgroup memory of %d bytes is too large", d.wgBytes)
	}
	if p.ptrBytes == 4 {
		if err := d.check32(); err != nil {
			return nil, err
		}
	}
	return d, nil
}

func (d *dispatch) run() error {
	p := d.p
	g := d.groups
	if g[0] == 0 || g[1] == 0 || g[2] == 0 {
		return nil // an empty dispatch, as in Vulkan
	}
	n, ok := checked.Product([]int{int(g[0]), int(g[1]), int(g[2])}, 1)
	if !ok || n > 1<<32 {
		return fmt.Errorf("interp: %dx%dx%d workgroups is too many (at most 2^32)", g[0], g[1], g[2])
	}
	total := uint64(n)
	if p.ptrBytes == 4 {
		if err := d.check32Private(); err != nil {
			return err
		}
	}
	workers := p.opts.Parallelism
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if d.trace != nil {
		workers = 1
	}
	workers = int(min(uint64(workers), total, uint64(d.workersByMemory())))
	if p.opts.Shuffle && total <= 1<<24 {
		rng := rand.New(rand.NewSource(p.opts.Seed))
		d.perm = make([]uint32, total)
		for i := range d.perm {
			d.perm[i] = uint32(i)
		}
		rng.Shuffle(len(d.perm), func(i, j int) { d.perm[i], d.perm[j] = d.perm[j], d.perm[i] })
	}
	var next atomic.Uint64
	d.stopAt.Store(math.MaxUint64)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			defer func() {
				// A panic here is an executor bug; report it as a fault
				// rather than taking the caller's process down.
				if r := recover(); r != nil {
					d.record(&Fault{Kind: FaultUnsupported, Msg: fmt.Sprintf("internal error: %v", r)}, math.MaxUint64)
				}
			}()
			st := d.newWG(w)
			for !d.stop.Load() {
				pos := next.Add(1) - 1
				if pos >= total || pos > d.stopAt.Load() {
					return
				}
				i := pos
				if d.perm != nil {
					i = uint64(d.perm[pos])
				}
				st.pos = pos
				if f := st.runGroup(i); f != nil {
					d.record(f, pos) // every later position stops
					return
				}
			}
		}(w)
	}
	wg.Wait()
	if !d.unlimited {
		lastDispatchSteps.Store(d.maxSteps - d.budget.Load())
	}
	lastDispatchWideSteps.Store(d.wideSteps.Load())
	if d.fault != nil {
		return d.fault
	}
	if err := d.ctx.Err(); err != nil {
		return &Fault{Kind: FaultCanceled, Msg: err.Error()}
	}
	return nil
}

func (d *dispatch) newWG(w int) *wgState {
	p := d.p
	st := &wgState{d: d, mem: make([]byte, d.wgBytes)}
	if p.opts.Shuffle {
		st.rng = rand.New(rand.NewSource(p.opts.Seed + int64(w)*7919 + 1))
	}
	inv := int(d.local[0] * d.local[1] * d.local[2])
	nsg := (inv + p.S - 1) / p.S
	R := nsg * p.S
	// One register file for the workgroup, lane-major within each slot:
	// subgroup k's registers are regs[k*S:] with stride R, so the wide
	// group (wide.go) sees the same values as one group of R lanes.
	// (at least one slot: the subgroups' views start inside it)
	st.regs = make([]uint64, max(p.nslots, 1)*R)
	for s, v := range p.constVals {
		if v != 0 {
			col := st.regs[s*R : s*R+R]
			for l := range col {
				col[l] = v
			}
		}
	}
	// Pointers into invocation memory hold the workgroup lane's offset, so
	// they mean the same in a subgroup and in the wide group.
	for _, lp := range p.lanePtrs {
		for l := 0; l < R; l++ {
			st.regs[int(lp.slot)*R+l] = uint64(regInv)<<p.ptrShift | uint64(l)*uint64(p.invSize) + uint64(lp.off)
		}
	}
	st.inv = make([]byte, R*int(p.invSize))
	st.localID = make([][3]uint32, R)
	st.localIdx = make([]uint32, R)
	if p.model == spirv.ExecutionModelKernel {
		st.setParams(R)
	}
	for k := 0; k < nsg; k++ {
		st.sgs = append(st.sgs, p.newSubgroup(st, uint32(k), R))
	}
	st.ord = make([]int, nsg)
	if nsg > 1 && d.trace == nil && !p.opts.Shuffle && !p.opts.SeparateSubgroups {
		st.wide = p.newWide(st, R)
	}
	return st
}

// newSubgroup makes subgroup id of a workgroup whose register file has
// stride R.
func (p *Program) newSubgroup(st *wgState, id uint32, R int) *subgroup {
	S := p.S
	k := int(id) * S
	sg := &subgroup{p: p, wg: st, S: S, R: R, id: id, lane0: k, ident: identity[:S]}
	sg.regs = st.regs[k:]
	sg.inv = st.inv
	sg.localID, sg.localIdx = st.localID[k:k+S], st.localIdx[k:k+S]
	sg.frames = make([]frame, p.maxDepth+1)
	for i := range sg.frames {
		sg.frames[i].pc = make([]int32, S)
		sg.frames[i].buf = make([]int32, 0, S)
	}
	sg.frames[0].fn = p.entry
	sg.exited = make([]bool, S)
	sg.tA, sg.tB, sg.one = make([]int32, 0, S), make([]int32, 0, S), make([]int32, 1)
	sg.gscratch = make([]uint64, 16*S)
	sg.gsrc = make([]int32, S)
	return sg
}

// setParams puts the kernel arguments into the parameter registers of
// all R lanes.
func (st *wgState) setParams(R int) {
	d := st.d
	p := d.p
	for i, pa := range p.params {
		a := d.args[i]
		put := func(c int32, v uint64) {
			col := st.regs[int(pa.slot+c)*R : int(pa.slot+c)*R+R]
			for l := range col {
				col[l] = v
			}
		}
		switch {
		case pa.pointer && pa.storage == spirv.StorageClassWorkgroup:
			put(0, uint64(regWG)<<p.ptrShift|uint64(d.localOff[i]))
		case pa.pointer && pa.storage == spirv.StorageClassFunction:
			// per-lane pointer set with lanePtrs; the bytes are copied per workgroup
		case pa.pointer:
			put(0, uint64(regFirstBuf+i)<<p.ptrShift)
		case a.Kind == ArgScalar:
			put(0, a.Scalar&pa.sc.mask())
		default:
			for k, lf := range pa.leaves {
				put(int32(k), getLE(a.Bytes[lf.off:], lf.size))
			}
		}
	}
}

// workersByMemory is how many workers may hold a workgroup's state at
// once within MaxWorkerMemory (at least one).
func (d *dispatch) workersByMemory() int {
	p := d.p
	inv := int(d.local[0]) * int(d.local[1]) * int(d.local[2])
	per := d.wgBytes + (p.nslots*8+int(p.invSize))*(inv+p.S)
	return max(1, MaxWorkerMemory/max(per, 1))
}

// record keeps the fault to report: of the workgroups that fault, the
// first in hand-out order, whatever the workers' timing, so that a run
// reports the same fault every time (the one a sequential run meets
// first); a fault of the whole dispatch (work budget, deadline, executor
// bug) only when no workgroup faulted. Position pos's successors stop.
func (d *dispatch) record(f *Fault, pos uint64) {
	whole := f.Kind == FaultStepBudget || f.Kind == FaultCanceled || pos == math.MaxUint64
	d.faultMu.Lock()
	defer d.faultMu.Unlock()
	if whole {
		if d.fault == nil {
			d.fault, d.faultPos = f, math.MaxUint64
		}
		d.stop.Store(true)
		return
	}
	if d.fault == nil || pos < d.faultPos {
		d.fault, d.faultPos = f, pos
		d.stopAt.Store(pos)
	}
}

// stopped reports whether this workgroup must end without a fault of its
// own: the dispatch ended, or a workgroup before it faulted.
func (st *wgState) stopped() bool {
	return st.d.stop.Load() || st.pos > st.d.stopAt.Load()
}

// runGroup runs workgroup number i.
func (st *wgState) runGroup(i uint64) *Fault {
	d, p := st.d, st.d.p
	g := d.groups
	st.id = [3]uint32{uint32(i % uint64(g[0])), uint32(i / uint64(g[0]) % uint64(g[1])), uint32(i / (uint64(g[0]) * uint64(g[1])))}
	size := d.local
	for k := 0; k < 3; k++ {
		if rem := d.global[k] - st.id[k]*d.local[k]; rem < size[k] {
			size[k] = rem
		}
	}
	st.size = size
	inv := int(size[0] * size[1] * size[2])
	nsg := (inv + p.S - 1) / p.S
	// invocation memory needs setting up unless nothing in it depends on
	// the workgroup and it was set up for a workgroup of this shape
	shape := initKey{size: size, n: inv, nsg: nsg, ok: true}
	initAll := p.privSet || p.initPerWG || shape != st.lastShape
	// the start: a fixed cost and a unit per lane the subgroups reset
	if f, ok := st.spend(&st.credit, WorkgroupCost+int64(nsg*p.S)); !ok {
		return st.setupFault(f)
	}
	if f, ok := st.clearMem(); !ok {
		return st.setupFault(f)
	}
	st.lastShape = shape
	if w := st.wide; w != nil && nsg > 1 {
		for k := 0; k < nsg; k++ {
			sg := st.sgs[k]
			sg.n = min(p.S, inv-k*p.S)
			if initAll {
				if f, ok := st.spendInit(sg.n); !ok {
					return st.setupFault(f)
				}
				sg.initInvocations(k, sg.n, nsg)
			}
		}
		w.startWide(inv)
		w.runWide(st.sgs[:nsg])
		if w.fault != nil {
			return w.fault
		}
		if w.state != sgSplit {
			return nil
		}
	} else {
		for k := 0; k < nsg; k++ {
			sg := st.sgs[k]
			n := min(p.S, inv-k*p.S)
			sg.start(n)
			if initAll {
				if f, ok := st.spendInit(n); !ok {
					return st.setupFault(f)
				}
				sg.initInvocations(k, n, nsg)
			}
		}
	}
	ord := st.ord[:nsg]
	for k := range ord {
		ord[k] = k
	}
	if st.rng != nil {
		st.rng.Shuffle(len(ord), func(a, b int) { ord[a], ord[b] = ord[b], ord[a] })
	}
	for {
		running, atBarrier := 0, 0
		for _, k := range ord {
			sg := st.sgs[k]
			if sg.state == sgRunning {
				sg.run()
				if sg.fault != nil {
					return sg.fault
				}
			}
			switch sg.state {
			case sgRunning:
				running++
			case sgBarrier:
				atBarrier++
			}
		}
		if st.stopped() {
			return nil
		}
		if atBarrier == 0 && running == 0 {
			return nil
		}
		// every subgroup still running has reached the barrier
		collective := false
		for _, k := range ord {
			if sg := st.sgs[k]; sg.state == sgBarrier && sg.pending != nil {
				collective = true
			}
		}
		if collective {
			if f := st.finishCollective(st.sgs[:nsg]); f != nil {
				return f
			}
		}
		for _, k := range ord {
			if sg := st.sgs[k]; sg.state == sgBarrier {
				sg.state = sgRunning
			}
		}
	}
}

// setupFault names the workgroup in a fault of its setup (nil: the
// dispatch was stopped, no fault of its own).
func (st *wgState) setupFault(f *Fault) *Fault {
	if f != nil {
		for k := 0; k < 3; k++ {
			f.GlobalID[k] = st.id[k]*st.d.local[k] + st.d.offset[k]
		}
	}
	return f
}

// initInvocations sets the invocation memory of subgroup k for a new
// workgroup: the Private template, the built-ins, byval kernel arguments.
// Input memory is read-only to the shader, so when the workgroup has the
// shape of the subgroup's previous one (and no Private template rewrites
// the memory) only the built-ins that depend on the workgroup's id are
// written again: most of a dispatch's workgroups are alike.
func (sg *subgroup) initInvocations(k, n, nsg int) {
	p, st, d := sg.p, sg.wg, sg.wg.d
	isz := int(p.invSize)
	key := initKey{size: st.size, n: n, nsg: nsg, ok: true}
	same := key == sg.lastInit && !p.privSet
	sg.lastInit = key
	if same && !p.initPerWG {
		return
	}
	if !same {
		sx, sxy := st.size[0], st.size[0]*st.size[1]
		for l := 0; l < n; l++ {
			li := uint32(k*p.S + l)
			id := [3]uint32{li % sx, li / sx % st.size[1], li / sxy}
			if p.derivQuads {
				id = quadLocalID(li, st.size)
			}
			sg.localID[l], sg.localIdx[l] = id, id[0]+id[1]*sx+id[2]*sxy
		}
	}
	var base [3]uint32
	for c := 0; c < 3; c++ {
		base[c] = st.id[c]*d.local[c] + d.offset[c]
	}
	for l := 0; l < n; l++ {
		inv := sg.inv[(sg.lane0+l)*isz : (sg.lane0+l+1)*isz]
		if p.privSet {
			copy(inv, p.privInit)
		}
		lid := sg.localID[l]
		for _, iv := range p.inputs {
			if iv.lazy {
				continue
			}
			var vals []uint64
			switch iv.builtin {
			case spirv.BuiltInGlobalInvocationId, spirv.BuiltInLocalInvocationId:
				// the common ones, without building a slice
				a := lid
				if iv.builtin == spirv.BuiltInGlobalInvocationId {
					for c := 0; c < 3; c++ {
						a[c] += base[c]
					}
				} else if same {
					continue
				}
				for c, lf := range iv.leaves {
					if c < 3 {
						putLE(inv[lf.off:], lf.size, uint64(a[c]))
					}
				}
				continue
			case spirv.BuiltInWorkgroupId, spirv.BuiltInGlobalLinearId:
			default:
				if same {
					continue
				}
			}
			vals = sg.builtin(iv.builtin, l, n, nsg)
			for c, lf := range iv.leaves {
				if c < len(vals) {
					putLE(inv[lf.off:], lf.size, vals[c])
				}
			}
		}
		for i, pa := range p.params {
			if pa.pointer && pa.storage == spirv.StorageClassFunction {
				copy(inv[pa.invOff:int(pa.invOff)+pa.size], d.args[i].Bytes)
			}
		}
	}
}

// initKey is the shape of the workgroup a subgroup's invocation memory
// was last set up for.
type initKey struct {
	size   [3]uint32
	n, nsg int
	ok     bool
}

// builtin returns the components of a built-in input for lane l.
func (sg *subgroup) builtin(b spirv.BuiltIn, l, n, nsg int) []uint64 {
	st, d := sg.wg, sg.wg.d
	v := sg.bval[:0:4]
	lid := sg.localID[l]
	three := func(a [3]uint32) []uint64 { return append(v, uint64(a[0]), uint64(a[1]), uint64(a[2])) }
	gid := [3]uint32{}
	for k := 0; k < 3; k++ {
		gid[k] = st.id[k]*d.local[k] + lid[k] + d.offset[k]
	}
	mask := func(f func(i int) bool) []uint64 {
		var w [4]uint64
		for i := 0; i < 128; i++ {
			if f(i) {
				w[i/32] |= 1 << (i % 32)
			}
		}
		return append(v, w[0], w[1], w[2], w[3])
	}
	switch b {
	case spirv.BuiltInGlobalInvocationId:
		return three(gid)
	case spirv.BuiltInLocalInvocationId:
		return three(lid)
	case spirv.BuiltInLocalInvocationIndex:
		return append(v, uint64(sg.localIdx[l]))
	case spirv.BuiltInWorkgroupId:
		return three(st.id)
	case spirv.BuiltInNumWorkgroups:
		return three(d.groups)
	case spirv.BuiltInWorkgroupSize:
		if sg.p.model == spirv.ExecutionModelKernel {
			return three(st.size)
		}
		return three(d.local)
	case spirv.BuiltInEnqueuedWorkgroupSize:
		return three(d.local)
	case spirv.BuiltInGlobalSize:
		return three(d.global)
	case spirv.BuiltInGlobalOffset:
		return three(d.offset)
	case spirv.BuiltInWorkDim:
		return append(v, uint64(d.workDim))
	case spirv.BuiltInGlobalLinearId:
		g := [3]uint64{uint64(gid[0] - d.offset[0]), uint64(gid[1] - d.offset[1]), uint64(gid[2] - d.offset[2])}
		return append(v, (g[2]*uint64(d.global[1])+g[1])*uint64(d.global[0])+g[0])
	case spirv.BuiltInSubgroupSize:
		if sg.p.model == spirv.ExecutionModelKernel {
			return append(v, uint64(n)) // OpenCL: the size of this subgroup
		}
		return append(v, uint64(sg.S))
	case spirv.BuiltInSubgroupMaxSize:
		return append(v, uint64(sg.S))
	case spirv.BuiltInNumSubgroups, spirv.BuiltInNumEnqueuedSubgroups:
		return append(v, uint64(nsg))
	case spirv.BuiltInSubgroupId:
		return append(v, uint64(sg.id))
	case spirv.BuiltInSubgroupLocalInvocationId:
		return append(v, uint64(l))
	case spirv.BuiltInSubgroupEqMask:
		return mask(func(i int) bool { return i == l })
	case spirv.BuiltInSubgroupGeMask:
		return mask(func(i int) bool { return i >= l && i < sg.S })
	case spirv.BuiltInSubgroupGtMask:
		return mask(func(i int) bool { return i > l && i < sg.S })
	case spirv.BuiltInSubgroupLeMask:
		return mask(func(i int) bool { return i <= l })
	case spirv.BuiltInSubgroupLtMask:
		return mask(func(i int) bool { return i < l })
	}
	return v
}

// wideSubgroupBuiltin reports whether built-in b, one of a subgroup's, is
// a number a wide group can compute for each of its lanes (wideBuiltin).
func wideSubgroupBuiltin(b spirv.BuiltIn) bool {
	switch b {
	case spirv.BuiltInSubgroupLocalInvocationId, spirv.BuiltInSubgroupId, spirv.BuiltInSubgroupSize,
		spirv.BuiltInSubgroupMaxSize, spirv.BuiltInNumSubgroups, spirv.BuiltInNumEnqueuedSubgroups:
		return true
	}
	return false
}

// wideBuiltin is subgroup built-in b (wideSubgroupBuiltin) of wide group
// lane l: what builtin gives in lane l%S of subgroup l/S.
func (w *subgroup) wideBuiltin(b spirv.BuiltIn, l int32, nsg int) uint64 {
	S := int32(w.p.S)
	switch b {
	case spirv.BuiltInSubgroupLocalInvocationId:
		return uint64(l % S)
	case spirv.BuiltInSubgroupId:
		return uint64(l / S)
	case spirv.BuiltInSubgroupSize:
		if w.p.model == spirv.ExecutionModelKernel {
			return uint64(w.wideOf[l/S].n) // OpenCL: the size of this subgroup
		}
	case spirv.BuiltInNumSubgroups, spirv.BuiltInNumEnqueuedSubgroups:
		return uint64(nsg)
	}
	return uint64(S)
}

// loadBuiltin computes a load of a lazy built-in input (opBuiltin): the
// value initInvocations would have written, truncated to its leaf.
func (sg *subgroup) loadBuiltin(in *inst, lanes []int32) {
	p, st, d := sg.p, sg.wg, sg.wg.d
	bl := &p.bloads[in.aux]
	iv := &p.inputs[bl.input]
	S, R := int32(sg.S), int32(sg.R)
	nsg := (int(st.size[0]*st.size[1]*st.size[2]) + p.S - 1) / p.S
	for k, c := range bl.comps {
		dst := sg.regs[(in.dst+int32(k))*R : (in.dst+int32(k))*R+S]
		size := iv.leaves[c].size
		m := ^uint64(0)
		if size < 8 {
			m = 1<<(8*size) - 1
		}
		switch {
		case (iv.builtin == spirv.BuiltInGlobalInvocationId || iv.builtin == spirv.BuiltInLocalInvocationId) && c < 3 &&
			len(lanes) == len(dst) && st.size[1] == 1 && st.size[2] == 1:
			// a one-dimensional workgroup: the local id is the lane's index
			base := uint32(0)
			if iv.builtin == spirv.BuiltInGlobalInvocationId {
				base = st.id[c]*d.local[c] + d.offset[c]
			}
			if c > 0 {
				fill(dst, uint64(base)&m)
				continue
			}
			base += uint32(sg.lane0)
			if uint64(base)+uint64(len(dst)) <= 1<<32 {
				ramp(dst, uint64(base), m)
				continue
			}
			for l := range dst {
				dst[l] = uint64(base+uint32(l)) & m // the id wraps at 32 bits
			}
		case iv.builtin == spirv.BuiltInGlobalInvocationId && c < 3:
			base := st.id[c]*d.local[c] + d.offset[c]
			for _, l := range lanes {
				dst[l] = uint64(base+sg.localID[l][c]) & m
			}
		case iv.builtin == spirv.BuiltInLocalInvocationId && c < 3:
			for _, l := range lanes {
				dst[l] = uint64(sg.localID[l][c]) & m
			}
		case iv.builtin == spirv.BuiltInSubgroupLocalInvocationId && sg.wideOf == nil:
			for _, l := range lanes {
				dst[l] = uint64(l) & m
			}
		case sg.wideOf != nil && wideSubgroupBuiltin(iv.builtin) && len(lanes) == len(dst):
			// every lane: a run of S lanes per subgroup
			for l := 0; l < len(dst); l += p.S {
				sub := dst[l:min(l+p.S, len(dst))]
				if iv.builtin == spirv.BuiltInSubgroupLocalInvocationId {
					ramp(sub, 0, m)
				} else {
					fill(sub, sg.wideBuiltin(iv.builtin, int32(l), nsg)&m)
				}
			}
		case sg.wideOf != nil && wideSubgroupBuiltin(iv.builtin):
			for _, l := range lanes {
				dst[l] = sg.wideBuiltin(iv.builtin, l, nsg) & m
			}
		case iv.builtin == spirv.BuiltInLocalInvocationIndex:
			for _, l := range lanes {
				dst[l] = uint64(sg.localIdx[l]) & m
			}
		case c == 0 && (iv.builtin == spirv.BuiltInSubgroupSize || iv.builtin == spirv.BuiltInSubgroupMaxSize ||
			iv.builtin == spirv.BuiltInSubgroupId || iv.builtin == spirv.BuiltInNumSubgroups) && sg.wideOf == nil:
			// the same for every lane of the subgroup
			v := sg.builtin(iv.builtin, int(lanes[0]), sg.n, nsg)[0] & m
			for _, l := range lanes {
				dst[l] = v
			}
		default:
			for _, l := range lanes {
				vals := sg.builtin(iv.builtin, int(l), sg.n, nsg)
				v := uint64(0)
				if c < len(vals) {
					v = vals[c] & m
				}
				dst[l] = v
			}
		}
	}
}
