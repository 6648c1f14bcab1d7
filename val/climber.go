package val

// climber answers "the first node at or above v, up a chain of parents,
// for which a test holds" for many v, keeping every answer so that all
// the climbs together cost each chain link once (path compression). The
// structured-CFG rules climb the NextBlock chain, the dominator tree and
// the construct nesting this way.
type climber struct {
	memo []int32 // by node: its answer, -1 none, -2 not known yet
	path []int32 // scratch: the nodes of the current climb
}

func newClimber(n int) *climber {
	c := &climber{memo: make([]int32, n)}
	for v := range c.memo {
		c.memo[v] = -2
	}
	return c
}

// find returns the first node from v up (v included) for which stop
// holds, -1 if none: next gives a node's parent, and a parent outside
// 0..n-1 ends the chain.
func (c *climber) find(v int32, stop func(int32) bool, next func(int32) int32) int32 {
	n := int32(len(c.memo))
	path := c.path[:0]
	for v >= 0 && v < n && c.memo[v] == -2 && !stop(v) {
		path = append(path, v)
		v = next(v)
	}
	r := int32(-1)
	if v >= 0 && v < n {
		if c.memo[v] == -2 {
			c.memo[v] = v
		}
		r = c.memo[v]
	}
	for _, u := range path {
		c.memo[u] = r
	}
	c.path = path
	return r
}
