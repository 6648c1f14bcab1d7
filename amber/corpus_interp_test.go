//go:build spvx_interp

package amber

// With the executor, TestRunCorpus runs the shared scripts on it (drop the
// build tag with interp_engine.go's once interp is merged).
func init() { corpusEngine = InterpEngine{} }
