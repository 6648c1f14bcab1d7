//go:build race

package interpengine

// raceEnabled: this test binary has the race detector (go test -race).
const raceEnabled = true
