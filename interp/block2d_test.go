package interp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// Tests of the SPV_INTEL_2d_block_io instructions against a model written
// here from the extension's text (revision 2): "Mapping Block Data to
// Invocations" (padding, the transform's packing, the transpose, the three
// width-versus-subgroup-size scenarios and their examples), "Out-of-Bounds
// Behavior" and "Restrictions". The model goes the other way from
// block2d.go: from an invocation and a component to the block element(s)
// it holds.

// b2Case is one instruction shape.
type b2Case struct {
	op              string // Load, LoadTransform, LoadTranspose, Prefetch, Store
	es, W, H, count int
}

func (bc b2Case) String() string {
	return fmt.Sprintf("%s_e%d_%dx%dx%d", bc.op, bc.es, bc.W, bc.H, bc.count)
}

// modelPow2 is the next power of two, as the spec pads widths.
func modelPow2(n int) int {
	p := 1
	for p < n {
		p *= 2
	}
	return p
}

// modelGrid is the block as the invocations see it, after the padding
// and the transform or transpose of the spec's mapping section: its padded
// width in values, its rows, and the bytes of one value.
func (bc b2Case) modelGrid() (width, rows, valBytes int) {
	switch bc.op {
	case "LoadTranspose":
		// the Block Height is padded; the transposed block has W rows
		return modelPow2(bc.H), bc.W, bc.es
	case "LoadTransform":
		// rows padded to a multiple of 4 (1-byte) or 2 (2-byte), then
		// every 4 or 2 rows one 32-bit value
		per := 4 / bc.es
		return modelPow2(bc.W), (bc.H + per - 1) / per, 4
	}
	return modelPow2(bc.W), bc.H, bc.es
}

// modelPerBlock is how many values an invocation holds for one block: a
// row's width/S values per row when the padded width is at least S, else
// one value per S/width rows (a partial last group of rows still takes
// a value).
func (bc b2Case) modelPerBlock(S int) int {
	w, rows, _ := bc.modelGrid()
	if w >= S {
		return rows * (w / S)
	}
	per := S / w
	return (rows + per - 1) / per
}

// modelWhere is what component j of invocation i holds: the block and the
// row and column of the (padded, transformed or transposed) grid.
func (bc b2Case) modelWhere(S, i, j int) (block, row, col int) {
	w, _, _ := bc.modelGrid()
	n := bc.modelPerBlock(S)
	block, j = j/n, j%n
	if w >= S {
		// scenario 1 and 3: each invocation takes w/S adjacent columns
		e := w / S
		return block, j / e, i*e + j%e
	}
	// scenario 2: row 0 to invocations 0..w-1, row 1 to w..2w-1, ...
	per := S / w
	return block, j*per + i/w, i % w
}

// b2Surface is a surface and where the block is read or written.
type b2Surface struct {
	mem                  []byte
	width, height, pitch int
	x, y                 int
}

// elem is block element (r, c) of block b, zero when it is padding
// (outside the Block Width or Height) or outside the surface.
func (s *b2Surface) elem(bc b2Case, b, r, c int) (uint64, bool) {
	if r >= bc.H || c >= bc.W {
		return 0, false
	}
	X, Y := s.x+b*bc.W+c, s.y+r
	if X < 0 || Y < 0 || Y >= s.height || (X+1)*bc.es > s.width {
		return 0, false
	}
	var v uint64
	for k := bc.es - 1; k >= 0; k-- {
		v = v<<8 | uint64(s.mem[Y*s.pitch+X*bc.es+k])
	}
	return v, true
}

// modelLoad is invocation i's storage after a load: each component's
// value, little-endian.
func (bc b2Case) modelLoad(s *b2Surface, S, i int) []byte {
	_, _, vb := bc.modelGrid()
	n := bc.modelPerBlock(S) * bc.count
	out := make([]byte, n*vb)
	for j := 0; j < n; j++ {
		b, r, c := bc.modelWhere(S, i, j)
		var v uint64
		switch bc.op {
		case "LoadTranspose":
			v, _ = s.elem(bc, b, c, r) // grid (r, c) is block (c, r)
		case "LoadTransform":
			per := 4 / bc.es
			for k := 0; k < per; k++ { // lower rows in lower bits
				e, _ := s.elem(bc, b, r*per+k, c)
				v |= e << (8 * bc.es * k)
			}
		default:
			v, _ = s.elem(bc, b, r, c)
		}
		for k := 0; k < vb; k++ {
			out[j*vb+k] = byte(v >> (8 * k))
		}
	}
	return out
}

