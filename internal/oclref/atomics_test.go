package oclref

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"spvx/interp"
)

// The atomics family, after OpenCL-CTS test_conformance/atomics: every
// OpenCL C 1.2 atomic built-in on int and uint (atomic_*) and on long and
// ulong (atom_*, cl_khr_int64_base_atomics and _extended_atomics), on
// __global and on __local memory, with 256 work-items contending for 8
// counters. Final counters are compared byte for byte: every operation but
// xchg and cmpxchg is commutative, so they do not depend on the order. The
// values returned depend on the order: for inc and dec they are compared as
// a set per counter (a permutation of the counter's run), for xchg the
// returned values with the final one are a permutation of the initial value
// and the values written; the others' returns are not compared. cmpxchg is
// run without contention (each work-item its own location, compared
// exactly) and as a lock-free add loop (final sums compared).
//
// Not compared with PoCL: the OpenCL C 2.0 atomic_*_explicit family, which
// PoCL 3.1's library lacks (../shared/docs/ORACLES.md); spvx's OpenCL 2.0
// atomics are covered by interp's own kernel tests.

const (
	atomItems    = 256
	atomCounters = 8
	atomLocal    = 64 // workgroup size
)

type atomOp struct {
	fn   string
	args int  // operands after the pointer: 0 (inc, dec), 1, or 2 (cmpxchg)
	olds byte // how returned values are compared: 0 not, 's' as a set per counter, 'x' xchg permutation
}

var atomOps = []atomOp{
	{"add", 1, 0}, {"sub", 1, 0}, {"xchg", 1, 'x'}, {"inc", 0, 's'}, {"dec", 0, 's'},
	{"min", 1, 0}, {"max", 1, 0}, {"and", 1, 0}, {"or", 1, 0}, {"xor", 1, 0},
}

func atomicCases(rng *rand.Rand) []famCase {
	var cases []famCase
	for _, t := range intTypes[4:] {
		prefix := "atomic_"
		if t.size == 8 {
			prefix = "atom_"
		}
		for _, op := range atomOps {
			for _, local := range []bool{false, true} {
				cases = append(cases, atomicCase(t, prefix+op.fn, op, local, rng))
			}
		}
		cases = append(cases, cmpxchgCases(t, prefix+"cmpxchg", rng)...)
	}
	// atomic_xchg on float
	ft := typeNamed("float")
	for _, local := range []bool{false, true} {
		cases = append(cases, atomicCase(ft, "atomic_xchg", atomOp{"xchg", 1, 'x'}, local, rng))
	}
	return cases
}

func atomicCase(t clType, fn string, op atomOp, local bool, rng *rand.Rand) famCase {
	space := "g"
	if local {
		space = "l"
	}
	name := fmt.Sprintf("a_%s_%s_%s", fn, t.name, space)
	call := fmt.Sprintf("%s(&c[i %% %d]", fn, atomCounters)
	if op.args == 1 {
		call += ", v[i]"
	}
	call += ")"
	var body string
	if local {
		body = fmt.Sprintf(`__local %[1]s c[%[2]d]; size_t l = get_local_id(0);
  if (l < %[2]d) c[l] = cg[get_group_id(0) * %[2]d + l];
  barrier(CLK_LOCAL_MEM_FENCE);
  olds[i] = %[3]s;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l < %[2]d) cg[get_group_id(0) * %[2]d + l] = c[l];`, t.name, atomCounters, call)
		body = "size_t i = get_global_id(0); " + body
		body = fmt.Sprintf("__kernel void %s(__global %s* cg, __global const %s* v, __global %s* olds) { %s }",
			name, t.name, t.name, t.name, body)
	} else {
		body = fmt.Sprintf("__kernel void %s(__global %s* c, __global const %s* v, __global %s* olds) { size_t i = get_global_id(0); olds[i] = %s; }",
			name, t.name, t.name, t.name, call)
	}
	ncounters := atomCounters
	if local {
		ncounters = atomCounters * atomItems / atomLocal
	}
	counters := make([]byte, t.size*ncounters)
	vals := make([]byte, t.size*atomItems)
	for i := range ncounters {
		putLE(counters[t.size*i:], t.size, atomValue(t, op, rng))
	}
	for i := range atomItems {
		putLE(vals[t.size*i:], t.size, atomValue(t, op, rng))
	}
	groupOf := func(i int) int { return i % atomCounters }
	if local {
		groupOf = func(i int) int { return i/atomLocal*atomCounters + i%atomCounters }
	}
	return famCase{
		kernel: name, src: body,
		run: Run{Global: [3]int{atomItems}, Local: [3]int{atomLocal},
			Args: []Arg{{Kind: Buffer, Data: counters}, {Kind: Buffer, Data: vals}, {Kind: Buffer, Data: make([]byte, t.size*atomItems)}}},
		cmp: atomCompare(t, op, ncounters, groupOf, counters, vals),
	}
}

