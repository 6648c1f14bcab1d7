package val

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// The module-level passes run after the second loop, in spirv-val's
// order. Each reads the module and what the loops built, and none reads
// another's results, so on a large module they run side by side, each on
// a fork of the state (its own errors and caches), and their errors are
// merged in pass order: the first error, and with Options.All the whole
// list, are those of a sequential run. Without Options.All, a pass after
// one that failed is not started, or its errors are dropped.

// modulePass is one module-level pass. onRoot passes read what the second
// loop left in the root state's scratch (the execution limitations its
// forks registered), so they run on the root state itself.
type modulePass struct {
	run    func(*state) bool
	onRoot bool
}

// modulePassList is the passes after the second loop, in spirv-val's
// order (validate.cpp). A new pass gets one line here.
var modulePassList = []modulePass{
	{run: (*state).adjacency},
	{run: (*state).entryPoints},
	// The end of ValidateEntryPoints: duplicate modes, float controls 2.
	{run: (*state).duplicateExecutionModes},
	{run: (*state).graphEntryPoints},
	{run: (*state).cfgChecks},
	{run: (*state).checkDominance},
	{run: (*state).validateDecorations},
	{run: (*state).explicitLayout},
	// One pass in spirv-val (ValidateInterfaces): it ends at its first error.
	{run: func(s *state) bool { return s.interfaces() || s.interfaceStorageClasses() }},
	{run: (*state).builtins},
	// The last per-instruction loop checks execution limitations and
	// small type uses instruction by instruction; ValidateLogicalPointers
	// comes after it.
	{run: func(s *state) bool { return s.interleaved(s.executionLimitations, s.smallTypeUses) }, onRoot: true},
	{run: (*state).logicalPointers},
}

// modulePasses runs modulePassList: in order on s for a small module (or
// Options.sequential), else on a few goroutines.
func (s *state) modulePasses() {
	if s.m.Len() < parallelMinInsts && !s.opts.forceParallel || s.opts.sequential || runtime.GOMAXPROCS(0) < 2 {
		for _, p := range modulePassList {
			if p.run(s) && s.stopped() {
				return
			}
		}
		return
	}
	s.prepareModulePasses()
	n := len(modulePassList)
	errs := make([]ErrorList, n)
	failed := make([]bool, n)
	earlier := s.errs // Options.All: the loops' errors come first
	s.errs = nil
	var next, firstFail atomic.Int64
	firstFail.Store(int64(n))
	work := func() {
		for {
			k := int(next.Add(1) - 1)
			if k >= n || !s.opts.All && int64(k) > firstFail.Load() {
				return
			}
			f := s
			if !modulePassList[k].onRoot {
				f = s.fork()
			}
			failed[k] = modulePassList[k].run(f)
			errs[k], f.errs = f.errs, nil
			for failed[k] && len(errs[k]) > 0 && !s.opts.All {
				cur := firstFail.Load()
				if int64(k) >= cur || firstFail.CompareAndSwap(cur, int64(k)) {
					break
				}
			}
		}
	}
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), 3) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work()
		}()
	}
	wg.Wait()
	s.errs = earlier
	for k := range n {
		s.errs = append(s.errs, errs[k]...)
		if failed[k] && s.stopped() {
			return
		}
	}
}

// prepareModulePasses builds the lazily built structures the module
// passes share, so that the forks only read them.
func (s *state) prepareModulePasses() {
	s.prepareShared()
	s.getCallGraph()
	s.envCaps()
	s.useIdx()
}