// modelStore writes every invocation's storage (priv[i]) to s.
func (bc b2Case) modelStore(s *b2Surface, S int, priv [][]byte) {
	n := bc.modelPerBlock(S) * bc.count
	for i := 0; i < S; i++ {
		for j := 0; j < n; j++ {
			b, r, c := bc.modelWhere(S, i, j)
			if _, ok := s.elem(bc, b, r, c); !ok {
				continue // padding and out of bounds are ignored
			}
			X, Y := s.x+b*bc.W+c, s.y+r
			copy(s.mem[Y*s.pitch+X*bc.es:][:bc.es], priv[i][j*bc.es:])
		}
	}
}

// b2Kernel is a Kernel running one instruction of shape bc in a subgroup
// of S invocations: each invocation copies its slice of io into a
// Function array of cells (one more than the instruction needs, to catch
// overruns), runs the instruction on it and copies it back. Parameters:
// surface, io, Memory Width, Height, Pitch, x, y, the base's offset.
func b2Kernel(bc b2Case, S int, cells int) string {
	vb := bc.es
	if bc.op == "LoadTransform" {
		vb = 4 // the transform's Dst is 32-bit
	}
	cell, ok := map[int]string{1: "%uchar", 2: "%ushort", 4: "%uint", 8: "%ulong"}[vb]
	if !ok { // an illegal element size: the cells are bytes
		cell = "%uchar"
	}
	op := fmt.Sprintf("OpSubgroup2DBlock%sINTEL %%es %%bw %%bh %%bc %%base %%mw %%mh %%pitch %%coord %%p0", bc.op)
	switch bc.op {
	case "Prefetch":
		op = "OpSubgroup2DBlockPrefetchINTEL %es %bw %bh %bc %base %mw %mh %pitch %coord"
	case "Store":
		op = "OpSubgroup2DBlockStoreINTEL %es %bw %bh %bc %p0 %base %mw %mh %pitch %coord"
	}
	r := strings.NewReplacer("CELL", cell, "NCELLS", fmt.Sprint(cells), "NBYTES", fmt.Sprint(cells*vb),
		"ES", fmt.Sprint(bc.es), "BW", fmt.Sprint(bc.W), "BH", fmt.Sprint(bc.H), "BC", fmt.Sprint(bc.count), "OP", op)
	return r.Replace(b2Template)
}

const b2Template = `OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpCapability Int8
OpCapability Int16
OpCapability Subgroup2DBlockIOINTEL
OpCapability Subgroup2DBlockTransformINTEL
OpCapability Subgroup2DBlockTransposeINTEL
OpExtension "SPV_INTEL_2d_block_io"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k" %lid
OpDecorate %lid BuiltIn LocalInvocationId
OpDecorate %lid Constant
%void = OpTypeVoid
%uchar = OpTypeInt 8 0
%ushort = OpTypeInt 16 0
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%v3ulong = OpTypeVector %ulong 3
%v2uint = OpTypeVector %uint 2
%plid = OpTypePointer Input %v3ulong
%lid = OpVariable %plid Input
%pg = OpTypePointer CrossWorkgroup %uchar
%ncells = OpConstant %uint NCELLS
%arr = OpTypeArray CELL %ncells
%pfarr = OpTypePointer Function %arr
%pfcell = OpTypePointer Function CELL
%c0 = OpConstant %uint 0
%es = OpConstant %uint ES
%bw = OpConstant %uint BW
%bh = OpConstant %uint BH
%bc = OpConstant %uint BC
%bytes = OpConstant %ulong NBYTES
%fnty = OpTypeFunction %void %pg %pg %uint %uint %uint %uint %uint %ulong
%k = OpFunction %void None %fnty
%surf = OpFunctionParameter %pg
%io = OpFunctionParameter %pg
%mw = OpFunctionParameter %uint
%mh = OpFunctionParameter %uint
%pitch = OpFunctionParameter %uint
%cx = OpFunctionParameter %uint
%cy = OpFunctionParameter %uint
%boff = OpFunctionParameter %ulong
%e = OpLabel
%priv = OpVariable %pfarr Function
%l3 = OpLoad %v3ulong %lid
%l = OpCompositeExtract %ulong %l3 0
%off = OpIMul %ulong %l %bytes
%pio = OpInBoundsPtrAccessChain %pg %io %off
%p0 = OpInBoundsAccessChain %pfcell %priv %c0
%base = OpInBoundsPtrAccessChain %pg %surf %boff
%coord = OpCompositeConstruct %v2uint %cx %cy
OpCopyMemorySized %p0 %pio %bytes
OP
OpCopyMemorySized %pio %p0 %bytes
OpReturn
OpFunctionEnd
`

