package dis

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"

	"spvx/internal/oracle"
	"spvx/spirv"
)

// mutantCount is how many damaged modules TestMutantOracle compares with
// spirv-dis: one process each, about 4 ms, run in parallel. A larger
// study: SPVX_MUTANTS=COUNT[,SEED] (e.g. 20000,7).
const mutantCount = 1500

// mutantPlan returns the mutant count and seed, from SPVX_MUTANTS if set.
func mutantPlan(t *testing.T) (count int, seed uint64) {
	count, seed = mutantCount, 2026
	if env := os.Getenv("SPVX_MUTANTS"); env != "" {
		c, s, _ := strings.Cut(env, ",")
		if _, err := fmt.Sscan(c, &count); err != nil || count <= 0 {
			t.Fatalf("SPVX_MUTANTS=%q: want COUNT[,SEED]", env)
		}
		if s != "" {
			if _, err := fmt.Sscan(s, &seed); err != nil {
				t.Fatalf("SPVX_MUTANTS=%q: want COUNT[,SEED]", env)
			}
		}
	}
	return count, seed
}

// mutantDiffs is the one table of tolerated differences between spvx dis
// and Debian's spirv-dis 2023.1 on damaged modules. spvx follows current
// SPIRV-Tools; each entry is a documented change since 2023.1, recognized
// by match from the outcome (the verdicts, spirv-dis's message, the texts),
// and nothing else may differ. normalizeAliases (knownDiffs) applies to all
// texts. Only the grammar fix may excuse spvx rejecting what 2023.1 prints.
var mutantDiffs = []struct {
	name, reason string
	match        func(o *outcome) bool
}{
	{
		"newer grammar",
		"spirv-dis 2023.1 rejects an opcode, enumerant, mask bit or extended instruction number that the current grammar (which spvx and current spirv-dis use) defines",
		func(o *outcome) bool {
			return o.spvxOK && !o.oracleOK && newerGrammarRE.MatchString(o.oracleE)
		},
	},
	{
		"newer OpSpecConstantOp operations",
		"current SPIRV-Tools allows the untyped access chains (SPV_KHR_untyped_pointers, 2024) in OpSpecConstantOp",
		func(o *outcome) bool {
			return o.spvxOK && !o.oracleOK && strings.Contains(o.oracleE, "Invalid OpSpecConstantOp opcode")
		},
	},
	{
		"newer operands",
		"current SPIRV-Tools reads operands 2023.1 did not have: OpTypeFloat's FP Encoding (SPV_KHR_bfloat16, SPV_EXT_float8, 2025) and, for later versions of a known NonSemantic set, trailing ids after an instruction's grammar (2025); 2023.1 says the instruction has too many words",
		func(o *outcome) bool {
			return o.spvxOK && !o.oracleOK && newerOperandsRE.MatchString(o.oracleE)
		},
	},
	{
		"operand list fixed since 2023.1",
		"the 2023 grammar gave OpFPGARegINTEL (5949) one operand more than the current grammar's OpFPGARegALTERA (Result Type, Result, Input), so 2023.1 wants a word the current tools reject, either way round",
		func(o *outcome) bool {
			if o.spvxOK && !o.oracleOK {
				return strings.Contains(o.oracleE, "decoding OpFPGARegINTEL") && strings.Contains(o.oracleE, "expected more operands")
			}
			return !o.spvxOK && o.oracleOK && strings.Contains(o.spvxE, "(OpFPGARegALTERA)") && errors.Is(o.spvxErr, spirv.ErrExtraWords)
		},
	},
	{
		"float literal of an odd width",
		"for a one-word literal of an OpTypeFloat without an FP encoding whose width is neither 16 nor 32, 2023.1 prints the word as binary32 and current SPIRV-Tools (FP encoding support, 2025) prints nothing",
		func(o *outcome) bool {
			return o.spvxOK && o.oracleOK && o.m.hasOddFloat()
		},
	},
	{
		"newer generator",
		"the header comment names generator tools registered in SPIRV-Headers' spirv.xml after 2023.1, which prints Unknown(N) for them",
		func(o *outcome) bool {
			if !o.spvxOK || !o.oracleOK {
				return false
			}
			got, want := strings.SplitN(o.spvxOut, "\n", 4), strings.SplitN(o.oracleOut, "\n", 4)
			return len(got) == 4 && len(want) == 4 && got[3] == want[3] && got[0] == want[0] && got[1] == want[1] &&
				unknownGeneratorRE.MatchString(want[2]) && !unknownGeneratorRE.MatchString(got[2])
		},
	},
}

// outcome is what spvx and spirv-dis made of one mutant.
type outcome struct {
	m                  *mutant
	oracleOK, spvxOK   bool
	oracleFailed       bool // the oracle could not be run (not a rejection)
	oracleOut, oracleE string
	spvxOut, spvxE     string
	spvxErr            error
	flags              string // the spirv-dis flags besides the default
}

