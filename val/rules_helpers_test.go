package val

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"spvx/internal/oracle"
)

// The helpers of the memory, decoration, layout, annotation and constant
// rule tests: a case is a whole module in assembly, our expected first
// message (VUID prefix included, "" for valid, "*" matching ids), and how
// Debian's spirv-val 2023.1 is expected to agree.

type agree uint8

const (
	oracleSame    agree = iota // same verdict and same first line
	oracleVerdict              // same verdict; the older oracle words it differently
	oracleNone                 // the older oracle lacks the rule (or differs); not compared
)

type memRuleCase struct {
	name  string
	src   string
	patch func([]uint32) []uint32
	opts  Options
	want  string
	agree agree
}

// oracleFlags are spirv-val's flags for opts.
func oracleFlags(o Options) []string {
	args := []string{"--target-env", o.Env.String()}
	for _, f := range []struct {
		on   bool
		flag string
	}{
		{o.RelaxLogicalPointer, "--relax-logical-pointer"},
		{o.RelaxBlockLayout, "--relax-block-layout"},
		{o.UniformBufferStandardLayout, "--uniform-buffer-standard-layout"},
		{o.ScalarBlockLayout, "--scalar-block-layout"},
		{o.WorkgroupScalarBlockLayout, "--workgroup-scalar-block-layout"},
		{o.SkipBlockLayout, "--skip-block-layout"},
		{o.RelaxStructStore, "--relax-struct-store"},
		{o.BeforeHLSLLegalization, "--before-hlsl-legalization"},
	} {
		if f.on {
			args = append(args, f.flag)
		}
	}
	return args
}

func runMemRuleCases(t *testing.T, cases []memRuleCase) {
	t.Helper()
	sv := ""
	if p, err := oracle.Path("spirv-val"); err == nil && !testing.Short() {
		sv = p
	} else {
		t.Logf("not comparing with spirv-val: %v (short: %v)", err, testing.Short())
	}
	dir := t.TempDir()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			words := assemble(t, c.src)
			if c.patch != nil {
				words = c.patch(words)
			}
			got := firstError(t, words, c.opts)
			if !globMatch(got, c.want) {
				t.Errorf("got  %q\nwant %q\nmodule:\n%s", got, c.want, c.src)
			}
			if sv == "" || c.agree == oracleNone {
				return
			}
			bin := filepath.Join(dir, strings.ReplaceAll(c.name, "/", "_")+".spv")
			b := make([]byte, 4*len(words))
			for k, w := range words {
				binary.LittleEndian.PutUint32(b[4*k:], w)
			}
			if err := os.WriteFile(bin, b, 0o644); err != nil {
				t.Fatal(err)
			}
			_, stderr, ok := oracle.Exec(t, sv, nil, append(oracleFlags(c.opts), bin)...)
			if ok != (got == "") {
				t.Errorf("verdict differs from spirv-val 2023.1 (it accepts: %v): %s", ok, stderr)
				return
			}
			if ok || c.agree != oracleSame {
				return
			}
			line, _, _ := strings.Cut(string(stderr), "\n")
			if _, msg, found := strings.Cut(line, ": "); found {
				if _, rest, found := strings.Cut(msg, ": "); found {
					line = rest
				}
			}
			ours, _, _ := strings.Cut(got, "\n")
			if line != ours {
				t.Errorf("first line differs from spirv-val 2023.1:\nours   %q\ntheirs %q", ours, line)
			}
		})
	}
}

// globMatch reports whether got is want, each "*" in want standing for
// any text.
func globMatch(got, want string) bool {
	parts := strings.Split(want, "*")
	if len(parts) == 1 {
		return got == want
	}
	if !strings.HasPrefix(got, parts[0]) {
		return false
	}
	got = got[len(parts[0]):]
	for _, p := range parts[1 : len(parts)-1] {
		k := strings.Index(got, p)
		if k < 0 {
			return false
		}
		got = got[k+len(p):]
	}
	return strings.HasSuffix(got, parts[len(parts)-1])
}
