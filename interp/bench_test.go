package interp

import (
	"context"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// cpuTime is the process's user+system CPU time: on a loaded machine it
// measures the work better than the wall clock.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportWork reports the dispatch's work units (Options.MaxSteps: about
// one per lane-instruction) per CPU second.
func reportWork(b *testing.B, start time.Duration) {
	units := float64(lastDispatchSteps.Load()) * float64(b.N)
	b.ReportMetric(units/(float64(cpuTime()-start)/1e9), "units/cpu-s")
}

// reportCPU reports CPU nanoseconds per element.
func reportCPU(b *testing.B, start time.Duration, elems int) {
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N)/float64(elems), "cpu-ns/elem")
}

const aluSrc = `#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer B { uint v[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  uint x = v[i], y = 0u;
  for (int k = 0; k < 256; k++) { x = x * 1664525u + 1013904223u; y ^= x >> 13; }
  v[i] = y;
}`

func aluGo(v []uint32) {
	for i := range v {
		x, y := v[i], uint32(0)
		for k := 0; k < 256; k++ {
			x = x*1664525 + 1013904223
			y ^= x >> 13
		}
		v[i] = y
	}
}

const saxpySrc = `#version 450
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) buffer Y { float y[]; };
layout(push_constant) uniform P { float a; };
void main() { uint i = gl_GlobalInvocationID.x; y[i] = a * x[i] + y[i]; }`

func BenchmarkALU(b *testing.B) {
	m := glsl(b, aluSrc, "")
	const n = 1 << 14
	for _, par := range []int{1, 2} {
		b.Run("interp/S32/procs"+itoa(par), func(b *testing.B) {
			p, err := Compile(m, "", Options{SubgroupSize: benchS(), Parallelism: par, MaxSteps: 1 << 62})
			if err != nil {
				b.Fatal(err)
			}
			buf := make([]byte, 4*n)
			res := &Resources{Buffers: map[BindingKey][]*Buffer{{0, 0}: {{Data: buf}}}}
			b.SetBytes(4 * n)
			b.ReportAllocs()
			c0 := cpuTime()
			for b.Loop() {
				if err := p.Dispatch(context.Background(), n/64, 1, 1, res); err != nil {
					b.Fatal(err)
				}
			}
			reportWork(b, c0)
			reportCPU(b, c0, n)
		})
	}
	b.Run("go", func(b *testing.B) {
		v := make([]uint32, n)
		b.SetBytes(4 * n)
		c0 := cpuTime()
		for b.Loop() {
			aluGo(v)
		}
		reportCPU(b, c0, n)
	})
}

func BenchmarkSaxpy(b *testing.B) {
	m := glsl(b, saxpySrc, "")
	n := 1 << 24
	if testing.Short() {
		n = 1 << 20
	}
	x, y := make([]byte, 4*n), make([]byte, 4*n)
	for _, par := range []int{1, 2} {
		b.Run("interp/S32/procs"+itoa(par), func(b *testing.B) {
			p, err := Compile(m, "", Options{SubgroupSize: benchS(), Parallelism: par, MaxSteps: 1 << 62})
			if err != nil {
				b.Fatal(err)
			}
			res := &Resources{Buffers: map[BindingKey][]*Buffer{{0, 0}: {{Data: x}}, {0, 1}: {{Data: y}}}, PushConstants: f32s(2)}
			b.SetBytes(int64(8 * n))
			b.ReportAllocs()
			c0 := cpuTime()
			for b.Loop() {
				if err := p.Dispatch(context.Background(), uint32(n/256), 1, 1, res); err != nil {
					b.Fatal(err)
				}
			}
			reportWork(b, c0)
			reportCPU(b, c0, n)
		})
	}
	b.Run("go", func(b *testing.B) {
		xs, ys := make([]float32, n), make([]float32, n)
		a := float32(2)
		b.SetBytes(int64(8 * n))
		c0 := cpuTime()
		for b.Loop() {
			for i := range ys {
				ys[i] = a*xs[i] + ys[i]
			}
		}
		reportCPU(b, c0, n)
	})
}

func benchS() int {
	if s := os.Getenv("BENCH_S"); s != "" {
		n, _ := strconv.Atoi(s)
		return n
	}
	return 32
}
