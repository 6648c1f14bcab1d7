//go:build !unix

package val

import "time"

var processStart = time.Now()

// cpuTime falls back to wall time where getrusage does not exist.
func cpuTime() time.Duration { return time.Since(processStart) }
