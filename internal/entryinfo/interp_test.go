package entryinfo

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"spvx/interp"
	"spvx/spirv"
)

// TestSizesMatchInterp: the bytes shown for a by-value parameter are the
// bytes spvx run's executor expects for it.
func TestSizesMatchInterp(t *testing.T) {
	m := module(t, kernelSrc)
	p, err := interp.Compile(m, "k", interp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	es, err := Describe(m)
	if err != nil {
		t.Fatal(err)
	}
	args := p.Args()
	for i, par := range es[0].Params {
		if par.Pointer != args[i].Pointer || par.Storage != args[i].Storage && par.Pointer {
			t.Errorf("param %d: %+v, interp %+v", i, par, args[i])
		}
		if (par.ByVal || !par.Pointer) && par.Size.Bytes != uint64(args[i].Size) {
			t.Errorf("param %d: %s, interp %d bytes", i, par.Size, args[i].Size)
		}
	}
}

// TestBindingsMatchInterp: over the corpus, for every GLCompute entry
// point the executor compiles, the buffers listed here are buffers it binds
// (it binds every declared one; the list here has only those the entry
// point uses), and mostly all of them.
func TestBindingsMatchInterp(t *testing.T) {
	files, _ := filepath.Glob("../../../shared/corpus/valid/*.spv")
	if len(files) == 0 {
		t.Skip("no corpus")
	}
	compared, same := 0, 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m, err := spirv.Decode(b)
		if err != nil {
			continue
		}
		es, err := Describe(m)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		for _, e := range es {
			if e.Model != spirv.ExecutionModelGLCompute {
				continue
			}
			p, err := interp.Compile(m, e.Name, interp.Options{})
			if err != nil {
				continue
			}
			compared++
			got, want := bufferKeys(e.Bindings), interpKeys(p.Bindings())
			if got == want {
				same++
			}
			for k := range strings.FieldsSeq(got) {
				if !slices.Contains(strings.Fields(want), k) {
					t.Errorf("%s %q: buffers %s, interp %s", f, e.Name, got, want)
				}
			}
		}
	}
	if same < compared*9/10 {
		t.Errorf("%d of %d entry points list the executor's buffers exactly", same, compared)
	}
	t.Logf("%d entry points compared, %d the same", compared, same)
}

func bufferKeys(bs []Binding) string {
	var out []string
	for _, b := range bs {
		if strings.HasSuffix(b.Descriptor, " buffer") && !strings.Contains(b.Descriptor, "texel") {
			out = append(out, fmt.Sprintf("%d:%d", b.Set, b.Binding))
		}
	}
	return strings.Join(out, " ")
}

func interpKeys(bs []interp.Binding) string {
	var out []string
	for _, b := range bs {
		if b.Kind == interp.StorageBuffer || b.Kind == interp.UniformBuffer {
			out = append(out, fmt.Sprintf("%d:%d", b.Set, b.Binding))
		}
	}
	return strings.Join(out, " ")
}
