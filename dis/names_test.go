package dis

import (
	"io"
	"strconv"
	"strings"
	"testing"

	"spvx/spirv"
)

// TestFriendlyNames checks naming rules the corpus does not exercise, on
// small modules built word by word.
func TestFriendlyNames(t *testing.T) {
	b := newBuilder()
	b.op(spirv.OpCapability, uint32(spirv.CapabilityShader))
	b.op(spirv.OpMemoryModel, uint32(spirv.AddressingModelLogical), uint32(spirv.MemoryModelGLSL450))
	ids := make([]uint32, 20)
	for i := range ids {
		ids[i] = b.id()
	}
	// Names first, as in a real module; one OpName comes too late and
	// one built-in is decorated on a named variable.
	b.op(spirv.OpName, ids[10], "a")
	b.op(spirv.OpName, ids[11], "a")
	b.op(spirv.OpName, ids[12], "a_0")
	b.op(spirv.OpName, ids[13], "a")
	b.op(spirv.OpName, ids[14], "x.y[2]")
	b.op(spirv.OpName, ids[15], "16")
	b.op(spirv.OpDecorate, ids[15], uint32(spirv.DecorationBuiltIn), uint32(spirv.BuiltInPosition))
	b.op(spirv.OpDecorate, ids[16], uint32(spirv.DecorationBuiltIn), uint32(spirv.BuiltInBaseVertex))
	b.op(spirv.OpDecorate, ids[17], uint32(spirv.DecorationBuiltIn), uint32(spirv.BuiltInVertexId))
	b.op(spirv.OpTypeInt, ids[0], 7, 1)
	b.op(spirv.OpTypeInt, ids[1], 7, 0)
	b.op(spirv.OpTypeFloat, ids[2], 24)
	b.op(spirv.OpTypeInt, ids[3], 32, 0)
	b.op(spirv.OpTypeVector, ids[4], ids[2], 3)
	b.op(spirv.OpTypeMatrix, ids[5], ids[4], 2)
	b.op(spirv.OpTypeRuntimeArray, ids[6], ids[5])
	b.op(spirv.OpTypePointer, ids[7], uint32(spirv.StorageClassPhysicalStorageBuffer), ids[6])
	b.op(spirv.OpTypeStruct, ids[8], ids[3])
	b.op(spirv.OpTypeUntypedPointerKHR, ids[9], uint32(spirv.StorageClassWorkgroup))
	for _, id := range ids[10:18] {
		b.op(spirv.OpVariable, ids[7], id, uint32(spirv.StorageClassPhysicalStorageBuffer))
	}
	b.op(spirv.OpName, ids[18], "late")
	b.op(spirv.OpVariable, ids[7], ids[18], uint32(spirv.StorageClassPhysicalStorageBuffer))
	b.op(spirv.OpName, ids[18], "later")
	text, err := DisassembleBinary(b.bytes(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"%i7 = OpTypeInt 7 1",
		"%u7 = OpTypeInt 7 0",
		"%fp24 = OpTypeFloat 24",
		"%v3fp24 = OpTypeVector %fp24 3",
		"%mat2v3fp24 = OpTypeMatrix %v3fp24 2",
		"%_runtimearr_mat2v3fp24 = OpTypeRuntimeArray %mat2v3fp24",
		"%_ptr_PhysicalStorageBuffer__runtimearr_mat2v3fp24 = OpTypePointer PhysicalStorageBuffer %_runtimearr_mat2v3fp24",
		"%_struct_9 = OpTypeStruct %uint",
		"%_ptr_Workgroup = OpTypeUntypedPointerKHR Workgroup",
		"          %a = OpVariable",
		"        %a_0 = OpVariable", // the second "a"
		"      %a_0_0 = OpVariable", // "a_0" was taken by then
		"        %a_1 = OpVariable", // resumes after a_0
		"     %x_y_2_ = OpVariable", // sanitized
		"         %16 = OpVariable", // OpName "16" wins over BuiltIn
		"         %17 = OpVariable", // BaseVertex names nothing
		"%gl_VertexID = OpVariable", // VertexId -> gl_VertexID
		"       %late = OpVariable", // the first OpName wins
		"OpName %late \"later\"",
	} {
		if !strings.Contains(string(text), want) {
			t.Errorf("missing %q in\n%s", want, text)
		}
	}
}

func TestHeaderGenerator(t *testing.T) {
	for _, c := range []struct {
		gen  uint32
		want string
	}{
		{0x0008000B, "; Generator: Khronos Glslang Reference Front End; 11\n"},
		{0x00070000, "; Generator: Khronos SPIR-V Tools Assembler; 0\n"},
		{0x00000005, "; Generator: Khronos; 5\n"},
		{0x00060001, "; Generator: Khronos LLVM/SPIR-V Translator; 1\n"},
		{0x001C0000, "; Generator: gfx-rs community Naga; 0\n"},
		{0x00310002, "; Generator: Icyllis Milica Arc3D Shader Compiler; 2\n"},
		{0x0032FFFF, "; Generator: Unknown(50); 65535\n"},
		{0xFFFF0003, "; Generator: Unknown(65535); 3\n"},
	} {
		b := newBuilder()
		b.words[2] = c.gen
		text, err := DisassembleBinary(b.bytes(), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(text), c.want) {
			t.Errorf("generator 0x%08x: got\n%s\nwant %q", c.gen, text, c.want)
		}
	}
}

// longNamesModule has OpName strings and derived type and constant names
// of 255, 256, 257 and 300 bytes, around FriendlyNameMapper's 256-byte
// limit (SPIRV-Tools #6763): a suggestion longer than 256 bytes names the
// id by its number, names derived from it build on that number, and the
// limit applies before sanitizing and before _N suffixes. It returns the
// module and, by id, the name each id must get; chain is the length of the
// exponential chain at its end (as TestLongNames states
// the rule, independently of the golden file).
func longNamesModule(chain int) ([]byte, map[uint32]string) {
	b := newBuilder()
	want := map[uint32]string{}
	b.op(spirv.OpCapability, uint32(spirv.CapabilityShader))
	b.op(spirv.OpCapability, uint32(spirv.CapabilityKernel))
	b.op(spirv.OpMemoryModel, uint32(spirv.AddressingModelLogical), uint32(spirv.MemoryModelGLSL450))
	rep := strings.Repeat
	num := func(id uint32) string { return strconv.FormatUint(uint64(id), 10) }

	// OpName of each length, on variables of one pointer type below.
	var vars []uint32
	named := func(s, name string) uint32 {
		id := b.id()
		b.op(spirv.OpName, id, s)
		want[id] = name
		vars = append(vars, id)
		return id
	}
	named(rep("a", 255), rep("a", 255))
	named(rep("b", 256), rep("b", 256))
	v := named(rep("c", 257), "")
	want[v] = num(v)
	v = named(rep("d", 300), "")
	want[v] = num(v)
	// Sanitized, still 256 bytes; the same again gets a suffix past 256.
	named("x."+rep("e", 254), "x_"+rep("e", 254))
	named("x."+rep("e", 254), "x_"+rep("e", 254)+"_0")
	// Over the limit, and the number is taken by an earlier OpName: the
	// number gets the suffix, as in SPIRV-Tools' own tests ("2_0").
	taken := b.id()
	over := b.id()
	b.op(spirv.OpName, taken, num(over))
	b.op(spirv.OpName, over, rep("f", 257))
	want[taken], want[over] = num(over), num(over)+"_0"
	vars = append(vars, taken, over)
	// Multi-byte UTF-8 counts in bytes: 128 two-byte runes are 256 bytes,
	// 129 are 258.
	named(rep("é", 128), rep("_", 256))
	v = named(rep("é", 129), "")
	want[v] = num(v)

	// Types named by OpName at the limit and past it, and the names
	// derived from them: _ptr_Function_ is 14 bytes, v4 2, a constant
	// adds "_" and its value.
	uintT := b.id()
	b.op(spirv.OpTypeInt, uintT, 32, 0)
	want[uintT] = "uint"
	for _, n := range []int{241, 242, 243, 286, 300} {
		st := b.id()
		stName := rep("s", n)
		b.op(spirv.OpName, st, stName)
		b.op(spirv.OpTypeStruct, st, uintT)
		if n > 256 {
			stName = num(st)
		}
		want[st] = stName
		ptr := b.id()
		b.op(spirv.OpTypePointer, ptr, uint32(spirv.StorageClassFunction), st)
		if s := "_ptr_Function_" + stName; len(s) <= 256 {
			want[ptr] = s
		} else {
			want[ptr] = num(ptr)
		}
		arr := b.id()
		b.op(spirv.OpTypeRuntimeArray, arr, ptr)
		if s := "_runtimearr_" + want[ptr]; len(s) <= 256 {
			want[arr] = s
		} else {
			want[arr] = num(arr)
		}
	}
	// Scalar types named at 253..300 bytes and a constant of each:
	// "NAME_7" is 255, 256, 257 and 300 bytes.
	for _, n := range []int{253, 254, 255, 298, 257} {
		ty := b.id()
		tyName := rep("i", n)
		b.op(spirv.OpName, ty, tyName)
		b.op(spirv.OpTypeInt, ty, 16, 0)
		if n > 256 {
			tyName = num(ty)
		}
		want[ty] = tyName
		c := b.id()
		b.op(spirv.OpConstant, ty, c, 7)
		if s := tyName + "_7"; len(s) <= 256 {
			want[c] = s
		} else {
			want[c] = num(c)
		}
		vec := b.id()
		b.op(spirv.OpTypeVector, vec, ty, 4)
		if s := "v4" + tyName; len(s) <= 256 {
			want[vec] = s
		} else {
			want[vec] = num(vec)
		}
	}
	// OpTypeOpaque: "Opaque_" and the string, 256 and 257 bytes.
	for _, n := range []int{249, 250} {
		op := b.id()
		b.op(spirv.OpTypeOpaque, op, rep("o", n))
		if n+7 <= 256 {
			want[op] = "Opaque_" + rep("o", n)
		} else {
			want[op] = num(op)
		}
	}
	// The exponential chain %aN = OpTypeArray %aN-1 %aN-1: each name
	// doubles until one passes 256 bytes and the chain restarts from a
	// number.
	prev := uintT
	for range chain {
		a := b.id()
		b.op(spirv.OpTypeArray, a, prev, prev)
		if s := "_arr_" + want[prev] + "_" + want[prev]; len(s) <= 256 {
			want[a] = s
		} else {
			want[a] = num(a)
		}
		prev = a
	}
	// The variables that carry the OpNames above.
	fptr := b.id()
	b.op(spirv.OpTypePointer, fptr, uint32(spirv.StorageClassPrivate), uintT)
	want[fptr] = "_ptr_Private_uint"
	for _, v := range vars {
		b.op(spirv.OpVariable, fptr, v, uint32(spirv.StorageClassPrivate))
	}
	return b.bytes(), want
}

// TestLongNames checks every name of longNamesModule against the rule.
func TestLongNames(t *testing.T) {
	bin, want := longNamesModule(40)
	m, err := spirv.Decode(bin)
	if err != nil {
		t.Fatal(err)
	}
	nm := computeNames(m, m.Size(), false)
	lengths := map[int]bool{}
	for id, w := range want {
		if got := string(nm.appendName(nil, id)); got != w {
			t.Errorf("id %d: name %q (%d bytes), want %q (%d bytes)", id, got, len(got), w, len(w))
		}
		lengths[len(w)] = true
	}
	for _, n := range []int{255, 256, 258} {
		if !lengths[n] {
			t.Errorf("no name of %d bytes: the module no longer tests the limit", n)
		}
	}
}

// TestExponentialNames is the regression test for names that double at
// each step: before the 256-byte limit, 60 steps would have needed 2^60
// bytes; now the module prints in a blink.
func TestExponentialNames(t *testing.T) {
	b := newBuilder()
	b.op(spirv.OpCapability, uint32(spirv.CapabilityShader))
	b.op(spirv.OpMemoryModel, uint32(spirv.AddressingModelLogical), uint32(spirv.MemoryModelGLSL450))
	prev := b.id()
	b.op(spirv.OpTypeInt, prev, 32, 0)
	for range 60 {
		a := b.id()
		b.op(spirv.OpTypeArray, a, prev, prev)
		prev = a
	}
	text, err := DisassembleBinary(b.bytes(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(text) > 64<<10 {
		t.Errorf("%d bytes of text", len(text))
	}
	// uint (id 1), then 14, 34, 74 and 154 bytes; the 314-byte
	// suggestion for id 6 falls back to "6".
	for _, line := range []string{
		"%_arr__arr__arr__arr_uint_uint__arr_uint_uint__arr__arr_uint_uint__arr_uint_uint__arr__arr__arr_uint_uint__arr_uint_uint__arr__arr_uint_uint__arr_uint_uint = OpTypeArray",
		"          %6 = OpTypeArray",
		"   %_arr_6_6 = OpTypeArray %6 %6\n",
	} {
		if !strings.Contains(string(text), line) {
			t.Errorf("missing %q", line)
		}
	}
}

// fnv1a is the unseeded hash the name set used before it was seeded.
func fnv1a(s []byte) uint32 {
	h := uint32(2166136261)
	for _, c := range s {
		h = (h ^ uint32(c)) * 16777619
	}
	return h
}

// fnvCollidingNames returns n distinct identifiers whose FNV-1a hashes
// agree in their low k bits, the bits an open-addressing table of 2^k
// slots indexes by: such names all land in one cluster of an unseeded
// table, and each insertion probes all the earlier ones. (Multiplication
// and xor modulo 2^k see only the low k bits, so the last three bytes of a
// name can be solved backwards from the target; prefixes whose state has
// no such suffix are skipped.)
func fnvCollidingNames(n, k int) [][]byte {
	mask := uint32(1)<<k - 1
	inv := uint32(16777619) // the FNV prime's inverse modulo 2^32, by Newton's method
	for range 5 {
		inv *= 2 - 16777619*inv
	}
	const ident = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"
	// suffix[s] packs three bytes that take a state s (mod 2^k) to 0.
	suffix := make([]uint32, 1<<k)
	for _, c3 := range []byte(ident) {
		s2 := uint32(c3) // (0 * inv) ^ c3
		for _, c2 := range []byte(ident) {
			s1 := (s2 * inv) ^ uint32(c2)
			for _, c1 := range []byte(ident) {
				s0 := (s1 * inv) ^ uint32(c1)
				suffix[s0&mask] = uint32(c1) | uint32(c2)<<8 | uint32(c3)<<16
			}
		}
	}
	// "n", the prefix number in base 36 and "z": prefixes of different
	// numbers never end alike, so the names are distinct.
	names := make([][]byte, 0, n)
	for i := 0; len(names) < n; i++ {
		s := append(strconv.AppendUint([]byte("n"), uint64(i), 36), 'z')
		if suf := suffix[fnv1a(s)&mask]; suf != 0 {
			names = append(names, append(s, byte(suf), byte(suf>>8), byte(suf>>16)))
		}
	}
	return names
}

// saveAll names ids 1..len(names) by names, as OpNames would.
func saveAll(names [][]byte) *namer {
	nm := newNamer(uint32(len(names)+1), 4*len(names), false)
	buf := make([]byte, 0, 64)
	for i, s := range names {
		nm.save(uint32(i+1), append(buf[:0], s...))
	}
	return nm
}

// TestCollidingNames is the regression test for the name set's worst
// case: 400k names whose FNV-1a hashes agree in their low 20 bits, one
// cluster of the old, unseeded table (2^20 slots at this size). The old
// set took 2.0 s for 20k such names and 12.5 s for 40k: about 20 minutes
// for these. With the seeded hash the names spread, and saving them takes
// milliseconds per ten thousand.
func TestCollidingNames(t *testing.T) {
	n := 400_000
	names := fnvCollidingNames(n, 20)
	for _, s := range names[:100] {
		if fnv1a(s)&(1<<20-1) != 0 {
			t.Fatalf("%q does not collide", s)
		}
	}
	nm := saveAll(names)
	for _, i := range []int{0, 1, n / 2, n - 1} {
		if got := string(nm.appendName(nil, uint32(i+1))); got != string(names[i]) {
			t.Errorf("id %d named %q, want %q", i+1, got, names[i])
		}
	}
	// And a name taken by all of them at once still finds its suffix.
	nm.save(uint32(n+1), append([]byte(nil), names[7]...))
	if got := string(nm.appendName(nil, uint32(n+1))); got != string(names[7])+"_0" {
		t.Errorf("duplicate named %q", got)
	}
}

// BenchmarkCollidingNames saves FNV-colliding names at two sizes: time
// per op grows linearly with their number.
func BenchmarkCollidingNames(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		names := fnvCollidingNames(n, 21)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				saveAll(names)
			}
		})
	}
}

