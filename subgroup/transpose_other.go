//go:build !amd64

package subgroup

import "unsafe"

// words8Fast: no assembly here; words8 runs.
func (k *wordKernel) words8Fast(dst, src unsafe.Pointer) bool { return false }
