package val

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"spvx/asm"
	"spvx/spirv"
)

// nestedLoops is a function of d nested loops, each around a selection
// that may break out of it, around a chain of b blocks: the construct
// nesting is 2d deep and the innermost chain is in every construct.
func nestedLoops(d, b int) string {
	var s strings.Builder
	s.WriteString(valHeadAsm + domTypesAsm + "%main = OpFunction %void None %fn\n%entry = OpLabel\nOpBranch %h0\n")
	for i := 0; i < d; i++ {
		inner := fmt.Sprintf("%%h%d", i+1)
		if i == d-1 {
			inner = "%x0"
		}
		fmt.Fprintf(&s, "%%h%d = OpLabel\nOpLoopMerge %%m%d %%c%d None\nOpBranch %%s%d\n", i, i, i, i)
		fmt.Fprintf(&s, "%%s%d = OpLabel\nOpSelectionMerge %%t%d None\nOpBranchConditional %%true %s %%m%d\n", i, i, inner, i)
	}
	for k := 0; k < b; k++ {
		next := fmt.Sprintf("%%x%d", k+1)
		if k == b-1 {
			next = fmt.Sprintf("%%t%d", d-1)
		}
		fmt.Fprintf(&s, "%%x%d = OpLabel\nOpBranch %s\n", k, next)
	}
	for i := d - 1; i >= 0; i-- {
		fmt.Fprintf(&s, "%%t%d = OpLabel\nOpBranch %%c%d\n%%c%d = OpLabel\nOpBranchConditional %%true %%h%d %%m%d\n%%m%d = OpLabel\n", i, i, i, i, i, i)
		if i > 0 {
			fmt.Fprintf(&s, "OpBranch %%t%d\n", i-1)
		} else {
			s.WriteString("OpReturn\nOpFunctionEnd\n")
		}
	}
	return s.String()
}

// nestedLoopsBad is nestedLoops with one bad branch: chain block at
// (0 <= at < b-1) may also branch to the merge block of the next-to-
// innermost loop, leaving the innermost loop not through its merge block
// or continue target. The dominator trees and the construct nesting do
// not change, and the first construct the walk finds wrong is the
// innermost loop, after all the others.
func nestedLoopsBad(d, b, at int) string {
	good := fmt.Sprintf("%%x%d = OpLabel\nOpBranch %%x%d\n", at, at+1)
	bad := fmt.Sprintf("%%x%d = OpLabel\nOpBranchConditional %%true %%m%d %%x%d\n", at, d-2, at+1)
	return strings.Replace(nestedLoops(d, b), good, bad, 1)
}

// TestConstructWalksLinear: the structured-CFG construct checks take time
// near-linear in the function's size whatever the nesting depth (issue 19
// §5). The nesting limit is raised so that the depth grows with the size:
// at n and 4n both the depth and the innermost chain grow 4 times, so
// checks that walk every construct's blocks cost 16 times more, and the
// test allows 8 (CPU time of the validation, best of three; the ratio,
// not a duration, is asserted).
func TestConstructWalksLinear(t *testing.T) {
	linearOnValid(t, "about %d blocks", func(n int) string { return nestedLoops(n/8, n/2) }, 8000)
}

