package amber

import (
	"math"
)

// ImageDim is an IMAGE's dimensionality (DIM_1D, DIM_2D, DIM_3D).
type ImageDim uint8

// Dimensionalities; DimUnknown is a buffer that never said, which amber's
// Vulkan engine makes a 2D image.
const (
	DimUnknown ImageDim = iota
	Dim1D
	Dim2D
	Dim3D
)

// ImageInfo is what an IMAGE command (or BUFFER FORMAT's MIP_LEVELS and
// SAMPLES) says about a buffer as an image. Zero sizes mean 1, as
// amber's Buffer defaults them.
type ImageInfo struct {
	Dim                  ImageDim
	Width, Height, Depth uint32
	MipLevels, Samples   uint32
}

func one(v uint32) uint32 {
	if v == 0 {
		return 1
	}
	return v
}

// Size is the image's width, height and depth, each at least 1.
func (im ImageInfo) Size() (w, h, d uint32) {
	return one(im.Width), one(im.Height), one(im.Depth)
}

// Levels is MIP_LEVELS, at least 1.
func (im ImageInfo) Levels() uint32 { return one(im.MipLevels) }

// validSamples are the sample counts amber accepts (parser.cc).
func validSamples(n uint32) bool {
	switch n {
	case 1, 2, 4, 8, 16, 32, 64:
		return true
	}
	return false
}

// ---- IMAGE ----

// image parses IMAGE as amber's Parser::ParseImage: options in any order
// until an initializer (DATA, FILL, SERIES_FROM) or the end of the line.
func (p *amberParser) image(cmd token) error {
	t := p.z.next()
	if t.kind != tokIdent {
		return errAt(t.line, "invalid IMAGE name provided: %s", t.show())
	}
	name := t.text
	if name == "DATA_TYPE" || name == "FORMAT" {
		return errAt(t.line, "missing IMAGE name")
	}
	b := &Buffer{Name: name, Line: cmd.line}
	var set [3]bool // WIDTH, HEIGHT, DEPTH given
	for {
		t = p.z.peek()
		if t.kind != tokIdent || t.text == "FILL" || t.text == "SERIES_FROM" || t.text == "DATA" {
			break
		}
		p.z.next()
		if err := p.imageOption(b, t, &set); err != nil {
			return err
		}
	}
	if b.Image.Dim == Dim3D && !set[2] {
		return errAt(t.line, "expected IMAGE DEPTH")
	}
	if (b.Image.Dim == Dim3D || b.Image.Dim == Dim2D) && !set[1] {
		return errAt(t.line, "expected IMAGE HEIGHT")
	}
	if !set[0] {
		return errAt(t.line, "expected IMAGE WIDTH")
	}
	if b.Format == nil {
		// amber dereferences the missing format; a message instead.
		return errAt(t.line, "IMAGE missing DATA_TYPE or FORMAT")
	}
	return p.imageData(b, cmd)
}

// imageOption applies one IMAGE option, t being its keyword.
func (p *amberParser) imageOption(b *Buffer, t token, set *[3]bool) error {
	switch t.text {
	case "DATA_TYPE", "FORMAT":
		f := p.z.next()
		if f.kind != tokIdent {
			if t.text == "FORMAT" {
				return errAt(f.line, "IMAGE FORMAT must be an identifier: %s", f.show())
			}
			return errAt(f.line, "IMAGE invalid data type: %s", f.show())
		}
		var ty *Type
		if t.text == "FORMAT" {
			if ty = ParseType(f.text); ty == nil {
				return errAt(f.line, "invalid IMAGE FORMAT: %s", f.show())
			}
		} else if ty = p.lookupType(f.text); ty == nil {
			return errAt(f.line, "invalid data type '%s' provided", f.text)
		}
		b.Format = NewFormat(ty, Std430)
		if !b.Format.fits() {
			return errAt(f.line, "Struct has more members then fit within stride")
		}
	case "MIP_LEVELS":
		v, err := uintField(p.z.next(), "invalid value for MIP_LEVELS")
		if err != nil {
			return err
		}
		b.Image.MipLevels = v
	case "DIM_1D":
		b.Image.Dim = Dim1D
	case "DIM_2D":
		b.Image.Dim = Dim2D
	case "DIM_3D":
		b.Image.Dim = Dim3D
	case "WIDTH", "HEIGHT", "DEPTH":
		v := p.z.next()
		n, err := uintField(v, "expected positive IMAGE "+t.text)
		if err == nil && n == 0 {
			err = errAt(v.line, "expected positive IMAGE %s: %s", t.text, v.show())
		}
		if err != nil {
			return err
		}
		switch t.text {
		case "WIDTH":
			b.Image.Width, set[0] = n, true
		case "HEIGHT":
			b.Image.Height, set[1] = n, true
		default:
			b.Image.Depth, set[2] = n, true
		}
	case "SAMPLES":
		v := p.z.next()
		n, err := uintField(v, "expected integer value for SAMPLES")
		if err != nil {
			return err
		}
		if !validSamples(n) {
			return errAt(v.line, "invalid sample count: %s", v.show())
		}
		b.Image.Samples = n
	default:
		return errAt(t.line, "unknown IMAGE command provided: %s", t.show())
	}
	return nil
}

// imageData sizes the image's buffer (width × height × depth texels) and
// reads its initializer, then declares the buffer.
func (p *amberParser) imageData(b *Buffer, cmd token) error {
	w, h, d := b.Image.Size()
	n := uint64(w) * uint64(h) * uint64(d)
	if n > math.MaxInt32 {
		return errAt(cmd.line, "IMAGE too large: %d×%d×%d texels", w, h, d)
	}
	t := p.z.next()
	var err error
	switch {
	case t.isIdent("DATA"):
		err = p.imageDataValues(b, int(n), t)
	case t.isIdent("FILL"), t.isIdent("SERIES_FROM"):
		if err = p.setElements(b, int(n), t.line); err != nil {
			return err
		}
		if t.text == "FILL" {
			err = p.bufferFill(b)
		} else {
			err = p.bufferSeries(b)
		}
	case t.isEnd():
		err = p.setElements(b, int(n), t.line)
	default:
		err = errAt(t.line, "unexpected IMAGE token: %s", t.show())
	}
	if err != nil {
		return err
	}
	if _, dup := p.s.buffers[b.Name]; dup {
		return errAt(cmd.line, "duplicate buffer name provided")
	}
	p.s.buffers[b.Name] = b
	p.s.Buffers = append(p.s.Buffers, b)
	return nil
}

// imageDataValues reads DATA … END, which must give every texel.
func (p *amberParser) imageDataValues(b *Buffer, n int, t token) error {
	vals, counted, err := p.dataValues(b.Format, p.z, false)
	defer p.free(counted * valueBytes)
	if err != nil {
		return err
	}
	if err := p.setData(b, vals, t.line); err != nil {
		return err
	}
	if b.Elements != n {
		return errAt(t.line, "Elements provided in data does not match size specified: %d specified vs %d provided", n, b.Elements)
	}
	return p.endOfStatement("BUFFER data command")
}
