package val

import (
	"slices"
	"sort"

	"spvx/spirv"
)

// This file holds validate_interfaces.cpp's rules, as far as they exist
// here: an interface variable (Input or Output before SPIR-V 1.4, every
// global variable from 1.4) used, directly or through global users of it,
// by a function that an entry point's call graph reaches, is listed in
// that entry point's interface. The Vulkan storage-class rules are in
// interface_storage.go; locations are not written yet.

func (s *state) interfaces() bool {
	m, x := s.m, s.x
	spv14 := s.version >= spirv.MakeVersion(1, 4)
	isInterface := func(in *spirv.Instruction) bool {
		if (in.Opcode != spirv.OpVariable && in.Opcode != spirv.OpUntypedVariableKHR) || len(in.Words) < 4 {
			return false
		}
		sc := spirv.StorageClass(in.Words[3])
		if spv14 {
			return sc != spirv.StorageClassFunction
		}
		return sc == spirv.StorageClassInput || sc == spirv.StorageClassOutput
	}
	var vars []int
	for i := 0; i < m.Len(); i++ {
		if op := m.Opcode(i); op != spirv.OpVariable && op != spirv.OpUntypedVariableKHR {
			continue
		}
		if in := m.Inst(i); isInterface(&in) {
			vars = append(vars, i)
		}
	}
	if len(vars) == 0 || len(x.EntryPoints) == 0 {
		return false
	}
	// The function holding each instruction (OpFunction excluded, as
	// spirv-val sets it), and each function's entry points.
	fnOf := s.bodies()
	fnIndex := make(map[uint32]int, len(x.Functions))
	for f, fn := range x.Functions {
		fnIndex[fn.ID] = f
	}
	calls := make([][]int, len(x.Functions))
	for i := 0; i < m.Len(); i++ {
		if m.Opcode(i) != spirv.OpFunctionCall {
			continue
		}
		if in, f := m.Inst(i), fnOf(i); len(in.Words) > 3 && f >= 0 {
			if g, ok := fnIndex[in.Words[3]]; ok {
				calls[f] = append(calls[f], g)
			}
		}
	}
	entryOf := make([][]uint32, len(x.Functions)) // entry point function ids reaching each function
	seenEP := make(map[uint32]bool, len(x.EntryPoints))
	visited := make([]int32, len(x.Functions)) // stamp: the entry point's index + 1
	var stack []int
	for e, ep := range x.EntryPoints {
		if seenEP[ep.Function] {
			continue
		}
		seenEP[ep.Function] = true
		f, ok := fnIndex[ep.Function]
		if !ok {
			continue
		}
		stack = append(stack[:0], f)
		for len(stack) > 0 {
			g := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if visited[g] == int32(e+1) {
				continue
			}
			visited[g] = int32(e + 1)
			entryOf[g] = append(entryOf[g], ep.Function)
			stack = append(stack, calls[g]...)
		}
	}
	epByFn := make(map[uint32][]int, len(x.EntryPoints))
	for k := range x.EntryPoints {
		epByFn[x.EntryPoints[k].Function] = append(epByFn[x.EntryPoints[k].Function], k)
	}
	fnsOf := s.interfaceUsers(vars, fnOf)
	var eps []uint32
	for vi, v := range vars {
		varID := m.Inst(v).ResultID
		fns := fnsOf[vi]
		eps = eps[:0]
		for _, f := range fns {
			eps = append(eps, entryOf[f]...)
		}
		slices.Sort(eps)
		eps = slices.Compact(eps)
		for _, id := range eps {
			for _, k := range epByFn[id] {
				ep := &x.EntryPoints[k]
				if slices.Contains(ep.Interface, varID) {
					continue
				}
				if s.fail(v, "", "Interface variable id <%d> is used by entry point '%s' id <%d>, but is not listed as an interface", varID, ep.Name, id) {
					return true
				}
			}
		}
	}
	return false
}

// interfaceUsers returns, for each interface variable (by position in
// vars, instruction indices), the functions that use it directly or
// through module-level instructions that use it (a spec constant
// operation, a composite), as spirv-val follows them: a walk of the
// def-use lists from each variable through the module-level users.
func (s *state) interfaceUsers(vars []int, fnOf func(int) int32) [][]int {
	u := s.useIdx()
	seen := make([]int32, s.m.Len()) // stamp: 1 + the variable's position
	fnsOf := make([][]int, len(vars))
	var queue []int
	for vi, v := range vars {
		seen[v] = int32(vi + 1)
		queue = append(queue[:0], v)
		for len(queue) > 0 {
			d := queue[len(queue)-1]
			queue = queue[:len(queue)-1]
			for _, x := range u.byDef(d) {
				i := int(x.inst)
				switch {
				case i == d:
				case fnOf(i) >= 0:
					fnsOf[vi] = append(fnsOf[vi], int(fnOf(i)))
				case seen[i] != int32(vi+1):
					seen[i] = int32(vi + 1)
					queue = append(queue, i)
				}
			}
		}
	}
	return fnsOf
}

// bodies returns, as a function of an instruction's index, the function
// whose body holds it (after its OpFunction, up to its OpFunctionEnd or,
// without one, the module's end; the latest function where such bodies
// overlap), or -1: a binary search, where a table of every instruction's
// function would cost the module's size in memory.
func (s *state) bodies() func(i int) int32 {
	fns := s.x.Functions
	// open[k]: the last function up to k without an OpFunctionEnd, whose
	// body runs past every later function's.
	open := make([]int32, len(fns))
	last := int32(-1)
	for k, fn := range fns {
		if fn.End < 0 {
			last = int32(k)
		}
		open[k] = last
	}
	return func(i int) int32 {
		k := sort.Search(len(fns), func(k int) bool { return fns[k].Start >= i }) - 1
		if k < 0 {
			return -1
		}
		if fns[k].End < 0 || i <= fns[k].End {
			return int32(k)
		}
		return open[k]
	}
}
