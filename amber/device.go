package amber

func knownFeature(s string) bool  { return true }
func knownProperty(s string) bool { return true }
