package val

import (
	"bufio"
	"flag"
	"fmt"
	"hash/fnv"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"spvx/internal/oracle"
	"spvx/spirv"
)

var updateDifferential = flag.Bool("update", false, "rewrite testdata/differential.md from this run (existing reasons kept, new rows untriaged)")

// The mutation-differential test (issue 11's acceptance): corpus modules'
// text is mutated with seeded mutations of every kind in mutationKinds,
// each mutant is assembled with Debian's spirv-as and judged by Debian's
// spirv-val and by Validate. Only modules that the 2023.1 tools assemble
// and accept unmutated are used, and only mutants 2023.1's assembler
// accepts, so every mutant touches only what that release knows.
//
// Every disagreement (a different verdict, or a different first message
// line when both reject) must be a row of testdata/differential.md, keyed
// by the mutant's id (module:kind:seed, stable whatever else changes),
// triaged "older oracle" (current spirv-val, the reference, differs from
// 2023.1) or "deliberate". A row "ours wrong" or "untriaged", or a
// disagreement without a row, fails the test, and so does agreement below
// the thresholds. `go test ./val -run MutationDifferential -update`
// rewrites the table, keeping the reasons of the rows it had.
const (
	differentialTable = "testdata/differential.md"
	verdictFloor      = 0.97 // agreement on the verdict
	messageFloor      = 0.80 // same first line, of the mutants both reject
	fullModules       = 300  // corpus modules mutated in a full run
	seedsPerKind      = 1    // mutants per module and kind
	shortMutants      = 300  // mutants of a -short run
	maxModuleBytes    = 12000
	// pendingAllowed accepts rows triaged "pending: <family>", rules of a
	// family written on another branch at the time of triage, and then
	// only logs the thresholds. Set it to false once the families are
	// merged and the table is regenerated: from then on the thresholds
	// hold and a pending row fails like an untriaged one.
	pendingAllowed = false
)

// mutationKinds are the mutations issue 11 lists.
var mutationKinds = []string{
	"dropcap",   // drop an OpCapability
	"dropext",   // drop an OpExtension
	"dropdec",   // drop a decoration
	"dupdec",    // duplicate a decoration (one 2023.1 allows once)
	"restype",   // change an instruction's result type
	"swapids",   // swap two id operands of an instruction
	"replaceid", // replace an id operand by another defined id
	"storage",   // change a storage class
	"literal",   // change a literal number
	"enumerant", // change an enumerant operand to another of its kind
	"move",      // move an instruction to another section
	"branch",    // break a merge or branch target
}

// asmInst is one instruction of an assembly text, as tokens (a quoted
// string is one token, quotes and escapes kept).
type asmInst struct {
	toks []string
	res  string // the result id's token, "" for none
	op   string // the opcode's name
	ops  int    // index of the first operand token after the opcode
}

func (in asmInst) text() string { return strings.Join(in.toks, " ") }

// tokenizeAsm splits an assembly text into instructions: comments and
// blank lines dropped, a string may span lines.
func tokenizeAsm(text string) []asmInst {
	var out []asmInst
	var toks []string
	var cur strings.Builder
	inStr, esc, inTok, comment := false, false, false, false
	flushTok := func() {
		if inTok {
			toks = append(toks, cur.String())
			cur.Reset()
			inTok = false
		}
	}
	flushInst := func() {
		flushTok()
		if len(toks) > 0 {
			in := asmInst{toks: toks}
			if len(toks) > 2 && toks[1] == "=" {
				in.res, in.op, in.ops = toks[0], toks[2], 3
			} else {
				in.op, in.ops = toks[0], 1
			}
			out = append(out, in)
		}
		toks = nil
	}
	for _, c := range text {
		switch {
		case comment:
			if c == '\n' {
				comment = false
				flushInst()
			}
		case inStr:
			cur.WriteRune(c)
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
		case c == '"':
			inTok, inStr = true, true
			cur.WriteRune(c)
		case c == ';':
			flushTok()
			comment = true
		case c == '\n':
			flushInst()
		case c == ' ' || c == '\t' || c == '\r':
			flushTok()
		default:
			inTok = true
			cur.WriteRune(c)
		}
	}
	flushInst()
	return out
}

func joinAsm(insts []asmInst) string {
	var b strings.Builder
	for _, in := range insts {
		b.WriteString(in.text())
		b.WriteByte('\n')
	}
	return b.String()
}