// TestConstructWalksLinearInvalid: on the deep nesting of
// TestConstructWalksLinear with one bad branch (near the start of the
// innermost chain, then near its end), the construct checks still take
// near-linear time: the fast path nests the constructs and marks the
// innermost loop and selection suspect, and the walk, in SPIRV-Tools'
// order, walks the innermost loop only and stops at its error; before,
// every construct around it was walked first (16 times the time at 4n).
// Also counted: one construct walked, with --all too, at both sizes.
func TestConstructWalksLinearInvalid(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("-short or -race: CPU-time ratios")
	}
	walks := 0
	constructWalkSeen = func(int) { walks++ }
	defer func() { constructWalkSeen, constructWalkOnly = nil, false }()
	for _, near := range []string{"start", "end"} {
		measure := func(n int) time.Duration {
			d, b := n/8, n/2
			at := 1
			if near == "end" {
				at = b - 2
			}
			m, err := spirv.DecodeWords(assemble(t, nestedLoopsBad(d, b, at)))
			if err != nil {
				t.Fatal(err)
			}
			opts := Options{Limits: Limits{MaxControlFlowNestingDepth: 1 << 20}}
			var want string
			if n < 10000 { // the walk alone is quadratic: the small size only
				constructWalkOnly = true
				want = fmt.Sprint(Validate(m, opts))
				constructWalkOnly = false
			}
			best := time.Duration(1 << 62)
			for _, all := range []bool{false, false, false, true} {
				runtime.GC()
				walks = 0
				start := cpuTime()
				opts.All = all
				err := Validate(m, opts)
				dt := cpuTime() - start
				errs, _ := err.(ErrorList)
				if len(errs) != 1 || !strings.Contains(errs[0].Msg, "exits the loop headed by") || want != "" && fmt.Sprint(err) != want {
					t.Fatalf("%d blocks, bad branch near the %s (all %v): %v, want the walk's %s", n, near, all, err, want)
				}
				if walks != 1 {
					t.Errorf("%d blocks, bad branch near the %s (all %v): %d constructs walked, want 1", n, near, all, walks)
				}
				if !all {
					best = min(best, dt)
				}
			}
			return best
		}
		const n = 8000
		small, large := measure(n), measure(4*n)
		ratio := float64(large) / float64(max(small, time.Microsecond))
		t.Logf("bad branch near the %s: about %d blocks: %v, %d blocks: %v, ratio %.1f", near, n, small, 4*n, large, ratio)
		if ratio > 8 {
			t.Errorf("bad branch near the %s: 4x the size and depth took %.1fx the time (%v -> %v): not linear", near, ratio, small, large)
		}
	}
}

// breaksOut is a loop around d nested selections around a chain of b
// blocks, each of which may break out of the loop, so leaving all d
// selections.
func breaksOut(d, b int) string {
	var s strings.Builder
	s.WriteString(valHeadAsm + domTypesAsm + "%main = OpFunction %void None %fn\n%entry = OpLabel\nOpBranch %h\n" +
		"%h = OpLabel\nOpLoopMerge %lm %cont None\nOpBranch %s0\n")
	for i := 0; i < d; i++ {
		inner := fmt.Sprintf("%%s%d", i+1)
		if i == d-1 {
			inner = "%x0"
		}
		fmt.Fprintf(&s, "%%s%d = OpLabel\nOpSelectionMerge %%t%d None\nOpBranchConditional %%true %s %%t%d\n", i, i, inner, i)
	}
	for k := 0; k < b; k++ {
		next := fmt.Sprintf("%%x%d", k+1)
		if k == b-1 {
			next = fmt.Sprintf("%%t%d", d-1)
		}
		fmt.Fprintf(&s, "%%x%d = OpLabel\nOpBranchConditional %%true %%lm %s\n", k, next)
	}
	for i := d - 1; i >= 0; i-- {
		next := fmt.Sprintf("%%t%d", i-1)
		if i == 0 {
			next = "%cont"
		}
		fmt.Fprintf(&s, "%%t%d = OpLabel\nOpBranch %s\n", i, next)
	}
	s.WriteString("%cont = OpLabel\nOpBranch %h\n%lm = OpLabel\nOpReturn\nOpFunctionEnd\n")
	return s.String()
}

// TestBreaksOutLinear: b blocks breaking out of a loop through d nested
// selections cost one IsStructuredExit per selection, each skipping the
// selection headers up to the loop in O(1), b + d in all, not one walk
// per block and selection, b·d² (500 blocks in 500 selections took 1.5 s
// before). With d = b/4 growing with b (the nesting limit raised), that
// is 4 times the work at 4n against 64.
func TestBreaksOutLinear(t *testing.T) {
	linearOnValid(t, "%d blocks", func(n int) string { return breaksOut(n/4, n) }, 4000)
}

