package extinst

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"spvx/spirv"
)

var update = flag.Bool("update", false, "rewrite testdata/golden.txt")

// Golden inputs: specials, denormals, halfway cases, extremes.
var goldenFloats = [16]float64{0, nz, 1, -1.5, 0.5, 2.5, -3.75, 1e-40, 6e-8, 65504, 3.4028234663852886e38, inf, ninf, qnan, math.Pi, -1e-300}
var goldenInts = [16]int64{0, 1, -1, 2, -2, 127, -128, 255, 32767, -32768, 65535, math.MaxInt32, math.MinInt32, math.MaxInt64, math.MinInt64, 0x5A5A5A5A5A5A5A5A}

// pointerOps are instructions whose last grammar operand is an output pointer
// (omitted from args).
var pointerOps = map[string]bool{
	"GLSL.std.450 Modf": true, "GLSL.std.450 Frexp": true,
	"OpenCL.std fract": true, "OpenCL.std frexp": true, "OpenCL.std lgamma_r": true,
	"OpenCL.std modf": true, "OpenCL.std remquo": true, "OpenCL.std sincos": true,
}

// goldenLines evaluates every instruction of a set over the golden inputs
// with each operand signature that the instruction accepts, one line per
// (instruction, signature, width).
func goldenLines(s set, eval func(uint32, Type, []Arg) (Value, Value, error)) []string {
	name := "GLSL.std.450"
	if s == setCL {
		name = "OpenCL.std"
	}
	g := spirv.LookupExtInstSet(name)
	var lines []string
	for _, in := range g.Instructions {
		full := s.opName(in.Opcode)
		nargs := len(in.Operands)
		if pointerOps[full] {
			nargs--
		}
		found := false
		seen := map[string]bool{}
		for _, sig := range goldenSigs(nargs) {
			out, out2, err := eval(in.Opcode, sig.res, sig.args)
			if err != nil {
				continue
			}
			found = true
			// One line per combination of component types: the first
			// (longest) vector size that evaluates.
			key := fmt.Sprint(sig.res.Kind, sig.res.Width)
			for _, a := range sig.args {
				key += fmt.Sprint(",", a.T.Kind, a.T.Width)
			}
			if seen[key] {
				continue
			}
			seen[key] = true
			var b strings.Builder
			fmt.Fprintf(&b, "%s %v(", full, sig.res)
			for i, a := range sig.args {
				if i > 0 {
					b.WriteString(",")
				}
				b.WriteString(a.T.String())
			}
			b.WriteString(") =")
			for i := range sig.res.n() {
				b.WriteString(" " + goldenBits(sig.res, out[i]))
			}
			if out2 != (Value{}) {
				b.WriteString(" ;")
				for i := range sig.res.n() {
					b.WriteString(" " + goldenBits(sig.res, out2[i]))
				}
			}
			lines = append(lines, b.String())
		}
		if !found {
			lines = append(lines, full+" (no signature)")
		}
	}
	return lines
}

// goldenBits prints a result component in hex, except that a float NaN is
// "nan": the package does not preserve NaN signs or payloads (see its doc),
// and which operand's NaN an SSE instruction returns depends on how the
// compiler orders a commutative operation's operands, which differs between
// builds (go test -race gave other signs).
func goldenBits(t Type, bits uint64) string {
	if t.Kind == Float && math.IsNaN(ToFloat64(bits, t.Width)) {
		return "nan"
	}
	return fmt.Sprintf("%x", bits)
}

type goldenSig struct {
	res  Type
	args []Arg
}

func goldenArg(k Kind, w, n uint8, rot int) Arg {
	a := Arg{T: Type{k, w, n}}
	for i := range int(n) {
		j := (i + rot) % 16
		if k == Float {
			a.V[i] = FromFloat64(goldenFloats[j], w)
		} else {
			a.V[i] = uint64(goldenInts[j]) & mask(w)
		}
	}
	return a
}

