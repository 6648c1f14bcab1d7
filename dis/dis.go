package dis

import (
	"io"

	"spvx/spirv"
)

// Options select the output form. The zero value gives spirv-dis's default
// output (friendly names, header comments, indentation, no color); each
// field mirrors the spirv-dis flag in its comment.
type Options struct {
	RawID         bool // --raw-id: print ids as numbers, not friendly names
	NoHeader      bool // --no-header: omit the "; SPIR-V" header comments
	NoIndent      bool // --no-indent: do not align the "%id = " column
	Offsets       bool // --offsets: comment each instruction with its byte offset
	Comment       bool // --comment: section headings, OpName ids, decorations as comments
	NestedIndent  bool // --nested-indent: indent blocks by structured control flow
	ReorderBlocks bool // --reorder-blocks: print blocks in structured order
	Color         bool // --color: ANSI colors as spirv-dis prints them on a terminal
}

// Disassemble returns the text of m.
func Disassemble(m *spirv.Module, opt Options) []byte {
	return Append(nil, m, opt)
}

// Append appends the text of m to dst and returns the extended buffer.
func Append(dst []byte, m *spirv.Module, opt Options) []byte {
	p := newPrinter(dst, m, opt)
	p.module()
	return p.b
}

// Fprint writes the text of m to w.
func Fprint(w io.Writer, m *spirv.Module, opt Options) error {
	_, err := w.Write(Disassemble(m, opt))
	return err
}

// DisassembleBinary decodes a binary module (either byte order) and returns
// its text. A module that does not decode gives the *spirv.DecodeError and
// no text.
func DisassembleBinary(b []byte, opt Options) ([]byte, error) {
	m, err := spirv.Decode(b)
	if err != nil {
		return nil, err
	}
	return Disassemble(m, opt), nil
}