// sequentialLoops is a loop around k loops in sequence, each followed by
// a selection that may break out of the outer loop.
func sequentialLoops(k int) string {
	var s strings.Builder
	s.WriteString(valHeadAsm + domTypesAsm + "%main = OpFunction %void None %fn\n%entry = OpLabel\nOpBranch %h\n" +
		"%h = OpLabel\nOpLoopMerge %lm %cont None\nOpBranch %L0\n")
	for i := 0; i < k; i++ {
		next := fmt.Sprintf("%%L%d", i+1)
		if i == k-1 {
			next = "%cont"
		}
		fmt.Fprintf(&s, "%%L%d = OpLabel\nOpLoopMerge %%M%d %%C%d None\nOpBranchConditional %%true %%B%d %%M%d\n", i, i, i, i, i)
		fmt.Fprintf(&s, "%%B%d = OpLabel\nOpBranch %%C%d\n%%C%d = OpLabel\nOpBranch %%L%d\n", i, i, i, i)
		fmt.Fprintf(&s, "%%M%d = OpLabel\nOpSelectionMerge %%T%d None\nOpBranchConditional %%true %%lm %%T%d\n", i, i, i)
		fmt.Fprintf(&s, "%%T%d = OpLabel\nOpBranch %s\n", i, next)
	}
	s.WriteString("%cont = OpLabel\nOpBranch %h\n%lm = OpLabel\nOpReturn\nOpFunctionEnd\n")
	return s.String()
}

// TestSequentialLoopsLinear: each selection's break out of the outer
// loop is one IsStructuredExit, whose NextBlock chain passes the headers
// of every loop before it in the sequence (their merge blocks dominate
// the selection). skipPast jumps over such runs through kept answers, so
// k loops cost k, not k² (32,000 loops took 8.6 minutes before). The
// nesting depth stays 2, so the default limits hold.
func TestSequentialLoopsLinear(t *testing.T) {
	linearOnValid(t, "%d loops", sequentialLoops, 4000)
}

// nestedSwitches is d switches, each the only case of the one around
// it, around a chain of b blocks.
func nestedSwitches(d, b int) string {
	var s strings.Builder
	s.WriteString(valHeadAsm + domTypesAsm + "%main = OpFunction %void None %fn\n%entry = OpLabel\nOpBranch %s0\n")
	for i := 0; i < d; i++ {
		inner := fmt.Sprintf("%%s%d", i+1)
		if i == d-1 {
			inner = "%x0"
		}
		fmt.Fprintf(&s, "%%s%d = OpLabel\nOpSelectionMerge %%m%d None\nOpSwitch %%c %%m%d 1 %s\n", i, i, i, inner)
	}
	for k := 0; k < b; k++ {
		next := fmt.Sprintf("%%x%d", k+1)
		if k == b-1 {
			next = fmt.Sprintf("%%m%d", d-1)
		}
		fmt.Fprintf(&s, "%%x%d = OpLabel\nOpBranch %s\n", k, next)
	}
	for i := d - 1; i > 0; i-- {
		fmt.Fprintf(&s, "%%m%d = OpLabel\nOpBranch %%m%d\n", i, i-1)
	}
	s.WriteString("%m0 = OpLabel\nOpReturn\nOpFunctionEnd\n")
	return s.String()
}

// TestNestedSwitchesLinear: SPIRV-Tools' FindCaseFallThrough walks each
// case's region, so d nested switches around b blocks cost d·b; the case
// exits, found for every case at once, make it d + b. With d = n/8 and
// b = n/2 (the nesting limit raised), 4n is 4 times the work, not 16.
func TestNestedSwitchesLinear(t *testing.T) {
	linearOnValid(t, "n = %d", func(n int) string { return nestedSwitches(n/8, n/2) }, 8000)
}

// overlapTail ends a function with a loop whose back-edge block heads a
// selection: the selection is still open at the block where the continue
// construct around it closes (a block the back-edge block dominates), so
// the two overlap without nesting. The continue construct exits to that
// block, which SPIRV-Tools reports.
const overlapTail = `OpBranch %oh
%oh = OpLabel
OpLoopMerge %om %oct None
OpBranchConditional %true %obody %om
%obody = OpLabel
OpBranch %oct
%oct = OpLabel
OpBranch %oe
%oe = OpLabel
OpSelectionMerge %omx None
OpBranchConditional %true %oh %oy
%oy = OpLabel
OpBranch %omx
%omx = OpLabel
OpBranch %om
%om = OpLabel
OpReturn
OpFunctionEnd
`

// withOverlap is nestedLoops(d, b) ending in overlapTail.
func withOverlap(d, b int) string {
	return strings.Replace(nestedLoops(d, b), "OpReturn\nOpFunctionEnd\n", overlapTail, 1)
}

