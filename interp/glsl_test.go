package interp

import (
	"context"
	"testing"
)

func TestSaxpyExample(t *testing.T) {
	m := readModule(t, "../examples/saxpy.spv")
	const n = 200
	forEach(t, func(t *testing.T, o Options) {
		x, y := make([]float32, n+56), make([]float32, n+56)
		for i := range x {
			x[i], y[i] = float32(i), float32(2*i+1)
		}
		xb, yb := f32s(x...), f32s(y...)
		nsg := (64 + o.SubgroupSize - 1) / o.SubgroupSize
		sums := make([]byte, 4*4*nsg)
		push := append(f32s(3), u32s(n)...)
		err := run(t, m, o, [3]uint32{4, 1, 1}, map[BindingKey][]byte{{0, 0}: xb, {0, 1}: yb, {0, 2}: sums}, push)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < n+56; i++ {
			want := y[i]
			if i < n {
				want = 3*x[i] + y[i]
			}
			if got := getF32(yb, i); got != want {
				t.Fatalf("y[%d] = %v, want %v", i, got, want)
			}
		}
		for wg := 0; wg < 4; wg++ {
			for s := 0; s < nsg; s++ {
				var want float32
				for l := 0; l < o.SubgroupSize && s*o.SubgroupSize+l < 64; l++ {
					i := wg*64 + s*o.SubgroupSize + l
					if i < n {
						want += 3*x[i] + y[i]
					}
				}
				if got := getF32(sums, wg*nsg+s); got != want {
					t.Fatalf("sums[%d] = %v, want %v", wg*nsg+s, got, want)
				}
			}
		}
	})
}

// Allocation per dispatch depends on the workgroup size and the number of
// goroutines, never on the number of workgroups.
func TestDispatchAllocations(t *testing.T) {
	m := readModule(t, "../examples/saxpy.spv")
	p, err := Compile(m, "", Options{Parallelism: 1})
	if err != nil {
		t.Fatal(err)
	}
	allocs := func(groups uint32) float64 {
		n := 64 * int(groups)
		res := &Resources{Buffers: map[BindingKey][]*Buffer{
			{0, 0}: {{Data: make([]byte, 4*n)}}, {0, 1}: {{Data: make([]byte, 4*n)}}, {0, 2}: {{Data: make([]byte, 4*n)}}},
			PushConstants: append(f32s(2), u32s(uint32(n))...)}
		return testing.AllocsPerRun(3, func() {
			if err := p.Dispatch(context.Background(), groups, 1, 1, res); err != nil {
				t.Fatal(err)
			}
		})
	}
	if a, b := allocs(1), allocs(256); a != b {
		t.Errorf("allocations per dispatch: %v for 1 workgroup, %v for 256", a, b)
	}
}
