package amber

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Failure is a failed EXPECT (or probe): what was compared, where, and the
// values. Its Error is the FAIL report.
type Failure struct {
	File    string
	Line    int
	Command string // the EXPECT as written
	Buffer  string
	// Index is the position of the failed value in the EXPECT's value list
	// (amber's "at index"); Element, Component and Byte locate it in the
	// buffer.
	Index, Element, Component, Byte int
	Got, Want                       string
	Op                              string // "==", "!=", "<", "<=", ">", ">=", "~="
	Tolerance                       string // "" when none applies
	// Msg is the whole message for buffer comparisons (EQ_BUFFER, RMSE,
	// EMD) and bounds errors, in amber's wording.
	Msg string
	// Context holds the values around the failure, for a report to show
	// as a diff: for an EXPECT, the expected values near the failed one
	// against the buffer; for EQ_BUFFER, the components near the first
	// difference in both buffers (Got from the first, Want from the
	// second).
	Context []ValueDiff
}

// ValueDiff is one value of a Failure's context.
type ValueDiff struct {
	Index     int    // position in the EXPECT's value list, or component number for EQ_BUFFER
	Element   int    // element of the buffer
	Component int    // component within the element
	Got, Want string // the buffer's value and the expected one
	Differs   bool   // whether this value fails the comparison
}

// contextRadius is how many values either side of a failure its Context holds.
const contextRadius = 4

func (f *Failure) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s:%d: %s: ", f.File, f.Line, f.Command)
	if f.Msg != "" {
		b.WriteString(f.Msg)
		return b.String()
	}
	fmt.Fprintf(&b, "Verifier failed: %s %s %s, at index %d (buffer %s, element %d component %d at byte %d: got %s, want %s",
		f.Got, f.Op, f.Want, f.Index, f.Buffer, f.Element, f.Component, f.Byte, f.Got, f.Want)
	if f.Tolerance != "" {
		b.WriteString(", tolerance " + f.Tolerance)
	}
	b.WriteString(")")
	return b.String()
}

// kEpsilon is amber's tolerance, in percent, for EQ and NE on floats.
const kEpsilon = 0.000001

func equalWithTolerance(actual, expected, tol float64, percent bool) bool {
	if math.IsNaN(actual) || math.IsNaN(expected) {
		return math.IsNaN(actual) == math.IsNaN(expected)
	}
	d := math.Abs(actual - expected)
	if percent {
		return !(d > tol/100*math.Abs(expected))
	}
	return !(d > tol)
}

func (t Tolerance) String() string {
	s := formatFloat(t.Value)
	if t.Percent {
		s += "%"
	}
	return s
}

