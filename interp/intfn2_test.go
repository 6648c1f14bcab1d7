package interp

import (
	"encoding/binary"
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"

	"spvx/internal/extinst"
	"spvx/spirv"
)

// intFn2Ref computes an SPV_INTEL_shader_integer_functions2 operation on
// w-bit operands in exact arithmetic, from the extension's text: the I
// forms read x and y as signed, the U forms as unsigned; "clamped to the
// range of Result Type" is the signed range for the I forms.
func intFn2Ref(opc spirv.Opcode, x, y uint64, w uint8) uint64 {
	mod := new(big.Int).Lsh(big.NewInt(1), uint(w))
	sgn := func(v uint64) *big.Int {
		b := new(big.Int).SetUint64(v)
		if v>>(w-1)&1 == 1 {
			b.Sub(b, mod)
		}
		return b
	}
	uns := func(v uint64) *big.Int { return new(big.Int).SetUint64(v) }
	smin := new(big.Int).Neg(new(big.Int).Rsh(mod, 1))
	smax := new(big.Int).Sub(new(big.Int).Rsh(mod, 1), big.NewInt(1))
	umax := new(big.Int).Sub(mod, big.NewInt(1))
	clamp := func(v, lo, hi *big.Int) *big.Int {
		if v.Cmp(lo) < 0 {
			return lo
		}
		if v.Cmp(hi) > 0 {
			return hi
		}
		return v
	}
	floorHalf := func(v *big.Int) *big.Int { return new(big.Int).Rsh(v, 1) } // Rsh floors negatives
	bitsOf := func(v *big.Int) uint64 { return new(big.Int).Mod(v, mod).Uint64() }
	var r *big.Int
	switch opc {
	case spirv.OpUCountLeadingZerosINTEL:
		return uint64(int(w) - uns(x).BitLen())
	case spirv.OpUCountTrailingZerosINTEL:
		if x == 0 {
			return uint64(w)
		}
		return uint64(uns(x).TrailingZeroBits())
	case spirv.OpAbsISubINTEL:
		r = new(big.Int).Abs(new(big.Int).Sub(sgn(x), sgn(y)))
	case spirv.OpAbsUSubINTEL:
		r = new(big.Int).Abs(new(big.Int).Sub(uns(x), uns(y)))
	case spirv.OpIAddSatINTEL:
		r = clamp(new(big.Int).Add(sgn(x), sgn(y)), smin, smax)
	case spirv.OpUAddSatINTEL:
		r = clamp(new(big.Int).Add(uns(x), uns(y)), big.NewInt(0), umax)
	case spirv.OpISubSatINTEL:
		r = clamp(new(big.Int).Sub(sgn(x), sgn(y)), smin, smax)
	case spirv.OpUSubSatINTEL:
		r = clamp(new(big.Int).Sub(uns(x), uns(y)), big.NewInt(0), umax)
	case spirv.OpIAverageINTEL:
		r = floorHalf(new(big.Int).Add(sgn(x), sgn(y)))
	case spirv.OpUAverageINTEL:
		r = floorHalf(new(big.Int).Add(uns(x), uns(y)))
	case spirv.OpIAverageRoundedINTEL:
		r = floorHalf(new(big.Int).Add(new(big.Int).Add(sgn(x), sgn(y)), big.NewInt(1)))
	case spirv.OpUAverageRoundedINTEL:
		r = floorHalf(new(big.Int).Add(new(big.Int).Add(uns(x), uns(y)), big.NewInt(1)))
	case spirv.OpIMul32x16INTEL:
		lo := int64(int16(uint16(y)))
		r = new(big.Int).Mul(uns(x), big.NewInt(lo))
	case spirv.OpUMul32x16INTEL:
		r = new(big.Int).Mul(uns(x), big.NewInt(int64(y&0xffff)))
	default:
		panic(opc)
	}
	return bitsOf(r)
}