// goldenSigs lists the candidate signatures for an instruction of nargs
// operands: same-type floats or integers at every width and several vector
// sizes, and the mixed forms (float with int, packs, upsample, shuffles).
func goldenSigs(nargs int) []goldenSig {
	var sigs []goldenSig
	add := func(res Type, args ...Arg) {
		if len(args) == nargs {
			sigs = append(sigs, goldenSig{res, args})
		}
	}
	for _, n := range []uint8{16, 4, 3, 9, 2, 1} {
		for _, w := range []uint8{16, 32, 64} {
			ft := Type{Float, w, n}
			var fs, fi []Arg
			for j := range nargs {
				fs = append(fs, goldenArg(Float, w, n, 5*j))
				if j == 0 {
					fi = append(fi, goldenArg(Float, w, n, 0))
				} else {
					fi = append(fi, goldenArg(Int, 32, n, 3*j))
				}
			}
			add(ft, fs...)
			add(ft, fi...)
			add(Type{Float, w, 1}, fs...)                                // Length, Distance, Determinant
			add(Type{Int, 32, n}, goldenArg(Float, w, n, 0))             // ilogb
			add(ft, goldenArg(Int, w, n, 7))                             // nan
			add(ft, fs[0], fs[min(1, nargs-1)], goldenArg(Int, w, n, 4)) // select, bitselect
		}
		for _, w := range []uint8{8, 16, 32, 64} {
			var is []Arg
			for j := range nargs {
				is = append(is, goldenArg(Int, w, n, 5*j))
			}
			add(Type{Int, w, n}, is...)
			if w < 64 {
				add(Type{Int, 2 * w, n}, goldenArg(Int, w, n, 0), goldenArg(Int, w, n, 6)) // upsample
			}
		}
	}
	// Packs and unpacks.
	add(Type{Uint, 32, 1}, goldenArg(Float, 32, 4, 0))
	add(Type{Uint, 32, 1}, goldenArg(Float, 32, 2, 2))
	add(Type{Float, 32, 2}, goldenArg(Uint, 32, 1, 15))
	add(Type{Float, 32, 4}, goldenArg(Uint, 32, 1, 15))
	add(Type{Float, 64, 1}, goldenArg(Uint, 32, 2, 14))
	add(Type{Uint, 32, 2}, goldenArg(Float, 64, 1, 14))
	// Shuffles: 4 and 8 element sources with an 8 element mask.
	mask8 := Arg{T: Type{Uint, 32, 8}, V: Value{3, 2, 1, 0, 7, 6, 5, 12}}
	add(Type{Int, 32, 8}, goldenArg(Int, 32, 4, 0), mask8)
	add(Type{Int, 32, 8}, goldenArg(Int, 32, 4, 0), goldenArg(Int, 32, 4, 4), mask8)
	add(Type{Float, 32, 8}, goldenArg(Float, 32, 8, 0), goldenArg(Float, 32, 8, 8), mask8)
	return sigs
}

func TestGolden(t *testing.T) {
	var buf bytes.Buffer
	buf.WriteString("# extinst golden results: instruction, result type, operand types, component bits (; second result).\n")
	buf.WriteString("# Regenerate with: go test ./internal/extinst -run TestGolden -update\n")
	for _, l := range goldenLines(setGLSL, GLSL) {
		buf.WriteString(l + "\n")
	}
	for _, l := range goldenLines(setCL, OpenCL) {
		buf.WriteString(l + "\n")
	}
	path := filepath.Join("testdata", "golden.txt")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		gl, wl := strings.Split(buf.String(), "\n"), strings.Split(string(want), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("golden mismatch at line %d:\n got %s\nwant %s", i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("golden length differs: %d lines, want %d", len(gl), len(wl))
	}
	// Every non-memory instruction of both sets has at least one signature.
	for _, l := range strings.Split(buf.String(), "\n") {
		if strings.HasSuffix(l, "(no signature)") {
			name := strings.TrimSuffix(l, " (no signature)")
			if !goldenNoSig[name] {
				t.Errorf("%s: no operand signature evaluates", name)
			}
		}
	}
}

// goldenNoSig are the instructions expected to evaluate nothing: memory and
// I/O ones, and the ones not defined for compute.
var goldenNoSig = map[string]bool{
	"GLSL.std.450 IMix": true, "GLSL.std.450 InterpolateAtCentroid": true,
	"GLSL.std.450 InterpolateAtSample": true, "GLSL.std.450 InterpolateAtOffset": true,
	"OpenCL.std vloadn": true, "OpenCL.std vstoren": true, "OpenCL.std vload_half": true,
	"OpenCL.std vload_halfn": true, "OpenCL.std vstore_half": true, "OpenCL.std vstore_half_r": true,
	"OpenCL.std vstore_halfn": true, "OpenCL.std vstore_halfn_r": true, "OpenCL.std vloada_halfn": true,
	"OpenCL.std vstorea_halfn": true, "OpenCL.std vstorea_halfn_r": true, "OpenCL.std printf": true,
	"OpenCL.std prefetch": true,
}