// asmSection is the logical-layout section an instruction belongs to in
// a valid module, 9 for function bodies.
func asmSection(op string, inFunction bool) int {
	switch {
	case inFunction:
		return 9
	case op == "OpCapability":
		return 0
	case op == "OpExtension":
		return 1
	case op == "OpExtInstImport":
		return 2
	case op == "OpMemoryModel":
		return 3
	case op == "OpEntryPoint":
		return 4
	case strings.HasPrefix(op, "OpExecutionMode"):
		return 5
	case op == "OpString" || strings.HasPrefix(op, "OpSource") || op == "OpName" || op == "OpMemberName" || op == "OpModuleProcessed":
		return 6
	case strings.Contains(op, "Decorat"):
		return 7
	}
	return 8
}

func isDecoration(op string) bool {
	switch op {
	case "OpDecorate", "OpMemberDecorate", "OpDecorateId", "OpDecorateString", "OpMemberDecorateString",
		"OpGroupDecorate", "OpGroupMemberDecorate", "OpDecorationGroup":
		return true
	}
	return false
}

func isNumber(tok string) bool {
	if tok == "" {
		return false
	}
	c := tok[0]
	return c >= '0' && c <= '9' || c == '-' && len(tok) > 1
}

// coreStorageClasses are the storage classes 2023.1's assembler knows
// that a mutation picks from.
var coreStorageClasses = []string{"UniformConstant", "Input", "Uniform", "Output", "Workgroup", "CrossWorkgroup",
	"Private", "Function", "Generic", "PushConstant", "AtomicCounter", "Image", "StorageBuffer"}