// intFn2OpenCL names the OpenCL.std instruction that computes the same
// function, where one does: OpenCL.std's are checked against PoCL
// (internal/oclref), so they are a second opinion on ours.
var intFn2OpenCL = map[spirv.Opcode]string{
	spirv.OpUCountLeadingZerosINTEL: "clz", spirv.OpUCountTrailingZerosINTEL: "ctz",
	spirv.OpAbsISubINTEL: "s_abs_diff", spirv.OpAbsUSubINTEL: "u_abs_diff",
	spirv.OpIAddSatINTEL: "s_add_sat", spirv.OpUAddSatINTEL: "u_add_sat",
	spirv.OpISubSatINTEL: "s_sub_sat", spirv.OpUSubSatINTEL: "u_sub_sat",
	spirv.OpIAverageINTEL: "s_hadd", spirv.OpUAverageINTEL: "u_hadd",
	spirv.OpIAverageRoundedINTEL: "s_rhadd", spirv.OpUAverageRoundedINTEL: "u_rhadd",
}

func intFn2Opcodes() []spirv.Opcode {
	ops := []spirv.Opcode{spirv.OpUCountLeadingZerosINTEL, spirv.OpUCountTrailingZerosINTEL}
	for opc := spirv.OpAbsISubINTEL; opc <= spirv.OpUMul32x16INTEL; opc++ {
		ops = append(ops, opc)
	}
	return ops
}

// intFn2Inputs are each width's edge values and random ones.
func intFn2Inputs(w uint8, r *rand.Rand) []uint64 {
	m := ^uint64(0) >> (64 - w)
	half := m >> 1
	vs := []uint64{0, 1, 2, 3, m, m - 1, half, half + 1, half - 1, 0x7fff & m, 0x8000 & m, 0xffff & m, 0x10000 & m}
	for range 24 {
		vs = append(vs, r.Uint64()&m, r.Uint64()>>r.IntN(int(w))&m)
	}
	return vs
}

// TestIntFunctions2Lanes checks every operation's lane function at every
// width against exact arithmetic, and against OpenCL.std's function where
// there is one.
func TestIntFunctions2Lanes(t *testing.T) {
	cl := spirv.LookupExtInstSet("OpenCL.std")
	r := rand.New(rand.NewPCG(1, 2))
	for _, opc := range intFn2Opcodes() {
		for _, w := range []uint8{8, 16, 32, 64} {
			s := scalar{kind: skInt, width: w}
			lane := func(x, y uint64) uint64 {
				if k, ok := intFn2Bin[opc]; ok {
					return binTab[k](x, y, s)
				}
				if opc == spirv.OpUCountLeadingZerosINTEL {
					return unTab[uCountLeadingZeros](x, s)
				}
				return unTab[uCountTrailingZeros](x, s)
			}
			var clNum uint32
			if name, ok := intFn2OpenCL[opc]; ok {
				info, ok := cl.LookupInstruction(name)
				if !ok {
					t.Fatalf("OpenCL.std has no %s", name)
				}
				clNum = info.Opcode
			}
			ins := intFn2Inputs(w, r)
			bad := 0
			for _, x := range ins {
				for _, y := range ins {
					got, want := lane(x, y), intFn2Ref(opc, x, y, w)
					if got != want && bad < 5 {
						bad++
						t.Errorf("%s w%d (%#x, %#x) = %#x, want %#x", opc, w, x, y, got, want)
					}
					if clNum == 0 {
						continue
					}
					ty := extinst.Type{Kind: extinst.Uint, Width: w, Len: 1}
					args := []extinst.Arg{{T: ty, V: extinst.Value{x}}, {T: ty, V: extinst.Value{y}}}
					if opc == spirv.OpUCountLeadingZerosINTEL || opc == spirv.OpUCountTrailingZerosINTEL {
						args = args[:1]
					}
					out, _, err := extinst.OpenCL(clNum, ty, args)
					if err != nil {
						t.Fatalf("OpenCL.std %s: %v", intFn2OpenCL[opc], err)
					}
					if out[0] != got && bad < 5 {
						bad++
						t.Errorf("%s w%d (%#x, %#x) = %#x; OpenCL.std %s gives %#x", opc, w, x, y, got, intFn2OpenCL[opc], out[0])
					}
				}
			}
		}
	}
}