// BenchmarkExponentialNames prints the doubling chain of
// TestExponentialNames at two lengths: linear in the chain's length.
func BenchmarkExponentialNames(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		bld := newBuilder()
		prev := bld.id()
		bld.op(spirv.OpTypeInt, prev, 32, 0)
		for range n {
			a := bld.id()
			bld.op(spirv.OpTypeArray, a, prev, prev)
			prev = a
		}
		bin := bld.bytes()
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(len(bin)))
			b.ReportAllocs()
			for b.Loop() {
				if err := FprintBinary(io.Discard, bin, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestEnumName(t *testing.T) {
	for _, c := range []struct {
		k    spirv.OperandKind
		v    uint32
		want string
	}{
		{spirv.OperandKindStorageClass, uint32(spirv.StorageClassFunction), "Function"},
		{spirv.OperandKindStorageClass, uint32(spirv.StorageClassPhysicalStorageBuffer), "PhysicalStorageBuffer"},
		{spirv.OperandKindAccessQualifier, uint32(spirv.AccessQualifierReadWrite), "ReadWrite"},
		{spirv.OperandKindCapability, uint32(spirv.CapabilityFloat4EXT), "Float4EXT"},
		{spirv.OperandKindStorageClass, 4242, "StorageClass4242"},
		{spirv.OperandKindAccessQualifier, 7, "StorageClass7"}, // SPIRV-Tools' one fallback, whatever the kind
		{spirv.OperandKindCapability, 99999, "StorageClass99999"},
	} {
		if got := EnumName(c.k, c.v); got != c.want {
			t.Errorf("EnumName(%v, %d) = %q, want %q", c.k, c.v, got, c.want)
		}
	}
}
