package interp

import (
	"fmt"

	"spvx/spirv"
)

// Compute derivatives (SPV_KHR_compute_shader_derivatives and its NV
// forerunner): OpDPdx, OpDPdy, OpFwidth and their Fine and Coarse forms in
// GLCompute, by differencing over groups of four invocations, the quads of
// the subgroup operations (VK_NV_compute_shader_derivatives, issue 1).
//
//   - DerivativeGroupLinearKHR: quads are local invocation indices
//     4m+{0,1,2,3}, which the executor's lanes already hold in order.
//   - DerivativeGroupQuadsKHR: quads are the local ids (2m+{0,1},
//     2n+{0,1}); the executor then gives each such block four consecutive
//     lanes (quadLocalID), blocks in x, then y, then z order.
//
// In a quad, lane 0 is the top-left, 1 top-right, 2 bottom-left and 3
// bottom-right invocation. A fine derivative differences within the
// invocation's own row (dx) or column (dy); a coarse one within the quad's
// first row or column, for all four. The plain forms are the fine ones
// here (the specification lets the implementation choose). fwidth is
// |dx| + |dy|. Each difference is one subtraction in the operand's float
// type, rounded as OpFSub rounds.

// Derivative kinds (opDeriv aux): a direction and a granularity.
const (
	derivX = iota
	derivY
	derivWidth
	derivCoarse = 4 // added to the direction
)

var derivKinds = map[spirv.Opcode]int32{
	spirv.OpDPdx: derivX, spirv.OpDPdy: derivY, spirv.OpFwidth: derivWidth,
	spirv.OpDPdxFine: derivX, spirv.OpDPdyFine: derivY, spirv.OpFwidthFine: derivWidth,
	spirv.OpDPdxCoarse: derivX + derivCoarse, spirv.OpDPdyCoarse: derivY + derivCoarse, spirv.OpFwidthCoarse: derivWidth + derivCoarse,
}

// derivativeGroups reads the entry point's derivative-group mode and
// checks that quads can form: the local size must split into them, and a
// subgroup must hold whole quads.
func (c *compiler) derivativeGroups(ep *spirv.EntryPoint) error {
	for _, md := range ep.Modes {
		ls, S := c.p.localSize, c.p.S
		name := "DerivativeGroupQuadsKHR"
		switch md.Mode {
		case spirv.ExecutionModeDerivativeGroupQuadsKHR:
			if ls[0]%2 != 0 || ls[1]%2 != 0 {
				return fmt.Errorf("DerivativeGroupQuadsKHR needs an even local size in x and y, not %dx%dx%d", ls[0], ls[1], ls[2])
			}
			c.p.derivQuads = true
		case spirv.ExecutionModeDerivativeGroupLinearKHR:
			name = "DerivativeGroupLinearKHR"
			if uint64(ls[0])*uint64(ls[1])*uint64(ls[2])%4 != 0 {
				return fmt.Errorf("DerivativeGroupLinearKHR needs a local size that is a multiple of 4, not %dx%dx%d", ls[0], ls[1], ls[2])
			}
		default:
			continue
		}
		if c.kernel {
			// DispatchND may choose other (odd) local sizes, which quads cannot tile.
			return fmt.Errorf("%s is for shaders, not Kernel entry points", name)
		}
		if S%4 != 0 {
			return fmt.Errorf("%s needs a subgroup size that is a multiple of 4, not %d", name, S)
		}
		c.derivGroups = true
	}
	return nil
}

// compileDerivative compiles the derivative instructions.
func (c *compiler) compileDerivative(q *cinst) (bool, error) {
	k, ok := derivKinds[q.opc]
	if !ok {
		return false, nil
	}
	if !c.derivGroups {
		return true, fmt.Errorf("%s needs a derivative group: the DerivativeGroupQuadsKHR or DerivativeGroupLinearKHR execution mode", q.opc)
	}
	v, err := q.elem1()
	if err != nil {
		return true, err
	}
	if v.at.sc.kind != skFloat {
		return true, fmt.Errorf("%s: the operand is not a float", q.opc)
	}
	c.emit(inst{op: opDeriv, aux: k, dst: v.d, a: v.a, n: int32(v.rt.ncomp), sc: v.at.sc})
	return true, nil
}

// quadLocalID is the local id of flat lane li of a workgroup of the given
// size under DerivativeGroupQuadsKHR: lanes 4q..4q+3 are the 2x2 block q.
func quadLocalID(li uint32, size [3]uint32) [3]uint32 {
	q, pos := li/4, li%4
	qx, qy := size[0]/2, size[1]/2
	return [3]uint32{q%qx*2 + pos&1, q/qx%qy*2 + pos>>1, q / (qx * qy)}
}

// derivative runs opDeriv: every lane reads its quad's values of the
// operand, whether or not they are active (the value of an inactive
// invocation is undefined, as the specification leaves it).
func (sg *subgroup) derivative(in *inst, lanes []int32) {
	dir, coarse := in.aux%derivCoarse, in.aux >= derivCoarse
	s := in.sc
	sub := func(x, y uint64) uint64 { return fbin(bFSub, x, y, s) }
	for c := int32(0); c < in.n; c++ {
		d, a := sg.col(in.dst+c), sg.col(in.a+c)
		tmp := sg.gscratch
		for _, l := range lanes {
			base, row, col := l&^3, l>>1&1, l&1
			if coarse {
				row, col = 0, 0
			}
			dx := sub(a[base+2*row+1], a[base+2*row])
			dy := sub(a[base+2+col], a[base+col])
			switch dir {
			case derivX:
				tmp[l] = dx
			case derivY:
				tmp[l] = dy
			default:
				tmp[l] = fbin(bFAdd, absFloat(dx, s), absFloat(dy, s), s)
			}
		}
		for _, l := range lanes {
			d[l] = tmp[l]
		}
	}
}

// absFloat clears the sign bit of a float of scalar type s.
func absFloat(x uint64, s scalar) uint64 { return x &^ (1 << (s.width - 1)) }
