package oclref

import (
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
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

// With Validate, a translation spirv-val rejects is a translation error
// (a one-component vector, as llvm-spirv-15 emits for a <1 x i64>
// bitcast), and a valid one is not; the verdict is cached beside it.
func TestValidateRefusesInvalidTranslation(t *testing.T) {
	if _, err := exec.LookPath("spirv-val"); err != nil {
		t.Skip("spirv-val not on PATH (Debian: spirv-tools)")
	}
	dir := t.TempDir()
	words := func(ws ...uint32) []byte {
		b := make([]byte, 4*len(ws))
		for i, w := range ws {
			binary.LittleEndian.PutUint32(b[4*i:], w)
		}
		return b
	}
	header := []uint32{0x07230203, 0x00010000, 0, 10, 0}
	kernel := []uint32{2<<16 | 17, 6, 2<<16 | 17, 4, 2<<16 | 17, 5, 3<<16 | 14, 2, 2} // Kernel, Addresses, Linkage; Physical64 OpenCL
	valid := append(append([]uint32{}, header...), kernel...)
	valid = append(valid, 4<<16|21, 1, 32, 0)                          // %1 = OpTypeInt 32 0
	invalid := append(append([]uint32{}, valid...), 4<<16|23, 2, 1, 1) // %2 = OpTypeVector %1 1
	s := &SPVX{Validate: true}
	for _, c := range []struct {
		name string
		ws   []uint32
		ok   bool
	}{{"valid", valid, true}, {"invalid", invalid, false}} {
		spv := filepath.Join(dir, c.name+".spv")
		if err := os.WriteFile(spv, words(c.ws...), 0o644); err != nil {
			t.Fatal(err)
		}
		for pass := 0; pass < 2; pass++ { // the second from the cached verdict
			err := s.validate(spv)
			if c.ok != (err == nil) {
				t.Errorf("%s (pass %d): %v", c.name, pass, err)
			}
			if err != nil && !strings.Contains(err.Error(), "llvm-spirv-15") {
				t.Errorf("%s: the error must name the translator, for spvxRuns to set the kernel aside: %v", c.name, err)
			}
		}
	}
}
