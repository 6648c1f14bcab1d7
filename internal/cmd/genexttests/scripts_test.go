package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"spvx/asm"
)

const scriptDir = "../../../amber/testdata/ext"

// TestGolden regenerates every script and compares it with the committed
// file; run go generate ./internal/cmd/genexttests after changing the
// generator or spvx/mx or spvx/subgroup.
func TestGolden(t *testing.T) {
	files, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range sortedNames(files) {
		got, err := os.ReadFile(filepath.Join(scriptDir, name))
		if err != nil {
			t.Errorf("%s: %v (run go generate ./internal/cmd/genexttests)", name, err)
			continue
		}
		if !bytes.Equal(got, files[name]) {
			t.Errorf("%s is stale: run go generate ./internal/cmd/genexttests", name)
		}
	}
	on, err := filepath.Glob(filepath.Join(scriptDir, "*.amber"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range on {
		if _, ok := files[filepath.Base(f)]; !ok {
			t.Errorf("%s is not generated any more: run go generate ./internal/cmd/genexttests", f)
		}
	}
	if len(files) == 0 {
		t.Fatal("no scripts generated")
	}
}

// TestDeterministic: two runs of the generator give the same bytes.
func TestDeterministic(t *testing.T) {
	a, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	b, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	for name := range a {
		if !bytes.Equal(a[name], b[name]) {
			t.Errorf("%s differs between two runs", name)
		}
	}
}

// TestWrite checks that the command writes exactly Generate's output and
// removes stale scripts.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	stale := filepath.Join(dir, "stale.amber")
	if err := os.WriteFile(stale, []byte("#!amber\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := write(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("stale script not removed: %v", err)
	}
	files, _ := Generate()
	got, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(got) != len(files) {
		t.Errorf("wrote %d scripts, want %d", len(got), len(files))
	}
}

// parsed is what the tests need to know about one script.
type parsed struct {
	shaders   map[string]shaderBlock
	buffers   map[string]bufferDecl
	pipelines map[string]bool
	expects   []expectLine
}

type shaderBlock struct {
	name, targetEnv, text string
	line                  int
}

type bufferDecl struct {
	typ    string
	values []uint64 // DATA buffers
	size   int      // elements
}

type expectLine struct {
	buf    string
	offset int
	values []uint64
	line   int
}

var amberTypeBytes = map[string]int{"uint8": 1, "uint16": 2, "uint32": 4, "uint64": 8, "int32": 4}

// parseScript reads the subset of AmberScript the generator writes, strictly:
// anything else is an error, so a generator change that writes something new
// must teach this reader too.
func parseScript(name string, b []byte) (*parsed, error) {
	p := &parsed{shaders: map[string]shaderBlock{}, buffers: map[string]bufferDecl{}, pipelines: map[string]bool{}}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	ln := 0
	next := func() (string, bool) {
		if !sc.Scan() {
			return "", false
		}
		ln++
		return sc.Text(), true
	}
	errf := func(format string, a ...any) error {
		return fmt.Errorf("%s:%d: %s", name, ln, fmt.Sprintf(format, a...))
	}
	first, _ := next()
	if first != "#!amber" {
		return nil, errf("does not start with #!amber")
	}
	var boundAll []string
	for {
		l, ok := next()
		if !ok {
			break
		}
		f := strings.Fields(l)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		switch f[0] {
		case "DEVICE_FEATURE", "DEVICE_EXTENSION":
			if len(f) != 2 {
				return nil, errf("bad %s", f[0])
			}
		case "SHADER":
			if len(f) != 6 || f[1] != "compute" || f[3] != "SPIRV-ASM" || f[4] != "TARGET_ENV" {
				return nil, errf("bad SHADER line %q", l)
			}
			sb := shaderBlock{name: f[2], targetEnv: f[5], line: ln + 1}
			var text strings.Builder
			for {
				l, ok := next()
				if !ok {
					return nil, errf("shader %s has no END", f[2])
				}
				if l == "END" {
					break
				}
				text.WriteString(l + "\n")
			}
			sb.text = text.String()
			if _, dup := p.shaders[sb.name]; dup {
				return nil, errf("shader %s declared twice", sb.name)
			}
			p.shaders[sb.name] = sb
		case "BUFFER":
			if len(f) < 5 || f[2] != "DATA_TYPE" || amberTypeBytes[f[3]] == 0 {
				return nil, errf("bad BUFFER line %q", l)
			}
			if _, dup := p.buffers[f[1]]; dup {
				return nil, errf("buffer %s declared twice", f[1])
			}
			d := bufferDecl{typ: f[3]}
			switch {
			case len(f) == 5 && f[4] == "DATA":
				for {
					l, ok := next()
					if !ok {
						return nil, errf("buffer %s has no END", f[1])
					}
					if l == "END" {
						break
					}
					vs, err := parseUints(l, amberTypeBytes[d.typ])
					if err != nil {
						return nil, errf("%v", err)
					}
					d.values = append(d.values, vs...)
				}
				d.size = len(d.values)
			case len(f) == 8 && f[4] == "SIZE" && f[6] == "FILL" && f[7] == "0":
				n, err := strconv.Atoi(f[5])
				if err != nil || n <= 0 {
					return nil, errf("bad SIZE %q", f[5])
				}
				d.size = n
			default:
				return nil, errf("bad BUFFER line %q", l)
			}
			p.buffers[f[1]] = d
		case "PIPELINE":
			if len(f) != 3 || f[1] != "compute" {
				return nil, errf("bad PIPELINE line %q", l)
			}
			pname := f[2]
			attached := ""
			binding := 0
			for {
				l, ok := next()
				if !ok {
					return nil, errf("pipeline %s has no END", pname)
				}
				g := strings.Fields(l)
				if len(g) == 1 && g[0] == "END" {
					break
				}
				switch {
				case len(g) >= 2 && g[0] == "ATTACH":
					attached = g[1]
					if _, ok := p.shaders[attached]; !ok {
						return nil, errf("ATTACH of undeclared shader %s", attached)
					}
					rest := g[2:]
					for len(rest) > 0 {
						if len(rest) < 5 || rest[0] != "SPECIALIZE" || rest[2] != "AS" || rest[3] != "uint32" {
							return nil, errf("bad ATTACH %q", l)
						}
						rest = rest[5:]
					}
				case len(g) == 2 && g[0] == "SUBGROUP":
					if g[1] != attached {
						return nil, errf("SUBGROUP %s is not the attached shader", g[1])
					}
					full := "FULLY_POPULATED on"
					if strings.Contains(name, ".expect_fail.") {
						full = "FULLY_POPULATED" // on or off
					}
					want := []string{full, "REQUIRED_SIZE", "END"}
					for _, w := range want {
						l, _ := next()
						if !strings.HasPrefix(strings.TrimSpace(l), w) {
							return nil, errf("SUBGROUP block: got %q, want %q", l, w)
						}
					}
				case len(g) == 9 && g[0] == "BIND" && g[1] == "BUFFER" && g[3] == "AS" && g[4] == "storage" && g[5] == "DESCRIPTOR_SET" && g[6] == "0" && g[7] == "BINDING":
					if _, ok := p.buffers[g[2]]; !ok {
						return nil, errf("BIND of undeclared buffer %s", g[2])
					}
					if g[8] != strconv.Itoa(binding) {
						return nil, errf("binding %s out of order", g[8])
					}
					binding++
					boundAll = append(boundAll, g[2])
				default:
					return nil, errf("bad pipeline line %q", l)
				}
			}
			if attached == "" {
				return nil, errf("pipeline %s attaches no shader", pname)
			}
			p.pipelines[pname] = true
		case "RUN":
			if len(f) != 5 || !p.pipelines[f[1]] || f[3] != "1" || f[4] != "1" {
				return nil, errf("bad RUN line %q", l)
			}
		case "EXPECT":
			if len(f) < 6 || f[2] != "IDX" || f[4] != "EQ" {
				return nil, errf("bad EXPECT line %q", l)
			}
			d, ok := p.buffers[f[1]]
			if !ok {
				return nil, errf("EXPECT on undeclared buffer %s", f[1])
			}
			off, err := strconv.Atoi(f[3])
			if err != nil {
				return nil, errf("bad IDX %q", f[3])
			}
			vs, err := parseUints(strings.Join(f[5:], " "), amberTypeBytes[d.typ])
			if err != nil {
				return nil, errf("%v", err)
			}
			eb := amberTypeBytes[d.typ]
			if off%eb != 0 || off/eb+len(vs) > d.size {
				return nil, errf("EXPECT %s IDX %d with %d values is outside the buffer (%d elements)", f[1], off, len(vs), d.size)
			}
			p.expects = append(p.expects, expectLine{f[1], off, vs, ln})
		default:
			return nil, errf("unexpected line %q", l)
		}
	}
	if fail := strings.Contains(name, ".expect_fail."); fail != (len(p.expects) == 0) {
		return nil, fmt.Errorf("%s: %d EXPECTs (an expect-fail script has none, every other one some)", name, len(p.expects))
	}
	return p, nil
}

func parseUints(l string, size int) ([]uint64, error) {
	var out []uint64
	for _, t := range strings.Fields(l) {
		v, err := strconv.ParseUint(t, 10, 8*size)
		if err != nil {
			return nil, fmt.Errorf("value %q does not fit %d bytes", t, size)
		}
		out = append(out, v)
	}
	return out, nil
}

func generated(t *testing.T) map[string]*parsed {
	t.Helper()
	files, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*parsed{}
	for _, name := range sortedNames(files) {
		if !strings.HasSuffix(name, ".amber") {
			continue
		}
		p, err := parseScript(name, files[name])
		if err != nil {
			t.Error(err)
			continue
		}
		out[name] = p
	}
	return out
}

// TestScriptsWellFormed reads every script with a strict reader of the
// AmberScript subset the generator writes.
func TestScriptsWellFormed(t *testing.T) {
	if len(generated(t)) == 0 {
		t.Fatal("no scripts")
	}
}

// TestShadersAssemble assembles every SHADER block with spvx's assembler at
// the script's TARGET_ENV.
func TestShadersAssemble(t *testing.T) {
	n := 0
	for name, p := range generated(t) {
		for _, sh := range p.shaders {
			if _, err := asm.Assemble([]byte(sh.text), asm.Options{TargetEnv: sh.targetEnv, File: fmt.Sprintf("%s:%s", name, sh.name)}); err != nil {
				t.Errorf("%s shader %s (line %d): %v", name, sh.name, sh.line, err)
			}
			n++
		}
	}
	t.Logf("%d shaders assembled", n)
}
