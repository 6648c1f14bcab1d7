//go:build !race

package amber

// raceEnabled: this test binary has the race detector (go test -race).
const raceEnabled = false
