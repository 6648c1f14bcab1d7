package main

func coreSubgroupScripts() ([]*script, error)   { return nil, nil }