// TestOverlappingConstructsLinear: a construct that overlaps another
// without nesting is left out of the nesting and walked alone; the other
// constructs are still nested and proved. Before, one overlap anywhere
// sent every construct of the function to the walk, nesting depth ×
// blocks (n = 8,000 took 0.77 s, 32,000 took 11.3 s). The verdict is the
// walk's.
func TestOverlappingConstructsLinear(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("-short or -race: CPU-time ratios")
	}
	opts := Options{Limits: Limits{MaxControlFlowNestingDepth: 1 << 20}}
	nested := false
	constructPathSeen = func(_ *fnCFG, _ *constructNest, suspect []bool) { nested = nested || suspect != nil }
	defer func() { constructPathSeen, constructWalkOnly = nil, false }()
	measure := func(n int) time.Duration {
		m := assembleModule(t, withOverlap(n/8, n/2))
		d, got := validationCPU(m, opts)
		if got == nil {
			t.Fatalf("n = %d: the overlap is valid; the test wants the walk to find an error", n)
		}
		if n == 800 {
			constructWalkOnly = true
			if want := Validate(m, opts); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("fast path %q, construct walk %q", got, want)
			}
			constructWalkOnly = false
		}
		return d
	}
	measure(800)
	if !nested {
		t.Fatal("the overlapping constructs were not nested: the test measures the old path")
	}
	const n = 16000
	assertLinear(t, "n = %d", n, measure(n), measure(4*n))
}

// checkNesting checks a construct nesting against the regions it stands
// for: each construct in it (not excluded) holds exactly the blocks its
// header structurally dominates and its exit does not (for a loop, nor
// its continue target; for a continue construct, the back-edge block but
// none it strictly dominates), and every excluded construct is left to
// the walk. Small functions only: it costs constructs × blocks.
func checkNesting(f *fnCFG, nest *constructNest, suspect []bool, errorf func(string, ...any)) {
	if f.n > 3000 || len(f.cons) > 300 {
		return
	}
	opened := make([]bool, len(f.cons))
	for _, k := range nest.inner {
		if k >= 0 {
			opened[k] = true
		}
	}
	for _, k := range nest.parent {
		if k >= 0 {
			opened[k] = true
		}
	}
	for k := range f.cons {
		c := &f.cons[k]
		if nest.excluded[k] {
			if !suspect[k] {
				errorf("function %d: construct %d overlaps, is excluded, and is not left to the walk", f.fn.ID, k)
			}
			continue
		}
		if !opened[k] {
			continue
		}
		h, e := c.header, c.exit
		for b := int32(0); b < int32(f.n); b++ {
			if !f.sreach[b] {
				continue
			}
			in := f.sdominates(h, b)
			switch c.kind {
			case ctContinue:
				in = in && (b == e || !f.sdominates(e, b))
			case ctLoop:
				in = in && !f.sdominates(e, b) && !f.sdominates(f.cons[c.loop].header, b)
			default:
				in = in && !f.sdominates(e, b)
			}
			if got := nest.holds(int32(k), b); got != in {
				errorf("function %d: construct %d (kind %d, header block %d) holds block %d: %v, its region: %v", f.fn.ID, k, c.kind, h, b, got, in)
				return
			}
		}
	}
}

// TestNestExcludesOverlap: of two selections that overlap without
// nesting, the inner one is excluded from the nesting and left to the
// walk, and the outer one still holds its region.
func TestNestExcludesOverlap(t *testing.T) {
	excluded := 0
	constructPathSeen = func(f *fnCFG, nest *constructNest, suspect []bool) {
		if nest == nil {
			t.Errorf("function %d: not nested", f.fn.ID)
			return
		}
		checkNesting(f, nest, suspect, t.Errorf)
		for _, x := range nest.excluded {
			if x {
				excluded++
			}
		}
	}
	defer func() { constructPathSeen = nil }()
	m, err := spirv.DecodeWords(assemble(t, valHeadAsm+domTypesAsm+"%main = OpFunction %void None %fn\n%entry = OpLabel\n"+overlapTail))
	if err != nil {
		t.Fatal(err)
	}
	if err := Validate(m, Options{}); err == nil {
		t.Error("overlapping selections: valid")
	}
	if excluded != 1 {
		t.Errorf("%d constructs excluded, want the inner selection", excluded)
	}
}

