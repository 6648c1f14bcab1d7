package checkpoint

import (
	"encoding/binary"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Converting a tensor piece by piece on several goroutines. Each worker
// reads its piece (pread), converts it and writes the result (pwrite) at
// offsets no other piece touches, so reading the input overlaps
// converting it and both cores convert; a piece is small enough that what
// was just read is still in the core's cache when it is converted.

// quantSeg is about the number of elements one worker converts at a time:
// 128 Ki elements are 256 KiB of bfloat16 input (512 KiB as float32), so
// a piece's input and output stay in a 1 MiB L2 cache.
const quantSeg = 1 << 17

// maxWorkers bounds Options.Workers: each worker holds its own buffers,
// so a huge count must not allocate a buffer set per requested goroutine.
const maxWorkers = 256

// workerCount is Options.Workers (at most maxWorkers), or GOMAXPROCS for 0.
func workerCount(w int) int {
	if w <= 0 {
		w = runtime.GOMAXPROCS(0)
	}
	return min(w, maxWorkers)
}

// runPieces calls do(w, i, pc) for every piece of g, pieces in order i,
// on up to workers goroutines (w is the worker's number, for its
// buffers). It returns the error of the lowest-numbered piece that
// failed; pieces after a failure may be skipped.
func runPieces(g geometry, workers int, do func(w, i int, pc piece) error) error {
	var list []piece
	g.pieces(func(pc piece) error {
		list = append(list, pc)
		return nil
	})
	workers = max(1, min(workers, len(list)))
	if workers == 1 {
		for i, pc := range list {
			if err := do(0, i, pc); err != nil {
				return err
			}
		}
		return nil
	}
	var next atomic.Int64
	var failed atomic.Bool
	errs := make([]error, workers)
	errAt := make([]int, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !failed.Load() {
				i := int(next.Add(1) - 1)
				if i >= len(list) {
					return
				}
				if err := do(w, i, list[i]); err != nil {
					errs[w], errAt[w] = err, i
					failed.Store(true)
					return
				}
			}
		}()
	}
	wg.Wait()
	var first error
	at := len(list)
	for w, err := range errs {
		if err != nil && errAt[w] < at {
			first, at = err, errAt[w]
		}
	}
	return first
}

// hostLittleEndian: safetensors data is little-endian, so on such a host
// a tensor's bytes can be read straight into a []uint16 or []float32.
var hostLittleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// asBytes views the elements of s as their bytes in memory.
func asBytes[T uint16 | float32](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(s[0])))
}
