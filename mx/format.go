package mx

import (
	"fmt"
	"math"
	"strings"
)

// Format is one of the MX scalar formats. The zero value is not a format.
type Format uint8

// The MX scalar formats.
const (
	E2M1   Format = iota + 1 // FP4: 1 sign, 2 exponent, 1 mantissa bit; no Inf, no NaN
	E2M3                     // FP6: 1/2/3 bits; no Inf, no NaN
	E3M2                     // FP6: 1/3/2 bits; no Inf, no NaN
	E4M3                     // FP8 (OCP "FN"): NaN at 0x7F/0xFF, no Inf
	E5M2                     // FP8, IEEE-like: ±Inf and NaNs
	E8M0                     // unsigned power-of-two scale: 2^(c−127), NaN at 0xFF
	MXINT8                   // two's-complement int8 scaled by 2^-6
)

// Formats lists every scalar format in the order tables show them.
var Formats = []Format{E2M1, E2M3, E3M2, E4M3, E5M2, E8M0, MXINT8}

// RoundingMode selects how an encoder rounds a value that falls between two
// representable values. The names are SPIR-V's FPRoundingMode names.
type RoundingMode uint8

// The rounding modes. RTE, the zero value, is the default everywhere.
const (
	RTE RoundingMode = iota // to nearest, ties to even
	RTZ                     // toward zero
	RTP                     // toward +Inf
	RTN                     // toward −Inf

	// roundTiesAway rounds to nearest with ties away from zero. It is only
	// used for block elements (microxcaling's default), hence unexported.
	roundTiesAway
)

// String returns the SPIR-V name of the mode in lower case ("rte", ...).
func (m RoundingMode) String() string {
	switch m {
	case RTE:
		return "rte"
	case RTZ:
		return "rtz"
	case RTP:
		return "rtp"
	case RTN:
		return "rtn"
	case roundTiesAway:
		return "rna"
	}
	return fmt.Sprintf("RoundingMode(%d)", uint8(m))
}

// ParseRoundingMode accepts rte, rtz, rtp and rtn in any case.
func ParseRoundingMode(s string) (RoundingMode, error) {
	switch strings.ToLower(s) {
	case "rte":
		return RTE, nil
	case "rtz":
		return RTZ, nil
	case "rtp":
		return RTP, nil
	case "rtn":
		return RTN, nil
	}
	return 0, fmt.Errorf("unknown rounding mode %q (want rte, rtz, rtp or rtn)", s)
}

// overflowRule says what a non-saturating encoder produces when the rounded
// value is beyond the largest finite value.
type overflowRule uint8

const (
	overflowSaturate overflowRule = iota // FP4/FP6: no Inf or NaN to go to
	overflowNaN                          // E4M3: NaN
	overflowInf                          // E5M2: ±Inf whatever the mode
	overflowIEEE                         // binary16/bfloat16: IEEE 754 §7.4, depends on the mode
)

// floatParams describes a sign/exponent/mantissa format to the shared
// encoder. Codes are handled as uint32 so 16-bit formats fit too.
type floatParams struct {
	manBits   uint   // mantissa (trailing significand) bits m
	bias      int    // exponent bias
	emin      int    // exponent of the smallest normal, 1 − bias
	signBit   uint32 // the sign bit of a code
	maxMag    uint32 // magnitude code of the largest finite value
	infMag    uint32 // magnitude code of +Inf (overflowInf, overflowIEEE)
	nanMag    uint32 // magnitude code of the NaN an encoder produces
	overflow  overflowRule
	nanToZero bool // NaN input gives +0 (formats without NaN)

	// Precomputed for the float32 round-to-nearest-even fast path.
	shift32     uint    // 23 − m: float32 mantissa bits dropped
	rebias32    uint32  // (127 − bias) << m: float32 exponent rebias on codes
	minNormal32 uint32  // float32 bits of 2^emin
	subMagic32  float32 // 2^(emin − m + 23): adding it rounds a subnormal on the grid
	overflow32  uint32  // smallest float32 magnitude bits that overflow under RTE
	rte         rteEncoder
}

// newFloatParams derives every constant from the field widths so the tables
// below cannot disagree with each other.
func newFloatParams(expBits, manBits uint, maxMag uint32, rule overflowRule, nanMag uint32, nanToZero bool) floatParams {
	bias := 1<<(expBits-1) - 1
	p := floatParams{
		manBits:   manBits,
		bias:      bias,
		emin:      1 - bias,
		signBit:   1 << (expBits + manBits),
		maxMag:    maxMag,
		infMag:    ((1 << expBits) - 1) << manBits,
		nanMag:    nanMag,
		overflow:  rule,
		nanToZero: nanToZero,
		shift32:   23 - manBits,
		rebias32:  uint32(127-bias) << manBits,
	}
	p.minNormal32 = uint32(p.emin+127) << 23
	p.subMagic32 = float32(math.Ldexp(1, p.emin-int(manBits)+23))
	// The RTE overflow threshold is max + ½ulp; a tie there goes to the
	// even neighbour, which is the overflow side when the max code is odd.
	maxVal := p.decode(maxMag)
	halfULP := math.Ldexp(1, p.exponentOf(maxMag)-int(manBits)-1)
	p.overflow32 = math.Float32bits(float32(maxVal + halfULP))
	if maxMag&1 == 0 {
		p.overflow32++
	}
	p.rte = rteEncoder{
		shift: uint32(p.shift32), halfMinus1: 1<<(p.shift32-1) - 1, rebias: p.rebias32,
		minNormal: p.minNormal32, signBit: p.signBit, maxMag: maxMag,
		magic: p.subMagic32, magicBits: math.Float32bits(p.subMagic32),
	}
	return p
}

