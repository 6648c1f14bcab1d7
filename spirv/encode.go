package spirv

import "encoding/binary"

// Size returns the module's size in words, header included.
func (m *Module) Size() int {
	n := 5
	for i := range m.Insts {
		n += len(m.Insts[i].Words)
	}
	return n
}

// Encode returns the binary form of the module, in the byte order it was
// decoded from (little-endian for modules built in memory). For a decoded
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
	if m.Header.BigEndian {
		for i := range m.Insts {
			for _, w := range m.Insts[i].Words {
				dst = binary.BigEndian.AppendUint32(dst, w)
			}
		}
		return dst
	}
	for i := range m.Insts {
		dst = appendLittleEndian(dst, m.Insts[i].Words)
	}
	return dst
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
