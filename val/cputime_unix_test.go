//go:build unix

package val

import (
	"syscall"
	"time"
)

// cpuTime is the process's user and system CPU time: steadier than wall
// time on a loaded machine, where a run may wait for a core.
func cpuTime() time.Duration {
	var r syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &r) != nil {
		return time.Duration(time.Now().UnixNano())
	}
	return time.Duration(r.Utime.Nano() + r.Stime.Nano())
}
