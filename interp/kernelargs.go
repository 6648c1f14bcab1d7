package interp

import (
	"fmt"

	"spvx/spirv"
)

// kernelParams describes the entry function's parameters (kernel arguments).
func (c *compiler) kernelParams() error {
	sf := c.fnIndex[c.p.entry.id]
	for _, pid := range sf.Params {
		s, t, err := c.slot(pid)
		if err != nil {
			return err
		}
		pa := param{slot: s, n: int32(t.ncomp), sc: t.sc}
		if t.kind == spirv.TypePointer {
			pa.pointer, pa.storage = true, t.storage
			pe, err := c.typ(t.pointeeID)
			if err != nil {
				return err
			}
			if t.storage == spirv.StorageClassFunction {
				off, err := c.invAlloc(pe)
				if err != nil {
					return err
				}
				pa.invOff, pa.size = off, int(pe.size)
				c.p.lanePtrs = append(c.p.lanePtrs, lanePtr{slot: s, off: off})
			}
		} else {
			if err := c.layout(t); err != nil {
				return err
			}
			lv, err := c.leaves(nil, t, 0, matLay{}, 0)
			if err != nil {
				return err
			}
			pa.leaves, pa.size = lv, int(t.size)
		}
		c.p.params = append(c.p.params, pa)
	}
	c.p.nregions = regFirstBuf + len(sf.Params)
	if c.p.nregions >= 1<<(64-c.p.ptrShift) {
		return fmt.Errorf("too many kernel arguments")
	}
	return nil
}