// b2Run compiles and runs bc's kernel on surface s (base offset boff)
// with io, one subgroup of S invocations of `cells` cells each.
func b2Run(t *testing.T, bc b2Case, S, cells int, s *b2Surface, boff int, io []byte) error {
	t.Helper()
	return b2RunSrc(t, b2Kernel(bc, S, cells), S, S, s, boff, io)
}

// b2RunSrc runs kernel src in one workgroup of local invocations.
func b2RunSrc(t *testing.T, src string, S, local int, s *b2Surface, boff int, io []byte) error {
	t.Helper()
	p, err := Compile(assemble(t, src), "k", Options{SubgroupSize: S})
	if err != nil {
		return err
	}
	u := func(v int) KernelArg { return KernelArg{Kind: ArgScalar, Scalar: uint64(uint32(int32(v)))} }
	args := []KernelArg{{Kind: ArgGlobal, Global: s.mem}, {Kind: ArgGlobal, Global: io},
		u(s.width), u(s.height), u(s.pitch), u(s.x), u(s.y), {Kind: ArgScalar, Scalar: uint64(boff)}}
	return p.DispatchND(context.Background(), [3]uint32{uint32(local), 1, 1}, [3]uint32{uint32(local), 1, 1}, &Resources{Args: args})
}

// b2Shapes are the shapes tested: every (Element Size, Block Width,
// Height, Count) of IGC's PVC tests of the extension (block_loads.ll,
// block_stores.ll, prefetches.ll), the block sizes of the
// cl_intel_subgroup_2d_block_io device, and shapes only the SPIR-V text
// allows (widths not powers of two, heights not multiples of the
// transform's packing, few rows for a wide subgroup), which exercise its
// padding rules.
func b2Shapes() []b2Case {
	var cs []b2Case
	add := func(op string, es int, ws, hs, ns []int) {
		for _, w := range ws {
			for _, h := range hs {
				for _, n := range ns {
					cs = append(cs, b2Case{op, es, w, h, n})
				}
			}
		}
	}
	all := []int{1, 2, 4, 8, 16, 32}
	add("Load", 1, []int{16}, []int{8, 16, 32}, []int{4})
	add("Load", 1, []int{32}, all, []int{1, 2})
	add("Load", 2, []int{16}, all, []int{1, 2})
	add("Load", 4, []int{8}, all, []int{1, 2})
	add("Load", 4, []int{16}, all, []int{1})
	add("LoadTransform", 1, []int{16}, []int{32}, []int{1, 2, 4})
	add("LoadTransform", 2, []int{16}, []int{16, 32}, []int{1, 2})
	add("LoadTranspose", 4, []int{1, 2, 4, 8}, []int{16}, []int{1})
	add("LoadTranspose", 4, []int{8}, []int{32}, []int{1})
	add("LoadTranspose", 8, []int{1, 2, 4}, []int{8}, []int{1})
	add("Store", 1, []int{16, 32}, []int{1, 2, 4, 8}, []int{1})
	add("Store", 2, []int{16}, []int{1, 2, 4, 8}, []int{1})
	add("Store", 4, []int{8, 16}, []int{1, 2, 4, 8}, []int{1})
	// beyond the device: the SPIR-V rules' padding
	add("Load", 1, []int{4, 12}, []int{3}, []int{1, 3})
	add("Load", 2, []int{6}, []int{5}, []int{2})
	add("Load", 8, []int{2, 3}, []int{2, 7}, []int{1, 2})
	add("LoadTransform", 1, []int{12}, []int{6}, []int{2})
	add("LoadTransform", 2, []int{2, 10}, []int{3}, []int{1, 2})
	add("LoadTranspose", 2, []int{2}, []int{5}, []int{2})
	add("LoadTranspose", 1, []int{4}, []int{3, 20}, []int{1})
	add("Store", 1, []int{4, 12}, []int{3}, []int{2})
	add("Store", 8, []int{3}, []int{5}, []int{2})
	add("Store", 2, []int{6}, []int{33}, []int{1})
	return cs
}