// TestIntFunctions2Module runs every operation on uvec2 operands read from
// a buffer, and once more on constant operands, in a shader as glslang
// emits for GL_INTEL_shader_integer_functions2. (OpSpecConstantOp may not
// take them: they are not in its list.)
func TestIntFunctions2Module(t *testing.T) {
	ops := intFn2Opcodes()
	var body, consts string
	for k, opc := range ops {
		args := "%x %y"
		cargs := "%cx %cy"
		if opc <= spirv.OpUCountTrailingZerosINTEL {
			args, cargs = "%x", "%cx"
		}
		body += fmt.Sprintf(`%%r%[1]d = %[2]s %%v2 %[3]s
%%s%[1]d = %[2]s %%v2 %[4]s
%%p%[1]d = OpAccessChain %%pv2 %%buf %%c1 %%k%[1]d
OpStore %%p%[1]d %%r%[1]d
%%q%[1]d = OpAccessChain %%pv2 %%buf %%c2 %%k%[1]d
OpStore %%q%[1]d %%s%[1]d
`, k, opc, args, cargs)
		consts += fmt.Sprintf("%%k%[1]d = OpConstant %%u32 %[1]d\n", k)
	}
	src := fmt.Sprintf(`OpCapability Shader
OpCapability IntegerFunctions2INTEL
OpExtension "SPV_INTEL_shader_integer_functions2"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %%main "main" %%buf
OpExecutionMode %%main LocalSize 1 1 1
OpDecorate %%S Block
OpMemberDecorate %%S 0 Offset 0
OpMemberDecorate %%S 1 Offset 8
OpMemberDecorate %%S 2 Offset %d
OpDecorate %%arr ArrayStride 8
OpDecorate %%buf DescriptorSet 0
OpDecorate %%buf Binding 0
%%void = OpTypeVoid
%%fn = OpTypeFunction %%void
%%u32 = OpTypeInt 32 0
%%v2 = OpTypeVector %%u32 2
%%n = OpConstant %%u32 %d
%%arr = OpTypeArray %%v2 %%n
%%S = OpTypeStruct %%v2 %%arr %%arr
%%pS = OpTypePointer StorageBuffer %%S
%%pv2 = OpTypePointer StorageBuffer %%v2
%%buf = OpVariable %%pS StorageBuffer
%%c0 = OpConstant %%u32 0
%%c1 = OpConstant %%u32 1
%%c2 = OpConstant %%u32 2
%%sx = OpConstant %%u32 0x80000005
%%sy = OpConstant %%u32 0xfffe8001
%%t0 = OpConstant %%u32 0x7ffffff0
%%t1 = OpConstant %%u32 0x00012345
%%cx = OpConstantComposite %%v2 %%sx %%t0
%%cy = OpConstantComposite %%v2 %%sy %%t1
%s%%main = OpFunction %%void None %%fn
%%e = OpLabel
%%pin = OpAccessChain %%pv2 %%buf %%c0
%%x = OpLoad %%v2 %%pin
%%yy = OpCompositeExtract %%u32 %%x 0
%%y = OpCompositeConstruct %%v2 %%yy %%yy
%sOpReturn
OpFunctionEnd
`, 8+8*len(ops), len(ops), consts, body)
	m := assemble(t, src)
	in := [][2]uint32{{0x80000001, 0x7fffffff}, {0xffff0003, 0}, {5, 0x10000}}
	for _, v := range in {
		buf := make([]byte, 8+16*len(ops))
		binary.LittleEndian.PutUint32(buf, v[0])
		binary.LittleEndian.PutUint32(buf[4:], v[1])
		if err := run(t, m, Options{SubgroupSize: 4}, [3]uint32{1, 1, 1}, map[BindingKey][]byte{{0, 0}: buf}, nil); err != nil {
			t.Fatal(err)
		}
		x, y := [2]uint64{uint64(v[0]), uint64(v[1])}, [2]uint64{uint64(v[0]), uint64(v[0])}
		cx, cy := [2]uint64{0x80000005, 0x7ffffff0}, [2]uint64{0xfffe8001, 0x00012345}
		for k, opc := range ops {
			for c := range 2 {
				got := uint64(binary.LittleEndian.Uint32(buf[8+8*k+4*c:]))
				if want := intFn2Ref(opc, x[c], y[c], 32); got != want {
					t.Errorf("%s component %d of (%#x, %#x): %#x, want %#x", opc, c, x[c], y[c], got, want)
				}
				got = uint64(binary.LittleEndian.Uint32(buf[8+8*len(ops)+8*k+4*c:]))
				if want := intFn2Ref(opc, cx[c], cy[c], 32); got != want {
					t.Errorf("constant %s component %d: %#x, want %#x", opc, c, got, want)
				}
			}
		}
	}
}
