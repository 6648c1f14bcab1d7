package val

import (
	"slices"

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
		if in := m.Inst(i); isInterface(&in) {
			vars = append(vars, i)
		}
	}
	if len(vars) == 0 || len(x.EntryPoints) == 0 {
		return false
	}
	// Uses: for each defining instruction, the instructions naming its
	// result as an id operand (CSR layout).
	n := m.Len()
	useStart := make([]int32, n+1)
	forEachUse := func(f func(def, user int)) {
		for i := 0; i < n; i++ {
			in := m.Inst(i)
			for _, id := range in.IDOperands() {
				if j, ok := x.Def(id); ok {
					f(j, i)
				}
			}
		}
	}
	forEachUse(func(def, _ int) { useStart[def+1]++ })
	for i := 1; i <= n; i++ {
		useStart[i] += useStart[i-1]
	}
	users := make([]int32, useStart[n])
	fill := append([]int32(nil), useStart[:n]...)
	forEachUse(func(def, user int) { users[fill[def]] = int32(user); fill[def]++ })

	// The function holding each instruction (OpFunction excluded, as
	// spirv-val sets it), and each function's entry points.
	fnOf := make([]int32, n)
	for i := range fnOf {
		fnOf[i] = -1
	}
	fnIndex := map[uint32]int{}
	for f, fn := range x.Functions {
		fnIndex[fn.ID] = f
		end := fn.End
		if end < 0 {
			end = n - 1
		}
		for i := fn.Start + 1; i <= end && i < n; i++ {
			fnOf[i] = int32(f)
		}
	}
	calls := make([][]int, len(x.Functions))
	for i := 0; i < n; i++ {
		if in := m.Inst(i); in.Opcode == spirv.OpFunctionCall && len(in.Words) > 3 && fnOf[i] >= 0 {
			if g, ok := fnIndex[in.Words[3]]; ok {
				calls[fnOf[i]] = append(calls[fnOf[i]], g)
			}
		}
	}
	entryOf := make([][]uint32, len(x.Functions)) // entry point function ids reaching each function
	seenEP := map[uint32]bool{}
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
	epByFn := map[uint32][]int{}
	for k := range x.EntryPoints {
		epByFn[x.EntryPoints[k].Function] = append(epByFn[x.EntryPoints[k].Function], k)
	}
	seen := make([]int32, n) // stamp: the variable's position in vars + 1
	var fns []int
	var queue []int32
	var eps []uint32
	for vi, v := range vars {
		varID := m.Inst(v).ResultID
		fns, eps = fns[:0], eps[:0]
		queue = append(queue[:0], int32(v))
		stamp := int32(vi + 1)
		seen[v] = stamp
		for q := 0; q < len(queue); q++ {
			for _, u := range users[useStart[queue[q]]:useStart[queue[q]+1]] {
				if f := fnOf[u]; f >= 0 {
					fns = append(fns, int(f))
				} else if seen[u] != stamp {
					seen[u] = stamp
					queue = append(queue, u)
				}
			}
		}
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
