package dis

import "spvx/spirv"

// appendGenerator appends the "; Generator:" value for the generator word:
// the tool's name (or "Unknown(<id>)"), "; ", and the tool's own version
// number from the low 16 bits.
func appendGenerator(b []byte, gen uint32) []byte {
	b = append(b, spirv.ToolName(gen>>16)...)
	b = append(b, "; "...)
	return appendUint(b, uint64(gen&0xFFFF))
}
