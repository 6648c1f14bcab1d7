package oclref

import (
	"strings"
	"testing"
	"time"
)

// Every reduction of a random kernel must still be a kernel the generator
// could vouch for: loop bounds keep their modulo, and each edit changes
// the source.
func TestReduceEditsKeepLoopBounds(t *testing.T) {
	for seed := uint64(0); seed < 20; seed++ {
		k := Generate(seed)
		src := k.Source("k")
		n := 0
		for i := 0; ; i++ {
			c := k.edit(i)
			if c == nil {
				break
			}
			n++
			s := c.Source("k")
			if s == src {
				t.Fatalf("seed %d: edit %d changes nothing", seed, i)
			}
			for _, line := range strings.Split(s, "\n") {
				if strings.Contains(line, "for (int i") && !strings.Contains(line, "% 6u") && !isConstBound(line) {
					t.Fatalf("seed %d: edit %d: unbounded loop: %s", seed, i, line)
				}
			}
		}
		if n == 0 {
			t.Fatalf("seed %d: no reductions", seed)
		}
	}
}

func isConstBound(line string) bool {
	for _, d := range "12345" {
		if strings.Contains(line, "< "+string(d)+";") {
			return true
		}
	}
	return false
}

// A reference that does not answer in time fails the program, not the
// test binary.
func TestReferenceTimeout(t *testing.T) {
	ref, _ := engines(t)
	r := *ref
	r.Timeout = time.Nanosecond
	p := &Program{Source: "__kernel void k(__global int *a) { a[0] = 1; }", Runs: []Run{{Kernel: "k", Global: [3]int{1}, Args: []Arg{{Kind: Buffer, Data: make([]byte, 4)}}}}}
	_, err := r.Run(p)
	if err == nil || !strings.Contains(err.Error(), "no answer within") {
		t.Fatalf("got %v, want a timeout", err)
	}
}
