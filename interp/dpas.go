package interp

import (
	"fmt"
	"math"
	"math/big"

	"spvx/spirv"
)

// SPV_INTEL_subgroup_matrix_multiply_accumulate (revision 1, 2025-01-07):
// OpSubgroupMatrixMultiplyAccumulateINTEL, Result = A×B + C over the
// subgroup, M the Result Type's component count, N the subgroup size,
// K the K Dim constant. The operands are spread over the invocations as the
// extension's "Mapping Matrix Data to Invocations" says:
//
//   - A (M×K): each component of an invocation's A holds pa = width/element
//     bits elements of one row, the lower columns in the lower bits. If
//     K >= N, K must be N·pa: invocation i holds columns i·pa.. of every
//     row, component m being row m. If K < N (elements unpacked), r = N/K
//     invocations share a column: invocation i holds column i%K of rows
//     c·r + i/K in its components c (ceil(M/r) of them); rows >= M are
//     ignored.
//   - B (K×N): invocation n holds column n; elements of 16 bits or fewer are
//     packed into 32-bit components, the lower rows in the lower bits;
//     wider elements are one per component.
//   - C and Result (M×N): invocation n holds column n, component m row m.
//
// The Matrix Multiply Accumulate Operands choose the element types: the
// packed int8/int4/fp16/bf16 bits reinterpret integer components, TF32
// reinterprets float32 ones, MatrixCBFloat16/MatrixResultBFloat16 read C or
// write Result as bf16 held in 16-bit integers. Without an interpretation
// bit an operand's elements are its own component type. Integer A and B
// elements are unsigned unless their Signed bit is set; C is read as
// signed (the extension's issue 3). The revision defines no int2 or fp8
// interpretation and no saturation, so neither is here.
//
// Implementation-defined choices, which the extension leaves open:
//
//   - Integers: exact, the low bits of the true sum at the Result width.
//   - Floats, Options.MatrixAccumulate = MatrixOrdered: the accumulator is
//     float32 (float64 if any operand is 64-bit), starting at C; each
//     product A[m][k]·B[k][n] is rounded to the accumulator format and
//     added for k = 0, 1, ..., K-1, each addition rounded to nearest even
//     (denormals kept); the sum is then rounded to the Result type.
//   - MatrixExact: the sum of C and all K products is computed exactly
//     and rounded once, to nearest even, to the Result type.
//   - TF32 elements are float32 values with the low 13 mantissa bits
//     ignored (tf32 keeps 10 of the 23).
//   - N is the subgroup size, as the extension says, at every size. (IGC
//     keeps its hardware N of 16 in SIMD32 kernels, each invocation holding
//     half the data; that convention is not the extension's text, and such
//     a module's operand sizes are a compile error here.)
//   - Every invocation of a full subgroup must execute the instruction
//     together (the extension leaves anything else undefined): otherwise
//     it is a FaultSubgroup.

// MatrixAccumulate selects how matrix instructions sum floating-point
// products (the extensions leave order and precision open).
type MatrixAccumulate uint8

const (
	// MatrixOrdered sums the products in order of k in a float32 (or
	// float64) accumulator, rounding each step.
	MatrixOrdered MatrixAccumulate = iota
	// MatrixExact sums exactly and rounds once at the end.
	MatrixExact
)

// Matrix Multiply Accumulate Operands bits.
const (
	mmaASigned      = 0x1
	mmaBSigned      = 0x2
	mmaCBF16        = 0x4
	mmaResultBF16   = 0x8
	mmaAPackedInt8  = 0x10
	mmaAPackedInt4  = 0x40
	mmaATF32        = 0x100
	mmaAPackedF16   = 0x400
	mmaAPackedBF16  = 0x1000
	mmaKnown        = 0x3fff
	mmaBShift       = 1 // a B bit is its A bit shifted left once
	tf32IgnoredBits = 13
)

// mmaElem is the element type of one matrix operand.
type mmaElem struct {
	sc   scalar // the element: kind, width, signedness, float encoding
	tf32 bool
}

