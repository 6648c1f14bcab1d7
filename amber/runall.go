package amber

import (
	"bytes"
	"context"
	"sync"
)

// Runs is a set of scripts running on a worker pool (RunAll). Results are
// read in path order, each as soon as its script has finished.
type Runs struct {
	results []Result
	logs    []bytes.Buffer
	done    []chan struct{}
	split   bool // each script's log is kept apart (Log) rather than written to Options.Log
	wg      sync.WaitGroup
}

// RunAll runs the scripts at paths with RunFile on jobs workers (at least
// one), in path order, and returns at once. Each script has its own
// deadline, opt.Timeout, so one that loops (REPEAT 2000000000) fails
// alone while the others run; ctx ends them all. With one job, commands
// are logged to opt.Log as they run; with several, each script's log is
// kept apart for Log, so logs do not interleave.
func RunAll(ctx context.Context, paths []string, opt Options, jobs int) *Runs {
	jobs = max(jobs, 1)
	rs := &Runs{results: make([]Result, len(paths)), logs: make([]bytes.Buffer, len(paths)),
		done: make([]chan struct{}, len(paths)), split: opt.Log != nil && jobs > 1}
	for i := range rs.done {
		rs.done[i] = make(chan struct{})
	}
	next := make(chan int)
	for w := 0; w < min(jobs, len(paths)); w++ {
		rs.wg.Add(1)
		go func() {
			defer rs.wg.Done()
			for i := range next {
				o := opt
				if rs.split {
					o.Log = &rs.logs[i]
				}
				rs.results[i] = RunFile(ctx, paths[i], o)
				close(rs.done[i])
			}
		}()
	}
	go func() {
		defer close(next)
		for i := range paths {
			next <- i
		}
	}()
	return rs
}

// Done is closed when script i has finished.
func (rs *Runs) Done(i int) <-chan struct{} { return rs.done[i] }

// Result waits for script i and returns its result.
func (rs *Runs) Result(i int) Result {
	<-rs.done[i]
	return rs.results[i]
}

// Log waits for script i and returns its log when RunAll kept the logs
// apart (several jobs and an Options.Log); otherwise it is empty.
func (rs *Runs) Log(i int) []byte {
	<-rs.done[i]
	return rs.logs[i].Bytes()
}

// Wait waits for every script and returns the results in path order.
func (rs *Runs) Wait() []Result {
	rs.wg.Wait()
	return rs.results
}