// unknownGeneratorRE matches the header line of a generator spirv-dis does not know.
var unknownGeneratorRE = regexp.MustCompile(`^; Generator: Unknown\(\d+\); \d+$`)

// newerGrammarRE matches spirv-dis's messages for values it does not know.
var newerGrammarRE = regexp.MustCompile(`Invalid opcode: \d+|Invalid .* operand: \d+|Invalid extended instruction number: \d+|Invalid extended instruction import`)

// newerOperandsRE matches 2023.1's complaint about an operand it lacks.
var newerOperandsRE = regexp.MustCompile(`Invalid instruction Op(TypeFloat|ExtInst) starting at word \d+: expected no more operands`)

// mutant is one damaged module and how it was made.
type mutant struct {
	source string // base name of the module it was made from
	how    string
	bin    []byte
}

// hasOddFloat reports whether the module declares an OpTypeFloat without
// an FP encoding of a width other than 16, 32 or 64.
func (m *mutant) hasOddFloat() bool {
	words := bytesToWords(m.bin)
	for off := 5; off < len(words); {
		n := int(words[off] >> 16)
		if n == 0 || off+n > len(words) {
			break
		}
		if spirv.Opcode(words[off]) == spirv.OpTypeFloat && n == 3 {
			if w := words[off+2]; w != 16 && w != 32 && w != 64 {
				return true
			}
		}
		off += n
	}
	return false
}