// mutate applies mutation kind to insts with rng; false when the module
// has nothing the mutation applies to.
func mutate(insts []asmInst, kind string, rng *rand.Rand) ([]asmInst, bool) {
	defOp := map[string]string{}
	var ids, types, labels []string
	for _, in := range insts {
		if in.res == "" {
			continue
		}
		defOp[in.res] = in.op
		ids = append(ids, in.res)
		if info, ok := spirv.LookupOpcode(in.op); ok && info.DeclaresType {
			types = append(types, in.res)
		}
		if in.op == "OpLabel" {
			labels = append(labels, in.res)
		}
	}
	pick := func(pred func(in asmInst) bool) int {
		var c []int
		for i, in := range insts {
			if pred(in) {
				c = append(c, i)
			}
		}
		if len(c) == 0 {
			return -1
		}
		return c[rng.Intn(len(c))]
	}
	// idOperands lists the operand token positions holding ids.
	idOperands := func(in asmInst) []int {
		var p []int
		for k := in.ops; k < len(in.toks); k++ {
			if strings.HasPrefix(in.toks[k], "%") {
				p = append(p, k)
			}
		}
		return p
	}
	clone := func(i int) []asmInst {
		out := append([]asmInst(nil), insts...)
		out[i].toks = append([]string(nil), insts[i].toks...)
		return out
	}
	other := func(list []string, not string) string {
		if len(list) == 0 || len(list) == 1 && list[0] == not {
			return ""
		}
		for {
			if c := list[rng.Intn(len(list))]; c != not {
				return c
			}
		}
	}
	drop := func(i int) ([]asmInst, bool) {
		if i < 0 {
			return nil, false
		}
		return append(append([]asmInst(nil), insts[:i]...), insts[i+1:]...), true
	}
	switch kind {
	case "dropcap":
		return drop(pick(func(in asmInst) bool { return in.op == "OpCapability" }))
	case "dropext":
		return drop(pick(func(in asmInst) bool { return in.op == "OpExtension" }))
	case "dropdec":
		return drop(pick(func(in asmInst) bool { return isDecoration(in.op) }))
	case "dupdec":
		// Only the decorations 2023.1 allows once (AtMostOncePerId and
		// AtMostOncePerMember there): current spirv-val rejects every
		// other duplicate too, a rule the oracle does not know.
		i := pick(func(in asmInst) bool {
			switch {
			case in.op == "OpDecorate" && len(in.toks) > 2:
				return in.toks[2] == "ArrayStride"
			case in.op == "OpMemberDecorate" && len(in.toks) > 3:
				switch in.toks[3] {
				case "Offset", "MatrixStride", "RowMajor", "ColMajor":
					return true
				}
			}
			return false
		})
		if i < 0 {
			return nil, false
		}
		out := append(append([]asmInst(nil), insts[:i+1]...), insts[i:]...)
		return out, true
	case "restype":
		i := pick(func(in asmInst) bool {
			info, ok := spirv.LookupOpcode(in.op)
			return ok && info.HasType && in.ops < len(in.toks) && in.op != "OpFunction"
		})
		if i < 0 {
			return nil, false
		}
		t := other(types, insts[i].toks[insts[i].ops])
		if t == "" {
			return nil, false
		}
		out := clone(i)
		out[i].toks[out[i].ops] = t
		return out, true
	case "swapids":
		i := pick(func(in asmInst) bool {
			p := idOperands(in)
			return len(p) >= 2 && in.toks[p[0]] != in.toks[p[len(p)-1]]
		})
		if i < 0 {
			return nil, false
		}
		p := idOperands(insts[i])
		for range 20 {
			a, b := p[rng.Intn(len(p))], p[rng.Intn(len(p))]
			if insts[i].toks[a] != insts[i].toks[b] {
				out := clone(i)
				out[i].toks[a], out[i].toks[b] = out[i].toks[b], out[i].toks[a]
				return out, true
			}
		}
		return nil, false
	case "replaceid":
		i := pick(func(in asmInst) bool { return len(idOperands(in)) > 0 })
		if i < 0 {
			return nil, false
		}
		p := idOperands(insts[i])
		k := p[rng.Intn(len(p))]
		id := other(ids, insts[i].toks[k])
		if id == "" {
			return nil, false
		}
		out := clone(i)
		out[i].toks[k] = id
		return out, true
	case "storage":
		var cands [][2]int
		for i, in := range insts {
			if in.op != "OpVariable" && in.op != "OpTypePointer" && in.op != "OpTypeForwardPointer" {
				continue
			}
			for k := in.ops; k < len(in.toks); k++ {
				if _, ok := spirv.OperandKindStorageClass.LookupEnumerant(in.toks[k]); ok {
					cands = append(cands, [2]int{i, k})
				}
			}
		}
		if len(cands) == 0 {
			return nil, false
		}
		c := cands[rng.Intn(len(cands))]
		out := clone(c[0])
		out[c[0]].toks[c[1]] = other(coreStorageClasses, insts[c[0]].toks[c[1]])
		return out, true
	case "literal":
		var cands [][2]int
		for i, in := range insts {
			for k := in.ops; k < len(in.toks); k++ {
				if isNumber(in.toks[k]) {
					cands = append(cands, [2]int{i, k})
				}
			}
		}
		if len(cands) == 0 {
			return nil, false
		}
		c := cands[rng.Intn(len(cands))]
		out := clone(c[0])
		out[c[0]].toks[c[1]] = otherLiteral(insts[c[0]].toks[c[1]], rng)
		return out, out[c[0]].toks[c[1]] != insts[c[0]].toks[c[1]]
	case "enumerant":
		type cand struct {
			i, k int
			kind spirv.OperandKind
		}
		var cands []cand
		for i, in := range insts {
			info, ok := spirv.LookupOpcode(in.op)
			if !ok {
				continue
			}
			for k := in.ops; k < len(in.toks); k++ {
				tok := in.toks[k]
				if tok == "" || tok[0] == '%' || tok[0] == '"' || isNumber(tok) {
					continue
				}
				for _, o := range info.Operands {
					ki := o.Kind.Info()
					if ki == nil || ki.Set != "" || (ki.Category != spirv.CategoryValueEnum && ki.Category != spirv.CategoryBitEnum) {
						continue
					}
					if _, ok := o.Kind.LookupEnumerant(strings.Split(tok, "|")[0]); ok {
						cands = append(cands, cand{i, k, o.Kind})
						break
					}
				}
			}
		}
		if len(cands) == 0 {
			return nil, false
		}
		c := cands[rng.Intn(len(cands))]
		es := c.kind.Info().Enumerants
		e := es[rng.Intn(len(es))]
		if e.Name == insts[c.i].toks[c.k] || len(e.Parameters) > 0 {
			// An enumerant with parameters would shift the operands; a
			// later seed picks another.
			return nil, false
		}
		out := clone(c.i)
		out[c.i].toks[c.k] = e.Name
		return out, true
	case "move":
		sec := make([]int, len(insts))
		inFn := false
		for i, in := range insts {
			if in.op == "OpFunction" {
				inFn = true
			}
			sec[i] = asmSection(in.op, inFn)
			if in.op == "OpFunctionEnd" {
				inFn = false
			}
		}
		i := pick(func(in asmInst) bool { return in.op != "OpFunction" && in.op != "OpFunctionEnd" })
		if i < 0 {
			return nil, false
		}
		var targets []int
		for j := 0; j <= len(insts); j++ {
			if j < len(insts) && sec[j] != sec[i] || j == len(insts) && sec[i] != 9 {
				targets = append(targets, j)
			}
		}
		if len(targets) == 0 {
			return nil, false
		}
		j := targets[rng.Intn(len(targets))]
		moved := insts[i]
		out := append([]asmInst(nil), insts[:i]...)
		out = append(out, insts[i+1:]...)
		if j > i {
			j--
		}
		out = append(out[:j], append([]asmInst{moved}, out[j:]...)...)
		return out, true
	case "branch":
		var cands [][2]int
		for i, in := range insts {
			switch in.op {
			case "OpBranch", "OpBranchConditional", "OpSelectionMerge", "OpLoopMerge", "OpSwitch":
				for k := in.ops; k < len(in.toks); k++ {
					if defOp[in.toks[k]] == "OpLabel" {
						cands = append(cands, [2]int{i, k})
					}
				}
			}
		}
		if len(cands) == 0 {
			return nil, false
		}
		c := cands[rng.Intn(len(cands))]
		list := labels
		if rng.Intn(5) == 0 {
			list = ids
		}
		id := other(list, insts[c[0]].toks[c[1]])
		if id == "" {
			return nil, false
		}
		out := clone(c[0])
		out[c[0]].toks[c[1]] = id
		return out, true
	}
	panic("unknown mutation " + kind)
}

