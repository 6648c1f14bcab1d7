package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"spvx/asm"
	"strings"

	"spvx/internal/hexdump"
	"spvx/spirv"
)

// binaryModule returns the module an input holds: the input itself, or,
// when it is a module written as a hex dump (0x07230203, 0x00010000, ...;
// see internal/hexdump), the bytes the dump spells, as SPIRV-Tools' tools
// accept too.
func binaryModule(data []byte) ([]byte, error) {
	switch inputKindOf(data) {
	case kindEmpty:
		return nil, errEmptyModule
	case kindText:
		return nil, errTextNotBinary
	}
	bin, err := hexdump.Decode(data)
	switch {
	case err != nil:
		return nil, err
	case bin == nil:
		return data, nil
	}
	return bin, nil
}

// The errors for an input of the wrong kind: they say what it is and what
// to run instead, where the decoder would only see a bad magic number.
var (
	errEmptyModule   = errors.New("empty input: no SPIR-V module")
	errTextNotBinary = errors.New("this is text, not a SPIR-V binary; if it is SPIR-V assembly, run 'spvx as' first")
	errBinaryNotText = errors.New("this is a SPIR-V binary, not assembly text; run 'spvx dis' to get its text")
	errHexNotText    = errors.New("this is a hex dump of a SPIR-V binary, not assembly text; run 'spvx dis' to get its text")
	// errMissingText is spirv-as's message for empty input.
	errMissingText = errors.New("Missing assembly text.")
)

// checkText returns the error for assembly input src of the wrong kind.
func checkText(src []byte) error {
	switch inputKindOf(src) {
	case kindEmpty:
		return errMissingText
	case kindBinary:
		return errBinaryNotText
	case kindHex:
		return errHexNotText
	}
	return nil
}

// readChecked reads a named file, or standard input for "-", for a reader
// that can judge a stream from its first bytes. A regular file is mapped
// (or read) whole, as its size is known. A stream (standard input, a pipe,
// a device) first goes to judge, which peeks at its beginning through br
// and returns an error to reject it at once, or the most bytes the stream
// may hold (at most maxInput; less when its header says how long it is).
// release, when not nil, frees data.
func readChecked(name string, s stdio, judge func(br *bufio.Reader) (limit int, err error)) (data []byte, release func(), err error) {
	stream := func(r io.Reader) ([]byte, func(), error) {
		br := bufio.NewReaderSize(r, judgePeek)
		limit, err := judge(br)
		if err != nil {
			return nil, nil, err
		}
		return readLimited(br, 0, min(limit, maxInput))
	}
	if name == "-" {
		return stream(s.in)
	}
	return openInput(name, mapMinSize, stream)
}

// judgePeek is how far readChecked's judge may peek: the preamble and
// header of a .npy file (numpy writes 128 bytes, or a few KB for a shape of
// many dimensions) and the start of a safetensors header.
const judgePeek = 64<<10 + 16

// readText reads the text spvx as assembles: a named file, memory-mapped
// when it is a regular file, or standard input for "-". release, when not
// nil, unmaps the file.
func readText(name string, s stdio) (data []byte, release func(), err error) {
	if name == "-" {
		return readTextStream(s.in)
	}
	return openInput(name, 1, readTextStream)
}

// readTextStream reads assembly text from a stream, rejecting at once one
// whose first bytes hold a NUL, which no text has: spvx as /dev/zero fails
// immediately instead of reading a gigabyte.
func readTextStream(r io.Reader) ([]byte, func(), error) {
	br := bufio.NewReaderSize(r, 4096)
	head, _ := br.Peek(4096)
	if k := inputKindOf(head); k == kindBinary {
		return nil, nil, errBinaryNotText
	}
	if i := bytes.IndexByte(head, 0); i >= 0 {
		return nil, nil, fmt.Errorf("byte %d is NUL: this is not SPIR-V assembly text", i)
	}
	return readAll(br, 0)
}

// mapMinSize is the size from which readModule maps a file rather than
// reading it: below it, mapping and unmapping cost more than a read (spvx
// info over the 1,021 corpus modules, most of a few KB).
const mapMinSize = 64 << 10

// readModule reads a binary module, or its hex dump, from a named file or
// standard input for "-". A stream (standard input, a pipe, a device)
// whose first bytes cannot start a module is rejected at once with the
// error spirv.Decode gives, rather than read to the end: spvx dis
// /dev/zero fails immediately instead of filling memory. release, when
// not nil, unmaps the file.
func readModule(name string, s stdio) (data []byte, release func(), err error) {
	if name == "-" {
		return readModuleStream(s.in)
	}
	return openInput(name, mapMinSize, readModuleStream)
}

// openInput reads a named file: a regular file of at least mapAt bytes is
// mapped, a smaller one read; anything else (a pipe, a device) goes to
// stream.
func openInput(name string, mapAt int64, stream func(io.Reader) ([]byte, func(), error)) (data []byte, release func(), err error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		return stream(f)
	}
	size := fi.Size()
	if size > maxInput {
		return nil, nil, fmt.Errorf("input is larger than %d bytes", maxInput)
	}
	if size >= mapAt && size > 0 {
		if data, release, ok := mapFile(f, size); ok {
			return data, release, nil
		}
	}
	return readAll(f, size)
}

