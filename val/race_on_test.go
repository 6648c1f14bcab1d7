//go:build race

package val

// raceEnabled: the race detector slows maps and allocation unevenly, so
// the CPU-time ratio tests skip under it.
const raceEnabled = true
