//go:build unix

package val

import (
	"syscall"
	"time"
)

// cpuTime is the process's user+system CPU time, which a loaded box
// disturbs less than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