// dpasInfo is a compiled OpSubgroupMatrixMultiplyAccumulateINTEL.
type dpasInfo struct {
	M, N, K  int
	a, b, c  int32 // operand slots
	ea, eb   mmaElem
	pa       int // A elements per component (K >= N)
	r        int // invocations sharing an A column (K < N), else 1
	bPer     int // B elements per component
	cs, rs   scalar
	float    bool
	accWidth uint8 // ordered float accumulator: 32 or 64
}

// compileDPAS compiles OpSubgroupMatrixMultiplyAccumulateINTEL.
func (c *compiler) compileDPAS(q *cinst) (bool, error) {
	if q.opc != spirv.OpSubgroupMatrixMultiplyAccumulateINTEL {
		return false, nil
	}
	d, err := c.decodeDPAS(q)
	if err != nil {
		return true, fmt.Errorf("%s: %v", q.opc, err)
	}
	dst, rt, err := q.res()
	if err != nil {
		return true, err
	}
	c.p.dpas = append(c.p.dpas, d)
	c.emit(inst{op: opDPAS, aux: int32(len(c.p.dpas) - 1), dst: dst, n: int32(rt.ncomp), sc: rt.sc})
	return true, nil
}

// decodeDPAS decodes and checks the operands.
func (c *compiler) decodeDPAS(q *cinst) (d dpasInfo, err error) {
	if len(q.ops) < 4 || len(q.ops) > 5 {
		return d, fmt.Errorf("wants K Dim, Matrix A, B and C and an optional operands literal, not %d operands", len(q.ops))
	}
	var bitsOp uint32
	if len(q.ops) == 5 {
		bitsOp = q.ops[4]
	}
	if bitsOp&^mmaKnown != 0 {
		return d, fmt.Errorf("unknown Matrix Multiply Accumulate Operands bits 0x%x", bitsOp&^mmaKnown)
	}
	_, kt, err := c.val(q.ops[0])
	if err != nil {
		return d, err
	}
	k, ok := c.constScalar(q.ops[0])
	if !ok || kt.sc.kind != skInt || kt.sc.width != 32 || kt.ncomp != 1 {
		return d, fmt.Errorf("K Dim must be a constant 32-bit integer scalar")
	}
	if k == 0 || k > 1<<16 {
		return d, fmt.Errorf("K Dim %d is out of range", k)
	}
	_, rt, err := q.res()
	if err != nil {
		return d, err
	}
	var ts [3]*tinfo
	for i := range ts {
		var s int32
		if s, ts[i], err = c.val(q.ops[1+i]); err != nil {
			return d, err
		}
		switch i {
		case 0:
			d.a = s
		case 1:
			d.b = s
		default:
			d.c = s
		}
	}
	for i, t := range []*tinfo{rt, ts[0], ts[1], ts[2]} {
		if t.vec != t.ncomp || (t.sc.kind != skInt && t.sc.kind != skFloat) {
			return d, fmt.Errorf("%s must be a scalar or vector of integer or floating-point type", [...]string{"Result Type", "Matrix A", "Matrix B", "Matrix C"}[i])
		}
	}
	d.M, d.N, d.K = rt.ncomp, c.p.S, int(k)
	if d.ea, err = mmaElement("Matrix A", ts[0].sc, bitsOp); err != nil {
		return d, err
	}
	if d.eb, err = mmaElement("Matrix B", ts[1].sc, bitsOp>>mmaBShift); err != nil {
		return d, err
	}
	if err = d.types(rt.sc, ts[2].sc, bitsOp); err != nil {
		return d, err
	}
	return d, d.shapes(ts[0], ts[1], ts[2])
}

