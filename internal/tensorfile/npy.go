package tensorfile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"spvx/internal/checked"
)

// ErrFormat is wrapped by every error about malformed file contents.
var ErrFormat = errors.New("bad tensor file")

func formatErr(f string, args ...any) error {
	return fmt.Errorf("%w: "+f, append([]any{ErrFormat}, args...)...)
}

var npyMagic = []byte("\x93NUMPY")

// IsNPY reports whether b starts with the .npy magic string.
func IsNPY(b []byte) bool { return bytes.HasPrefix(b, npyMagic) }

// npyHeader is what a .npy preamble and header declare.
type npyHeader struct {
	shape     []int
	dataStart int // offset of the first data byte
	dataBytes int // 4 × the element count, overflow-checked
}

// parseNPYPrefix reads the preamble and header at the start of b, which
// must hold the whole header, and checks that they declare a float32
// C-order array whose byte size fits in an int. It looks at no data.
func parseNPYPrefix(b []byte) (npyHeader, error) {
	if !IsNPY(b) {
		return npyHeader{}, formatErr("not a .npy file (missing \\x93NUMPY magic)")
	}
	if len(b) < 10 {
		return npyHeader{}, formatErr(".npy file truncated in its preamble")
	}
	var hlen, start int
	switch major := b[6]; major {
	case 1:
		hlen, start = int(binary.LittleEndian.Uint16(b[8:10])), 10
	case 2, 3:
		if len(b) < 12 {
			return npyHeader{}, formatErr(".npy file truncated in its preamble")
		}
		h := binary.LittleEndian.Uint32(b[8:12])
		if uint64(h) > uint64(len(b)) {
			return npyHeader{}, formatErr(".npy header length %d exceeds the file size %d", h, len(b))
		}
		hlen, start = int(h), 12
	default:
		return npyHeader{}, formatErr("unsupported .npy format version %d.%d", major, b[7])
	}
	if hlen > len(b)-start {
		return npyHeader{}, formatErr(".npy header length %d exceeds the file size %d", hlen, len(b))
	}
	descr, fortran, shape, err := parseNPYHeader(string(b[start : start+hlen]))
	if err != nil {
		return npyHeader{}, err
	}
	if descr != "<f4" {
		return npyHeader{}, formatErr("unsupported dtype %q: want little-endian float32 '<f4'", descr)
	}
	if fortran && len(shape) > 1 {
		return npyHeader{}, formatErr("Fortran-order .npy arrays are not supported; save with np.ascontiguousarray")
	}
	n, ok := checked.Product(shape, 4)
	if !ok {
		return npyHeader{}, formatErr(".npy shape %v is too large: its byte size overflows", shape)
	}
	return npyHeader{shape: shape, dataStart: start + hlen, dataBytes: n}, nil
}

// NPYSize returns the size in bytes of the float32 .npy file that starts
// with head, which must hold the preamble and the whole header (at most
// 12 + the header length bytes; numpy writes headers of 128 bytes or a
// few KB). It reads no data, so a reader of a stream can reject one that
// is not such a file, or is larger than it accepts, from its first bytes,
// and read exactly the file otherwise. Errors wrap ErrFormat.
func NPYSize(head []byte) (int, error) {
	h, err := parseNPYPrefix(head)
	if err != nil {
		return 0, err
	}
	size, ok := checked.Add(h.dataStart, h.dataBytes)
	if !ok {
		return 0, formatErr(".npy shape %v is too large: its byte size overflows", h.shape)
	}
	return size, nil
}

// NPYPrefixLen returns how many bytes of a .npy file NPYSize needs: the
// preamble and the header whose length the preamble gives. head must hold
// at least the 12-byte preamble, or the whole file if it is shorter.
func NPYPrefixLen(head []byte) (int, error) {
	if !IsNPY(head) {
		return 0, formatErr("not a .npy file (missing \\x93NUMPY magic)")
	}
	if len(head) < 10 || (head[6] != 1 && len(head) < 12) {
		return 0, formatErr(".npy file truncated in its preamble")
	}
	switch head[6] {
	case 1:
		return 10 + int(binary.LittleEndian.Uint16(head[8:10])), nil
	case 2, 3:
		return 12 + int(binary.LittleEndian.Uint32(head[8:12])), nil
	}
	return 0, formatErr("unsupported .npy format version %d.%d", head[6], head[7])
}

// ReadNPY decodes a .npy file holding a little-endian float32 array in C
// order (descr '<f4'). It returns the values and the shape (empty for a
// scalar). The data must be exactly the size the shape declares; the size
// is checked, without overflow, before anything is allocated.
func ReadNPY(b []byte) ([]float32, []int, error) {
	h, err := parseNPYPrefix(b)
	if err != nil {
		return nil, nil, err
	}
	data := b[h.dataStart:]
	switch {
	case len(data) < h.dataBytes:
		return nil, nil, formatErr(".npy data truncated: shape %v needs %d bytes, file has %d", h.shape, h.dataBytes, len(data))
	case len(data) > h.dataBytes:
		return nil, nil, formatErr(".npy data is %d bytes, %d more than shape %v needs (%d)", len(data), len(data)-h.dataBytes, h.shape, h.dataBytes)
	}
	out := make([]float32, h.dataBytes/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:]))
	}
	return out, h.shape, nil
}