// probe checks an ExpectCommand against memory, as amber's
// Verifier::ProbeSSBO does: values are read component by component from
// the byte offset; integers compare in the component's type, floats with
// amber's relative epsilon for EQ/NE and the first TOLERANCE value for a
// fuzzy EQ.
func probe(ec *ExpectCommand, data []byte, file string) *Failure {
	f := ec.Format
	fail := &Failure{File: file, Line: ec.Line, Command: ec.Text, Buffer: ec.Buffer.Name}
	elems := (len(ec.Values) + f.Inputs() - 1) / f.Inputs()
	need := elems*f.Stride + ec.Offset
	if need > len(data) {
		fail.Msg = fmt.Sprintf("Verifier::ProbeSSBO request to access to byte %d would read outside buffer of size %d bytes", need, len(data))
		return fail
	}
	if ec.Offset%f.Stride != 0 {
		fail.Msg = fmt.Sprintf("Verifier::ProbeSSBO given offset (%d) is not multiple of element size (%d)", ec.Offset, f.Stride)
		return fail
	}
	tol, pct := kEpsilon, true
	if len(ec.Tolerances) > 0 {
		tol, pct = ec.Tolerances[0].Value, ec.Tolerances[0].Percent
	}
	// check compares value i with the buffer.
	check := func(i int) (ok bool, got number, want string, at int) {
		v := ec.Values[i]
		e, c := i/f.Inputs(), i%f.Inputs()
		sc := f.Comps[c].Scalar
		at = ec.Offset + e*f.Stride + f.Comps[c].Off
		got = get(data[at:], sc)
		ok = true
		if sc.Kind == Float {
			exp := v.asFloat()
			want = formatFloat(exp)
			if sc.Bits < 64 {
				exp = float64(float32(exp))
				want = strconv.FormatFloat(exp, 'g', -1, 32)
			}
			a := got.f
			switch ec.Comparator {
			case EQ:
				ok = equalWithTolerance(a, exp, kEpsilon, true)
			case NE:
				ok = !equalWithTolerance(a, exp, kEpsilon, true)
			case FuzzyEQ:
				ok = equalWithTolerance(a, exp, tol, pct)
			case LT:
				ok = !(a >= exp)
			case LE:
				ok = !(a > exp)
			case GT:
				ok = !(a <= exp)
			case GE:
				ok = !(a < exp)
			}
		} else {
			// The expected value truncated to the component's type, as
			// amber's static_cast<T> does.
			u := v.U
			if v.IsFloat {
				u = uint64(int64(v.F))
			}
			exp := get(leBytes(u), sc)
			want = exp.String()
			switch ec.Comparator {
			case EQ, FuzzyEQ:
				if ec.Comparator == FuzzyEQ {
					ok = equalWithTolerance(float64(got.i), float64(exp.i), tol, pct)
					if sc.Kind == Uint {
						ok = equalWithTolerance(float64(got.u), float64(exp.u), tol, pct)
					}
				} else {
					ok = got.u == exp.u
				}
			case NE:
				ok = got.u != exp.u
			default:
				var lt, eq bool
				if sc.Kind == Int {
					lt, eq = got.i < exp.i, got.i == exp.i
				} else {
					lt, eq = got.u < exp.u, got.u == exp.u
				}
				switch ec.Comparator {
				case LT:
					ok = lt
				case LE:
					ok = lt || eq
				case GT:
					ok = !lt && !eq
				case GE:
					ok = !lt
				}
			}
		}
		return ok, got, want, at
	}
	for i := range ec.Values {
		ok, got, want, at := check(i)
		e, c := i/f.Inputs(), i%f.Inputs()
		if !ok {
			fail.Index, fail.Element, fail.Component, fail.Byte = i, (ec.Offset/f.Stride)+e, c, at
			fail.Got, fail.Want, fail.Op = got.String(), want, comparatorSymbols[ec.Comparator]
			if ec.Comparator == FuzzyEQ {
				if len(ec.Tolerances) > 0 {
					fail.Tolerance = ec.Tolerances[0].String()
				} else {
					fail.Tolerance = "0.000001%"
				}
			}
			for k := max(0, i-contextRadius); k < min(len(ec.Values), i+contextRadius+1); k++ {
				kok, kgot, kwant, _ := check(k)
				fail.Context = append(fail.Context, ValueDiff{Index: k, Element: ec.Offset/f.Stride + k/f.Inputs(),
					Component: k % f.Inputs(), Got: kgot.String(), Want: kwant, Differs: !kok})
			}
			return fail
		}
	}
	return nil
}

func leBytes(u uint64) []byte {
	var b [8]byte
	for i := range b {
		b[i] = byte(u >> (8 * i))
	}
	return b[:]
}