// b2Places are where a block goes on a 256x40-byte surface (pitch 272):
// inside it, across its right and bottom edges, across its top and left
// edges (negative coordinates), and wholly outside it.
func b2Places(bc b2Case) map[string][2]int {
	wElems := 256 / bc.es
	align := max(1, 4/bc.es)
	edge := (wElems - bc.W*bc.count/2) / align * align
	return map[string][2]int{
		"inside":      {align * 3, 2},
		"right_lower": {edge, 40 - (bc.H+1)/2},
		"upper_left":  {-align * ((bc.W + align - 1) / align / 2), -bc.H / 2},
		"outside":     {wElems, 0},
	}
}

func newB2Surface(rng *rand.Rand, x, y int) *b2Surface {
	s := &b2Surface{width: 256, height: 40, pitch: 272, x: x, y: y}
	s.mem = make([]byte, s.pitch*s.height)
	rng.Read(s.mem)
	return s
}

// TestBlock2DShapes runs every shape at subgroup sizes 8, 16 and 32 at
// every place, against the model: loads must fill each invocation's
// storage exactly as modelLoad says and leave the cell after it alone;
// stores must change the surface exactly as modelStore says; prefetches
// must change nothing.
func TestBlock2DShapes(t *testing.T) {
	shapes := b2Shapes()
	for ci, bc := range shapes {
		for _, S := range []int{8, 16, 32} {
			for place, xy := range b2Places(bc) {
				t.Run(fmt.Sprintf("%v_S%d_%s", bc, S, place), func(t *testing.T) {
					rng := rand.New(rand.NewSource(int64(ci*100 + S)))
					b2Check(t, rng, bc, S, xy)
				})
			}
		}
	}
	// the prefetch has the loads' shapes
	for _, S := range []int{8, 16} {
		bc := b2Case{"Prefetch", 2, 16, 8, 2}
		rng := rand.New(rand.NewSource(int64(S)))
		b2Check(t, rng, bc, S, [2]int{-2, 36})
	}
}

// b2Check runs one shape at one place and compares with the model.
func b2Check(t *testing.T, rng *rand.Rand, bc b2Case, S int, xy [2]int) {
	t.Helper()
	s := newB2Surface(rng, xy[0], xy[1])
	_, _, vb := bc.modelGrid()
	if bc.op == "Store" || bc.op == "Prefetch" {
		vb = bc.es
	}
	need := bc.modelPerBlock(S) * bc.count
	if bc.op == "Prefetch" {
		need = 1
	}
	io := make([]byte, S*(need+1)*vb)
	rng.Read(io)
	priv := make([][]byte, S)
	for i := range priv {
		priv[i] = bytes.Clone(io[i*(need+1)*vb:][:(need+1)*vb])
	}
	want := bytes.Clone(s.mem)
	wantIO := bytes.Clone(io)
	switch bc.op {
	case "Store":
		ws := *s
		ws.mem = want
		bc.modelStore(&ws, S, priv)
	case "Prefetch":
	default:
		for i := 0; i < S; i++ {
			copy(wantIO[i*(need+1)*vb:], bc.modelLoad(s, S, i))
		}
	}
	if err := b2Run(t, bc, S, need+1, s, 0, io); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(s.mem, want) {
		for k := range want {
			if s.mem[k] != want[k] {
				t.Fatalf("surface byte %d (row %d, byte %d): got %#x, want %#x", k, k/s.pitch, k%s.pitch, s.mem[k], want[k])
			}
		}
	}
	for k := range wantIO {
		if io[k] != wantIO[k] {
			per := (need + 1) * vb
			t.Fatalf("invocation %d, byte %d (component %d of %d): got %#x, want %#x", k/per, k%per, k%per/vb, need, io[k], wantIO[k])
		}
	}
}