func bytesToWords(b []byte) []uint32 {
	w := make([]uint32, len(b)/4)
	for i := range w {
		w[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return w
}

func wordsToBytes(w []uint32) []byte {
	b := make([]byte, 4*len(w))
	for i, x := range w {
		binary.LittleEndian.PutUint32(b[4*i:], x)
	}
	return b
}

// mutantSources returns the modules to damage: the corpus, or where it is
// absent the examples and this package's test modules.
func mutantSources(t *testing.T) []string {
	files, _ := filepath.Glob(filepath.Join(sharedDir, "corpus/valid/*.spv"))
	if len(files) == 0 {
		t.Logf("corpus not found under %s: damaging the examples and testdata modules instead", sharedDir)
		files, _ = filepath.Glob("../examples/*.spv")
		own, _ := filepath.Glob("testdata/*.spv")
		files = append(files, own...)
	}
	if len(files) == 0 {
		t.Fatal("no modules to damage")
	}
	return files
}

// mutate makes one damaged copy of words: a word replaced, bits flipped,
// an opcode changed or a word count changed.
func mutate(r *rand.Rand, words []uint32) ([]uint32, string) {
	w := append([]uint32(nil), words...)
	var starts []int
	var opcodes []uint32
	for off := 5; off < len(w); off += int(w[off] >> 16) {
		starts = append(starts, off)
		opcodes = append(opcodes, w[off]&0xFFFF)
	}
	if len(w) <= 5 || len(starts) == 0 {
		return w, "unchanged"
	}
	switch r.IntN(4) {
	case 0:
		pos := 5 + r.IntN(len(w)-5)
		var v uint32
		switch r.IntN(4) {
		case 0:
			v = r.Uint32()
		case 1:
			v = uint32(r.IntN(256))
		case 2:
			v = uint32(1 + r.IntN(int(w[3])+2)) // an id near the bound
		default:
			v = 0
		}
		w[pos] = v
		return w, fmt.Sprintf("word %d = 0x%x", pos, v)
	case 1:
		pos := 1 + r.IntN(len(w)-1)
		var flips []string
		for range 1 + r.IntN(3) {
			bit := r.IntN(32)
			w[pos] ^= 1 << bit
			flips = append(flips, fmt.Sprint(bit))
		}
		return w, fmt.Sprintf("word %d: bits %s flipped", pos, strings.Join(flips, ","))
	case 2:
		i := r.IntN(len(starts))
		op := opcodes[r.IntN(len(opcodes))] // one the module uses: known to the 2023 tool
		if r.IntN(4) == 0 {
			op = uint32(r.IntN(6500))
		}
		w[starts[i]] = w[starts[i]]&0xFFFF0000 | op
		return w, fmt.Sprintf("instruction at word %d: opcode %d", starts[i], op)
	default:
		i := r.IntN(len(starts))
		old := int(w[starts[i]] >> 16)
		n := old + []int{-2, -1, 1, 2, 3}[r.IntN(5)]
		if r.IntN(4) == 0 {
			n = r.IntN(old + 6)
		}
		n = max(n, 0) & 0xFFFF
		w[starts[i]] = uint32(n)<<16 | w[starts[i]]&0xFFFF
		return w, fmt.Sprintf("instruction at word %d: word count %d (was %d)", starts[i], n, old)
	}
}

// TestMutantOracle damages modules (seeded, so every run makes the same
// mutants) and checks that spvx dis accepts exactly the mutants Debian's
// spirv-dis accepts, printing the same text, except for mutantDiffs.
func TestMutantOracle(t *testing.T) {
	tool := oracle.Require(t, oracle.SpirvDis)
	files := mutantSources(t)

	// Damage only modules the oracle itself prints (it rejects those with
	// features newer than 2023.1), a few mutants each.
	count, seed := mutantPlan(t)
	r := rand.New(rand.NewPCG(8, seed))
	r.Shuffle(len(files), func(i, j int) { files[i], files[j] = files[j], files[i] })
	type source struct {
		name  string
		words []uint32
	}
	var sources []source
	const perSource = 5 // mutants per module, with the corpus
	for _, f := range files {
		if len(sources)*perSource >= count {
			break
		}
		bin, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, ok := oracle.Exec(t, tool, bin, "-"); ok {
			sources = append(sources, source{filepath.Base(f), bytesToWords(bin)})
		}
	}
	if len(sources) == 0 {
		t.Fatal("spirv-dis rejects every source module")
	}
	// Without the corpus, the few modules there are each give many.
	mutants := make([]*mutant, count)
	for i := range mutants {
		src := sources[i%len(sources)]
		mw, how := mutate(r, src.words)
		mutants[i] = &mutant{source: src.name, how: how, bin: wordsToBytes(mw)}
	}

	// Every mutant with default options; every fifth also with --raw-id,
	// which names every id by its number (ids past the bound included).
	type job struct {
		m   *mutant
		raw bool
	}
	var jobs []job
	for i, m := range mutants {
		jobs = append(jobs, job{m, false})
		if i%5 == 0 {
			jobs = append(jobs, job{m, true})
		}
	}
	results := make([]outcome, len(jobs))
	var wg sync.WaitGroup
	next := make(chan int)
	for range 2 * runtime.NumCPU() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				j := jobs[i]
				o := outcome{m: j.m}
				args := []string{"-"}
				if j.raw {
					o.flags, args = " --raw-id", []string{"--raw-id", "-"}
				}
				res := oracle.Run(tool, j.m.bin, args...)
				o.oracleFailed = res.Status == oracle.Failed
				o.oracleOK, o.oracleOut, o.oracleE = res.Status == oracle.Accepted, string(normalizeAliases(res.Stdout)), strings.TrimSpace(string(res.Stderr))
				if o.oracleFailed {
					o.oracleE = res.Err.Error()
				}
				got, err := DisassembleBinary(j.m.bin, Options{RawID: j.raw})
				o.spvxOK, o.spvxErr = err == nil, err
				if err != nil {
					o.spvxE = err.Error()
				} else {
					o.spvxOut = string(normalizeAliases(got))
				}
				results[i] = o
			}
		}()
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()

	for _, o := range results {
		if o.oracleFailed {
			t.Fatalf("%s (%s)%s: the oracle could not be run: %s", o.m.source, o.m.how, o.flags, o.oracleE)
		}
	}
	var bothAccept, bothReject int
	tolerated := map[string]int{}
	var failures []string
	for _, o := range results {
		if o.oracleOK == o.spvxOK && (!o.oracleOK || o.oracleOut == o.spvxOut) {
			if o.oracleOK {
				bothAccept++
			} else {
				bothReject++
			}
			continue
		}
		known := ""
		for _, d := range mutantDiffs {
			if d.match(&o) {
				known = d.name
				break
			}
		}
		if known != "" {
			tolerated[known]++
			continue
		}
		var msg string
		switch {
		case o.oracleOK && !o.spvxOK:
			msg = "spirv-dis prints it, spvx rejects it: " + o.spvxE
		case !o.oracleOK && o.spvxOK:
			msg = "spvx prints it, spirv-dis rejects it: " + o.oracleE
		default:
			msg = "texts differ:\n" + firstDiff([]byte(o.spvxOut), []byte(o.oracleOut))
		}
		failures = append(failures, fmt.Sprintf("%s (%s)%s: %s", o.m.source, o.m.how, o.flags, msg))
	}
	sort.Strings(failures)
	for i, f := range failures {
		if i == 40 {
			t.Errorf("... and %d more", len(failures)-40)
			break
		}
		t.Error(f)
	}
	t.Logf("%d mutants, %d runs (every fifth also --raw-id): %d printed alike by both, %d rejected by both; tolerated: %v", len(mutants), len(results), bothAccept, bothReject, tolerated)
	if bothAccept < len(results)/10 || bothReject < len(results)/10 {
		t.Errorf("the mutants are not a mix of accepted and rejected modules: %d accepted, %d rejected", bothAccept, bothReject)
	}
}