// readModuleStream reads a module from a stream, checking its first bytes
// before reading the rest.
func readModuleStream(r io.Reader) ([]byte, func(), error) {
	br := bufio.NewReaderSize(r, 4096)
	head, _ := br.Peek(4096)
	if inputKindOf(head) == kindText {
		return nil, nil, errTextNotBinary
	}
	if len(head) >= 20 && hexdump.Detect(head) == hexdump.NotHex {
		if _, err := spirv.Decode(head[:20]); errors.Is(err, spirv.ErrBadMagic) {
			return nil, nil, err
		}
	}
	return readAll(br, 0)
}

// readAny reads a named file, or standard input for "-", whatever its
// content (spvx run and spvx val take binaries, hex dumps and text alike,
// and tell them apart afterwards). A stream is read up to maxInput.
// release, when not nil, frees data; a caller whose decoded module views
// data must keep it until the module is no longer used.
func readAny(name string, s stdio) (data []byte, release func(), err error) {
	return readChecked(name, s, func(*bufio.Reader) (int, error) { return maxInput, nil })
}

// inputKind is what an input holds, judged from its first bytes.
type inputKind int

const (
	kindEmpty  inputKind = iota
	kindBinary           // a SPIR-V binary module (either byte order)
	kindHex              // a module written as a hex dump
	kindText             // text: SPIR-V assembly (or an Amber script)
	kindOther            // bytes that are none of these
)

// String names the kind as the messages that name a wrong input do.
func (k inputKind) String() string {
	return [...]string{"empty", "a SPIR-V binary", "a hex dump of a SPIR-V binary", "assembly text", "not SPIR-V (neither a binary, a hex dump nor text)"}[k]
}

// inputKindOf judges an input from its first bytes (a few KB suffice): a
// module starts with the magic number, a hex dump with its spelling (see
// internal/hexdump), text holds no NUL byte.
func inputKindOf(head []byte) inputKind {
	switch {
	case len(head) == 0:
		return kindEmpty
	case len(head) >= 4 && (binary.LittleEndian.Uint32(head) == spirv.MagicNumber || binary.BigEndian.Uint32(head) == spirv.MagicNumber):
		return kindBinary
	case hexdump.Detect(head) != hexdump.NotHex:
		return kindHex
	case bytes.IndexByte(head[:min(len(head), 4096)], 0) < 0:
		return kindText
	}
	return kindOther
}

// decodeInput decodes the module an input holds, whatever its kind: a
// binary, its hex dump, or assembly text, assembled with opt (spvx run and
// val take all three). Assembly errors are every error, one a line.
func decodeInput(data []byte, opt asm.Options) (*spirv.Module, error) {
	switch k := inputKindOf(data); k {
	case kindBinary:
		return spirv.Decode(data)
	case kindHex:
		bin, err := binaryModule(data)
		if err != nil {
			return nil, err
		}
		return spirv.Decode(bin)
	case kindText:
		words, err := asm.Assemble(data, opt)
		var list asm.ErrorList
		if errors.As(err, &list) {
			msgs := make([]string, len(list))
			for i, e := range list {
				msgs[i] = e.Error()
			}
			return nil, errors.New(strings.Join(msgs, "\n"))
		}
		if err != nil {
			return nil, err
		}
		return spirv.DecodeWords(words)
	case kindEmpty:
		return nil, errEmptyModule
	default:
		return nil, errors.New("this is " + k.String())
	}
}

// textPos is a place in assembly text, 1-based.
type textPos struct{ line, col int }

// textPositions returns where each instruction of assembly text src
// starts, in order: at its result id ("%x = OpFoo") or its opcode. It
// follows the assembler's tokens (whitespace, "; comments", quoted
// strings with backslash escapes); the assembler writes one instruction
// per opcode in text order, so the i-th position is instruction i.
func textPositions(src []byte) []textPos {
	var out []textPos
	var prev [2]string // the two tokens before this one
	var prevPos [2]textPos
	line, col := 1, 1
	advance := func(c byte) {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			advance(c)
			i++
			continue
		case c == ';':
			for i < len(src) && src[i] != '\n' {
				advance(src[i])
				i++
			}
			continue
		}
		start, at := i, textPos{line, col}
		if c == '"' {
			for i++; i < len(src) && src[i] != '"'; i++ {
				if src[i] == '\\' && i+1 < len(src) {
					advance(src[i])
					i++
				}
				advance(src[i])
			}
			i = min(i+1, len(src))
			col += 2 // the quotes
		} else {
			for i < len(src) && !isTextSpace(src[i]) && src[i] != ';' {
				i++
				col++
			}
		}
		tok := string(src[start:i])
		if strings.HasPrefix(tok, "Op") {
			if _, ok := spirv.LookupOpcode(tok); ok {
				if prev[1] == "=" && strings.HasPrefix(prev[0], "%") {
					at = prevPos[0]
				}
				out = append(out, at)
			}
		}
		prev[0], prev[1], prevPos[0], prevPos[1] = prev[1], tok, prevPos[1], at
	}
	return out
}

func isTextSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }
