package main

import (
	"bytes"
	"fmt"
	"io"

	"spvx/amber"
)

// This file holds amber's script-mode flags that need more than a switch:
// -p (parse and compile only) and -b/-B (dump buffers after the run).

// dumpFile returns the -b file as amber's sample runner writes it: per
// buffer the -B text on a line, then its bytes as " xx" hex, sixteen to a
// line. A buffer that was not found gets amber's empty line, and its
// reason goes to stderr; found reports whether every buffer was.
func dumpFile(xs []amber.Extraction, stderr io.Writer) (file []byte, found bool) {
	var b bytes.Buffer
	found = true
	for _, x := range xs {
		fmt.Fprintln(&b, x.ID.Text)
		if x.Err != nil {
			fmt.Fprintf(stderr, "spvx run: -B %s: %s\n", termSafe(x.ID.Text, false), termSafe(x.Err.Error(), true))
			found = false
		}
		for i, v := range x.Data {
			fmt.Fprintf(&b, " %02x", v)
			if i%16 == 15 {
				b.WriteByte('\n')
			}
		}
		b.WriteByte('\n')
	}
	return b.Bytes(), found
}

// compileOnlyReport prints what -p found, as amber -p prints a parse
// error: nothing for a script that parses and compiles, FILE:LINE:
// message for one that does not, and a note for one that needs what spvx
// lacks. It returns the exit status.
func compileOnlyReport(results []amber.Result, stderr io.Writer) int {
	status := exitOK
	for _, r := range results {
		switch r.Status {
		case amber.Fail:
			fmt.Fprintf(stderr, "%s\n", termSafe(r.Reason, true))
			status = exitRejected
		case amber.SkipStatus:
			fmt.Fprintf(stderr, "%s: parses, but needs what spvx lacks: %s\n", termSafe(r.Path, false), termSafe(r.Reason, true))
		}
	}
	return status
}
