package amber

import "spvx/interp"

// TestRunCorpus runs the shared scripts on the executor. Under the race
// detector it dispatches workgroups on one goroutine: a few CTS scripts have
// shader-level data races between workgroups (compute_push_constant_and_ssbo's
// three workgroups store the same words; graphicsfuzz's
// two-for-loops-with-barrier-function; memory_model's
// release_acquire_atomic_payload), which in parallel are Go data races too,
// and which the detector rightly reports. interp's own tests run race-free
// kernels on several goroutines under -race.
func init() {
	e := InterpEngine{}
	if raceEnabled {
		e.Options = interp.Options{Parallelism: 1}
	}
	corpusEngine = e
}
