package asm

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"spvx/internal/oracle"
	"spvx/spirv"
)

// debianAliases are the spellings current SPIRV-Tools prints that Debian's
// spirv-as 2023.1 does not know, with the older alias of the same value
// that it does know. The differential tests rewrite them before handing a
// text to Debian's tool; TestDebianAliases checks that each pair names one
// value in spvx's grammar, so the rewrite cannot change the binary. This is
// the only normalization the differential tests apply.
var debianAliases = []struct {
	kind      string // operand kind, or "Opcode"
	current   string
	debian    string
	reasonExt string // why the current grammar prefers the new spelling
}{
	{"Capability", "GroupNonUniformPartitionedEXT", "GroupNonUniformPartitionedNV", "SPV_EXT_shader_subgroup_partitioned (2025) promoted the NV enumerants"},
	{"Opcode", "OpGroupNonUniformPartitionEXT", "OpGroupNonUniformPartitionNV", "SPV_EXT_shader_subgroup_partitioned"},
	{"GroupOperation", "PartitionedReduceEXT", "PartitionedReduceNV", "SPV_EXT_shader_subgroup_partitioned"},
	{"GroupOperation", "PartitionedInclusiveScanEXT", "PartitionedInclusiveScanNV", "SPV_EXT_shader_subgroup_partitioned"},
	{"GroupOperation", "PartitionedExclusiveScanEXT", "PartitionedExclusiveScanNV", "SPV_EXT_shader_subgroup_partitioned"},
	{"Capability", "ComputeDerivativeGroupQuadsKHR", "ComputeDerivativeGroupQuadsNV", "SPV_KHR_compute_shader_derivatives (2024) promoted the NV enumerants"},
	{"Capability", "ComputeDerivativeGroupLinearKHR", "ComputeDerivativeGroupLinearNV", "SPV_KHR_compute_shader_derivatives"},
	{"ExecutionMode", "DerivativeGroupQuadsKHR", "DerivativeGroupQuadsNV", "SPV_KHR_compute_shader_derivatives"},
	{"ExecutionMode", "DerivativeGroupLinearKHR", "DerivativeGroupLinearNV", "SPV_KHR_compute_shader_derivatives"},
}

// forDebian rewrites the spellings of debianAliases, as whole words.
func forDebian(src []byte) []byte {
	for _, a := range debianAliases {
		re := regexp.MustCompile(`\b` + a.current + `\b`)
		src = re.ReplaceAll(src, []byte(a.debian))
	}
	return src
}

func TestDebianAliases(t *testing.T) {
	for _, a := range debianAliases {
		var v1, v2 uint32
		var ok1, ok2 bool
		if a.kind == "Opcode" {
			i1, o1 := spirv.LookupOpcode(a.current)
			i2, o2 := spirv.LookupOpcode(a.debian)
			ok1, ok2 = o1, o2
			if o1 && o2 {
				v1, v2 = uint32(i1.Opcode), uint32(i2.Opcode)
			}
		} else {
			k, ok := spirv.LookupOperandKind(a.kind)
			if !ok {
				t.Fatalf("no operand kind %s", a.kind)
			}
			e1, o1 := k.LookupEnumerant(a.current)
			e2, o2 := k.LookupEnumerant(a.debian)
			ok1, ok2 = o1, o2
			if o1 && o2 {
				v1, v2 = e1.Value, e2.Value
			}
		}
		if !ok1 || !ok2 || v1 != v2 {
			t.Errorf("%s %s and %s are not aliases of one value", a.kind, a.current, a.debian)
		}
	}
}

