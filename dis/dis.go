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
// its text. It accepts what spirv-dis accepts: the module is decoded with
// spirv.DecodeOptions{Lenient: true}, so ids at or above the header's bound
// are printed, not refused. A module that does not decode gives the
// decoder's *spirv.DecodeError and no text.
func DisassembleBinary(b []byte, opt Options) ([]byte, error) {
	p, err := printBinary(nil, nil, b, opt)
	if err != nil {
		return nil, err
	}
	return p.b, nil
}

// FprintBinary decodes a binary module, leniently as DisassembleBinary does,
// and writes its text to w, in chunks. A module that does not decode gives
// the decoder's *spirv.DecodeError, and then nothing is written; otherwise
// the error is w's.
//
// This is the fast way from a file to text: the module is read twice, one
// instruction at a time (spirv.Reader), and never held whole, except under
// NestedIndent or ReorderBlocks, which decode it (see printBinary). The
// text is written in chunks whatever its size (see the package doc).
func FprintBinary(w io.Writer, b []byte, opt Options) error {
	p, err := printBinary(nil, w, b, opt)
	if err != nil {
		return err
	}
	p.flush()
	return p.err
}

// lenient decodes as spirv-dis parses: an id past the bound is the
// validator's business.
var lenient = spirv.DecodeOptions{Lenient: true}

// printBinary prints b with a spirv.Reader: a first pass checks every
// instruction and assigns the names, a second prints. Why not
// spirv.Decode? It builds the whole module, about 8 bytes of instructions
// and operands per byte of binary; on the machines spvx runs on, touching
// that much fresh memory costs more than the decoding and printing
// themselves. The options that need a function's blocks at hand
// (NestedIndent, ReorderBlocks) do decode the module.
func printBinary(dst []byte, w io.Writer, b []byte, opt Options) (*printer, error) {
	if opt.NestedIndent || opt.ReorderBlocks {
		m, err := lenient.Decode(b)
		if err != nil {
			return nil, err
		}
		return printModule(dst, w, m, opt), nil
	}
	r, err := lenient.NewReader(b)
	if err != nil {
		return nil, err
	}
	h := r.Header()
	nwords := len(b) / 4
	nm := newNamer(h.Bound, nwords, opt.RawID)
	for {
		in, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		nm.add(in)
	}
	p := newPrinter(dst, w, h, nwords, opt)
	p.nm = nm
	if !opt.NoHeader {
		p.printHeader()
	}
	r.Reset()
	for {
		in, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err // not reached: the first pass read the same
		}
		if opt.Comment {
			p.sectionComment(in)
		}
		p.inst(in, false, 0)
	}
	return p, nil
}
