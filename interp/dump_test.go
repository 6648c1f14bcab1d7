package interp

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"spvx/amber"
	"spvx/asm"
	"spvx/spirv"
)

// dumpForTest writes p in a canonical text form: every field of the
// Program (the code array, blocks, edges, constants, tables ...) but the
// module it came from. Pointers are followed once and numbered, so two
// compilations of a module dump alike exactly when they built the same
// program. A refactor of the compiler that must not change what it
// builds is checked by comparing dumps from before and after it.
func (p *Program) dumpForTest() string {
	d := &dumper{seen: map[uintptr]int{}}
	v := reflect.ValueOf(p).Elem()
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		if t.Field(i).Name == "m" {
			continue
		}
		d.b.WriteString(t.Field(i).Name + ": ")
		d.value(v.Field(i), 1)
		d.b.WriteByte('\n')
	}
	return d.b.String()
}

type dumper struct {
	b    strings.Builder
	seen map[uintptr]int
}

func (d *dumper) value(v reflect.Value, depth int) {
	switch v.Kind() {
	case reflect.Bool:
		fmt.Fprint(&d.b, v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		fmt.Fprint(&d.b, v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		fmt.Fprint(&d.b, v.Uint())
	case reflect.Float32, reflect.Float64:
		fmt.Fprint(&d.b, v.Float())
	case reflect.String:
		d.b.WriteString(strconv.Quote(v.String()))
	case reflect.Pointer:
		d.pointer(v, depth)
	case reflect.Interface:
		if v.IsNil() {
			d.b.WriteString("nil")
			return
		}
		d.b.WriteString(v.Elem().Type().String() + " ")
		d.value(v.Elem(), depth)
	case reflect.Func, reflect.Chan:
		fmt.Fprintf(&d.b, "%s(nil=%v)", v.Kind(), v.IsNil())
	case reflect.Slice, reflect.Array:
		d.list(v, depth)
	case reflect.Map:
		d.mapValue(v, depth)
	case reflect.Struct:
		d.structValue(v, depth)
	default:
		fmt.Fprintf(&d.b, "?%s", v.Kind())
	}
}

func (d *dumper) pointer(v reflect.Value, depth int) {
	if v.IsNil() {
		d.b.WriteString("nil")
		return
	}
	if n, ok := d.seen[v.Pointer()]; ok {
		fmt.Fprintf(&d.b, "&#%d", n)
		return
	}
	n := len(d.seen)
	d.seen[v.Pointer()] = n
	fmt.Fprintf(&d.b, "#%d&", n)
	d.value(v.Elem(), depth)
}

func (d *dumper) list(v reflect.Value, depth int) {
	if v.Kind() == reflect.Slice && v.IsNil() {
		d.b.WriteString("nil")
		return
	}
	d.b.WriteString("[")
	for i := 0; i < v.Len(); i++ {
		d.b.WriteString("\n" + strings.Repeat(" ", depth) + strconv.Itoa(i) + ": ")
		d.value(v.Index(i), depth+1)
	}
	d.b.WriteString("]")
}

// mapValue writes a map's entries ordered by their dumped keys.
func (d *dumper) mapValue(v reflect.Value, depth int) {
	if v.IsNil() {
		d.b.WriteString("nil")
		return
	}
	type kv struct{ k, v string }
	var es []kv
	for it := v.MapRange(); it.Next(); {
		kd := &dumper{seen: d.seen}
		kd.value(it.Key(), depth+1)
		vd := &dumper{seen: d.seen}
		vd.value(it.Value(), depth+1)
		es = append(es, kv{kd.b.String(), vd.b.String()})
	}
	sort.Slice(es, func(i, j int) bool { return es[i].k < es[j].k })
	d.b.WriteString("map[")
	for _, e := range es {
		d.b.WriteString("\n" + strings.Repeat(" ", depth) + e.k + ": " + e.v)
	}
	d.b.WriteString("]")
}

func (d *dumper) structValue(v reflect.Value, depth int) {
	t := v.Type()
	d.b.WriteString("{")
	for i := 0; i < t.NumField(); i++ {
		if i > 0 {
			d.b.WriteString(" ")
		}
		d.b.WriteString(t.Field(i).Name + ":")
		d.value(v.Field(i), depth+1)
	}
	d.b.WriteString("}")
}

// dumpOptions are the compile options every module is dumped under: the
// test sizes, an odd size, and the options the compiler reads (Strict,
// Trace).
var dumpOptions = []Options{
	{SubgroupSize: 1}, {SubgroupSize: 4}, {SubgroupSize: 7}, {SubgroupSize: 16},
	{SubgroupSize: 32}, {SubgroupSize: 64}, {SubgroupSize: 32, Strict: true},
	{SubgroupSize: 32, Trace: io.Discard},
}

// TestDumpPrograms writes, when SPVX_DUMP_DIR names a folder, the dump of
// every module interp's and amber's tests and testdata compile (inline
// SPIR-V assembly, OpenCL C and GLSL in interp's tests; interp's kernels
// and fuzz seeds; amber's and the shared CTS scripts' shaders; examples),
// each entry point under dumpOptions, compile errors included. Two such
// folders, written before and after a compiler refactor, must be
// identical (diff -r).
func TestDumpPrograms(t *testing.T) {
	dir := os.Getenv("SPVX_DUMP_DIR")
	if dir == "" {
		t.Skip("SPVX_DUMP_DIR not set")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, src := range dumpSources(t) {
		m, err := spirv.Decode(src.bin)
		if err != nil {
			continue
		}
		out := dumpModule(m)
		name := strings.NewReplacer("/", "_", ".", "_", " ", "_").Replace(src.name)
		if err := os.WriteFile(filepath.Join(dir, name+".dump"), []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		n++
	}
	t.Logf("%d modules dumped to %s", n, dir)
}

// dumpModule compiles every GLCompute and Kernel entry point of m under
// every dumpOptions and returns the dumps.
func dumpModule(m *spirv.Module) string {
	var b strings.Builder
	names := []string{""}
	for _, ep := range m.Index().EntryPoints {
		if ep.Model == spirv.ExecutionModelGLCompute || ep.Model == spirv.ExecutionModelKernel {
			names = append(names, ep.Name)
		}
	}
	for _, name := range names {
		for _, o := range dumpOptions {
			fmt.Fprintf(&b, "=== entry %q S=%d strict=%v trace=%v\n", name, o.SubgroupSize, o.Strict, o.Trace != nil)
			p, err := Compile(m, name, o)
			if err != nil {
				fmt.Fprintf(&b, "error: %v\n", err)
				continue
			}
			b.WriteString(p.dumpForTest())
		}
	}
	return b.String()
}

type dumpSource struct {
	name string
	bin  []byte
}

func dumpSources(t *testing.T) []dumpSource {
	var out []dumpSource
	add := func(name string, bin []byte) { out = append(out, dumpSource{name, bin}) }
	addAsm := func(name, src string) {
		if words, err := asm.Assemble([]byte(src), asm.Options{}); err == nil {
			b := make([]byte, 4*len(words))
			for i, w := range words {
				b[4*i], b[4*i+1], b[4*i+2], b[4*i+3] = byte(w), byte(w>>8), byte(w>>16), byte(w>>24)
			}
			add(name, b)
		}
	}
	files, _ := filepath.Glob("*_test.go")
	for _, f := range files {
		for i, lit := range testLiterals(t, f) {
			name := fmt.Sprintf("interp/%s/%d", f, i)
			switch {
			case strings.Contains(lit, "OpMemoryModel"):
				addAsm(name, lit)
			case strings.Contains(lit, "__kernel"):
				if b, err := clBinary(t, lit); err == nil {
					add(name, b)
				}
			case strings.Contains(lit, "#version"):
				if b, err := glslBinary(t, lit); err == nil {
					add(name, b)
				}
			}
		}
	}
	for _, pat := range []string{"testdata/kernels/*.spvasm", "../amber/testdata/*.spvasm", "../amber/testdata/*/*.spvasm", "../examples/*/*.spvasm"} {
		paths, _ := filepath.Glob(pat)
		for _, p := range paths {
			if b, err := os.ReadFile(p); err == nil {
				addAsm(p, string(b))
			}
		}
	}
	for _, pat := range []string{"../examples/*.spv", "../examples/*/*.spv", "../amber/testdata/*.spv"} {
		paths, _ := filepath.Glob(pat)
		for _, p := range paths {
			if b, err := os.ReadFile(p); err == nil {
				add(p, b)
			}
		}
	}
	seeds, _ := filepath.Glob("testdata/fuzz/FuzzRun/*")
	for _, p := range seeds {
		if b, err := os.ReadFile(p); err == nil {
			s := string(b)
			if i, j := strings.Index(s, "[]byte("), strings.LastIndex(s, ")"); i >= 0 && j > i {
				if v, err := strconv.Unquote(s[i+7 : j]); err == nil {
					add(p, []byte(v))
				}
			}
		}
	}
	var scripts []string
	for _, root := range []string{"../amber/testdata", "../../shared/conformance/amber"} {
		filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
			if err == nil && strings.HasSuffix(p, ".amber") {
				scripts = append(scripts, p)
			}
			return nil
		})
	}
	for _, p := range scripts {
		s, err := amber.ParseFile(p)
		if err != nil {
			continue
		}
		for i, sh := range s.Shaders {
			if sh.Stage != "compute" {
				continue
			}
			if b, _, err := amber.CompileShader(context.Background(), sh, p, amber.CompileOptions{}); err == nil {
				add(fmt.Sprintf("%s/%d", strings.TrimPrefix(p, "../"), i), b)
			}
		}
	}
	return out
}

// testLiterals returns the string literals of a Go file.
func testLiterals(t *testing.T, path string) []string {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		if s, ok := stringConst(n); ok {
			out = append(out, s)
			return false
		}
		return true
	})
	return out
}

