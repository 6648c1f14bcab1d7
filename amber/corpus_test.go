package amber

import (
	"context"
	"os"
	"runtime"
	"sync"

	"path/filepath"
	"sort"
	"spvx/spirv"
	"strings"
	"testing"
)

// sharedDir is the shared read-only folder of the checkout, or "" (tests
// skip with a message where it is absent).
func sharedDir(t testing.TB) string {
	d := filepath.Join("..", "..", "shared", "conformance", "amber")
	if _, err := os.Stat(d); err != nil {
		t.Skipf("shared conformance corpus absent (%v)", err)
	}
	return d
}

// corpusScripts lists the .amber scripts under the shared folder.
func corpusScripts(t testing.TB) []string {
	d := sharedDir(t)
	var out []string
	filepath.WalkDir(d, func(p string, e os.DirEntry, err error) error {
		if err == nil && !e.IsDir() && strings.HasSuffix(p, ".amber") {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

func TestParseCorpus(t *testing.T) {
	files := corpusScripts(t)
	if len(files) != 317 {
		t.Errorf("found %d scripts, want 317", len(files))
	}
	syn := map[Syntax]int{}
	for _, f := range files {
		s, err := ParseFile(f)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		syn[s.Syntax]++
	}
	if syn[AmberScript] != 244 || syn[VkScript] != 73 {
		t.Errorf("syntaxes %v, want 244 AmberScript and 73 VkScript", syn)
	}
}

// TestCompileCorpus compiles every shader of the shared scripts: SPIR-V
// assembly through asm at the script's environment (with the CTS folder
// rules), GLSL through glslangValidator, and checks each decodes.
func TestCompileCorpus(t *testing.T) {
	files := corpusScripts(t)
	type job struct {
		path string
		sh   *Shader
	}
	var jobs []job
	for _, f := range files {
		s, err := ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, sh := range s.Shaders {
			jobs = append(jobs, job{f, sh})
		}
	}
	_, glslErr := GlslangPath()
	var mu sync.Mutex
	counts := map[ShaderFormat]int{}
	var wg sync.WaitGroup
	ch := make(chan job)
	for w := 0; w < runtime.GOMAXPROCS(0)*2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range ch {
				if (j.sh.Format == FormatGLSL) && (glslErr != nil || testing.Short()) {
					continue
				}
				bin, _, err := CompileShader(context.Background(), j.sh, j.path, CompileOptions{})
				if err == nil {
					_, err = spirv.Decode(bin)
				}
				mu.Lock()
				if err != nil {
					t.Errorf("%s: %v", j.path, err)
				} else {
					counts[j.sh.Format]++
				}
				mu.Unlock()
			}
		}()
	}
	for _, j := range jobs {
		ch <- j
	}
	close(ch)
	wg.Wait()
	t.Logf("compiled: %d SPIRV-ASM, %d GLSL, %d SPIRV-BIN", counts[FormatSPIRVAsm], counts[FormatGLSL], counts[FormatSPIRVBin])
	if counts[FormatSPIRVAsm] != 146 || counts[FormatSPIRVBin] != 1 {
		t.Errorf("want 146 SPIRV-ASM and 1 SPIRV-BIN shaders")
	}
	if glslErr != nil {
		t.Logf("GLSL shaders not compiled: %v", glslErr)
	} else if !testing.Short() && counts[FormatGLSL] != 289 {
		t.Errorf("want 289 GLSL shaders compiled")
	}
}
