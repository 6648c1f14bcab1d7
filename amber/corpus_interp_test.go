package amber

// TestRunCorpus runs the shared scripts on the executor.
func init() { corpusEngine = InterpEngine{} }