// otherLiteral returns a different number in tok's spelling (integer or
// float).
func otherLiteral(tok string, rng *rand.Rand) string {
	if strings.ContainsAny(tok, ".eEpP") && !strings.HasPrefix(tok, "0x") {
		f, err := strconv.ParseFloat(tok, 64)
		if err != nil {
			return tok
		}
		return strconv.FormatFloat(f*2+1, 'g', -1, 64)
	}
	v, err := strconv.ParseInt(tok, 0, 64)
	if err != nil {
		return tok
	}
	choices := []int64{0, 1, 2, 3, 7, 8, 16, 64, v + 1, v - 1, 2 * v, 4294967295, 1 << 20}
	for range 20 {
		if c := choices[rng.Intn(len(choices))]; c != v && (c >= 0 || v < 0) {
			return strconv.FormatInt(c, 10)
		}
	}
	return tok
}

func seededRand(id string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(id))
	return rand.New(rand.NewSource(int64(h.Sum64())))
}

// asmVersion reads the "; Version: 1.X" header comment of spirv-dis text,
// as a --target-env name ("spv1.X").
func asmVersion(text string) string {
	const key = "; Version: "
	if i := strings.Index(text, key); i >= 0 {
		v, _, _ := strings.Cut(text[i+len(key):], "\n")
		return "spv" + strings.TrimSpace(v)
	}
	return "spv1.0"
}

type mutant struct {
	id, env, text string
}

// verdicts of one mutant: the first line each validator prints, "" for
// accepted; ok false when spirv-as rejected the mutant.
type verdict struct {
	ok            bool
	theirs, ours  string
	decodeProblem string
}

// judge runs one module text through spirv-as, spirv-val and Validate.
func judge(as, sv, dir, env, text string) verdict {
	src, bin := filepath.Join(dir, "m.spvasm"), filepath.Join(dir, "m.spv")
	if err := os.WriteFile(src, []byte(text), 0o666); err != nil {
		return verdict{decodeProblem: err.Error()}
	}
	r := oracle.Run(as, nil, "--target-env", env, src, "-o", bin)
	if r.Status != oracle.Accepted {
		if r.Status == oracle.Failed {
			return verdict{decodeProblem: r.Err.Error()}
		}
		return verdict{}
	}
	b, err := os.ReadFile(bin)
	if err != nil {
		return verdict{decodeProblem: err.Error()}
	}
	v := verdict{ok: true}
	r = oracle.Run(sv, nil, bin)
	switch r.Status {
	case oracle.Failed:
		return verdict{decodeProblem: r.Err.Error()}
	case oracle.Rejected:
		v.theirs, _, _ = strings.Cut(string(r.Stderr)+string(r.Stdout), "\n")
		if v.theirs == "" {
			v.theirs = "(rejected, no message)"
		}
	}
	v.ours = ourVerdict(b)
	return v
}