// TestNestedLoopsDepth: the generated nesting is as deep as intended, so
// that the scaling test above measures deep nesting: over the default
// limit it is refused.
func TestNestedLoopsDepth(t *testing.T) {
	m, err := spirv.DecodeWords(assemble(t, nestedLoops(600, 4)))
	if err != nil {
		t.Fatal(err)
	}
	err = Validate(m, Options{})
	if err == nil || err.(ErrorList)[0].Msg != "Maximum Control Flow nesting depth exceeded." {
		t.Fatalf("1200-deep nesting under the default limit: %v", err)
	}
}

// TestConstructFastPathAgrees: the fast construct checks give the errors
// SPIRV-Tools' construct walk gives (constructWalkOnly), with and without
// --all, on random structured functions with retargeted branches, dropped
// merges and moved blocks (and variants with more branches retargeted,
// most of them invalid), and on the shared corpus and its branch and id
// mutants. The fast path must prove most functions, leave some to the
// walk, and, on many invalid ones, nest the constructs and walk only the
// suspect ones.
func TestConstructFastPathAgrees(t *testing.T) {
	fast, walked, partial, refusedValid, invalid := 0, 0, 0, 0, 0
	constructPathSeen = func(f *fnCFG, nest *constructNest, suspect []bool) {
		nested, clean := suspect != nil, suspect != nil && !slices.Contains(suspect, true)
		if nest != nil {
			checkNesting(f, nest, suspect, t.Errorf)
		}
		switch {
		case constructWalkOnly:
		case clean:
			fast++
		case nested:
			partial++
			walked++
		default:
			walked++
		}
	}
	defer func() { constructPathSeen, constructWalkOnly = nil, false }()
	check := func(name string, words []uint32) {
		m, err := spirv.DecodeWords(words)
		if err != nil {
			return
		}
		for _, opts := range []Options{{}, {All: true}} {
			constructWalkOnly = false
			w0 := walked
			err := Validate(m, opts)
			if err == nil && walked > w0 {
				refusedValid++
				if refusedValid < 4 {
					t.Logf("%s: valid, but left to the walk", name)
				}
			}
			if err != nil && !opts.All && strings.Contains(err.Error(), "construct") {
				invalid++
			}
			got := fmt.Sprint(err)
			constructWalkOnly = true
			want := fmt.Sprint(Validate(m, opts))
			if got != want {
				t.Fatalf("%s (all %v): fast path %q, construct walk %q", name, opts.All, got, want)
			}
		}
	}
	r := rand.New(rand.NewPCG(19, 5))
	for k := 0; k < 1500; k++ {
		text := randomCFG(r, k)
		check(fmt.Sprintf("random CFG %d", k), assemble(t, text))
		if k%2 == 0 {
			check(fmt.Sprintf("random CFG %d retargeted", k), assemble(t, retargetLabels(r, text, 1+k%3)))
		}
	}
	overlapOnly := valHeadAsm + domTypesAsm + "%main = OpFunction %void None %fn\n%entry = OpLabel\n" + overlapTail
	check("overlapping selections", assemble(t, overlapOnly))
	check("overlapping selections retargeted", assemble(t, retargetLabels(r, overlapOnly, 1)))
	for k := 4; k <= 16; k *= 2 {
		check(fmt.Sprintf("nested loops %d", k), assemble(t, nestedLoops(k, k)))
		check(fmt.Sprintf("nested loops %d, overlapping after", k), assemble(t, withOverlap(k, k)))
		for _, at := range []int{0, k / 2, k - 2} {
			check(fmt.Sprintf("nested loops %d, bad at %d", k, at), assemble(t, nestedLoopsBad(k, k, at)))
		}
	}
	files, _ := filepath.Glob(filepath.Join(sharedDir, "corpus/asm/*.spvasm"))
	for i, f := range files {
		text, err := os.ReadFile(f)
		if err != nil || !bytes.Contains(text, []byte("OpLoopMerge")) && !bytes.Contains(text, []byte("OpSelectionMerge")) {
			continue
		}
		insts := tokenizeAsm(string(text))
		variants := [][]asmInst{insts}
		for _, kind := range []string{"branch", "replaceid", "swapids", "move"} {
			for seed := range 3 {
				if out, ok := mutate(insts, kind, seededRand(fmt.Sprint(i, kind, seed))); ok {
					variants = append(variants, out)
				}
			}
		}
		for j, v := range variants {
			words, err := asm.Assemble([]byte(joinAsm(v)), asm.Options{})
			if err == nil {
				check(fmt.Sprintf("%s variant %d", filepath.Base(f), j), words)
			}
		}
	}
	t.Logf("fast path proved %d functions, left %d to the walk (%d of them nested, walking the suspect constructs only; %d in valid modules); %d modules fail a construct rule",
		fast, walked, partial, refusedValid, invalid)
	if fast < 2*walked/3 || walked == 0 {
		t.Errorf("fast path proved %d functions, left %d to the walk", fast, walked)
	}
	if invalid < 300 || partial < walked/3 {
		t.Errorf("%d modules fail a construct rule, %d of %d functions left to the walk were nested: too few to compare the paths", invalid, partial, walked)
	}
}