// TestBlock2DSpecExamples runs the six examples of the extension's
// "Examples" section at their subgroup size of 4, the expected values
// copied from the lists there ("Invocation 0 is assigned the values 0,0
// and 1,0", ...). Element (r, c) of the surface holds (r+1)<<4 | (c+1).
func TestBlock2DSpecExamples(t *testing.T) {
	cases := []struct {
		bc   b2Case
		want [4]string // per invocation: the elements "r,c" in order; "|" joins a packed value, higher rows first
	}{
		{b2Case{"Load", 4, 4, 2, 1}, [4]string{"0,0 1,0", "0,1 1,1", "0,2 1,2", "0,3 1,3"}},
		{b2Case{"Load", 4, 2, 4, 1}, [4]string{"0,0 2,0", "0,1 2,1", "1,0 3,0", "1,1 3,1"}},
		{b2Case{"Load", 4, 8, 2, 1}, [4]string{"0,0 0,1 1,0 1,1", "0,2 0,3 1,2 1,3", "0,4 0,5 1,4 1,5", "0,6 0,7 1,6 1,7"}},
		{b2Case{"LoadTranspose", 4, 2, 4, 1}, [4]string{"0,0 0,1", "1,0 1,1", "2,0 2,1", "3,0 3,1"}},
		{b2Case{"LoadTransform", 2, 4, 2, 1}, [4]string{"1,0|0,0", "1,1|0,1", "1,2|0,2", "1,3|0,3"}},
		{b2Case{"LoadTransform", 1, 4, 4, 1}, [4]string{"3,0|2,0|1,0|0,0", "3,1|2,1|1,1|0,1", "3,2|2,2|1,2|0,2", "3,3|2,3|1,3|0,3"}},
	}
	for _, tc := range cases {
		t.Run(tc.bc.String(), func(t *testing.T) {
			bc := tc.bc
			s := &b2Surface{width: 64, height: 8, pitch: 64}
			s.mem = make([]byte, 64*8)
			for r := 0; r < 8; r++ {
				for c := 0; c < 64/bc.es; c++ {
					s.mem[r*64+c*bc.es] = byte((r+1)<<4 | (c + 1))
				}
			}
			vb := bc.es
			if bc.op == "LoadTransform" {
				vb = 4
			}
			n := len(strings.Fields(tc.want[0]))
			io := make([]byte, 4*n*vb)
			if err := b2Run(t, bc, 4, n, s, 0, io); err != nil {
				t.Fatal(err)
			}
			for i, list := range tc.want {
				for j, v := range strings.Fields(list) {
					var want uint64
					for _, rc := range strings.Split(v, "|") { // higher rows first
						var r, c int
						fmt.Sscanf(rc, "%d,%d", &r, &c)
						want = want<<(8*bc.es) | uint64((r+1)<<4|(c+1))
					}
					var got uint64
					for k := vb - 1; k >= 0; k-- {
						got = got<<8 | uint64(io[(i*n+j)*vb+k])
					}
					if got != want {
						t.Errorf("invocation %d value %d: got %#x, want %#x (%s)", i, j, got, want, v)
					}
				}
			}
		})
	}
}

// TestBlock2DCompileErrors: shapes outside the extension's Restrictions
// and operands of the wrong kind are compile errors naming the
// instruction.
func TestBlock2DCompileErrors(t *testing.T) {
	k := func(bc b2Case) string { return b2Kernel(bc, 16, 64) }
	cases := []struct {
		name, src, want string
		S               int
	}{
		{"element size 3", k(b2Case{"Load", 3, 16, 8, 1}), "Element Size 3", 16},
		{"1-byte width 6", k(b2Case{"Load", 1, 6, 8, 1}), "multiple of 4", 16},
		{"2-byte width 5", k(b2Case{"Store", 2, 5, 8, 1}), "multiple of 2", 16},
		{"transform 4-byte", k(b2Case{"LoadTransform", 4, 8, 8, 1}), "1- and 2-byte", 16},
		{"count 0", k(b2Case{"Load", 4, 8, 8, 0}), "Block Count 0", 16},
		{"height 0", k(b2Case{"Prefetch", 4, 8, 0, 1}), "Block Height 0", 16},
		{"too large", k(b2Case{"Load", 4, 1 << 12, 1 << 12, 1}), "larger than", 16},
		{"width not constant", strings.Replace(k(b2Case{"Load", 4, 8, 8, 1}), "%es %bw", "%es %cx", 1), "Block Width must be a constant", 16},
		{"dst not Function", strings.Replace(k(b2Case{"Load", 4, 8, 8, 1}), "%coord %p0", "%coord %pio", 1), "Function storage class", 16},
		{"src not CrossWorkgroup", strings.Replace(k(b2Case{"Load", 4, 8, 8, 1}), "%bc %base", "%bc %p0", 1), "CrossWorkgroup storage class", 16},
		{"transform to ushort", strings.NewReplacer("OpTypeArray %uint", "OpTypeArray %ushort", "OpTypePointer Function %uint", "OpTypePointer Function %ushort").Replace(k(b2Case{"LoadTransform", 2, 16, 8, 1})), "32-bit integer", 16},
		{"coordinate scalar", strings.Replace(k(b2Case{"Load", 4, 8, 8, 1}), "%pitch %coord", "%pitch %cx", 1), "Coordinate", 16},
		{"subgroup size 12", k(b2Case{"Load", 4, 8, 8, 1}), "power of two", 12},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Compile(assemble(t, tc.src), "k", Options{SubgroupSize: tc.S})
			if err == nil || !strings.Contains(err.Error(), "OpSubgroup2DBlock") || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error naming the instruction and %q", err, tc.want)
			}
		})
	}
}

