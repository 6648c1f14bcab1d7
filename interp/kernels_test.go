package interp

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"spvx/asm"
	"spvx/spirv"
)

// The kernel corpus (testdata/kernels): one kernel per instruction family,
// as SPIR-V assembly, with its input buffers and the expected outputs,
// which testdata/kernels/gen.py computes in Python, independently of spvx
// (per subgroup size where the result depends on it). Every kernel runs at
// every test subgroup size with wide groups, with the subgroups apart, and
// shuffled on two goroutines.

// kernelFile is a parsed NAME.expect.
type kernelFile struct {
	groups int
	in     map[BindingKey][]uint32
	out    map[BindingKey]int
	expect map[BindingKey]map[int][]string // subgroup size (0: every size) -> words ("nan": any NaN)
}

// section is a header line and the words after it.
type section struct {
	line  int
	head  []string
	words []string
}

func parseBinding(s string) (BindingKey, error) {
	a, b, ok := strings.Cut(s, ":")
	set, err1 := strconv.Atoi(a)
	bind, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil {
		return BindingKey{}, fmt.Errorf("bad binding %q", s)
	}
	return BindingKey{uint32(set), uint32(bind)}, nil
}

func readExpect(path string) (*kernelFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var secs []section
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		fs := strings.Fields(sc.Text())
		switch {
		case len(fs) == 0 || strings.HasPrefix(fs[0], "#"):
		case fs[0] == "groups" || fs[0] == "in" || fs[0] == "out" || fs[0] == "expect":
			secs = append(secs, section{line: line, head: fs})
		case len(secs) == 0:
			return nil, fmt.Errorf("%s:%d: words before a header", path, line)
		default:
			secs[len(secs)-1].words = append(secs[len(secs)-1].words, fs...)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	k := &kernelFile{in: map[BindingKey][]uint32{}, out: map[BindingKey]int{}, expect: map[BindingKey]map[int][]string{}}
	for _, s := range secs {
		bad := func(err error) error { return fmt.Errorf("%s:%d: %v", path, s.line, err) }
		if s.head[0] == "groups" {
			if k.groups, err = strconv.Atoi(s.head[1]); err != nil {
				return nil, bad(err)
			}
			continue
		}
		if len(s.head) < 3 {
			return nil, bad(fmt.Errorf("short header"))
		}
		key, err := parseBinding(s.head[1])
		if err != nil {
			return nil, bad(err)
		}
		n, err := strconv.Atoi(s.head[2])
		if err != nil {
			return nil, bad(err)
		}
		if s.head[0] != "out" && len(s.words) != n {
			return nil, bad(fmt.Errorf("%d words, the header says %d", len(s.words), n))
		}
		switch s.head[0] {
		case "out":
			k.out[key] = n
		case "in":
			for _, w := range s.words {
				v, err := strconv.ParseUint(w, 16, 32)
				if err != nil {
					return nil, bad(err)
				}
				k.in[key] = append(k.in[key], uint32(v))
			}
		case "expect":
			size := 0
			if len(s.head) == 5 && s.head[3] == "subgroup" {
				if size, err = strconv.Atoi(s.head[4]); err != nil {
					return nil, bad(err)
				}
			}
			if k.expect[key] == nil {
				k.expect[key] = map[int][]string{}
			}
			k.expect[key][size] = s.words
		}
	}
	return k, nil
}

func TestKernelCorpus(t *testing.T) {
	files, err := filepath.Glob("testdata/kernels/*.spvasm")
	if err != nil || len(files) < 10 {
		t.Fatalf("kernel corpus: %d files, %v", len(files), err)
	}
	scheds := []schedule{
		{"wide", Options{Parallelism: 1}},
		{"separate", Options{Parallelism: 1, SeparateSubgroups: true}},
		{"shuffled", Options{Parallelism: 2, Shuffle: true, Seed: 7}},
	}
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".spvasm")
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		kf, err := readExpect(strings.TrimSuffix(path, ".spvasm") + ".expect")
		if err != nil {
			t.Fatal(err)
		}
		m := assemble(t, string(src))
		for _, S := range testSizes {
			for _, sc := range scheds {
				opts := sc.opts
				opts.SubgroupSize = S
				t.Run(fmt.Sprintf("%s/%s/%d", name, sc.name, S), func(t *testing.T) {
					bufs := map[BindingKey][]byte{}
					for key, words := range kf.in {
						bufs[key] = u32s(words...)
					}
					for key, n := range kf.out {
						bufs[key] = make([]byte, 4*n)
					}
					if err := run(t, m, opts, [3]uint32{uint32(kf.groups), 1, 1}, bufs, nil); err != nil {
						t.Fatal(err)
					}
					for key, bySize := range kf.expect {
						want, ok := bySize[S]
						if !ok {
							want = bySize[0]
						}
						if want == nil {
							t.Fatalf("%v: no expectation for subgroup size %d", key, S)
						}
						got := bufs[key]
						for i, w := range want {
							g := getU32(got, i)
							if w == "nan" {
								if !math.IsNaN(float64(math.Float32frombits(g))) {
									t.Errorf("%v word %d = %#08x, want a NaN", key, i, g)
								}
								continue
							}
							if v, _ := strconv.ParseUint(w, 16, 32); uint32(v) != g {
								t.Errorf("%v word %d = %#08x, want %#08x", key, i, g, v)
							}
						}
					}
				})
			}
		}
	}
}

// The corpus's assembly is what its GLSL source compiles to (gen.py was
// run after the last change): glslangValidator -Od, as gen.py runs it,
// gives the same words as assembling the stored .spvasm.
func TestKernelCorpusUpToDate(t *testing.T) {
	tool, err := exec.LookPath("glslangValidator")
	if err != nil {
		t.Skip("glslangValidator not found: cannot check the kernel corpus against its sources")
	}
	files, _ := filepath.Glob("testdata/kernels/*.comp")
	if len(files) == 0 {
		t.Fatal("no kernel sources")
	}
	for _, comp := range files {
		out := filepath.Join(t.TempDir(), "k.spv")
		if b, err := exec.Command(tool, "-V", "--target-env", "vulkan1.1", "-Od", "-o", out, comp).CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", comp, err, b)
		}
		compiled := readModule(t, out)
		src, err := os.ReadFile(strings.TrimSuffix(comp, ".comp") + ".spvasm")
		if err != nil {
			t.Fatal(err)
		}
		words, err := asm.Assemble(src, asm.Options{PreserveNumericIDs: true})
		if err != nil {
			t.Fatal(err)
		}
		stored, err := spirv.DecodeWords(words)
		if err != nil {
			t.Fatal(err)
		}
		// the header's generator word is the assembler's, not glslang's
		a, b := slices.Clone(compiled.Words()), slices.Clone(stored.Words())
		if len(a) > 2 && len(b) > 2 {
			a[2], b[2] = 0, 0
		}
		if !slices.Equal(a, b) {
			t.Errorf("%s: the stored .spvasm is not what the source compiles to: run python3 gen.py in testdata/kernels", comp)
		}
	}
}