// mmaElement is an A or B operand's element type from its component
// type sc and the operand bits (shifted to A's positions for B).
func mmaElement(name string, sc scalar, bits uint32) (mmaElem, error) {
	var e mmaElem
	n := 0
	for _, b := range []uint32{mmaAPackedInt8, mmaAPackedInt4, mmaATF32, mmaAPackedF16, mmaAPackedBF16} {
		if bits&b != 0 {
			n++
		}
	}
	if n > 1 {
		return e, fmt.Errorf("%s has more than one interpretation bit", name)
	}
	signed := bits&mmaASigned != 0
	switch {
	case bits&mmaATF32 != 0:
		if sc.kind != skFloat || sc.width != 32 || sc.enc != encIEEE {
			return e, fmt.Errorf("%s is interpreted as tf32 but its components are not 32-bit floats", name)
		}
		e = mmaElem{sc: scalar{kind: skFloat, width: 32}, tf32: true}
	case n == 1:
		if sc.kind != skInt {
			return e, fmt.Errorf("%s is interpreted as packed data but its components are not integers", name)
		}
		switch {
		case bits&mmaAPackedInt8 != 0:
			e.sc = scalar{kind: skInt, width: 8, signed: signed}
		case bits&mmaAPackedInt4 != 0:
			e.sc = scalar{kind: skInt, width: 4, signed: signed}
		case bits&mmaAPackedF16 != 0:
			e.sc = scalar{kind: skFloat, width: 16}
		default:
			e.sc = scalar{kind: skFloat, width: 16, enc: encBF16}
		}
	default:
		e.sc = sc
		e.sc.signed = signed
	}
	if signed && e.sc.kind != skInt {
		return e, fmt.Errorf("%s is marked signed but its elements are not integers", name)
	}
	return e, nil
}

// types checks that A, B, C and Result agree on integer or float and sets
// C's and Result's element types and the accumulator.
func (d *dpasInfo) types(rs, cs scalar, bits uint32) error {
	d.float = d.ea.sc.kind == skFloat
	if d.eb.sc.kind != d.ea.sc.kind {
		return fmt.Errorf("Matrix A and Matrix B elements must both be integers or both floating-point")
	}
	var err error
	if d.cs, err = accElem("Matrix C", cs, bits&mmaCBF16 != 0, d.float); err != nil {
		return err
	}
	if d.rs, err = accElem("Result Type", rs, bits&mmaResultBF16 != 0, d.float); err != nil {
		return err
	}
	d.accWidth = 32
	if d.cs.width == 64 || d.rs.width == 64 || d.ea.sc.width == 64 || d.eb.sc.width == 64 {
		d.accWidth = 64
	}
	return nil
}

// accElem is C's or Result's element type: bf16 in a 16-bit integer when
// the BFloat16 bit is set, else the component type, which must be of the
// product's kind.
func accElem(name string, sc scalar, bf16, float bool) (scalar, error) {
	if bf16 {
		if sc.kind != skInt || sc.width != 16 {
			return sc, fmt.Errorf("%s is interpreted as bf16 but its components are not 16-bit integers", name)
		}
		sc = scalar{kind: skFloat, width: 16, enc: encBF16}
	}
	if (sc.kind == skFloat) != float {
		return sc, fmt.Errorf("%s must be %s like the products of Matrix A and Matrix B", name, map[bool]string{true: "floating-point", false: "integer"}[float])
	}
	if float && sc.enc != encIEEE && sc.enc != encBF16 {
		return sc, fmt.Errorf("%s must be IEEE or bf16 floating-point", name)
	}
	return sc, nil
}

