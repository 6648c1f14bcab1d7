//go:build unix

package mx

import (
	"syscall"
	"time"
)

// cpuTime returns the process's user plus system CPU time, so that
// benchmarks on a shared machine can report rates per CPU second next to
// wall-clock rates.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
