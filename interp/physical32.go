package interp

import "fmt"

// Physical32 pointers are 32-bit values (OpConvertPtrToU gives a uint, a
// pointer stored to memory takes 4 bytes), so the region<<26 | offset
// encoding must fit in 32 bits: at most 64 regions (60 kernel arguments)
// of at most 64 MiB each. check32 rejects a dispatch that does not fit,
// instead of letting an offset run into the region bits.
func (d *dispatch) check32() error {
	p := d.p
	const limit = 1 << 26
	if len(d.regions) > 1<<(32-26) {
		return fmt.Errorf("interp: a Physical32 kernel can take at most %d arguments, this one has %d", 1<<(32-26)-regFirstBuf, len(p.params))
	}
	for reg, m := range d.regions {
		if len(m) > limit {
			return fmt.Errorf("interp: %s has %d bytes, more than the 64 MiB a Physical32 pointer addresses", d.regionName(reg), len(m))
		}
	}
	if d.wgBytes > limit {
		return fmt.Errorf("interp: workgroup memory of %d bytes is more than the 64 MiB a Physical32 pointer addresses", d.wgBytes)
	}
	return nil
}

// check32Private rejects a Physical32 dispatch whose workgroup's private
// memory (every lane's, one region: a pointer names the workgroup lane)
// does not fit a pointer's offset.
func (d *dispatch) check32Private() error {
	p := d.p
	inv := uint64(d.local[0]) * uint64(d.local[1]) * uint64(d.local[2])
	lanes := (inv + uint64(p.S) - 1) / uint64(p.S) * uint64(p.S)
	if uint64(p.invSize)*lanes > 1<<26 {
		return fmt.Errorf("interp: private memory of %d bytes per invocation is too large for Physical32 pointers with %d invocations per workgroup", p.invSize, inv)
	}
	return nil
}
