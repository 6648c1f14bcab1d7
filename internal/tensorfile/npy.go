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
)

// ErrFormat is wrapped by every error about malformed file contents.
var ErrFormat = errors.New("bad tensor file")

func formatErr(f string, args ...any) error {
	return fmt.Errorf("%w: "+f, append([]any{ErrFormat}, args...)...)
}

var npyMagic = []byte("\x93NUMPY")

// IsNPY reports whether b starts with the .npy magic string.
func IsNPY(b []byte) bool { return bytes.HasPrefix(b, npyMagic) }

// ReadNPY decodes a .npy file holding a little-endian float32 array in C
// order (descr '<f4'). It returns the values and the shape (empty for a
// scalar).
func ReadNPY(b []byte) ([]float32, []int, error) {
	if !IsNPY(b) {
		return nil, nil, formatErr("not a .npy file (missing \\x93NUMPY magic)")
	}
	if len(b) < 10 {
		return nil, nil, formatErr(".npy file truncated in its preamble")
	}
	major := b[6]
	var hlen, start int
	switch major {
	case 1:
		hlen, start = int(binary.LittleEndian.Uint16(b[8:10])), 10
	case 2, 3:
		if len(b) < 12 {
			return nil, nil, formatErr(".npy file truncated in its preamble")
		}
		h := binary.LittleEndian.Uint32(b[8:12])
		if uint64(h) > uint64(len(b)) {
			return nil, nil, formatErr(".npy header length %d exceeds the file size %d", h, len(b))
		}
		hlen, start = int(h), 12
	default:
		return nil, nil, formatErr("unsupported .npy format version %d.%d", major, b[7])
	}
	if start+hlen > len(b) {
		return nil, nil, formatErr(".npy header length %d exceeds the file size %d", hlen, len(b))
	}
	descr, fortran, shape, err := parseNPYHeader(string(b[start : start+hlen]))
	if err != nil {
		return nil, nil, err
	}
	if descr != "<f4" {
		return nil, nil, formatErr("unsupported dtype %q: want little-endian float32 '<f4'", descr)
	}
	data := b[start+hlen:]
	n := 1
	for _, d := range shape {
		if d != 0 && n > len(data)/4/d+1 {
			return nil, nil, formatErr(".npy shape %v needs more data than the file holds (%d bytes)", shape, len(data))
		}
		n *= d
	}
	if fortran && len(shape) > 1 {
		return nil, nil, formatErr("Fortran-order .npy arrays are not supported; save with np.ascontiguousarray")
	}
	if n*4 > len(data) {
		return nil, nil, formatErr(".npy data truncated: shape %v needs %d bytes, file has %d", shape, n*4, len(data))
	}
	out := make([]float32, n)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:]))
	}
	return out, shape, nil
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
	n := 1
	for _, d := range shape {
		n *= d
	}
	if n != len(data) {
		return fmt.Errorf("tensorfile: shape %v holds %d elements, data has %d", shape, n, len(data))
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
	buf := make([]byte, 10, 10+len(header)+4*len(data))
	copy(buf, npyMagic)
	buf[6], buf[7] = 1, 0
	binary.LittleEndian.PutUint16(buf[8:], uint16(len(header)))
	buf = append(buf, header...)
	for _, v := range data {
		buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(v))
	}
	_, err := w.Write(buf)
	return err
}

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

// WriteRawFloat32 writes values as raw little-endian float32.
func WriteRawFloat32(w io.Writer, data []float32) error {
	buf := make([]byte, 0, 4*len(data))
	for _, v := range data {
		buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(v))
	}
	_, err := w.Write(buf)
	return err
}
