package main

func bitcastExtractScripts() ([]*script, error) { return nil, nil }
func coreSubgroupScripts() ([]*script, error)   { return nil, nil }
