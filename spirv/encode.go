package spirv

import "encoding/binary"

// Size returns the module's size in words, header included.
func (m *Module) Size() int {
	if n := len(m.insts); n > 0 {
		last := &m.insts[n-1]
		return int(last.offset) + int(last.nwords)
	}
	return 5
}

// Encode returns the binary form of the module, in the byte order it was
// decoded from (little-endian for a zero Module). For a decoded
// module, Encode(Decode(b)) == b.
func (m *Module) Encode() []byte {
	return m.AppendEncoded(make([]byte, 0, 4*m.Size()))
}

// AppendEncoded appends the module's binary form to dst.
func (m *Module) AppendEncoded(dst []byte) []byte {
	var order binary.AppendByteOrder = binary.LittleEndian
	if m.Header.BigEndian {
		order = binary.BigEndian
	}
	h := &m.Header
	for _, w := range [5]uint32{MagicNumber, uint32(h.Version), h.Generator, h.Bound, h.Schema} {
		dst = order.AppendUint32(dst, w)
	}
	body := m.Words()
	if len(body) > 5 {
		body = body[5:]
	} else {
		body = nil
	}
	if m.Header.BigEndian {
		for _, w := range body {
			dst = binary.BigEndian.AppendUint32(dst, w)
		}
		return dst
	}
	return appendLittleEndian(dst, body)
}

// appendLittleEndian is the encoder's hot loop: grow once, then store.
func appendLittleEndian(dst []byte, words []uint32) []byte {
	n := len(dst)
	dst = append(dst, make([]byte, 4*len(words))...)
	b := dst[n:]
	for i, w := range words {
		binary.LittleEndian.PutUint32(b[4*i:], w)
	}
	return dst
}
