package oclref

import (
	"fmt"
	"strings"
)

// The opaque rendering of a random kernel: every literal the generator
// chose goes through opq, an identity through a volatile variable, so no
// compiler can fold a built-in on constant arguments. PoCL 3.1 folds some
// of them wrongly, at -O0 and with -cl-opt-disable alike (abs of a
// constant LONG_MIN gives 0, trunc(fdim(NAN, c)) gives 0, and
// convert_int_sat_rte of a constant infinity crashes its compiler or
// leaves the kernel writing nothing), while the same built-ins on the same
// values read at run time are right. spvx's path (clang-15 -O0, then
// llvm-spirv) keeps the calls, so it computes them at run time; a kernel
// on which spvx agrees with PoCL's opaque rendering, and not with its
// plain one, shows PoCL's folding at odds with PoCL's own run-time
// built-ins, and the random test records it apart, like a PoCL split.

// OpaqueHeader defines opq for every type a random kernel uses; it goes
// after RandomHeader.
var OpaqueHeader = func() string {
	var b strings.Builder
	for _, k := range kindNames {
		for _, n := range []string{"", "2", "3", "4", "8", "16"} {
			t := k + n
			fmt.Fprintf(&b, "__attribute__((overloadable)) %s opq(%s x) { volatile %s v = x; return v; }\n", t, t, t)
		}
	}
	return b.String()
}()

// opaqueLiterals returns a copy of k whose literals are read through opq.
func (k *Kernel) opaqueLiterals() *Kernel {
	c := k.clone()
	for _, f := range append([]*function{c.main}, c.helpers...) {
		for _, v := range f.vars {
			opaqueExpr(v.init)
		}
		if f.result != nil {
			opaqueExpr(f.result)
		}
		opaqueStmts(f.body)
	}
	return c
}

func opaqueStmts(list []*stmt) {
	for _, s := range list {
		for _, e := range s.e {
			opaqueExpr(e)
		}
		for _, b := range s.body {
			opaqueStmts(b)
		}
	}
}

func opaqueExpr(e *expr) {
	if e.lit {
		e.tmpl, e.lit = fmt.Sprintf("opq((%s)(%s))", e.t, e.tmpl), false
	}
	for _, a := range e.args {
		opaqueExpr(a)
	}
}
