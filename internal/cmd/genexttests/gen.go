package main

// The scripts live in amber/testdata/ext; go generate ./... does not descend
// into testdata folders, so the directive sits here.

//go:generate go run . -o ../../../amber/testdata/ext