// debianAs runs Debian's spirv-as on src with opt's flags, in the scratch
// directory dir (one per goroutine). Like current spirv-as (and Assemble),
// the target defaults to the "; Version:" comment. It returns the words
// written when the tool accepted the text, and the run's result; a run
// that failed (or a scratch file that could not be written) has status
// oracle.Failed, which callers report as a test failure.
func debianAs(dir, tool string, src []byte, opt Options) ([]uint32, oracle.Result) {
	in := filepath.Join(dir, "in.spvasm")
	out := filepath.Join(dir, "out.spv")
	if err := os.WriteFile(in, forDebian(src), 0o644); err != nil {
		return nil, oracle.Result{Status: oracle.Failed, Err: err}
	}
	if err := os.Remove(out); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, oracle.Result{Status: oracle.Failed, Err: err}
	}
	env := opt.TargetEnv
	if env == "" {
		env = "spv1.6"
		if v, ok := versionFromText(src); ok {
			env = "spv1." + string(rune('0'+v.Minor()))
		}
	}
	args := []string{"--target-env", env, "-o", out, in}
	if opt.PreserveNumericIDs {
		args = append([]string{"--preserve-numeric-ids"}, args...)
	}
	r := oracle.Run(tool, nil, args...)
	if r.Status != oracle.Accepted {
		return nil, r
	}
	b, err := os.ReadFile(out)
	if err != nil {
		return nil, oracle.Result{Status: oracle.Failed, Err: fmt.Errorf("%s accepted the text but wrote no output: %v", tool, err)}
	}
	w := make([]uint32, len(b)/4)
	for i := range w {
		w[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return w, r
}

// debianRejects lists the testdata files Debian's spirv-as 2023.1 cannot
// assemble: why, and the first line it prints (TestGoldenOracle checks
// that it still says exactly that). Their goldens are spvx's output,
// checked by hand and by the decoder.
var debianRejects = map[string]struct{ reason, debian string }{
	"narrowfloat": {"FP Encoding operands and their literals are newer than its grammar (SPIR-V 1.6 rev 4+)", "error: 7: 29: Invalid capability 'BFloat16TypeKHR'."},
	"bitcast":     {"OpBitcastExtractEXT and OpSubgroupBitcastShuffleINTEL are newer than its grammar", "error: 7: 29: Invalid capability 'SubgroupBitcastShuffleINTEL'."},
	"immediates":  {"OpUnknown(opcode, count) was added to spirv-as in 2025", "error: 17: 16: Invalid Opcode name 'OpUnknown(1,'"},
}

// TestGoldenOracle checks the goldens against Debian's spirv-as.
func TestGoldenOracle(t *testing.T) {
	tool := oracle.Require(t, oracle.SpirvAs)
	for _, c := range goldenCases(t) {
		t.Run(c.name, func(t *testing.T) {
			want, r := debianAs(t.TempDir(), tool, c.src, c.opt)
			d, known := debianRejects[c.name]
			first, _, _ := strings.Cut(string(r.Stderr), "\n")
			switch {
			case r.Status == oracle.Failed:
				t.Fatal(r.Err)
			case r.Status == oracle.Rejected && known && first != d.debian:
				t.Fatalf("Debian's spirv-as rejects it with %s, want the documented %s (%s)", first, d.debian, d.reason)
			case r.Status == oracle.Rejected && known:
				t.Skipf("Debian's spirv-as rejects it (%s): %s", d.reason, first)
			case r.Status == oracle.Rejected:
				t.Fatalf("Debian's spirv-as rejects it: %s", r.Stderr)
			case known:
				t.Errorf("Debian's spirv-as now accepts it; drop it from debianRejects")
			}
			got, err := Assemble(c.src, c.opt)
			if err != nil {
				t.Fatal(err)
			}
			if i := firstDiff(got, want); i >= 0 {
				t.Errorf("word %d differs from Debian's spirv-as:\ngot:\n%s\nwant:\n%s", i, formatWords(got), formatWords(want))
			}
		})
	}
}

// TestCorpusOracle compares the assembly of corpus texts with Debian's
// spirv-as, after rewriting the aliases it does not know; TestCorpusText
// checks every module against its original binary without the tool.
func TestCorpusOracle(t *testing.T) {
	tool := oracle.Require(t, oracle.SpirvAs)
	files := corpusFiles(t, "asm")
	var mu sync.Mutex
	var agree, normalized, total int
	work := make(chan string)
	var wg sync.WaitGroup
	for w := 0; w < 2; w++ {
		wg.Add(1)
		dir := t.TempDir()
		go func() {
			defer wg.Done()
			for f := range work {
				src, err := os.ReadFile(f)
				if err != nil {
					t.Error(err)
					continue
				}
				got, err := Assemble(src, Options{})
				want, r := debianAs(dir, tool, src, Options{})
				mu.Lock()
				total++
				switch {
				case r.Status == oracle.Failed:
					t.Errorf("%s: %v", filepath.Base(f), r.Err)
				case err != nil:
					t.Errorf("%s: %v", filepath.Base(f), err)
				case r.Status == oracle.Rejected:
					t.Errorf("%s: Debian's spirv-as rejects it even with the aliases rewritten: %s", filepath.Base(f), r.Stderr)
				case firstDiff(got, want) >= 0:
					t.Errorf("%s: word %d differs from Debian's spirv-as", filepath.Base(f), firstDiff(got, want))
				default:
					agree++
					if !bytes.Equal(forDebian(src), src) {
						normalized++
					}
				}
				mu.Unlock()
			}
		}()
	}
	for _, f := range files {
		work <- f
	}
	close(work)
	wg.Wait()
	t.Logf("%d of %d corpus texts assemble exactly as Debian's spirv-as does (%d after rewriting aliases it does not know)", agree, total, normalized)
}

// errorOracleDiffs are the unit-table error cases whose first error
// Debian's spirv-as 2023.1 words differently, or cannot know (wording
// changed since, or syntax and grammar it lacks): why, and the first line
// it prints instead. TestErrorOracle runs each and checks that Debian's
// tool still says exactly that, so that a change on either side is seen.
var errorOracleDiffs = map[string]struct{ reason, debian string }{
	"equals missing":         {"2023.1 does not name the word found; current SPIRV-Tools does", "error: 1: 4: '=' expected after result id."},
	"fp encoding name":       {"FP Encoding is newer than its grammar", "error: 1: 21: Expected <opcode> or <result-id> at the beginning of an instruction, found 'Foo'."},
	"fp encoding number":     {"FP Encoding is newer than its grammar", "error: 1: 21: Expected <opcode> or <result-id> at the beginning of an instruction, found '5'."},
	"fp encoding width":      {"FP Encoding is newer than its grammar", "error: 1: 20: Expected <opcode> or <result-id> at the beginning of an instruction, found 'Float4E2M1EXT'."},
	"narrow literal":         {"FP Encoding is newer than its grammar", "error: 1: 20: Expected <opcode> or <result-id> at the beginning of an instruction, found 'Float4E2M1EXT'."},
	"spec op with Op prefix": {"the \"Did you mean\" hint is from 2026 (SPIRV-Tools #6731)", "error: 1: 26: Expected operand for OpSpecConstantOp instruction, but found the next instruction instead."},
	"unknown paren":          {"OpUnknown was added to spirv-as in 2025", "error: 1: 1: Invalid Opcode name 'OpUnknown'"},
	"unknown zero count":     {"OpUnknown was added to spirv-as in 2025", "error: 1: 1: Invalid Opcode name 'OpUnknown(1,'"},
	"unknown operands":       {"OpUnknown was added to spirv-as in 2025", "error: 1: 1: Invalid Opcode name 'OpUnknown(1,'"},
	"unknown in assignment":  {"OpUnknown was added to spirv-as in 2025", "error: 1: 6: Invalid Opcode name 'OpUnknown(1,'"},
}

// TestErrorOracle checks that each error case of the unit table is
// rejected by Debian's spirv-as with the same first message at the same
// line and column, or, for errorOracleDiffs, with the documented message.
func TestErrorOracle(t *testing.T) {
	tool := oracle.Require(t, oracle.SpirvAs)
	for _, c := range errorCases {
		if c.ours {
			continue // an spvx check spirv-as does not make
		}
		t.Run(c.name, func(t *testing.T) {
			_, r := debianAs(t.TempDir(), tool, []byte(c.src), Options{TargetEnv: "spv1.6"})
			switch r.Status {
			case oracle.Failed:
				t.Fatal(r.Err)
			case oracle.Accepted:
				t.Fatalf("Debian's spirv-as accepts %q", c.src)
			}
			first, _, _ := strings.Cut(string(r.Stderr), "\n")
			_, err := Assemble([]byte(c.src), Options{TargetEnv: "spv1.6", LaxIDs: true})
			var list ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("Assemble(%q) = %v, want an ErrorList", c.src, err)
			}
			got, _, _ := strings.Cut(list[0].SPIRVTools(), "\n")
			if d, ok := errorOracleDiffs[c.name]; ok {
				switch {
				case first != d.debian:
					t.Errorf("Debian's spirv-as on %q:\n got %s\nwant %s (the documented difference: %s)", c.src, first, d.debian, d.reason)
				case got == first:
					t.Errorf("Assemble(%q) now agrees with Debian's spirv-as (%s); drop it from errorOracleDiffs", c.src, got)
				default:
					t.Skipf("%s: Debian's spirv-as says %s", d.reason, first)
				}
				return
			}
			if got != first {
				t.Errorf("Assemble(%q):\n got %s\nwant %s", c.src, got, first)
			}
		})
	}
}