// shapes checks the operands' component counts against M, N and K as the
// extension's mapping of matrix data to invocations lays them out.
func (d *dpasInfo) shapes(at, bt, ct *tinfo) error {
	aw, ew := int(at.sc.width), int(d.ea.sc.width)
	if aw%ew != 0 {
		return fmt.Errorf("Matrix A's %d-bit components cannot hold %d-bit elements", aw, ew)
	}
	d.pa, d.r = aw/ew, 1
	wantA := d.M
	if d.K >= d.N {
		if d.K != d.N*d.pa {
			return fmt.Errorf("K Dim %d must be the subgroup size %d times the %d elements in a Matrix A component", d.K, d.N, d.pa)
		}
	} else {
		if d.N%d.K != 0 || d.pa != 1 {
			return fmt.Errorf("K Dim %d is less than the subgroup size %d: it must divide it, with one element per Matrix A component", d.K, d.N)
		}
		d.r = d.N / d.K
		wantA = (d.M + d.r - 1) / d.r
	}
	if at.ncomp != wantA {
		return fmt.Errorf("Matrix A has %d components; M=%d, K=%d and subgroup size %d need %d", at.ncomp, d.M, d.K, d.N, wantA)
	}
	bw, eb := int(bt.sc.width), int(d.eb.sc.width)
	d.bPer = 1
	if eb <= 16 {
		if bw != 32 || d.K*eb%32 != 0 {
			return fmt.Errorf("Matrix B's %d-bit elements must be packed in 32-bit components, %d rows to a component", eb, 32/eb)
		}
		d.bPer = 32 / eb
	} else if bw != eb {
		return fmt.Errorf("Matrix B's components must be its %d-bit elements", eb)
	}
	if bt.ncomp*d.bPer != d.K {
		return fmt.Errorf("Matrix B has %d components; K=%d needs %d", bt.ncomp, d.K, d.K/d.bPer)
	}
	if ct.ncomp != d.M {
		return fmt.Errorf("Matrix C has %d components; the Result Type's M is %d", ct.ncomp, d.M)
	}
	return nil
}

// dpas runs opDPAS over the subgroup.
func (sg *subgroup) dpas(in *inst, lanes []int32) *Fault {
	if sg.n != sg.S || len(lanes) != sg.S {
		return &Fault{Kind: FaultSubgroup, Msg: fmt.Sprintf("OpSubgroupMatrixMultiplyAccumulateINTEL executed by %d of %d invocations (subgroup of %d present): undefined unless all invocations of a full subgroup execute it together", len(lanes), sg.S, sg.n)}
	}
	d := &sg.p.dpas[in.aux]
	out := make([]uint64, d.M*d.N)
	a, b := make([]float64, d.K), make([]float64, d.K)
	for n := 0; n < d.N; n++ {
		for m := 0; m < d.M; m++ {
			if d.float {
				out[m*d.N+n] = sg.dpasFloat(d, m, n, a, b)
			} else {
				out[m*d.N+n] = sg.dpasInt(d, m, n)
			}
		}
	}
	for m := 0; m < d.M; m++ {
		col := sg.col(in.dst + int32(m))
		for n := 0; n < d.N; n++ {
			col[n] = out[m*d.N+n]
		}
	}
	return nil
}

// reg is component c of slot s in lane l.
func (sg *subgroup) reg(s int32, c, l int) uint64 {
	return sg.regs[(int(s)+c)*sg.R+l]
}

// elemA is the raw bits of A[m][k].
func (sg *subgroup) elemA(d *dpasInfo, m, k int) uint64 {
	w := int(d.ea.sc.width)
	if d.r > 1 {
		return sg.reg(d.a, m/d.r, m%d.r*d.K+k) & d.ea.sc.mask()
	}
	return sg.reg(d.a, m, k/d.pa) >> (k % d.pa * w) & d.ea.sc.mask()
}

// elemB is the raw bits of B[k][n].
func (sg *subgroup) elemB(d *dpasInfo, k, n int) uint64 {
	w := int(d.eb.sc.width)
	return sg.reg(d.b, k/d.bPer, n) >> (k % d.bPer * w) & d.eb.sc.mask()
}

// intValue is an integer element's value.
func intValue(x uint64, s scalar) int64 {
	if s.signed {
		return sext(x, s.width)
	}
	return int64(x)
}

// dpasInt is Result[m][n] for integers: the exact sum, wrapped to the
// Result width (two's complement makes the signedness of C and Result
// irrelevant).
func (sg *subgroup) dpasInt(d *dpasInfo, m, n int) uint64 {
	acc := uint64(sext(sg.reg(d.c, m, n)&d.cs.mask(), d.cs.width))
	for k := 0; k < d.K; k++ {
		acc += uint64(intValue(sg.elemA(d, m, k), d.ea.sc) * intValue(sg.elemB(d, k, n), d.eb.sc))
	}
	return acc & d.rs.mask()
}

