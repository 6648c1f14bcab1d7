package amber

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"sort"
	"sync"
)

// fakeEngine implements the entry points of testdata/kernels.spvasm in Go,
// so the runner's buffers, bindings and EXPECT logic can be tested without
// an executor. It records every job.
type fakeEngine struct {
	mu   sync.Mutex
	jobs []*Job
}

func u32s(b []byte) []uint32 {
	out := make([]uint32, len(b)/4)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return out
}

func putU32(b []byte, i int, v uint32) { binary.LittleEndian.PutUint32(b[4*i:], v) }

func (e *fakeEngine) Run(ctx context.Context, j *Job) error {
	e.mu.Lock()
	e.jobs = append(e.jobs, j)
	e.mu.Unlock()
	if j.Module == nil {
		return fmt.Errorf("no module")
	}
	if *j.Cache == nil {
		*j.Cache = j.Entry // what an engine would store: its compiled program
	} else if *j.Cache != j.Entry {
		return fmt.Errorf("cache slot holds %v, want %s", *j.Cache, j.Entry)
	}
	view := func(set, b uint32) []byte {
		d := j.Descriptors[DescriptorBinding{set, b}]
		if d == nil {
			return nil
		}
		return d.Views[0]
	}
	n := int(j.Groups[0] * j.Groups[1] * j.Groups[2])
	switch j.Entry {
	case "copy":
		copy(view(0, 1), view(0, 0))
	case "double":
		in, out := view(0, 0), view(0, 1)
		for i := 0; i < n; i++ {
			putU32(out, i, 2*u32s(in)[i])
		}
	case "add_push":
		in, out := view(0, 0), view(0, 1)
		p := u32s(j.PushConstants)[0]
		for i := 0; i < n; i++ {
			putU32(out, i, u32s(in)[i]+p)
		}
	case "spec":
		out := view(0, 0)
		for i := uint32(1); i <= 3; i++ {
			putU32(out, int(i-1), uint32(j.SpecConstants[i]))
		}
	case "info":
		out := view(2, 0) // the VkScript test's output; AmberScript's is 0:0
		if out == nil {
			out = view(0, 0)
		}
		b2u := map[bool]uint32{false: 0, true: 1}
		vals := []uint32{uint32(j.SubgroupSize), b2u[j.RequireFullSubgroups], b2u[j.VaryingSubgroupSize],
			j.Groups[0], j.Groups[1], j.Groups[2]}
		var keys []DescriptorBinding
		for k := range j.Descriptors {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(a, b int) bool {
			if keys[a].Set != keys[b].Set {
				return keys[a].Set < keys[b].Set
			}
			return keys[a].Binding < keys[b].Binding
		})
		for _, k := range keys {
			vals = append(vals, uint32(len(j.Descriptors[k].Views[0])))
		}
		for i, v := range vals {
			putU32(out, i, v)
		}
	case "arr":
		for k, v := range j.Descriptors[DescriptorBinding{0, 0}].Views {
			putU32(v, 0, uint32(k+1))
		}
	case "inc":
		v := view(0, 0)
		for i := range u32s(v) {
			putU32(v, i, u32s(v)[i]+1)
		}
	case "half":
		in, out := view(0, 0), view(0, 1)
		for i := 0; i < n; i++ {
			h := amberHalfToFloat(binary.LittleEndian.Uint16(in[2*i:]))
			binary.LittleEndian.PutUint16(out[2*i:], amberFloatToHalf(2*h))
		}
	case "main":
		out := view(0, 0)
		for i := 0; i < n; i++ {
			putU32(out, i, uint32(i))
		}
	case "fdouble":
		in, out := view(3, 0), view(3, 1) // the VkScript test's; AmberScript's are 0:0, 0:1
		if in == nil {
			in, out = view(0, 0), view(0, 1)
		}
		for i := 0; i < n; i++ {
			f := math.Float32frombits(u32s(in)[i])
			putU32(out, i, math.Float32bits(2*f))
		}
	default:
		return fmt.Errorf("fake engine: no kernel %q", j.Entry)
	}
	return nil
}