// retargetLabels replaces times label references on branch and merge
// lines of text, chosen at random, with labels chosen at random.
func retargetLabels(r *rand.Rand, text string, times int) string {
	lines := strings.Split(text, "\n")
	var labels []string
	var at []int
	for j, l := range lines {
		if strings.HasSuffix(l, "= OpLabel") {
			labels = append(labels, strings.Fields(l)[0])
		} else if strings.HasPrefix(l, "OpBranch") || strings.HasPrefix(l, "OpSwitch") || strings.HasSuffix(l, "Merge") || strings.Contains(l, "Merge %") {
			at = append(at, j)
		}
	}
	if len(labels) == 0 || len(at) == 0 {
		return text
	}
	for range times {
		j := at[r.IntN(len(at))]
		refs := labelRef.FindAllStringIndex(lines[j], -1)
		if len(refs) == 0 {
			continue
		}
		ref := refs[r.IntN(len(refs))]
		lines[j] = lines[j][:ref[0]] + labels[r.IntN(len(labels))] + lines[j][ref[1]:]
	}
	return strings.Join(lines, "\n")
}

// linearOnValid checks that validating the valid function text(n) takes
// near-linear CPU time: at 4n at most 8 times the time at n (a walk of
// every construct's blocks costs 16), with the nesting limit raised so
// that depth may grow with n. label formats a size for the log.
func linearOnValid(t *testing.T, label string, text func(n int) string, n int) {
	t.Helper()
	if testing.Short() || raceEnabled {
		t.Skip("-short or -race: CPU-time ratios")
	}
	opts := Options{Limits: Limits{MaxControlFlowNestingDepth: 1 << 20}}
	ms, ml := assembleModule(t, text(n)), assembleModule(t, text(4*n))
	measure := func(m *spirv.Module, n int) time.Duration {
		d, err := validationCPU(m, opts)
		if err != nil {
			t.Fatalf(label+": %v", n, err)
		}
		return d
	}
	small, large := measure(ms, n), measure(ml, 4*n)
	// A loaded machine can double one measurement of a few milliseconds; a
	// quadratic cost (a ratio near 16) shows in every one.
	for retry := 0; retry < 2 && large > 8*max(small, time.Microsecond); retry++ {
		small, large = measure(ms, n), measure(ml, 4*n)
	}
	assertLinear(t, label, n, small, large)
}

// assembleModule assembles and decodes text.
func assembleModule(t *testing.T, text string) *spirv.Module {
	t.Helper()
	m, err := spirv.DecodeWords(assemble(t, text))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// validationCPU validates m three times and returns the least CPU time
// and the verdict.
func validationCPU(m *spirv.Module, opts Options) (time.Duration, error) {
	best := time.Duration(1 << 62)
	var err error
	for range 3 {
		runtime.GC()
		start := cpuTime()
		err = Validate(m, opts)
		best = min(best, cpuTime()-start)
	}
	return best, err
}

// assertLinear fails t if size 4n took more than 8 times the time of n.
func assertLinear(t *testing.T, label string, n int, small, large time.Duration) {
	t.Helper()
	ratio := float64(large) / float64(max(small, time.Microsecond))
	t.Logf(label+": %v, "+label+": %v, ratio %.1f", n, small, 4*n, large, ratio)
	if ratio > 8 {
		t.Errorf("4x the size took %.1fx the time (%v -> %v): not linear", ratio, small, large)
	}
}
