package dis

import (
	"runtime"
	"sync/atomic"
)

// printChunks prints the instructions of s, after a complete first pass,
// in the pieces that s.cuts delimits: worker goroutines print pieces into
// their own buffers, and this goroutine appends them in order to p.b,
// flushing p.b to p.w as it goes. Pieces are handed out in order and at
// most a few are in flight, so the buffers stay few and are reused.
func (p *printer) printChunks(s *stream) {
	bounds := make([]int, 0, len(s.cuts)+2)
	bounds = append(bounds, 5)
	bounds = append(bounds, s.cuts...)
	bounds = append(bounds, s.nwords)
	n := len(bounds) - 1
	workers := min(runtime.GOMAXPROCS(0), n)
	done := make([]chan []byte, n)
	for i := range done {
		done[i] = make(chan []byte, 1)
	}
	inFlight := make(chan struct{}, 2*workers)
	free := make(chan []byte, 2*workers)
	var next atomic.Int32
	for range workers {
		go func() {
			wp := &printer{opt: p.opt, nm: p.nm, indent: p.indent, header: p.header}
			for {
				inFlight <- struct{}{}
				i := int(next.Add(1)) - 1
				if i >= n {
					<-inFlight
					return
				}
				sec := s.section(bounds[i], bounds[i+1])
				select {
				case wp.b = <-free:
				default:
					wp.b = make([]byte, 0, chunkWords*4*4)
				}
				for sec.next() {
					wp.inst(&sec.in, false, 0)
				}
				done[i] <- wp.b
			}
		}()
	}
	for i := range n {
		b := <-done[i]
		if p.w != nil && len(p.b)+len(b) > flushSize {
			p.flush()
		}
		if p.w != nil && len(p.b) == 0 {
			// Write the piece as it is rather than copy it.
			if p.err == nil {
				_, p.err = p.w.Write(b)
			}
		} else {
			p.b = append(p.b, b...)
		}
		free <- b[:0]
		<-inFlight
	}
}
