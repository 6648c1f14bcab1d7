package oclref

import (
	"bufio"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Reduction of a random kernel that two engines disagree on, in the manner
// of C-Reduce but on the generator's syntax tree, so that every candidate
// is still well typed and well defined: a statement is deleted, an if or a
// switch is replaced by one of its arms, an expression by a same-typed
// operand or by zero, an output is dropped. Candidates are judged many at
// a time, as kernels of one program, because a compile costs a second.

func (k *Kernel) clone() *Kernel {
	c := *k
	c.helpers = make([]*function, len(k.helpers))
	for i, h := range k.helpers {
		c.helpers[i] = h.clone()
	}
	c.main = k.main.clone()
	c.outputs = nil
	for _, o := range k.outputs {
		for _, v := range c.main.vars {
			if v.name == o.name {
				c.outputs = append(c.outputs, v)
			}
		}
	}
	return &c
}

// edit returns a copy of k with its i-th reduction applied, or nil when k
// has i or fewer reductions. Larger reductions come first.
func (k *Kernel) edit(i int) *Kernel {
	c := k.clone()
	e := &editor{want: i}
	if len(c.outputs) > 1 {
		for j := range c.outputs {
			if e.hit() {
				c.outputs = append(c.outputs[:j], c.outputs[j+1:]...)
				return c.prune()
			}
		}
	}
	fns := append([]*function{c.main}, c.helpers...)
	for _, f := range fns {
		if e.stmts(&f.body) {
			return c.prune()
		}
	}
	for _, f := range fns {
		for _, v := range f.vars {
			if e.expr(&v.init) {
				return c.prune()
			}
		}
		if f.result != nil && e.expr(&f.result) {
			return c.prune()
		}
		if e.exprsIn(f.body) {
			return c.prune()
		}
	}
	return nil
}

// editor counts reduction sites until it reaches the wanted one.
type editor struct{ want, n int }

func (e *editor) hit() bool {
	e.n++
	return e.n-1 == e.want
}

// stmts offers deleting each statement and splicing each arm of an if or a
// switch in place of it, then recurses into the bodies.
func (e *editor) stmts(list *[]*stmt) bool {
	for j := 0; j < len(*list); j++ {
		s := (*list)[j]
		splice := func(body []*stmt) {
			*list = append(append(append([]*stmt{}, (*list)[:j]...), body...), (*list)[j+1:]...)
		}
		if e.hit() {
			splice(nil)
			return true
		}
		if s.kind == sIf || s.kind == sSwitch {
			for _, b := range s.body {
				if e.hit() {
					splice(b)
					return true
				}
			}
		}
	}
	for _, s := range *list {
		for b := range s.body {
			if e.stmts(&s.body[b]) {
				return true
			}
		}
	}
	return false
}

func (e *editor) exprsIn(list []*stmt) bool {
	for _, s := range list {
		for j := range s.e {
			if (s.kind == sFor || s.kind == sDo) && j == 0 {
				// A loop bound keeps its "% 6u": only what it reduces may
				// change, or the loop could run 2^31 times.
				for k := range s.e[0].args {
					if e.expr(&s.e[0].args[k]) {
						return true
					}
				}
				continue
			}
			if e.expr(&s.e[j]) {
				return true
			}
		}
		for _, b := range s.body {
			if e.exprsIn(b) {
				return true
			}
		}
	}
	return false
}

// expr offers replacing the node by zero and by each operand of its own
// type, then recurses into the operands.
func (e *editor) expr(p **expr) bool {
	x := *p
	if zero := zeroOf(x.t); x.tmpl != zero.tmpl && e.hit() {
		*p = zero
		return true
	}
	for _, a := range x.args {
		if a.t == x.t && e.hit() {
			*p = a
			return true
		}
	}
	for j := range x.args {
		if e.expr(&x.args[j]) {
			return true
		}
	}
	return false
}

func zeroOf(t vtype) *expr { return leaf(t, "("+t.String()+")0") }

// prune drops the helpers and variables nothing refers to any more.
func (k *Kernel) prune() *Kernel {
	for changed := true; changed; {
		changed = false
		src := k.Source("k")
		for i, h := range k.helpers {
			if uses(src, "k_"+h.name) == 1 {
				k.helpers = append(k.helpers[:i], k.helpers[i+1:]...)
				changed = true
				break
			}
		}
		if changed {
			continue
		}
		for i, v := range k.main.vars {
			if isOutput(k, v) {
				continue
			}
			n := uses(src, v.name)
			if v.arr > 0 && n == 2 || v.arr == 0 && n == 1 {
				k.main.vars = append(k.main.vars[:i], k.main.vars[i+1:]...)
				changed = true
				break
			}
		}
	}
	return k
}

func isOutput(k *Kernel, v *variable) bool {
	for _, o := range k.outputs {
		if o == v {
			return true
		}
	}
	return false
}

// uses counts whole-word occurrences of name in src.
func uses(src, name string) int {
	return len(regexp.MustCompile(`\b`+regexp.QuoteMeta(name)+`\b`).FindAllStringIndex(src, -1))
}

// reduceKernel shrinks k while test still finds a mismatching candidate:
// test gets a batch of candidates and returns the index of the first that
// still mismatches, or -1.
func reduceKernel(k *Kernel, test func([]*Kernel) int) *Kernel {
	const batch = 40
	cur := k
	for pass := 0; pass < 50; pass++ {
		progressed := false
		for start := 0; ; {
			var cands []*Kernel
			for i := start; i < start+batch; i++ {
				c := cur.edit(i)
				if c == nil {
					break
				}
				cands = append(cands, c)
			}
			if len(cands) == 0 {
				break
			}
			j := test(cands)
			if j < 0 {
				start += len(cands)
				continue
			}
			// The edits before j did not keep the mismatch; go on after
			// the accepted one, whose index now names the next site.
			cur, progressed, start = cands[j], true, start+j
		}
		if !progressed {
			break
		}
	}
	return cur
}

// File is a reduced kernel as a regression file: a comment that says how
// to launch it, then its source, named k. TestRandomRegressions reads it.
func (k *Kernel) File() string {
	lm := 0
	if k.lmArg {
		lm = 1
	}
	return fmt.Sprintf("// A random kernel on which spvx and PoCL differed, reduced.\n"+
		"// run: seed=%d global=%d,%d,%d local=%d,%d,%d outputs=%d lmarg=%d\n%s",
		k.Seed, k.global[0], k.global[1], k.global[2], k.local[0], k.local[1], k.local[2], len(k.outputs), lm, k.Source("k"))
}

// parseRegression reads a regression file's launch line; the source is the
// whole file, its kernel named k.
func parseRegression(text string) (Run, error) {
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), "// run:")
		if !ok {
			continue
		}
		f := map[string]string{}
		for _, kv := range strings.Fields(line) {
			k, v, _ := strings.Cut(kv, "=")
			f[k] = v
		}
		seed, err1 := strconv.ParseUint(f["seed"], 10, 64)
		outputs, err2 := strconv.Atoi(f["outputs"])
		g, err3 := triple(f["global"])
		l, err4 := triple(f["local"])
		for _, err := range []error{err1, err2, err3, err4} {
			if err != nil {
				return Run{}, fmt.Errorf("bad run line %q: %v", line, err)
			}
		}
		return randomRun("k", seed, g, l, outputs, f["lmarg"] == "1"), nil
	}
	return Run{}, fmt.Errorf("no '// run:' line")
}

func triple(s string) ([3]int, error) {
	var t [3]int
	parts := strings.Split(s, ",")
	if len(parts) != 3 {
		return t, fmt.Errorf("%q: want three numbers", s)
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || n > 1<<16 {
			return t, fmt.Errorf("%q: bad size", s)
		}
		t[i] = n
	}
	return t, nil
}