// stringConst returns the value of a string literal or of a sum of them.
func stringConst(n ast.Node) (string, bool) {
	switch n := n.(type) {
	case *ast.BasicLit:
		if n.Kind == token.STRING {
			s, err := strconv.Unquote(n.Value)
			return s, err == nil
		}
	case *ast.ParenExpr:
		return stringConst(n.X)
	case *ast.BinaryExpr:
		if n.Op == token.ADD {
			x, ok1 := stringConst(n.X)
			y, ok2 := stringConst(n.Y)
			return x + y, ok1 && ok2
		}
	}
	return "", false
}

// clBinary compiles OpenCL C as clModule does, returning an error
// rather than failing the test (not every literal is a whole kernel).
func clBinary(t *testing.T, src string) ([]byte, error) {
	dir := t.TempDir()
	cl, bc, spv := filepath.Join(dir, "k.cl"), filepath.Join(dir, "k.bc"), filepath.Join(dir, "k.spv")
	if err := os.WriteFile(cl, []byte(src), 0o644); err != nil {
		return nil, err
	}
	if err := exec.Command("clang-15", "-cc1", "-triple", "spir64", "-cl-std=CL2.0", "-finclude-default-header",
		"-cl-ext=+cl_khr_subgroups,+cl_intel_subgroups", "-O2", "-ffp-contract=off", "-no-opaque-pointers", "-emit-llvm-bc", "-o", bc, cl).Run(); err != nil {
		return nil, err
	}
	if err := exec.Command("llvm-spirv-15", bc, "-o", spv, "--spirv-ext=+all").Run(); err != nil {
		return nil, err
	}
	return os.ReadFile(spv)
}

