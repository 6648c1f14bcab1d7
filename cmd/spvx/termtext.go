package main

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// termSafe returns s with the characters that a terminal would act on
// escaped: C0 controls and DEL as \xNN, C1 controls as \u00NN, bytes that
// are not UTF-8 as \xNN. A script name or a message quoting a script is
// input, and printed raw it could move the cursor, retitle the window or
// hide the line it is on (--json escapes the same characters). With
// keepLines, newlines and tabs pass: a multi-line message stays readable.
func termSafe(s string, keepLines bool) string {
	clean := true
	for _, r := range s {
		if isTermControl(r, keepLines) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1, r < 0x80 && isTermControl(r, keepLines):
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case isTermControl(r, keepLines):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func isTermControl(r rune, keepLines bool) bool {
	if keepLines && (r == '\n' || r == '\t') {
		return false
	}
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == utf8.RuneError
}