// TestBlock2DFaults: the Restrictions' undefined cases, operands that are
// not uniform, partial subgroups and surfaces beyond their buffer are
// faults naming the instruction, for the prefetch too.
func TestBlock2DFaults(t *testing.T) {
	bc := b2Case{"Load", 1, 32, 8, 1}
	surf := func(w, h, pitch, x, y int) *b2Surface {
		s := &b2Surface{width: w, height: h, pitch: pitch, x: x, y: y}
		s.mem = make([]byte, 272*40+64)
		return s
	}
	nonUniform := strings.Replace(b2Kernel(bc, 16, 17), "%coord = OpCompositeConstruct %v2uint %cx %cy",
		"%lx = OpUConvert %uint %l\n%cxl = OpIAdd %uint %cx %lx\n%cxm = OpShiftLeftLogical %uint %cxl %c2\n%coord = OpCompositeConstruct %v2uint %cxm %cy", 1)
	nonUniform = strings.Replace(nonUniform, "%c0 = OpConstant %uint 0", "%c0 = OpConstant %uint 0\n%c2 = OpConstant %uint 2", 1)
	cases := []struct {
		name  string
		bc    b2Case
		src   string
		local int
		s     *b2Surface
		boff  int
		kind  FaultKind
		want  string
	}{
		{"base misaligned", bc, "", 16, surf(256, 40, 272, 0, 0), 32, FaultUndefined, "64-byte"},
		{"width 60", bc, "", 16, surf(60, 40, 272, 0, 0), 0, FaultUndefined, "Memory Width 60"},
		{"width 1<<25", bc, "", 16, surf(1<<25, 40, 1<<25, 0, 0), 0, FaultUndefined, "Memory Width"},
		{"width 258", bc, "", 16, surf(258, 40, 272, 0, 0), 0, FaultUndefined, "multiple of 4"},
		{"8-byte width 260", b2Case{"Load", 8, 4, 8, 1}, "", 16, surf(260, 40, 272, 0, 0), 0, FaultUndefined, "multiple of 8"},
		{"height 0", bc, "", 16, surf(256, 0, 272, 0, 0), 0, FaultUndefined, "Memory Height 0"},
		{"height negative", bc, "", 16, surf(256, -3, 272, 0, 0), 0, FaultUndefined, "Memory Height -3"},
		{"pitch below width", bc, "", 16, surf(256, 40, 240, 0, 0), 0, FaultUndefined, "Memory Pitch 240"},
		{"pitch not 16s", bc, "", 16, surf(256, 40, 264, 0, 0), 0, FaultUndefined, "multiple of 16"},
		{"x misaligned 1-byte", bc, "", 16, surf(256, 40, 272, 2, 0), 0, FaultUndefined, "multiple of 4"},
		{"x misaligned 2-byte", b2Case{"Store", 2, 16, 8, 1}, "", 16, surf(256, 40, 272, 3, 0), 0, FaultUndefined, "multiple of 2"},
		{"prefetch checks too", b2Case{"Prefetch", 1, 32, 8, 1}, "", 16, surf(256, 40, 100, 0, 0), 0, FaultUndefined, "Memory Pitch 100"},
		{"surface beyond buffer", bc, "", 16, surf(256, 1<<20, 272, 0, 1000), 0, FaultOutOfBounds, "surface"},
		{"store beyond buffer", b2Case{"Store", 4, 16, 8, 1}, "", 16, surf(256, 1<<20, 272, 0, 1000), 0, FaultOutOfBounds, "surface"},
		{"partial subgroup", bc, "", 15, surf(256, 40, 272, 0, 0), 0, FaultSubgroup, "15 of 16"},
		{"coordinate not uniform", bc, nonUniform, 16, surf(256, 40, 272, 0, 0), 0, FaultSubgroup, "differ between invocations 0 and 1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := tc.src
			if src == "" {
				src = b2Kernel(tc.bc, 16, 64)
			}
			io := make([]byte, 16*64*8)
			err := b2RunSrc(t, src, 16, tc.local, tc.s, tc.boff, io)
			var f *Fault
			if !errors.As(err, &f) || f.Kind != tc.kind || !strings.Contains(f.Error(), "OpSubgroup2DBlock") || !strings.Contains(f.Error(), tc.want) {
				t.Fatalf("got %v, want a %v fault naming the instruction and %q", err, tc.kind, tc.want)
			}
		})
	}
}

