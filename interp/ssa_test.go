package interp

import "testing"

// Locals of glslang's -O0 code go into SSA form (ssa.go); these kernels
// are the shapes where that can go wrong: values merging after divergent
// branches and loops, a swap (phis reading each other's registers), break
// and continue, locals read before written on some path, composites,
// a callee's locals, divergent trip counts.
func TestSSALocals(t *testing.T) {
	cases := []glslCase{
		{name: "swap", n: 64, groups: 2, src: `layout(local_size_x = 64) in;
void main() { uint i = gl_GlobalInvocationID.x; uint a = inp[i], b = i, c = 0u, d = 1u, t;
  for (uint k = 0u; k < (i & 7u); k++) { t = a; a = b; b = t; c += a; t = d; d = c; c = t + k; }
  outp[i] = a * 1000u + b + c * 7u + d; }`,
			want: func(i, S int, in []uint32) uint32 {
				a, b, c, d := in[i], uint32(i), uint32(0), uint32(1)
				for k := uint32(0); k < uint32(i)&7; k++ {
					a, b = b, a
					c += a
					d, c = c, d+k
				}
				return a*1000 + b + c*7 + d
			}},
		{name: "ifelse-break-continue", n: 64, groups: 2, src: `layout(local_size_x = 64) in;
void main() { uint i = gl_GlobalInvocationID.x; uint s = 0u, v;
  for (uint k = 0u; k < 20u; k++) {
    if ((k + i) % 3u == 0u) { v = k * 2u; } else if (k == i % 5u) { continue; } else { v = inp[i] + k; }
    if (s > 200u + i) break;
    s += v;
  }
  outp[i] = s; }`,
			want: func(i, S int, in []uint32) uint32 {
				s := uint32(0)
				for k := uint32(0); k < 20; k++ {
					var v uint32
					if (k+uint32(i))%3 == 0 {
						v = k * 2
					} else if k == uint32(i)%5 {
						continue
					} else {
						v = in[i] + k
					}
					if s > 200+uint32(i) {
						break
					}
					s += v
				}
				return s
			}},
		{name: "nested-vec-struct", n: 32, groups: 2, src: `layout(local_size_x = 32) in;
struct P { uint a; uvec2 b; };
void main() { uint i = gl_GlobalInvocationID.x; P p; p.a = i; p.b = uvec2(inp[i], 1u);
  uvec3 acc = uvec3(0u);
  for (uint x = 0u; x < 3u; x++) { for (uint y = 0u; y <= x + (i & 1u); y++) { acc += uvec3(p.a, p.b) * (x + y); p.b.y += 1u; } P q = p; q.a += 1u; p = q; }
  outp[i] = acc.x ^ (acc.y << 8) ^ (acc.z << 16) ^ p.a; }`,
			want: func(i, S int, in []uint32) uint32 {
				a, b0, b1 := uint32(i), in[i], uint32(1)
				var ax, ay, az uint32
				for x := uint32(0); x < 3; x++ {
					for y := uint32(0); y <= x+uint32(i)&1; y++ {
						ax, ay, az = ax+a*(x+y), ay+b0*(x+y), az+b1*(x+y)
						b1++
					}
					a++
				}
				return ax ^ ay<<8 ^ az<<16 ^ a
			}},
		{name: "callee-locals", n: 64, groups: 1, src: `layout(local_size_x = 64) in;
uint f(uint x) { uint r = 1u; for (uint k = 0u; k < x % 6u; k++) { r = r * 3u + k; } return r; }
void g(inout uint v, uint w) { uint t = v; if (w > 10u) { t += w; } v = t * 2u; }
void main() { uint i = gl_GlobalInvocationID.x; uint v = inp[i]; g(v, i); outp[i] = f(i) + v; }`,
			want: func(i, S int, in []uint32) uint32 {
				r := uint32(1)
				for k := uint32(0); k < uint32(i)%6; k++ {
					r = r*3 + k
				}
				t := in[i]
				if i > 10 {
					t += uint32(i)
				}
				return r + t*2
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { runGLSL(t, c) })
	}
}

// The ALU benchmark's kernel (glslang -O0: every local a Function variable)
// compiles to no copies at all: its locals are SSA values.
func TestSSANoCopies(t *testing.T) {
	p, err := Compile(glsl(t, aluSrc, ""), "", Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, in := range p.code {
		if in.op == opCopy {
			t.Errorf("instruction %d is a copy (module instruction %s)", i, formatInst(p.m, int(in.src)))
		}
	}
}
