package dis

import (
	"io"
	"runtime"

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
	return printModule(dst, nil, m, opt).b
}

// Fprint writes the text of m to w, in chunks, without holding the whole
// text in memory. It returns the first write error.
func Fprint(w io.Writer, m *spirv.Module, opt Options) error {
	p := printModule(nil, w, m, opt)
	p.flush()
	return p.err
}

// DisassembleBinary decodes a binary module (either byte order) and returns
// its text. A module that does not decode gives spirv.Decode's
// *spirv.DecodeError and no text.
func DisassembleBinary(b []byte, opt Options) ([]byte, error) {
	if p, ok := printBinary(nil, nil, b, opt); ok {
		return p.b, nil
	}
	m, err := spirv.Decode(b)
	if err != nil {
		return nil, err
	}
	return Disassemble(m, opt), nil
}

// FprintBinary decodes a binary module and writes its text to w, in chunks.
// A module that does not decode gives spirv.Decode's *spirv.DecodeError,
// and then nothing is written; otherwise the error is w's.
//
// This is the fast way from a file to text: the module is decoded twice,
// one instruction at a time, and never held whole (see stream).
func FprintBinary(w io.Writer, b []byte, opt Options) error {
	if p, ok := printBinary(nil, w, b, opt); ok {
		p.flush()
		return p.err
	}
	m, err := spirv.Decode(b)
	if err != nil {
		return err
	}
	return Fprint(w, m, opt)
}

// printBinary prints b without building a spirv.Module: a first pass
// checks every instruction and assigns the names, a second prints. ok is
// false when b does not decode, or with an option that needs a function's
// blocks at hand (NestedIndent, ReorderBlocks); nothing is printed then.
func printBinary(dst []byte, w io.Writer, b []byte, opt Options) (p *printer, ok bool) {
	if opt.NestedIndent || opt.ReorderBlocks {
		return nil, false
	}
	s, ok := newStream(b)
	if !ok {
		return nil, false
	}
	nm := newNamer(s.bound, s.nwords, opt.RawID)
	for s.next() {
		nm.add(&s.in)
		s.noteDefinition()
	}
	if s.bad {
		return nil, false
	}
	p = newPrinter(dst, w, s.header, s.nwords, opt)
	p.nm = nm
	if !opt.NoHeader {
		p.printHeader()
	}
	// Lines depend on earlier lines only through --comment and --offsets
	// (headings, decorations, comment alignment); otherwise the module can
	// be printed in pieces, in parallel. A result id defined twice could
	// make a piece see a later definition, so such modules print in order.
	if !opt.Comment && !opt.Offsets && !s.dup && len(s.cuts) > 0 && runtime.GOMAXPROCS(0) > 1 {
		p.printChunks(s)
		return p, true
	}
	s.rewind()
	for s.next() {
		if opt.Comment {
			p.sectionComment(&s.in)
		}
		p.inst(&s.in, false, 0)
	}
	return p, true
}
