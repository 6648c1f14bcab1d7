package interp

import (
	"context"
	"encoding/binary"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"spvx/asm"
	"spvx/spirv"
)

// sizes and schedules every kernel test runs with.
var testSizes = []int{1, 4, 16, 32, 64}

type schedule struct {
	name string
	opts Options
}

var schedules = []schedule{
	{"serial", Options{Parallelism: 1}},
	{"shuffled", Options{Parallelism: 2, Shuffle: true, Seed: 7}},
}

func assemble(t testing.TB, src string) *spirv.Module {
	t.Helper()
	words, err := asm.Assemble([]byte(src), asm.Options{})
	if err != nil {
		t.Fatalf("assemble: %v", err)
	}
	b := make([]byte, 4*len(words))
	for i, w := range words {
		binary.LittleEndian.PutUint32(b[4*i:], w)
	}
	m, err := spirv.Decode(b)
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	return m
}

// glsl compiles a GLSL compute shader with glslangValidator, or skips.
func glsl(t testing.TB, src string, env string) *spirv.Module {
	t.Helper()
	tool, err := exec.LookPath("glslangValidator")
	if err != nil {
		t.Skip("glslangValidator not found: skipping the GLSL test")
	}
	if env == "" {
		env = "vulkan1.1"
	}
	dir := t.TempDir()
	in, out := filepath.Join(dir, "k.comp"), filepath.Join(dir, "k.spv")
	if err := os.WriteFile(in, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := exec.Command(tool, "--target-env", env, "-o", out, in).CombinedOutput(); err != nil {
		t.Fatalf("glslangValidator: %v\n%s", err, b)
	}
	return readModule(t, out)
}

func readModule(t testing.TB, path string) *spirv.Module {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := spirv.Decode(b)
	if err != nil {
		t.Fatalf("decode %s: %v", path, err)
	}
	return m
}

func u32s(v ...uint32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], x)
	}
	return b
}

func f32s(v ...float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

func getU32(b []byte, i int) uint32  { return binary.LittleEndian.Uint32(b[4*i:]) }
func getF32(b []byte, i int) float32 { return math.Float32frombits(getU32(b, i)) }

func run(t testing.TB, m *spirv.Module, opts Options, groups [3]uint32, bufs map[BindingKey][]byte, push []byte) error {
	t.Helper()
	p, err := Compile(m, "", opts)
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	res := &Resources{Buffers: map[BindingKey][]*Buffer{}, PushConstants: push}
	for k, b := range bufs {
		res.Buffers[k] = []*Buffer{{Data: b}}
	}
	return p.Dispatch(context.Background(), groups[0], groups[1], groups[2], res)
}

// forEach runs f for every subgroup size and schedule.
func forEach(t *testing.T, f func(t *testing.T, opts Options)) {
	for _, s := range testSizes {
		for _, sc := range schedules {
			o := sc.opts
			o.SubgroupSize = s
			t.Run(sc.name+"/"+itoa(s), func(t *testing.T) { f(t, o) })
		}
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	s := ""
	for n > 0 {
		s = string(rune('0'+n%10)) + s
		n /= 10
	}
	return s
}