// ourVerdict is the first line of Validate's errors on a binary, spelled
// as spirv-val spells its own ("error: line N: ..."), "" when it accepts.
func ourVerdict(b []byte) string {
	m, err := spirv.Decode(b)
	if err != nil {
		if e, ok := FromDecodeError(err); ok {
			return "error: line " + itoa(e.Line()) + ": " + e.Msg
		}
		return "(does not decode: " + err.Error() + ")"
	}
	if err := Validate(m, Options{}); err != nil {
		line, _, _ := strings.Cut("error: line "+itoa(err.(ErrorList)[0].Line())+": "+err.(ErrorList)[0].Error(), "\n")
		return line
	}
	return ""
}

// parallel runs f(i) for i in [0,n) on a few goroutines, each with its
// own scratch directory: the oracle processes dominate, so more workers
// than cores keep the cores busy while processes start.
func parallel(t *testing.T, n int, f func(dir string, i int)) {
	workers := 2 * runtime.NumCPU()
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < workers; w++ {
		dir := t.TempDir()
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f(dir, i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
}

func TestMutationDifferential(t *testing.T) {
	as, err1 := oracle.Path(oracle.SpirvAs)
	sv, err2 := oracle.Path(oracle.SpirvVal)
	if err1 != nil || err2 != nil {
		t.Skipf("skipping the differential test: %v %v", err1, err2)
	}
	nmods := fullModules
	if testing.Short() {
		nmods = shortMutants / len(mutationKinds) * 2
	}
	mods := mutationModules(nmods)
	if len(mods) == 0 {
		t.Skipf("corpus not found under %s: skipping", sharedDir)
	}
	// Keep the modules both 2023.1 tools take unmutated (as we re-spell
	// them: tokens joined by spaces, no comments).
	keep := make([]bool, len(mods))
	parallel(t, len(mods), func(dir string, i int) {
		v := judge(as, sv, dir, mods[i].env, joinAsm(mods[i].insts))
		keep[i] = v.ok && v.theirs == "" && v.ours == ""
		if v.ok && v.theirs == "" && v.ours != "" {
			t.Errorf("%s unmutated: we reject what spirv-val accepts: %s", mods[i].name, v.ours)
		}
	})
	muts := mutantsOf(mods, keep, mutationKinds, seedsPerKind)
	if testing.Short() && len(muts) > shortMutants {
		// Every kind in the subset: take every k-th mutant.
		k := len(muts) / shortMutants
		var sub []mutant
		for i := 0; i < len(muts) && len(sub) < shortMutants; i += k {
			sub = append(sub, muts[i])
		}
		muts = sub
	}
	res := make([]verdict, len(muts))
	parallel(t, len(muts), func(dir string, i int) {
		res[i] = judge(as, sv, dir, muts[i].env, muts[i].text)
	})

	var total, sameVerdict, bothRej, sameLine int
	byKind := map[string][2]int{}
	current := map[string]triageRow{}
	ran := map[string]bool{}
	for i, v := range res {
		if v.decodeProblem != "" {
			t.Fatalf("%s: %s", muts[i].id, v.decodeProblem)
		}
		if !v.ok {
			continue
		}
		total++
		ran[muts[i].id] = true
		kind := strings.Split(muts[i].id, ":")[1]
		k := byKind[kind]
		k[1]++
		agree := (v.theirs == "") == (v.ours == "")
		if agree {
			sameVerdict++
		}
		if v.theirs != "" && v.ours != "" {
			bothRej++
			if v.theirs == v.ours {
				sameLine++
			} else {
				agree = false
			}
		}
		if agree {
			k[0]++
		} else {
			current[muts[i].id] = triageRow{id: muts[i].id, theirs: orAccepted(v.theirs), ours: orAccepted(v.ours)}
		}
		byKind[kind] = k
	}
	if total == 0 {
		t.Fatal("no mutant assembled")
	}
	verdictRate := float64(sameVerdict) / float64(total)
	lineRate := 1.0
	if bothRej > 0 {
		lineRate = float64(sameLine) / float64(bothRej)
	}
	t.Logf("%d mutants of %d modules (%d generated): same verdict %d (%.1f%%), both reject %d, same first line %d (%.1f%%)",
		total, len(mods), len(muts), sameVerdict, 100*verdictRate, bothRej, sameLine, 100*lineRate)
	var kinds []string
	for k := range byKind {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		t.Logf("  %-10s %4d of %4d agree", k, byKind[k][0], byKind[k][1])
	}
	bad := checkTriage(t, differentialTable, triageHead, current, ran, pendingAllowed)
	switch {
	case !testing.Short() && pendingAllowed:
		t.Logf("pendingAllowed: thresholds (%.0f%% verdict, %.0f%% first line) not enforced until the pending families are merged",
			100*verdictFloor, 100*messageFloor)
	case !testing.Short():
		if verdictRate < verdictFloor {
			t.Errorf("verdict agreement %.1f%% is below %.0f%%", 100*verdictRate, 100*verdictFloor)
		}
		if lineRate < messageFloor {
			t.Errorf("first-line agreement %.1f%% is below %.0f%%", 100*lineRate, 100*messageFloor)
		}
	}
	if !testing.Short() && total < 2000 {
		t.Errorf("only %d mutants", total)
	}
	if bad > 0 {
		t.Logf("%d disagreements need triage: fix ours, or run with -update and give each new row its reason", bad)
	}
}

// checkTriage logs the disagreements of a run (current, by id; ran holds
// every id judged) by group and checks them against the triage table at
// path: a disagreement without a row, or with a row "ours wrong",
// "untriaged" (or "pending" unless allowPending), is an error. With
// -update it rewrites the table (head, then the rows), keeping reasons.
// It returns the number of errors.
func checkTriage(t *testing.T, path, head string, current map[string]triageRow, ran map[string]bool, allowPending bool) int {
	table, order, err := readTriage(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	logGroups(t, current, table)

	// Check the disagreements against the table.
	var bad int
	for _, id := range sortedKeys(current) {
		row := current[id]
		old, ok := table[id]
		switch {
		case !ok:
			bad++
			t.Errorf("new disagreement %s:\n\tspirv-val: %s\n\tours:      %s", id, row.theirs, row.ours)
		case strings.HasPrefix(old.reason, "ours wrong") || strings.HasPrefix(old.reason, "untriaged") ||
			strings.HasPrefix(old.reason, "pending") && !allowPending:
			bad++
			t.Errorf("disagreement %s triaged %q:\n\tspirv-val: %s\n\tours:      %s", id, old.reason, row.theirs, row.ours)
		case old.theirs != strings.TrimSpace(row.theirs) || old.ours != strings.TrimSpace(row.ours): // cells are read trimmed
			t.Logf("%s: the lines changed since triage (run -update):\n\tspirv-val: %s\n\tours:      %s", id, row.theirs, row.ours)
		}
	}
	for _, id := range order {
		if ran[id] {
			if _, ok := current[id]; !ok {
				t.Logf("stale row %s: both now agree (run -update)", id)
			}
		}
	}
	if *updateDifferential {
		rows := map[string]triageRow{}
		for id, r := range table {
			if !ran[id] && !testing.Short() {
				continue // a mutant that no longer exists
			}
			if _, now := current[id]; !now && ran[id] {
				continue // stale
			}
			rows[id] = r
		}
		for id, r := range current {
			r.reason = "untriaged"
			if old, ok := table[id]; ok {
				r.reason = old.reason
			}
			rows[id] = r
		}
		if err := writeTriage(path, head, rows); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s (%d rows)", path, len(rows))
	}
	return bad
}

// corpusModule is a corpus module the differentials mutate.
type corpusModule struct {
	name, env string // base name without .spvasm; --target-env of its version
	insts     []asmInst
}

// mutationModules returns n of the corpus's small modules (at most
// maxModuleBytes), read and tokenized, in a stable pseudo-random order:
// adding modules to the corpus does not change which mutants the others
// get. It returns none when the corpus is absent.
func mutationModules(n int) []corpusModule {
	files, _ := filepath.Glob(filepath.Join(sharedDir, "corpus/asm/*.spvasm"))
	type keyed struct {
		path string
		key  uint64
	}
	var ks []keyed
	for _, f := range files {
		fi, err := os.Stat(f)
		if err != nil || fi.Size() > maxModuleBytes {
			continue
		}
		h := fnv.New64a()
		h.Write([]byte(filepath.Base(f)))
		ks = append(ks, keyed{f, h.Sum64()})
	}
	sort.Slice(ks, func(i, j int) bool { return ks[i].key < ks[j].key })
	var mods []corpusModule
	for _, k := range ks[:min(len(ks), n)] {
		text, err := os.ReadFile(k.path)
		if err != nil {
			continue
		}
		mods = append(mods, corpusModule{
			name:  strings.TrimSuffix(filepath.Base(k.path), ".spvasm"),
			env:   asmVersion(string(text)),
			insts: tokenizeAsm(string(text)),
		})
	}
	return mods
}

// mutantsOf returns the mutants of seeds seeds of each of kinds of the
// modules keep marks, seed by seed and kind by kind, each text once. A
// mutant's id is module:kind:seed, and its random choices depend only on
// that id.
func mutantsOf(mods []corpusModule, keep []bool, kinds []string, seeds int) []mutant {
	var muts []mutant
	seen := map[string]bool{}
	for seed := 0; seed < seeds; seed++ {
		for _, kind := range kinds {
			for i, m := range mods {
				if !keep[i] {
					continue
				}
				id := m.name + ":" + kind + ":" + strconv.Itoa(seed)
				out, ok := mutateKind(m.insts, kind, seededRand(id))
				if !ok {
					continue
				}
				text := joinAsm(out)
				if seen[text] {
					continue
				}
				seen[text] = true
				muts = append(muts, mutant{id: id, env: m.env, text: text})
			}
		}
	}
	return muts
}

func orAccepted(s string) string {
	if s == "" {
		return "(accepted)"
	}
	return s
}

// triageRow is one row of differential.md.
type triageRow struct {
	id, theirs, ours, reason string
}

const triageHead = `# Mutation-differential disagreements (TestMutationDifferential)

Each row is a mutant (module:kind:seed) on which Debian's spirv-val 2023.1 and ` + "`val`" + ` disagree:
a different verdict, or a different first message line when both reject. Reasons:
- **older oracle**: current spirv-val (the reference, v2026.4) agrees with ` + "`val`" + `; 2023.1 lacks
  the rule or words it differently;
- **deliberate**: a difference spvx keeps on purpose (say why);
- **ours wrong**: a bug in ` + "`val`" + ` (the test fails until it is fixed);
- **not written: <file>**: a rule family ` + "`val`" + ` does not have yet (README lists them); the
  row counts as a disagreement and stays until the family is written;
- **pending: <file> (<helper>)**: a rule of a family being written on another branch when the
  row was triaged (accepted only while ` + "`pendingAllowed`" + ` is true in mutation_test.go);
- **untriaged**: written by ` + "`-update`" + ` for a new row (the test fails until it gets a reason).

Regenerate with ` + "`go test ./val -run MutationDifferential -count 1 -update`" + ` (reasons are kept).

| mutant | spirv-val 2023.1 | val | reason |
|---|---|---|---|
`

func escapeCell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

func splitRow(line string) []string {
	var cells []string
	var cur strings.Builder
	for i := 0; i < len(line); i++ {
		switch {
		case line[i] == '\\' && i+1 < len(line) && line[i+1] == '|':
			cur.WriteByte('|')
			i++
		case line[i] == '|':
			cells = append(cells, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(line[i])
		}
	}
	return cells
}

// readTriage reads the table's rows, by id, and the ids in file order.
func readTriage(path string) (map[string]triageRow, []string, error) {
	rows := map[string]triageRow{}
	f, err := os.Open(path)
	if err != nil {
		return rows, nil, err
	}
	defer f.Close()
	var order []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		c := splitRow(line)
		if len(c) < 5 {
			return nil, nil, fmt.Errorf("%s: bad row %q", path, line)
		}
		id := strings.Trim(c[1], "`")
		rows[id] = triageRow{id: id, theirs: c[2], ours: c[3], reason: c[4]}
		order = append(order, id)
	}
	return rows, order, sc.Err()
}

func writeTriage(path, head string, rows map[string]triageRow) error {
	var b strings.Builder
	b.WriteString(head)
	for _, id := range sortedKeys(rows) {
		r := rows[id]
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", id, escapeCell(r.theirs), escapeCell(r.ours), escapeCell(r.reason))
	}
	return os.WriteFile(path, []byte(b.String()), 0o666)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// messagePrefix is a disagreement's group: spirv-val's message with the
// "error: line N: " and everything from the first id, number or quote
// dropped, so that one rule's rows fall together.
func messagePrefix(line string) string {
	if _, rest, ok := strings.Cut(line, ": line "); ok {
		if _, msg, ok := strings.Cut(rest, ": "); ok {
			line = msg
		}
	}
	if i := strings.IndexAny(line, "'\"0123456789<%"); i > 0 {
		line = line[:i]
	}
	if len(line) > 70 {
		line = line[:70]
	}
	return strings.TrimSpace(line)
}

// logGroups logs the disagreements grouped by spirv-val's message prefix
// (its verdict "(accepted)" when only we reject), biggest group first,
// with the triage each group's rows have.
func logGroups(t *testing.T, current, table map[string]triageRow) {
	groups := map[string][]string{}
	for id, r := range current {
		key := messagePrefix(r.theirs)
		if r.theirs != "(accepted)" && r.ours == "(accepted)" {
			key = "only spirv-val rejects: " + key
		} else if r.theirs == "(accepted)" {
			key = "only val rejects: " + messagePrefix(r.ours)
		}
		groups[key] = append(groups[key], id)
	}
	keys := sortedKeys(groups)
	sort.SliceStable(keys, func(i, j int) bool { return len(groups[keys[i]]) > len(groups[keys[j]]) })
	if len(keys) > 0 {
		t.Logf("disagreements by spirv-val's message:")
	}
	for _, k := range keys {
		ids := groups[k]
		sort.Strings(ids)
		reasons := map[string]int{}
		for _, id := range ids {
			reason := "not in table"
			if r, ok := table[id]; ok {
				reason, _, _ = strings.Cut(r.reason, ":")
			}
			reasons[reason]++
		}
		var rs []string
		for _, r := range sortedKeys(reasons) {
			rs = append(rs, fmt.Sprintf("%s %d", r, reasons[r]))
		}
		ex := current[ids[0]]
		t.Logf("  %4d  %s  [%s]\n\t\te.g. %s\n\t\tspirv-val: %s\n\t\tval:       %s", len(ids), k, strings.Join(rs, ", "), ids[0], ex.theirs, ex.ours)
	}
}

// TestMutationHelpers: the tokenizer keeps a string with spaces, quotes
// and newlines as one token and drops comments; every kind mutates a
// small module into a different text; a table row with a pipe in a
// message reads back as written.
func TestMutationHelpers(t *testing.T) {
	src := "; header\nOpCapability Shader\nOpSource GLSL 450 %f \"a \\\"b\\\"\nc ; d\"\n%void = OpTypeVoid ; comment\n"
	insts := tokenizeAsm(src)
	if len(insts) != 3 || insts[1].toks[len(insts[1].toks)-1] != "\"a \\\"b\\\"\nc ; d\"" || insts[2].res != "%void" || insts[2].op != "OpTypeVoid" {
		t.Fatalf("tokenizeAsm: %#v", insts)
	}
	mod := tokenizeAsm(valHeadAsm + "OpExtension \"SPV_KHR_storage_buffer_storage_class\"\nOpMemberDecorate %s 0 Offset 0\nOpDecorate %a ArrayStride 4\n" +
		domTypesAsm + "%s = OpTypeStruct %u32\n%a = OpTypeArray %u32 %c\n%p = OpTypePointer Private %u32\n%v = OpVariable %p Private\n" +
		"%main = OpFunction %void None %fn\n%e = OpLabel\n%x = OpIAdd %u32 %c %c\nOpSelectionMerge %m None\nOpBranchConditional %true %m %n\n%n = OpLabel\nOpBranch %m\n%m = OpLabel\nOpReturn\nOpFunctionEnd\n")
	base := joinAsm(mod)
	for _, kind := range mutationKinds {
		done := false
		for seed := 0; seed < 20 && !done; seed++ {
			if out, ok := mutate(mod, kind, seededRand(kind+strconv.Itoa(seed))); ok {
				done = true
				if joinAsm(out) == base {
					t.Errorf("%s: mutant equals the module", kind)
				}
			}
		}
		if !done {
			t.Errorf("%s: never applied", kind)
		}
	}
	path := filepath.Join(t.TempDir(), "t.md")
	rows := map[string]triageRow{"m:k:0": {id: "m:k:0", theirs: "error: a | b", ours: "(accepted)", reason: "older oracle"}}
	if err := writeTriage(path, triageHead, rows); err != nil {
		t.Fatal(err)
	}
	got, _, err := readTriage(path)
	if err != nil || got["m:k:0"] != rows["m:k:0"] {
		t.Errorf("read back %v, %v", got, err)
	}
}