// glslBinary compiles a GLSL compute shader as glsl does, returning an
// error rather than failing the test.
func glslBinary(t *testing.T, src string) ([]byte, error) {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "k.comp"), filepath.Join(dir, "k.spv")
	if err := os.WriteFile(in, []byte(src), 0o644); err != nil {
		return nil, err
	}
	if err := exec.Command("glslangValidator", "--target-env", "vulkan1.1", "-o", out, in).Run(); err != nil {
		return nil, err
	}
	return os.ReadFile(out)
}

// TestDumpForTestSeesChanges checks the dump that proves refactors
// harmless: it is the same for two compilations of a module, and it
// changes with the subgroup size and with any operand of any instruction.
func TestDumpForTestSeesChanges(t *testing.T) {
	src, err := os.ReadFile("testdata/kernels/int_arith.spvasm")
	if err != nil {
		t.Fatal(err)
	}
	m := assemble(t, string(src))
	compile := func(S int) *Program {
		p, err := Compile(m, "", Options{SubgroupSize: S})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	a, b := compile(4), compile(4)
	if a.dumpForTest() != b.dumpForTest() {
		t.Fatal("two compilations of one module dump differently")
	}
	if a.dumpForTest() == compile(32).dumpForTest() {
		t.Error("the dump does not show the subgroup size")
	}
	for k := range b.code {
		before := b.dumpForTest()
		b.code[k].aux++
		if b.dumpForTest() == before {
			t.Fatalf("the dump does not show instruction %d's aux", k)
		}
		b.code[k].aux--
	}
}