// TestBlock2DNeverPanics runs random shapes, subgroup sizes and surface
// operands (zero, negative, huge, misaligned): each is a compile error
// naming the instruction, a fault, or a run, never an internal error.
func TestBlock2DNeverPanics(t *testing.T) {
	rng := rand.New(rand.NewSource(24))
	pick := func(v ...int) int { return v[rng.Intn(len(v))] }
	ops := []string{"Load", "LoadTransform", "LoadTranspose", "Prefetch", "Store"}
	ran, clean := 0, 0
	for it := 0; it < 600; it++ {
		bc := b2Case{ops[rng.Intn(len(ops))], pick(0, 1, 2, 2, 3, 4, 4, 8, 16), pick(0, 1, 2, 3, 4, 8, 12, 16, 32, 64, 1<<20),
			pick(0, 1, 2, 3, 5, 8, 32, 1<<17), pick(0, 1, 1, 2, 3, 4, 1<<16)}
		S := pick(1, 2, 4, 8, 12, 16, 32, 64, 128)
		src := b2Kernel(bc, S, pick(1, 8, 600, 600))
		p, err := Compile(assemble(t, src), "k", Options{SubgroupSize: S})
		if err != nil {
			if !strings.Contains(err.Error(), "OpSubgroup2DBlock") {
				t.Fatalf("%v S=%d: compile error not naming the instruction: %v", bc, S, err)
			}
			continue
		}
		s := &b2Surface{width: 256, height: 40, pitch: 272, x: pick(-8, 0, 4, 60), y: pick(-3, 0, 39)}
		s.mem = make([]byte, 272*40)
		io := make([]byte, 128*600*8)
		boff := 0
		if rng.Intn(2) == 0 { // anything, mostly undefined
			s = &b2Surface{width: pick(-64, 0, 64, 256, 1<<24, 1<<31-1), height: pick(-1, 0, 1, 40, 1<<24, 1<<30),
				pitch: pick(-16, 0, 64, 272, 1<<24, 1<<30), x: pick(-1<<31, -8, 0, 4, 60, 1<<30), y: pick(-1<<31, -3, 0, 39, 1<<30)}
			s.mem = make([]byte, pick(0, 64, 272*40))
			io = make([]byte, pick(0, 8, 64*600*8))
			boff = pick(0, 1, 64, 1<<20)
		}
		u := func(v int) KernelArg { return KernelArg{Kind: ArgScalar, Scalar: uint64(uint32(int32(v)))} }
		args := []KernelArg{{Kind: ArgGlobal, Global: s.mem}, {Kind: ArgGlobal, Global: io},
			u(s.width), u(s.height), u(s.pitch), u(s.x), u(s.y), {Kind: ArgScalar, Scalar: uint64(boff)}}
		local := pick(S, S, max(1, S-1)) // sometimes a partial subgroup
		err = p.DispatchND(context.Background(), [3]uint32{uint32(local), 1, 1}, [3]uint32{uint32(local), 1, 1}, &Resources{Args: args})
		if err != nil && strings.Contains(err.Error(), "internal error") {
			t.Fatalf("%v S=%d %+v: %v", bc, S, *s, err)
		}
		ran++
		if err == nil {
			clean++
		}
	}
	if ran < 40 || clean < 5 {
		t.Fatalf("only %d of the random cases compiled and %d ran without a fault: the test covers too little", ran, clean)
	}
}