// exponentOf returns the unbiased exponent of a finite nonzero magnitude code.
func (p *floatParams) exponentOf(mag uint32) int {
	e := int(mag >> p.manBits)
	if e == 0 {
		return p.emin
	}
	return e - p.bias
}

// decode returns the exact value of a code; specials per the overflow rule.
func (p *floatParams) decode(code uint32) float64 {
	mag := code &^ p.signBit
	neg := code&p.signBit != 0
	var v float64
	switch {
	case p.overflow == overflowNaN && mag > p.maxMag:
		return math.NaN()
	case (p.overflow == overflowInf || p.overflow == overflowIEEE) && mag == p.infMag:
		v = math.Inf(1)
	case (p.overflow == overflowInf || p.overflow == overflowIEEE) && mag > p.infMag:
		return math.NaN()
	default:
		e := mag >> p.manBits
		frac := float64(mag & (1<<p.manBits - 1))
		if e == 0 {
			v = math.Ldexp(frac, p.emin-int(p.manBits))
		} else {
			v = math.Ldexp(frac+float64(uint32(1)<<p.manBits), int(e)-p.bias-int(p.manBits))
		}
	}
	if neg {
		v = -v
	}
	return v
}

// formatInfo is the static description of a Format.
type formatInfo struct {
	name       string // short name used by the CLI
	spirvName  string // SPIR-V FPEncoding enumerant
	encoding   uint32 // SPIR-V FPEncoding value
	bits       uint
	expBits    uint
	manBits    uint
	emaxElem   int // exponent of the largest normal binade (OCP MX §5.1)
	float      floatParams
	isFloatFmt bool // uses floatParams (everything but E8M0 and MXINT8)
}

var formatInfos = [...]formatInfo{
	E2M1: {name: "e2m1", spirvName: "Float4E2M1EXT", encoding: 4225, bits: 4, expBits: 2, manBits: 1, emaxElem: 2,
		float: newFloatParams(2, 1, 0x7, overflowSaturate, 0, true), isFloatFmt: true},
	E2M3: {name: "e2m3", spirvName: "Float6E2M3EXT", encoding: 4223, bits: 6, expBits: 2, manBits: 3, emaxElem: 2,
		float: newFloatParams(2, 3, 0x1F, overflowSaturate, 0, true), isFloatFmt: true},
	E3M2: {name: "e3m2", spirvName: "Float6E3M2EXT", encoding: 4224, bits: 6, expBits: 3, manBits: 2, emaxElem: 4,
		float: newFloatParams(3, 2, 0x1F, overflowSaturate, 0, true), isFloatFmt: true},
	E4M3: {name: "e4m3", spirvName: "Float8E4M3EXT", encoding: 4214, bits: 8, expBits: 4, manBits: 3, emaxElem: 8,
		float: newFloatParams(4, 3, 0x7E, overflowNaN, 0x7F, false), isFloatFmt: true},
	E5M2: {name: "e5m2", spirvName: "Float8E5M2EXT", encoding: 4215, bits: 8, expBits: 5, manBits: 2, emaxElem: 15,
		float: newFloatParams(5, 2, 0x7B, overflowInf, 0x7E, false), isFloatFmt: true},
	E8M0:   {name: "e8m0", spirvName: "Float8UnsignedE8M0EXT", encoding: 4226, bits: 8, expBits: 8, manBits: 0, emaxElem: 127},
	MXINT8: {name: "mxint8", spirvName: "MXInt8EXT", encoding: 4227, bits: 8, expBits: 0, manBits: 8, emaxElem: 0},
}

// IEEE binary16 and bfloat16 share the encoder; their overflow follows IEEE
// 754 (RTZ and the directed mode away from the overflow side give ±max).
var (
	halfParams     = newFloatParams(5, 10, 0x7BFF, overflowIEEE, 0x7E00, false)
	bfloat16Params = newFloatParams(8, 7, 0x7F7F, overflowIEEE, 0x7FC0, false)
)

func (f Format) valid() bool { return f >= E2M1 && f <= MXINT8 }

func (f Format) info() *formatInfo {
	if !f.valid() {
		return &formatInfo{name: fmt.Sprintf("Format(%d)", uint8(f))}
	}
	return &formatInfos[f]
}

// String returns the short lower-case name, e.g. "e4m3" or "mxint8".
func (f Format) String() string { return f.info().name }