// floatValue is a float element's exact value.
func floatValue(x uint64, e mmaElem) float64 {
	if e.tf32 {
		x &^= 1<<tf32IgnoredBits - 1
	}
	return toF64(x, e.sc)
}

// dpasFloat is Result[m][n] for floats, in the MatrixAccumulate mode; a
// and b are scratch of K elements.
func (sg *subgroup) dpasFloat(d *dpasInfo, m, n int, a, b []float64) uint64 {
	c := toF64(sg.reg(d.c, m, n)&d.cs.mask(), d.cs)
	for k := range a {
		a[k] = floatValue(sg.elemA(d, m, k), d.ea)
		b[k] = floatValue(sg.elemB(d, k, n), d.eb)
	}
	if sg.p.opts.MatrixAccumulate == MatrixExact {
		return fromF64(exactDot(c, a, b, d.rs.width == 64), d.rs, 0, false)
	}
	round := func(v float64) float64 { return float64(float32(v)) }
	if d.accWidth == 64 {
		round = func(v float64) float64 { return v }
	}
	acc := round(c)
	for k := range a {
		// a product of floats of 32 bits or fewer is exact in float64, and
		// float64 holds a float32 sum exactly enough that rounding it to
		// float32 is the correctly rounded float32 sum
		acc = round(acc + round(a[k]*b[k]))
	}
	return fromF64(acc, d.rs, 0, false)
}

// exactDot is c + Σ a[k]·b[k] computed exactly and rounded to float64: to
// nearest even if wide (the result is float64), else to odd, so that the
// caller's second rounding to a format of at most 51 bits is the correct
// rounding of the exact sum. NaNs and infinities follow IEEE 754.
func exactDot(c float64, a, b []float64, wide bool) float64 {
	if math.IsNaN(c) {
		return c
	}
	inf := 0.0 // the sign of the infinite terms so far
	if math.IsInf(c, 0) {
		inf = c
	}
	for k := range a {
		x, y := a[k], b[k]
		switch {
		case math.IsNaN(x) || math.IsNaN(y):
			return math.NaN()
		case math.IsInf(x, 0) || math.IsInf(y, 0):
			p := x * y
			if math.IsNaN(p) || inf != 0 && inf != p { // ∞·0, ∞ - ∞
				return math.NaN()
			}
			inf = p
		}
	}
	if inf != 0 {
		return inf
	}
	sum := new(big.Rat).SetFloat64(c)
	t, u := new(big.Rat), new(big.Rat)
	for k := range a {
		sum.Add(sum, t.Mul(t.SetFloat64(a[k]), u.SetFloat64(b[k])))
	}
	if sum.Sign() == 0 {
		return zeroSum(c, a, b)
	}
	f, exact := sum.Float64()
	if exact || wide {
		return f
	}
	if f == 0 {
		f = math.Copysign(0, float64(sum.Sign()))
	}
	// round to odd: truncate toward zero, then set the last bit
	if new(big.Rat).SetFloat64(math.Abs(nonInf(f))).Cmp(new(big.Rat).Abs(sum)) > 0 || math.IsInf(f, 0) {
		f = math.Nextafter(f, 0)
	}
	return math.Float64frombits(math.Float64bits(f) | 1)
}

// nonInf is f, or the largest float64 of f's sign if f is infinite.
func nonInf(f float64) float64 {
	if math.IsInf(f, 0) {
		return math.Copysign(math.MaxFloat64, f)
	}
	return f
}

// zeroSum is the sign IEEE 754 gives an exact zero sum under round to
// nearest: -0 only if C and every product are -0.
func zeroSum(c float64, a, b []float64) float64 {
	neg := c == 0 && math.Signbit(c)
	for k := range a {
		p := a[k] * b[k]
		neg = neg && p == 0 && math.Signbit(p)
	}
	if neg {
		return math.Copysign(0, -1)
	}
	return 0
}
