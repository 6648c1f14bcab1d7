package interp

import (
	"fmt"

	"spvx/spirv"
)

// compileControl compiles branches, returns, calls and barriers.
func (c *compiler) compileControl(q *cinst) (bool, error) {
	opc, ops := q.opc, q.ops
	switch opc {
	case spirv.OpBranch:
		if err := q.need(1); err != nil {
			return true, err
		}
		e, err := c.edgeTo(ops[0])
		if err != nil {
			return true, err
		}
		c.emit(inst{op: opBranch, aux: e})
		return true, nil
	case spirv.OpBranchConditional:
		return true, c.branchConditional(q)
	case spirv.OpSwitch:
		return true, c.switchBranch(q)
	case spirv.OpReturn:
		c.emit(inst{op: opReturn})
		return true, nil
	case spirv.OpReturnValue:
		v, err := q.decodeArgs(1, 1)
		if err != nil {
			return true, err
		}
		a, at := v.a, v.at
		if int32(at.ncomp) != c.curFn.retN {
			return true, fmt.Errorf("OpReturnValue: value does not match the function's return type")
		}
		c.emit(inst{op: opReturnValue, a: a, n: int32(at.ncomp)})
		return true, nil
	case spirv.OpKill, spirv.OpTerminateInvocation, spirv.OpDemoteToHelperInvocation:
		c.emit(inst{op: opKill})
		return true, nil
	case spirv.OpUnreachable:
		c.emit(inst{op: opUnreachable})
		return true, nil
	case spirv.OpFunctionCall:
		return true, c.functionCall(q)
	case spirv.OpControlBarrier:
		if err := q.need(3); err != nil {
			return true, err
		}
		sc, ok := c.constScalar(ops[0])
		if !ok {
			return true, fmt.Errorf("OpControlBarrier: execution scope is not a constant")
		}
		if sc == uint64(spirv.ScopeSubgroup) || sc == uint64(spirv.ScopeInvocation) {
			return true, nil
		}
		c.emit(inst{op: opBarrier, imm: sc})
		return true, nil
	}
	return false, nil
}

// branchConditional compiles OpBranchConditional to its two edges, which
// edgeTo numbers consecutively.
func (c *compiler) branchConditional(q *cinst) error {
	ops := q.ops
	v, err := q.decodeArgs(3, 1)
	if err != nil {
		return err
	}
	cs, ct := v.a, v.at
	if ct.ncomp != 1 || ct.sc.kind != skBool {
		return fmt.Errorf("OpBranchConditional: condition is not a bool")
	}
	e1, err := c.edgeTo(ops[1])
	if err != nil {
		return err
	}
	e2, err := c.edgeTo(ops[2])
	if err != nil {
		return err
	}
	if e2 != e1+1 {
		return fmt.Errorf("internal: edges not consecutive")
	}
	c.emit(inst{op: opBranchCond, a: cs, aux: e1})
	return nil
}

// switchBranch compiles OpSwitch to a table of case values and edges; a
// 64-bit selector's case literals take two words.
func (c *compiler) switchBranch(q *cinst) error {
	ops := q.ops
	v, err := q.decodeArgs(2, 1)
	if err != nil {
		return err
	}
	s, st := v.a, v.at
	if st.ncomp != 1 || st.sc.kind != skInt {
		return fmt.Errorf("OpSwitch: selector is not an integer scalar")
	}
	w := 1
	if st.sc.width == 64 {
		w = 2
	}
	var tab switchTab
	if tab.def, err = c.edgeTo(ops[1]); err != nil {
		return err
	}
	for k := 2; k+w < len(ops); k += w + 1 {
		v := uint64(ops[k])
		if w == 2 {
			v |= uint64(ops[k+1]) << 32
		}
		e, err := c.edgeTo(ops[k+w])
		if err != nil {
			return err
		}
		tab.vals = append(tab.vals, v&st.sc.mask())
		tab.edges = append(tab.edges, e)
	}
	c.p.switches = append(c.p.switches, tab)
	c.emit(inst{op: opSwitch, a: s, aux: int32(len(c.p.switches) - 1)})
	return nil
}

// functionCall compiles OpFunctionCall, checking the arguments and result
// against the callee.
func (c *compiler) functionCall(q *cinst) error {
	ops := q.ops
	if err := q.need(1); err != nil {
		return err
	}
	fn := c.funcs[ops[0]]
	if fn == nil {
		return fmt.Errorf("OpFunctionCall: %%%d is not a compiled function", ops[0])
	}
	args := ops[1:]
	if len(args) != len(fn.params) {
		return fmt.Errorf("OpFunctionCall: %d arguments for %d parameters", len(args), len(fn.params))
	}
	ci := callInfo{fn: fn}
	for k, a := range args {
		s, t, err := c.val(a)
		if err != nil {
			return err
		}
		if int32(t.ncomp) != fn.paramN[k] {
			return fmt.Errorf("OpFunctionCall: argument %d does not match the parameter type", k)
		}
		ci.args = append(ci.args, s)
	}
	var d int32 = -1
	if fn.retN > 0 {
		var rt *tinfo
		var err error
		if d, rt, err = q.res(); err != nil {
			return err
		}
		if int32(rt.ncomp) != fn.retN {
			return fmt.Errorf("OpFunctionCall: result type does not match")
		}
	}
	c.curFn.depth = max(c.curFn.depth, fn.depth+1)
	c.p.calls = append(c.p.calls, ci)
	c.emit(inst{op: opCall, dst: d, aux: int32(len(c.p.calls) - 1), n: fn.retN})
	return nil
}
