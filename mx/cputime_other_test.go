//go:build !unix

package mx

import "time"

// cpuTime is unavailable here; the CPU-time metrics read 0.
func cpuTime() time.Duration { return 0 }
