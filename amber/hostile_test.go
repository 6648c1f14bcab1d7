package amber

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// structChains writes a script of chains STRUCT chains, each depth
// levels deep: every STRUCT holds the one before it and a float, and a
// BUFFER of the last one is laid out.
func structChains(chains, depth int) string {
	var b strings.Builder
	b.WriteString("#!amber\n")
	last := ""
	for c := 0; c < chains; c++ {
		prev := ""
		for d := 0; d < depth; d++ {
			name := fmt.Sprintf("s%d_%d", c, d)
			fmt.Fprintf(&b, "STRUCT %s\n", name)
			if prev != "" {
				fmt.Fprintf(&b, "  %s inner\n", prev)
			}
			b.WriteString("  float f\nEND\n")
			prev = name
		}
		last = prev
	}
	fmt.Fprintf(&b, "BUFFER buf DATA_TYPE %s STD140 SIZE 2 FILL 0\n", last)
	return b.String()
}

// TestStructDepthBounded checks that STRUCT nesting past maxStructDepth is
// an error at the STRUCT that goes too deep, not a recursion as deep as the
// script, and that a chain 4 times deeper costs no more (it cost 16 times
// more, 19 s at depth 40,000, when each STRUCT walked the chain below it).
func TestStructDepthBounded(t *testing.T) {
	want := fmt.Sprintf("deep.amber:%d: STRUCT s0_%d nests more than 255 levels of STRUCT", 2+3+4*254, 255)
	var work [2]int64
	for i, depth := range []int{10000, 40000} {
		src := []byte(structChains(1, depth))
		before := memberVisits.Load()
		_, err := Parse("deep.amber", src, ParseOptions{})
		work[i] = memberVisits.Load() - before
		if err == nil || err.Error() != want {
			t.Fatalf("depth %d: %v, want %s", depth, err, want)
		}
	}
	if work[1] != work[0] || work[0] > 2*256 {
		t.Errorf("depth 10000 visits %d members, 40000 visits %d: want the same, at most 2 per level up to the bound", work[0], work[1])
	}
	s, err := Parse("ok.amber", []byte(structChains(1, maxStructDepth)), ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	f := s.Buffer("buf").Format
	// std140: each level aligns to 16 and holds its inner STRUCT and a
	// float, so level k (from 1) is 16·k bytes long.
	if f.Inputs() != maxStructDepth || f.Stride != 16*maxStructDepth {
		t.Errorf("depth %d: %d inputs, stride %d", maxStructDepth, f.Inputs(), f.Stride)
	}
}

// TestStructChainsLinear checks that declaring n STRUCTs costs O(n), also
// when they nest: each STRUCT's size, alignment and depth come from its
// members' cached values, where walking the chain below each STRUCT
// costs depth² per chain. 4n STRUCTs (chains 4 times deeper) must visit
// 4 times the members, where such a walk visits 16 times as many.
func TestStructChainsLinear(t *testing.T) {
	cost := func(src string) int64 {
		before := memberVisits.Load()
		if _, err := Parse("chains.amber", []byte(src), ParseOptions{}); err != nil {
			t.Fatal(err)
		}
		return memberVisits.Load() - before
	}
	n, n4 := cost(structChains(40, 60)), cost(structChains(40, 240))
	if ratio := float64(n4) / float64(n); ratio > 4.5 {
		t.Errorf("4n STRUCTs visit %d members, n visit %d: ratio %.2f, want about 4", n4, n, ratio)
	}
}

// TestDescriptorOffsetWrap checks that OFFSET plus DESCRIPTOR_OFFSET
// cannot wrap around to a small offset (8 + 2^64-4 gave 4): the script is
// refused at the token.
func TestDescriptorOffsetWrap(t *testing.T) {
	for _, c := range []struct{ desc, want string }{
		{"18446744073709551612", "w.amber:8: invalid value for DESCRIPTOR_OFFSET: 18446744073709551612 (out of range for a byte offset)"},
		{"-4", "w.amber:8: invalid value for DESCRIPTOR_OFFSET: -4 (out of range for a byte offset)"},
		{"9223372036854775807", "w.amber:8: DESCRIPTOR_OFFSET 9223372036854775807 plus OFFSET 8 overflows"},
	} {
		src := "#!amber\nSHADER compute s GLSL\nvoid main() {}\nEND\nBUFFER b DATA_TYPE uint32 SIZE 4 FILL 0\n" +
			"PIPELINE compute p\n  ATTACH s\n  BIND BUFFER b AS storage_dynamic DESCRIPTOR_SET 0 BINDING 0 OFFSET 8 DESCRIPTOR_OFFSET " + c.desc + "\nEND\n"
		_, err := Parse("w.amber", []byte(src), ParseOptions{})
		if err == nil || err.Error() != c.want {
			t.Errorf("DESCRIPTOR_OFFSET %s: %v, want %s", c.desc, err, c.want)
		}
	}
}

// TestBudgetCountsParsedAndCopied checks that one budget holds what a
// run's buffers take: the parsed data (used in place by RunFile, not
// copied) and what COPY adds, and that it is all returned at the end.
func TestBudgetCountsParsedAndCopied(t *testing.T) {
	path := filepath.Join(t.TempDir(), "copy.amber")
	os.WriteFile(path, []byte("#!amber\nBUFFER big DATA_TYPE uint8 SIZE 1000000 FILL 7\nBUFFER small DATA_TYPE uint8 SIZE 1 FILL 0\n"+
		"COPY big TO small\nEXPECT small IDX 999999 EQ 7\n"), 0o644)
	// 1,000,001 parsed bytes, 8·24 for the EXPECT's value (the parser
	// counts values 8 at first), plus 999,999 for COPY.
	small := NewBudget(1500000)
	r := RunFile(context.Background(), path, Options{Engine: &fakeEngine{}, Budget: small})
	if r.Status != Fail || !strings.Contains(r.Reason, "copy.amber:4: buffer small: 999999 more bytes would exceed the 1500000-byte budget") {
		t.Errorf("small budget: %v %q", r.Status, r.Reason)
	}
	big := NewBudget(2000192)
	if r := RunFile(context.Background(), path, Options{Engine: &fakeEngine{}, Budget: big}); r.Status != Pass {
		t.Errorf("budget of 2,000,192: %v %q", r.Status, r.Reason)
	}
	if small.Used() != 0 || big.Used() != 0 {
		t.Errorf("bytes still reserved after the runs: %d, %d", small.Used(), big.Used())
	}
	// Scripts running at once share the budget: a run waits while
	// another holds it, and ends with its context.
	shared := NewBudget(1500000)
	if !shared.tryReserve(1000000) {
		t.Fatal("reserve")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if r := RunFile(ctx, path, Options{Engine: &fakeEngine{}, Budget: shared}); r.Status != Fail || !strings.Contains(r.Reason, "deadline") {
		t.Errorf("run over a held budget: %v %q", r.Status, r.Reason)
	}
	shared = NewBudget(2000192)
	shared.tryReserve(1000000)
	done := make(chan Result)
	go func() { done <- RunFile(context.Background(), path, Options{Engine: &fakeEngine{}, Budget: shared}) }()
	select {
	case r := <-done:
		t.Fatalf("ran while the budget was held: %v %q", r.Status, r.Reason)
	case <-time.After(100 * time.Millisecond):
	}
	shared.release(1000000)
	if r := <-done; r.Status != Pass {
		t.Errorf("after the release: %v %q", r.Status, r.Reason)
	}
}

// TestDescriptorOffsetWrapAtRun checks the runner's own guard, for a
// Script built or changed by a program rather than parsed.
func TestDescriptorOffsetWrapAtRun(t *testing.T) {
	asm, err := filepath.Abs("testdata/kernels.spvasm")
	if err != nil {
		t.Fatal(err)
	}
	src := "#!amber\nSHADER compute k SPIRV-ASM TARGET_ENV spv1.0 FILE " + asm + "\nBUFFER b DATA_TYPE uint32 SIZE 4 FILL 0\n" +
		"PIPELINE compute p\n  ATTACH k ENTRY_POINT info\n  BIND BUFFER b AS storage_dynamic DESCRIPTOR_SET 0 BINDING 0 OFFSET 8\nEND\nRUN p 1 1 1\n"
	s, err := Parse("w.amber", []byte(src), ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, pl := range s.Pipelines {
		for _, bb := range pl.Bindings {
			bb.DescriptorOffsets[0] = 1<<64 - 4
		}
	}
	r := Run(context.Background(), s, Options{Engine: &fakeEngine{}, NoValidate: true})
	if r.Status != Fail || !strings.Contains(r.Reason, "w.amber:6: BIND b: OFFSET 8 plus DESCRIPTOR_OFFSET 18446744073709551612 overflows") {
		t.Errorf("%v %q", r.Status, r.Reason)
	}
}

// TestStructStrideTooSmall: a STRUCT whose STRIDE (or member OFFSETs) puts
// components past the element's stride is refused where the buffer takes
// it (amber asserts it): sizes, data writes and probes all count in
// strides, and a probe read past the buffer's end (FuzzParse found it).
func TestStructStrideTooSmall(t *testing.T) {
	for name, members := range map[string]string{
		"stride":       "STRUCT s STRIDE 4\nint32 A\nfloat B\nEND\n",
		"offset":       "STRUCT s STRIDE 8\nint32 A\nfloat B OFFSET 6\nEND\n",
		"nested inner": "STRUCT inner\nfloat A\nvec3<float> B\nEND\nSTRUCT s STRIDE 1\nint32 A\ninner C\nEND\n",
	} {
		src := "#!amber\n" + members + "BUFFER buf DATA_TYPE s DATA\n1 2\nEND\n"
		_, err := Parse("s.amber", []byte(src), ParseOptions{})
		if err == nil || !strings.Contains(err.Error(), "Struct has more members then fit within stride") {
			t.Errorf("%s: %v", name, err)
		}
	}
	ok := "#!amber\nSTRUCT s STRIDE 8\nint32 A\nfloat B\nEND\nBUFFER buf DATA_TYPE s DATA\n1 2\nEND\n"
	if _, err := Parse("s.amber", []byte(ok), ParseOptions{}); err != nil {
		t.Errorf("a STRIDE that fits: %v", err)
	}
}

// TestUnclosedBlocks: a block that END closes (PIPELINE, its
// SHADER_OPTIMIZATION and SUBGROUP blocks) is refused where the script
// ends inside it, and where a token in it is no identifier, at that line.
func TestUnclosedBlocks(t *testing.T) {
	const shader = "#!amber\nSHADER compute s SPIRV-ASM\nOpCapability Shader\nEND\n"
	for _, c := range []struct{ name, body, want string }{
		{"pipeline", "PIPELINE compute p\nATTACH s\n", "7: PIPELINE missing END command"},
		{"pipeline token", "PIPELINE compute p\nATTACH s\n3\nEND\n", "7: expected identifier: 3"},
		{"optimization", "PIPELINE compute p\nATTACH s\nSHADER_OPTIMIZATION s\n--opt\n", "9: SHADER_OPTIMIZATION missing END command"},
		{"optimization token", "PIPELINE compute p\nATTACH s\nSHADER_OPTIMIZATION s\n7\nEND\nEND\n", "8: SHADER_OPTIMIZATION options must be identifiers: 7"},
		{"subgroup", "DEVICE_FEATURE SubgroupSizeControl.subgroupSizeControl\nPIPELINE compute p\nATTACH s\nSUBGROUP s\nVARYING_SIZE on\n", "10: SUBGROUP missing END command"},
		{"subgroup token", "DEVICE_FEATURE SubgroupSizeControl.subgroupSizeControl\nPIPELINE compute p\nATTACH s\nSUBGROUP s\n1.5\nEND\nEND\n", "9: SUBGROUP options must be identifiers: 1.5"},
	} {
		_, err := Parse("b.amber", []byte(shader+c.body), ParseOptions{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.name, err, c.want)
		}
	}
	ok := shader + "PIPELINE compute p\nATTACH s\nSHADER_OPTIMIZATION s\n--opt\nEND\nEND\n"
	if _, err := Parse("b.amber", []byte(ok), ParseOptions{}); err != nil {
		t.Errorf("closed blocks: %v", err)
	}
}