// compare runs EQ_BUFFER, RMSE_BUFFER or EQ_HISTOGRAM_EMD_BUFFER with
// amber's arithmetic and messages.
func compare(cc *CompareCommand, a, b *rtBuffer, file string) *Failure {
	fail := &Failure{File: file, Line: cc.Line, Command: cc.Text, Buffer: cc.A.Name}
	if !a.format.Equal(b.format) {
		fail.Msg = "Buffers have a different format"
		return fail
	}
	if a.elements != b.elements {
		fail.Msg = "Buffers have a different size"
		return fail
	}
	f := a.format
	switch cc.Comparator {
	case EqBuffer:
		n, first := 0, -1
		m := min(len(a.data), len(b.data))
		for i := 0; i < m; i++ {
			if a.data[i] != b.data[i] {
				if n == 0 {
					first = i
				}
				n++
			}
		}
		n += max(len(a.data), len(b.data)) - m
		if n > 0 {
			if first < 0 {
				first = m
			}
			av, bv := byteAt(a.data, first), byteAt(b.data, first)
			fail.Msg = fmt.Sprintf("Buffers have different values. %d values differed, first difference at byte %d values %s != %s", n, first, av, bv)
			fail.Context = componentContext(a, b, first)
			return fail
		}
	case RMSEBuffer:
		sum, cnt := 0.0, 0
		forComponents(a, func(at int, sc Scalar) {
			if at+sc.Size() > len(a.data) || at+sc.Size() > len(b.data) {
				return
			}
			d := diff(get(a.data[at:], sc), get(b.data[at:], sc))
			sum += d * d
			cnt++
		})
		rmse := math.Sqrt(sum / float64(cnt))
		if cnt == 0 {
			rmse = 0
		}
		if rmse > cc.Tolerance {
			fail.Msg = fmt.Sprintf("Root Mean Square Error of %f is greater than tolerance of %f", rmse, cc.Tolerance)
			return fail
		}
	case HistogramEMDBuffer:
		if f.Inputs() != 4 || f.Comps[0].Kind == Float || f.Comps[0].Bits != 8 {
			fail.Msg = "EMD comparison only supports 8bit unorm format with four channels."
			return fail
		}
		var h1, h2 [4][256]float64
		e := 0
		forComponents(a, func(at int, _ Scalar) {
			c := e % 4
			e++
			if at < len(a.data) && at < len(b.data) {
				h1[c][a.data[at]]++
				h2[c][b.data[at]]++
			}
		})
		maxEMD := 0.0
		for c := 0; c < 4; c++ {
			total, acc := 0.0, 0.0
			for i := 0; i < 256; i++ {
				acc += h1[c][i]/float64(a.elements) - h2[c][i]/float64(b.elements)
				total += math.Abs(acc)
			}
			maxEMD = math.Max(maxEMD, total/256)
		}
		if maxEMD > cc.Tolerance {
			fail.Msg = fmt.Sprintf("Histogram EMD value of %f is greater than tolerance of %f", maxEMD, cc.Tolerance)
			return fail
		}
	}
	return nil
}

// componentContext lists the components of a and b around the one that
// holds byte first.
func componentContext(a, b *rtBuffer, first int) []ValueDiff {
	type comp struct {
		at, e, c int
		sc       Scalar
	}
	var all []comp
	hit := -1
	e, k := 0, 0
	forComponents(a, func(at int, sc Scalar) {
		c := k % len(a.format.Comps)
		if k > 0 && c == 0 {
			e++
		}
		if hit < 0 && first >= at && first < at+sc.Size() {
			hit = len(all)
		}
		all = append(all, comp{at, e, c, sc})
		k++
	})
	if hit < 0 {
		return nil
	}
	var out []ValueDiff
	for i := max(0, hit-contextRadius); i < min(len(all), hit+contextRadius+1); i++ {
		x := all[i]
		if x.at+x.sc.Size() > len(a.data) || x.at+x.sc.Size() > len(b.data) {
			break
		}
		ga, gb := get(a.data[x.at:], x.sc), get(b.data[x.at:], x.sc)
		out = append(out, ValueDiff{Index: i, Element: x.e, Component: x.c, Got: ga.String(), Want: gb.String(),
			Differs: string(a.data[x.at:x.at+x.sc.Size()]) != string(b.data[x.at:x.at+x.sc.Size()])})
	}
	return out
}

func byteAt(b []byte, i int) string {
	if i < len(b) {
		return fmt.Sprint(b[i])
	}
	return "(none)"
}

func forComponents(b *rtBuffer, fn func(at int, s Scalar)) {
	f := b.format
	for e := 0; e < b.elements; e++ {
		for _, c := range f.Comps {
			fn(e*f.Stride+c.Off, c.Scalar)
		}
	}
}

// diff is a − b as amber's CalculateDiff computes it: in the component
// type (so unsigned 32- and 64-bit differences wrap), widened to double.
func diff(a, b number) float64 {
	switch a.kind {
	case Float:
		return a.f - b.f
	case Int:
		return float64(a.i - b.i)
	}
	switch a.bits {
	case 8, 16:
		return float64(int64(a.u) - int64(b.u)) // promoted to int in C++
	case 32:
		return float64(uint32(a.u - b.u))
	}
	return float64(a.u - b.u)
}