// parseNPYHeader reads the Python dict literal of a .npy header, e.g.
// {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }.
func parseNPYHeader(h string) (descr string, fortran bool, shape []int, err error) {
	h = strings.TrimSpace(h)
	if !strings.HasPrefix(h, "{") || !strings.HasSuffix(h, "}") {
		return "", false, nil, formatErr(".npy header is not a dict: %.40q", h)
	}
	var haveDescr, haveOrder, haveShape bool
	rest := strings.TrimSpace(h[1 : len(h)-1])
	for rest != "" {
		key, r, ok := pyString(rest)
		if !ok {
			return "", false, nil, formatErr(".npy header: expected a quoted key at %.20q", rest)
		}
		r = strings.TrimSpace(r)
		if !strings.HasPrefix(r, ":") {
			return "", false, nil, formatErr(".npy header: expected ':' after %q", key)
		}
		r = strings.TrimSpace(r[1:])
		switch key {
		case "descr":
			descr, r, ok = pyString(r)
			if !ok {
				return "", false, nil, formatErr(".npy header: descr is not a string")
			}
			haveDescr = true
		case "fortran_order":
			switch {
			case strings.HasPrefix(r, "False"):
				r = r[5:]
			case strings.HasPrefix(r, "True"):
				fortran, r = true, r[4:]
			default:
				return "", false, nil, formatErr(".npy header: fortran_order is not True or False")
			}
			haveOrder = true
		case "shape":
			end := strings.IndexByte(r, ')')
			if !strings.HasPrefix(r, "(") || end < 0 {
				return "", false, nil, formatErr(".npy header: shape is not a tuple")
			}
			shape = []int{}
			for _, f := range strings.Split(r[1:end], ",") {
				f = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(f), "L"))
				if f == "" {
					continue
				}
				d, err := strconv.Atoi(f)
				if err != nil || d < 0 {
					return "", false, nil, formatErr(".npy header: bad dimension %q", f)
				}
				shape = append(shape, d)
			}
			r = r[end+1:]
			haveShape = true
		default:
			return "", false, nil, formatErr(".npy header: unknown key %q", key)
		}
		r = strings.TrimSpace(r)
		r = strings.TrimSpace(strings.TrimPrefix(r, ","))
		rest = r
	}
	if !haveDescr || !haveOrder || !haveShape {
		return "", false, nil, formatErr(".npy header lacks descr, fortran_order or shape")
	}
	return descr, fortran, shape, nil
}

// pyString reads a single- or double-quoted Python string without escapes.
func pyString(s string) (val, rest string, ok bool) {
	if s == "" || (s[0] != '\'' && s[0] != '"') {
		return "", s, false
	}
	end := strings.IndexByte(s[1:], s[0])
	if end < 0 {
		return "", s, false
	}
	return s[1 : 1+end], s[2+end:], true
}

// WriteNPY writes data as a version 1.0 .npy float32 array of the given
// shape, whose element count must equal len(data).
func WriteNPY(w io.Writer, data []float32, shape []int) error {
	if n, ok := checked.Product(shape, 1); !ok || n != len(data) {
		return fmt.Errorf("tensorfile: shape %v does not hold the %d elements of data", shape, len(data))
	}
	dims := make([]string, len(shape))
	for i, d := range shape {
		dims[i] = strconv.Itoa(d)
	}
	tuple := strings.Join(dims, ", ")
	if len(shape) == 1 {
		tuple += ","
	}
	header := fmt.Sprintf("{'descr': '<f4', 'fortran_order': False, 'shape': (%s), }", tuple)
	// Pad with spaces so the data starts on a 64-byte boundary, ending in \n.
	total := 10 + len(header) + 1
	header += strings.Repeat(" ", (64-total%64)%64) + "\n"
	if len(header) > math.MaxUint16 {
		return fmt.Errorf("tensorfile: .npy header too long")
	}
	buf := make([]byte, 10, 10+len(header))
	copy(buf, npyMagic)
	buf[6], buf[7] = 1, 0
	binary.LittleEndian.PutUint16(buf[8:], uint16(len(header)))
	buf = append(buf, header...)
	if _, err := w.Write(buf); err != nil {
		return err
	}
	return WriteRawFloat32(w, data)
}

// writeChunk is how many bytes WriteRawFloat32 encodes per Write: the
// output is never a second copy of the data in memory.
const writeChunk = 64 << 10

// ReadRawFloat32 decodes raw little-endian float32 values (.f32/.bin).
func ReadRawFloat32(b []byte) ([]float32, error) {
	if len(b)%4 != 0 {
		return nil, formatErr("raw float32 data is %d bytes, not a multiple of 4 (truncated?)", len(b))
	}
	out := make([]float32, len(b)/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out, nil
}

// WriteRawFloat32 writes values as raw little-endian float32, in writes
// of at most 64 KiB.
func WriteRawFloat32(w io.Writer, data []float32) error {
	buf := make([]byte, 0, min(4*len(data), writeChunk))
	for len(data) > 0 {
		n := min(len(data), writeChunk/4)
		buf = buf[:0]
		for _, v := range data[:n] {
			buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(v))
		}
		if _, err := w.Write(buf); err != nil {
			return err
		}
		data = data[n:]
	}
	return nil
}