// atomValue is an initial or operand value: small for add/sub/inc/dec
// (so sums stay readable), any bits otherwise.
func atomValue(t clType, op atomOp, rng *rand.Rand) uint64 {
	switch op.fn {
	case "add", "sub", "inc", "dec":
		return uint64(rng.IntN(1000)) & mask(t)
	}
	return randomBits(t, rng)
}

func atomCompare(t clType, op atomOp, ncounters int, groupOf func(int) int, counters, vals []byte) ElemCompare {
	var final []byte // xchg: spvx's final counters, seen first (arguments are compared in order)
	groups := func(b []byte) [][]uint64 {
		g := make([][]uint64, ncounters)
		for i := range atomItems {
			g[groupOf(i)] = append(g[groupOf(i)], le(b[t.size*i:], t.size))
		}
		return g
	}
	return func(_, arg int, got, want []byte) (int, string) {
		switch {
		case arg == 1:
			return firstDiff(got, want)
		case arg == 0 && op.olds == 'x':
			final = got
			return -1, ""
		case arg == 0:
			return firstDiff(got, want)
		case op.olds == 0:
			return -1, ""
		}
		gg, wg := groups(got), groups(want)
		if op.olds == 'x' { // returned values and the final value: the initial value and those written
			wg = groups(vals)
			for k := range gg {
				gg[k] = append(gg[k], le(final[t.size*k:], t.size))
				wg[k] = append(wg[k], le(counters[t.size*k:], t.size))
			}
		}
		for k := range gg {
			slices.Sort(gg[k])
			slices.Sort(wg[k])
			if !slices.Equal(gg[k], wg[k]) {
				return 0, fmt.Sprintf("counter %d: returned values %x, want %x", k, gg[k], wg[k])
			}
		}
		return -1, ""
	}
}

// cmpxchgCases: cmpxchg without contention (half the expected values
// match), and a lock-free add loop with contention.
func cmpxchgCases(t clType, fn string, rng *rand.Rand) []famCase {
	mem, cmp, val := make([]byte, t.size*atomItems), make([]byte, t.size*atomItems), make([]byte, t.size*atomItems)
	for i := range atomItems {
		m := randomBits(t, rng)
		putLE(mem[t.size*i:], t.size, m)
		c := m
		if i%2 == 1 {
			c = randomBits(t, rng)
		}
		putLE(cmp[t.size*i:], t.size, c)
		putLE(val[t.size*i:], t.size, randomBits(t, rng))
	}
	own := fmt.Sprintf("a_%s_%s_own", fn, t.name)
	loop := fmt.Sprintf("a_%s_%s_loop", fn, t.name)
	return []famCase{
		{
			kernel: own,
			src: fmt.Sprintf("__kernel void %s(__global %[2]s* c, __global const %[2]s* e, __global const %[2]s* v, __global %[2]s* olds) {"+
				" size_t i = get_global_id(0); olds[i] = %[3]s(&c[i], e[i], v[i]); }", own, t.name, fn),
			run: Run{Global: [3]int{atomItems}, Local: [3]int{atomLocal}, Args: []Arg{{Kind: Buffer, Data: mem},
				{Kind: Buffer, Data: cmp}, {Kind: Buffer, Data: val}, {Kind: Buffer, Data: make([]byte, t.size*atomItems)}}},
		},
		{
			kernel: loop,
			src: fmt.Sprintf("__kernel void %s(__global %[2]s* c, __global const %[2]s* v) { size_t i = get_global_id(0);"+
				" %[2]s old, seen; do { old = c[i %% %[4]d]; seen = %[3]s(&c[i %% %[4]d], old, old + v[i]); } while (seen != old); }",
				loop, t.name, fn, atomCounters),
			run: Run{Global: [3]int{atomItems}, Local: [3]int{atomLocal}, Args: []Arg{{Kind: Buffer, Data: make([]byte, t.size*atomCounters)},
				{Kind: Buffer, Data: val}}},
		},
	}
}

const int64AtomicsHeader = "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable\n"

func TestAtomics(t *testing.T) {
	rng := rand.New(rand.NewPCG(37, 6))
	// two schedules: contention must not change what is compared
	runFamily(t, int64AtomicsHeader, "CL1.2", atomicCases(rng), 100,
		interp.Options{SubgroupSize: 8}, interp.Options{SubgroupSize: 32, Shuffle: true, Seed: 5})
}
