package oclref

import (
	"math"
	"math/big"
	"sync"
)

// High-precision logarithm and exponential in math/big, for the math
// family's reference of the power and exponential functions: float64's own
// pow is tens of ULPs off at the extremes, which is more than the double
// bounds allow. 200 bits carry |y ln x| up to 2^11 with more than 180
// correct bits, and the final conversion to float64 rounds once.

const bigPrec = 200

var ln2Once = sync.OnceValue(func() *big.Float { return atanhSeries(new(big.Float).SetPrec(bigPrec).Quo(bf(1), bf(3))) })

func bf(v float64) *big.Float { return new(big.Float).SetPrec(bigPrec).SetFloat64(v) }

// atanhSeries is 2·atanh(u) = 2(u + u³/3 + u⁵/5 + ...) for |u| <= 1/3.
func atanhSeries(u *big.Float) *big.Float {
	sum := new(big.Float).SetPrec(bigPrec).Set(u)
	u2 := new(big.Float).SetPrec(bigPrec).Mul(u, u)
	pow := new(big.Float).SetPrec(bigPrec).Set(u)
	term := new(big.Float).SetPrec(bigPrec)
	for k := 3; k < 400; k += 2 {
		pow.Mul(pow, u2)
		term.Quo(pow, bf(float64(k)))
		if term.Sign() == 0 || term.MantExp(nil)-sum.MantExp(nil) < -bigPrec {
			break
		}
		sum.Add(sum, term)
	}
	return sum.Mul(sum, bf(2))
}

// bigLn is ln(x) for finite x > 0.
func bigLn(x float64) *big.Float {
	m, e := math.Frexp(x) // m in [0.5, 1)
	if m < math.Sqrt2/2 {
		m *= 2
		e--
	}
	mb := bf(m)
	u := new(big.Float).SetPrec(bigPrec).Quo(new(big.Float).SetPrec(bigPrec).Sub(mb, bf(1)), new(big.Float).SetPrec(bigPrec).Add(mb, bf(1)))
	r := atanhSeries(u)
	return r.Add(r, new(big.Float).SetPrec(bigPrec).Mul(ln2Once(), bf(float64(e))))
}

// bigExp is e^z rounded to float64 (±0 on underflow, +Inf on overflow).
func bigExp(z *big.Float) float64 {
	zf, _ := z.Float64()
	if zf > 710 {
		return math.Inf(1)
	}
	if zf < -746 {
		return 0
	}
	k := math.Round(zf / math.Ln2)
	r := new(big.Float).SetPrec(bigPrec).Sub(z, new(big.Float).SetPrec(bigPrec).Mul(ln2Once(), bf(k)))
	r.SetMantExp(r, -10) // e^r = (e^(r/1024))^1024
	sum, term := bf(1), bf(1)
	for n := 1; n < 60; n++ {
		term.Mul(term, r)
		term.Quo(term, bf(float64(n)))
		sum.Add(sum, term)
	}
	for range 10 {
		sum.Mul(sum, sum)
	}
	sum.SetMantExp(sum, int(k))
	f, _ := sum.Float64()
	return f
}

// bigPow is |x|^y for finite x != 0 and finite y, signed by the caller.
func bigPow(x, y float64) float64 {
	l := bigLn(math.Abs(x))
	return bigExp(l.Mul(l, bf(y)))
}

// precisePow replaces a float64 power's magnitude by the math/big one where
// the operands are ordinary (x finite and non-zero, y finite), keeping the
// sign and every special case of r.
func precisePow(x, y, r float64) float64 {
	if math.IsNaN(r) || math.IsInf(x, 0) || math.IsInf(y, 0) || x == 0 || math.IsNaN(x) || math.IsNaN(y) {
		return r
	}
	return math.Copysign(bigPow(x, y), r)
}

// preciseRoot is |x|^(1/n) computed as exp(ln|x| / n), signed as r.
func preciseRoot(x float64, n int64, r float64) float64 {
	if math.IsNaN(r) || math.IsInf(x, 0) || x == 0 || r == 0 || math.IsInf(r, 0) {
		return r
	}
	l := bigLn(math.Abs(x))
	return math.Copysign(bigExp(l.Quo(l, bf(float64(n)))), r)
}
