package interp

import (
	"math"
)

// matrix runs the matrix family (opMatrix).
func (sg *subgroup) matrix(in *inst, lanes []int32) {
	R := int32(sg.R)
	r := sg.regs
	s := in.sc
	rows, cols, inner := int32(in.imm&0xFF), int32(in.imm>>8&0xFF), int32(in.imm>>16&0xFF)
	get := func(slot int32, l int32) uint64 { return r[slot*R+l] }
	for _, l := range lanes {
		switch in.aux {
		case 0: // times scalar
			k := get(in.b, l)
			for c := int32(0); c < in.n; c++ {
				r[(in.dst+c)*R+l] = fbin(bFMul, get(in.a+c, l), k, s)
			}
		case 1: // vector × matrix: result[j] = dot(v, column j)
			for j := int32(0); j < cols; j++ {
				var acc uint64
				for k := int32(0); k < inner; k++ {
					p := fbin(bFMul, get(in.a+k, l), get(in.b+j*inner+k, l), s)
					if k == 0 {
						acc = p
					} else {
						acc = fbin(bFAdd, acc, p, s)
					}
				}
				r[(in.dst+j)*R+l] = acc
			}
		case 2: // matrix × vector: result[i] = sum_k m[k][i] * v[k]
			for i := int32(0); i < rows; i++ {
				var acc uint64
				for k := int32(0); k < inner; k++ {
					p := fbin(bFMul, get(in.a+k*rows+i, l), get(in.b+k, l), s)
					if k == 0 {
						acc = p
					} else {
						acc = fbin(bFAdd, acc, p, s)
					}
				}
				r[(in.dst+i)*R+l] = acc
			}
		case 3: // matrix × matrix
			for j := int32(0); j < cols; j++ {
				for i := int32(0); i < rows; i++ {
					var acc uint64
					for k := int32(0); k < inner; k++ {
						p := fbin(bFMul, get(in.a+k*rows+i, l), get(in.b+j*inner+k, l), s)
						if k == 0 {
							acc = p
						} else {
							acc = fbin(bFAdd, acc, p, s)
						}
					}
					r[(in.dst+j*rows+i)*R+l] = acc
				}
			}
		case 4: // outer product: column j = a * b[j]
			for j := int32(0); j < cols; j++ {
				for i := int32(0); i < rows; i++ {
					r[(in.dst+j*rows+i)*R+l] = fbin(bFMul, get(in.a+i, l), get(in.b+j, l), s)
				}
			}
		}
	}
}

// idot runs the integer dot products (SPV_KHR_integer_dot_product).
func (sg *subgroup) idot(in *inst, lanes []int32) {
	R := int32(sg.R)
	r := sg.regs
	rw := in.sc.width
	for _, l := range lanes {
		var sum int64
		var usum uint64
		n := in.n
		elem := func(slot int32, k int32, signed bool) (int64, uint64) {
			if in.imm == 1 {
				v := r[slot*R+l] >> (8 * k) & 0xFF
				if signed {
					return sext(v, 8), v
				}
				return int64(v), v
			}
			v := r[(slot+k)*R+l]
			if signed {
				return sext(v, in.sc2.width), v
			}
			return int64(v), v
		}
		if in.imm == 1 {
			n = 4
		}
		sa, sb := in.aux == 0 || in.aux == 2, in.aux == 0
		for k := int32(0); k < n; k++ {
			x, ux := elem(in.a, k, sa)
			y, uy := elem(in.b, k, sb)
			sum += x * y
			usum += ux * uy
		}
		signed := in.aux != 1
		var res uint64
		if in.c >= 0 {
			acc := r[in.c*R+l]
			if signed {
				v := sum + sext(acc, rw)
				lo, hi := -math.Ldexp(1, int(rw)-1), math.Ldexp(1, int(rw)-1)-1
				if float64(v) < lo {
					v = int64(lo)
				} else if float64(v) > hi {
					v = int64(hi)
				}
				res = uint64(v)
			} else {
				v := usum + acc
				if rw < 64 && v > in.sc.mask() || v < usum {
					v = in.sc.mask()
				}
				res = v
			}
		} else if signed {
			res = uint64(sum)
		} else {
			res = usum
		}
		r[in.dst*R+l] = res & in.sc.mask()
	}
}