// SPIRVName returns the SPIR-V FPEncoding enumerant name, e.g. "Float8E4M3EXT".
func (f Format) SPIRVName() string { return f.info().spirvName }

// FPEncoding returns the SPIR-V FPEncoding operand value, e.g. 4214 for E4M3.
func (f Format) FPEncoding() uint32 { return f.info().encoding }

// Bits returns the width of a code: 4, 6 or 8.
func (f Format) Bits() int { return int(f.info().bits) }

// ExponentBits returns the exponent field width (0 for MXINT8).
func (f Format) ExponentBits() int { return int(f.info().expBits) }

// MantissaBits returns the trailing significand width (0 for E8M0; 8 for
// MXINT8, whose whole code is the integer).
func (f Format) MantissaBits() int { return int(f.info().manBits) }

// Bias returns the exponent bias (127 for E8M0, 0 for MXINT8, whose value is
// int8·2^-6).
func (f Format) Bias() int {
	switch f {
	case E8M0:
		return 127
	case MXINT8:
		return 0
	}
	return f.info().float.bias
}

// EmaxElem returns the exponent of the largest normal binade, the emax_elem
// of the MX shared-scale rule (8 for E4M3, 15 for E5M2, 4 for E3M2, 2 for
// E2M3 and E2M1, 0 for MXINT8; 127 for E8M0).
func (f Format) EmaxElem() int { return f.info().emaxElem }

// Signed reports whether the format has a sign (all but E8M0).
func (f Format) Signed() bool { return f.valid() && f != E8M0 }

// HasInf reports whether the format can encode infinities (only E5M2).
func (f Format) HasInf() bool { return f == E5M2 }

// HasNaN reports whether the format has NaN codes (E4M3, E5M2, E8M0).
func (f Format) HasNaN() bool { return f == E4M3 || f == E5M2 || f == E8M0 }

// NaNCodes returns the codes that decode to NaN, in increasing order: 0x7F
// and 0xFF for E4M3, 0x7D–0x7F and 0xFD–0xFF for E5M2, 0xFF for E8M0, none
// for the others. It is derived from Decode, so it cannot disagree with it.
func (f Format) NaNCodes() []uint8 {
	var codes []uint8
	if !f.valid() {
		return nil
	}
	for c := range f.Codes() {
		if math.IsNaN(f.Decode(uint8(c))) {
			codes = append(codes, uint8(c))
		}
	}
	return codes
}

// MaxCode returns the code of the largest finite value.
func (f Format) MaxCode() uint8 {
	switch f {
	case E8M0:
		return 0xFE
	case MXINT8:
		return 0x7F
	}
	return uint8(f.info().float.maxMag)
}

// Max returns the largest finite value.
func (f Format) Max() float64 { return f.Decode(f.MaxCode()) }

// MinNormal returns the smallest positive normal value. E8M0 has only normal
// values (2^-127); MXINT8 is fixed point, so its smallest step 2^-6 is given.
func (f Format) MinNormal() float64 {
	switch f {
	case E8M0:
		return math.Ldexp(1, -127)
	case MXINT8:
		return 1.0 / 64
	}
	if !f.valid() {
		return math.NaN()
	}
	return math.Ldexp(1, f.info().float.emin)
}

// MinSubnormal returns the smallest positive value. For E8M0, which has no
// subnormals, it is the smallest value 2^-127; for MXINT8 it is 2^-6.
func (f Format) MinSubnormal() float64 {
	switch f {
	case E8M0, MXINT8:
		return f.MinNormal()
	}
	if !f.valid() {
		return math.NaN()
	}
	p := &f.info().float
	return math.Ldexp(1, p.emin-int(p.manBits))
}

// Codes returns the number of distinct codes, 2^Bits.
func (f Format) Codes() int { return 1 << f.Bits() }

// ParseFormat looks a format up by its short name (e2m1, e2m3, e3m2, e4m3,
// e5m2, e8m0, mxint8), its SPIR-V FPEncoding name (Float4E2M1EXT, ...) or a
// common alias (fp4, ue8m0, int8), ignoring case.
func ParseFormat(name string) (Format, error) {
	n := strings.ToLower(name)
	for _, f := range Formats {
		in := f.info()
		if n == in.name || n == strings.ToLower(in.spirvName) {
			return f, nil
		}
	}
	switch n {
	case "fp4", "fp4e2m1", "float4_e2m1fn":
		return E2M1, nil
	case "fp6e2m3", "float6_e2m3fn":
		return E2M3, nil
	case "fp6e3m2", "float6_e3m2fn":
		return E3M2, nil
	case "fp8e4m3", "float8_e4m3fn":
		return E4M3, nil
	case "fp8e5m2", "float8_e5m2":
		return E5M2, nil
	case "fp8e8m0", "ue8m0", "float8_e8m0fnu":
		return E8M0, nil
	case "int8":
		return MXINT8, nil
	}
	return 0, fmt.Errorf("unknown format %q (want one of e2m1 e2m3 e3m2 e4m3 e5m2 e8m0 mxint8, or a SPIR-V FPEncoding name)", name)
}