// TestMutantDiffsDocumented keeps the table honest: every entry has a reason.
func TestMutantDiffsDocumented(t *testing.T) {
	for _, d := range mutantDiffs {
		if d.name == "" || len(d.reason) < 40 || d.match == nil {
			t.Errorf("entry %q lacks a name, a reason or a matcher", d.name)
		}
	}
}

// TestOutOfWidthLiterals: a literal word with bits outside its type's
// width prints as spirv-dis prints it (EmitNumericLiteral): the whole word,
// signed words as int32; the friendly name follows the printed value.
// Checked against spirv-dis 2023.1 and current SPIRV-Tools' source, which
// agree here.
func TestOutOfWidthLiterals(t *testing.T) {
	op := func(o spirv.Opcode, n int) uint32 { return uint32(n)<<16 | uint32(o) }
	words := []uint32{spirv.MagicNumber, 0x00010000, 0, 8, 0,
		op(spirv.OpCapability, 2), uint32(spirv.CapabilityShader),
		op(spirv.OpCapability, 2), uint32(spirv.CapabilityInt8),
		op(spirv.OpMemoryModel, 3), 0, 1,
		op(spirv.OpTypeInt, 4), 1, 8, 0,
		op(spirv.OpTypeInt, 4), 2, 8, 1,
		op(spirv.OpSpecConstant, 4), 1, 3, 250174010,
		op(spirv.OpConstant, 4), 1, 4, 0x1FF,
		op(spirv.OpConstant, 4), 2, 5, 0x80,
		op(spirv.OpConstant, 4), 2, 6, 0xFFFFFF80,
		op(spirv.OpConstant, 4), 2, 7, 0x7FFFFF80,
	}
	got, err := DisassembleBinary(wordsToBytes(words), Options{NoHeader: true})
	if err != nil {
		t.Fatal(err)
	}
	want := `               OpCapability Shader
               OpCapability Int8
               OpMemoryModel Logical GLSL450
      %uchar = OpTypeInt 8 0
       %char = OpTypeInt 8 1
          %3 = OpSpecConstant %uchar 250174010
  %uchar_511 = OpConstant %uchar 511
   %char_128 = OpConstant %char 128
  %char_n128 = OpConstant %char -128
%char_2147483520 = OpConstant %char 2147483520
`
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestBuiltInNameTaken: a BuiltIn decoration names its target as
// SPIRV-Tools' SaveBuiltInName does, BaseInstance included, with a suffix
// when an OpName took the name (found by the mutant test: a damaged
// OpDecorate target, past the bound, had lost its name).
func TestBuiltInNameTaken(t *testing.T) {
	op := func(o spirv.Opcode, n int) uint32 { return uint32(n)<<16 | uint32(o) }
	words := []uint32{spirv.MagicNumber, 0x00010000, 0, 4, 0,
		op(spirv.OpCapability, 2), uint32(spirv.CapabilityShader),
		op(spirv.OpMemoryModel, 3), 0, 1}
	words = spirv.EncodeString(append(words, op(spirv.OpName, 6), 1), "gl_BaseInstance")
	words = append(words,
		op(spirv.OpDecorate, 4), 9, uint32(spirv.DecorationBuiltIn), uint32(spirv.BuiltInBaseInstance),
		op(spirv.OpDecorate, 4), 2, uint32(spirv.DecorationBuiltIn), uint32(spirv.BuiltInBaseInstance),
		op(spirv.OpTypeInt, 4), 1, 32, 0)
	got, err := DisassembleBinary(wordsToBytes(words), Options{NoHeader: true})
	if err != nil {
		t.Fatal(err)
	}
	want := `               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpName %gl_BaseInstance "gl_BaseInstance"
               OpDecorate %gl_BaseInstance_0 BuiltIn BaseInstance
               OpDecorate %gl_BaseInstance_1 BuiltIn BaseInstance
%gl_BaseInstance = OpTypeInt 32 0
`
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestEscapedString: '"' and '\' in a string literal get a backslash, as
// spirv-dis prints them (checked against it).
func TestEscapedString(t *testing.T) {
	op := func(o spirv.Opcode, n int) uint32 { return uint32(n)<<16 | uint32(o) }
	words := []uint32{spirv.MagicNumber, 0x00010000, 0, 4, 0,
		op(spirv.OpCapability, 2), uint32(spirv.CapabilityShader),
		op(spirv.OpMemoryModel, 3), 0, 1}
	words = spirv.EncodeString(append(words, op(spirv.OpExtension, 4)), `a"b\c""\`)
	got, err := DisassembleBinary(wordsToBytes(words), Options{NoHeader: true})
	if err != nil {
		t.Fatal(err)
	}
	want := "               OpCapability Shader\n               OpMemoryModel Logical GLSL450\n" +
		`               OpExtension "a\"b\\c\"\"\\"` + "\n"
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