// TestBlock2DManySubgroups: in workgroups of four subgroups (run as a
// wide group while uniform, or apart), each subgroup loads or stores its
// own block, at rows y + subgroup·H, into its own invocations' storage;
// several workgroups run on the schedules. Expected values come from the
// model, subgroup by subgroup.
func TestBlock2DManySubgroups(t *testing.T) {
	for _, bc := range []b2Case{{"Load", 2, 16, 8, 2}, {"LoadTransform", 1, 16, 8, 1}, {"LoadTranspose", 4, 4, 8, 1}, {"Store", 4, 8, 4, 2}} {
		for _, S := range []int{8, 16} {
			for _, sc := range schedules {
				for _, separate := range []bool{false, true} {
					t.Run(fmt.Sprintf("%v_S%d_%s_sep%v", bc, S, sc.name, separate), func(t *testing.T) {
						o := sc.opts
						o.SubgroupSize, o.SeparateSubgroups = S, separate
						b2ManySubgroups(t, bc, S, o)
					})
				}
			}
		}
	}
}

func b2ManySubgroups(t *testing.T, bc b2Case, S int, o Options) {
	const sgs, groups = 4, 3
	need := bc.modelPerBlock(S)*bc.count + 1
	src := strings.NewReplacer(
		"BuiltIn LocalInvocationId", "BuiltIn GlobalInvocationId", // io by global id
		"%coord = OpCompositeConstruct %v2uint %cx %cy",
		"%lx = OpUConvert %uint %l\n%sgq = OpUDiv %uint %lx %cS\n%sgi = OpUMod %uint %sgq %cG\n%dy = OpIMul %uint %sgi %cH\n%cyl = OpIAdd %uint %cy %dy\n%coord = OpCompositeConstruct %v2uint %cx %cyl",
		"%c0 = OpConstant %uint 0", fmt.Sprintf("%%c0 = OpConstant %%uint 0\n%%cS = OpConstant %%uint %d\n%%cH = OpConstant %%uint %d\n%%cG = OpConstant %%uint %d", S, bc.H, sgs),
	).Replace(b2Kernel(bc, S, need))
	p, err := Compile(assemble(t, src), "k", o)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(int64(S)))
	s := newB2Surface(rng, 4, 1)
	vb := bc.es
	if bc.op == "LoadTransform" {
		vb = 4
	}
	per := need * vb
	io := make([]byte, groups*sgs*S*per)
	rng.Read(io)
	want, wantIO := bytes.Clone(s.mem), bytes.Clone(io)
	for grp := 0; grp < groups; grp++ {
		for g := 0; g < sgs; g++ {
			sub := *s
			sub.y = s.y + g*bc.H
			first := (grp*sgs + g) * S // the subgroup's first global invocation
			if bc.op == "Store" {
				if grp != groups-1 {
					continue // every group stores to the same blocks: the last one to run wins, so give them one value
				}
				sub.mem = want
				priv := make([][]byte, S)
				for i := range priv {
					priv[i] = io[(first+i)*per:][:per]
				}
				bc.modelStore(&sub, S, priv)
				continue
			}
			for i := 0; i < S; i++ {
				copy(wantIO[(first+i)*per:], bc.modelLoad(&sub, S, i))
			}
		}
	}
	if bc.op == "Store" {
		// the groups store the same blocks: make their data agree
		last := (groups - 1) * sgs * S * per
		for grp := 0; grp < groups-1; grp++ {
			copy(io[grp*sgs*S*per:][:sgs*S*per], io[last:])
		}
		wantIO = bytes.Clone(io)
	}
	u := func(v int) KernelArg { return KernelArg{Kind: ArgScalar, Scalar: uint64(uint32(int32(v)))} }
	args := []KernelArg{{Kind: ArgGlobal, Global: s.mem}, {Kind: ArgGlobal, Global: io},
		u(s.width), u(s.height), u(s.pitch), u(s.x), u(s.y), {Kind: ArgScalar, Scalar: 0}}
	if err := p.DispatchND(context.Background(), [3]uint32{uint32(groups * sgs * S), 1, 1}, [3]uint32{uint32(sgs * S), 1, 1}, &Resources{Args: args}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(s.mem, want) {
		t.Fatalf("the surface differs from the model")
	}
	for k := range io {
		if io[k] != wantIO[k] {
			t.Fatalf("global invocation %d byte %d: got %#x, want %#x", k/per, k%per, io[k], wantIO[k])
		}
	}
}
