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
	n := m.Len()
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
		if m.Opcode(i) != spirv.OpFunctionCall {
			continue
		}
		if in := m.Inst(i); len(in.Words) > 3 && fnOf[i] >= 0 {
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
func (s *state) interfaceUsers(vars []int, fnOf []int32) [][]int {
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
				case fnOf[i] >= 0:
					fnsOf[vi] = append(fnsOf[vi], int(fnOf[i]))
				case seen[i] != int32(vi+1):
					seen[i] = int32(vi + 1)
					queue = append(queue, i)
				}
			}
		}
	}
	return fnsOf
}
