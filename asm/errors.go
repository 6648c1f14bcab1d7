package asm

import (
	"fmt"
	"sort"
	"strconv"
)

// Pos is a position in the assembly text. Line and Col count from 1; Col
// counts bytes, as SPIRV-Tools does.
type Pos struct {
	File      string
	Line, Col int
}

// String returns "file:line:col", or "line:col" when File is empty.
func (p Pos) String() string {
	s := strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Col)
	if p.File != "" {
		s = p.File + ":" + s
	}
	return s
}

// Error is one assembly error.
type Error struct {
	Pos Pos
	Msg string // SPIRV-Tools' wording where it has one

	// The line and column spirv-as reports, which differ from Pos after
	// a quoted string that spans lines: spirv-as does not count the
	// newlines inside a word.
	toolsLine, toolsCol int
}

// Error returns "file:line:col: message".
func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// SPIRVTools returns the error as spirv-as prints it:
// "error: LINE: COL: message", with spirv-as's line and column (which
// do not count the newlines inside a quoted string).
func (e *Error) SPIRVTools() string {
	line, col := e.Pos.Line, e.Pos.Col
	if e.toolsLine != 0 {
		line, col = e.toolsLine, e.toolsCol
	}
	return fmt.Sprintf("error: %d: %d: %s", line, col, e.Msg)
}

// ErrorList is the list of errors of one Assemble call, in text order. It
// follows go/scanner.ErrorList.
type ErrorList []*Error

func (l ErrorList) Len() int      { return len(l) }
func (l ErrorList) Swap(i, j int) { l[i], l[j] = l[j], l[i] }
func (l ErrorList) Less(i, j int) bool {
	a, b := l[i].Pos, l[j].Pos
	if a.File != b.File {
		return a.File < b.File
	}
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	return a.Col < b.Col
}

// Sort sorts the list by position. It is stable, so errors at the same
// position keep the order in which they were found.
func (l ErrorList) Sort() { sort.Stable(l) }

// Error returns the first error and a count of the others.
func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	return fmt.Sprintf("%s (and %d more errors)", l[0], len(l)-1)
}

// Err returns l as an error, or nil if the list is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}
