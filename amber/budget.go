package amber

import (
	"context"
	"fmt"
	"sync"
)

// Budget bounds the buffer memory of the scripts that run at once: the
// parsed buffers they start from, the runner's copies, VkScript's device
// buffers, growth and COPY. One budget is shared by every Run and RunFile
// that does not name another (processBudget), so -j scripts in parallel
// hold at most its limit together, where each had 1 GiB of its own and
// the parsed data and COPY were not counted at all.
type Budget struct {
	mu      sync.Mutex
	limit   int
	used    int
	changed chan struct{} // closed and replaced when bytes are released
}

// NewBudget returns a budget of limit bytes.
func NewBudget(limit int) *Budget {
	return &Budget{limit: limit, changed: make(chan struct{})}
}

// processBudget is the budget of runs whose Options name none.
var processBudget = NewBudget(defaultMaxBufferBytes)

// Limit is the budget's size in bytes.
func (b *Budget) Limit() int { return b.limit }

// Used is how many bytes are reserved now.
func (b *Budget) Used() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
}

// tryReserve takes n bytes if they are free.
func (b *Budget) tryReserve(n int) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if n < 0 || n > b.limit-b.used {
		return false
	}
	b.used += n
	return true
}

// reserveWait takes n bytes, waiting while other scripts hold them. It
// fails at once if n exceeds the whole budget, and when ctx ends. Only a
// script's first reservation waits: it holds nothing yet, so waiting
// cannot deadlock with scripts that do, whose later reservations fail
// rather than wait.
func (b *Budget) reserveWait(ctx context.Context, n int) error {
	if n > b.limit {
		return fmt.Errorf("buffers of %d bytes exceed the budget of %d bytes", n, b.limit)
	}
	for {
		b.mu.Lock()
		if n <= b.limit-b.used {
			b.used += n
			b.mu.Unlock()
			return nil
		}
		ch := b.changed
		b.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// release returns n bytes.
func (b *Budget) release(n int) {
	if n == 0 {
		return
	}
	b.mu.Lock()
	b.used -= n
	close(b.changed)
	b.changed = make(chan struct{})
	b.mu.Unlock()
}
