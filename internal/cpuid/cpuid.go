// Package cpuid reports the x86 vector extensions spvx's assembly kernels
// use, so that packages can pick an AVX2 kernel at run time and fall back
// to portable Go elsewhere. It is internal/cpu's detection, reduced to
// what spvx needs, because the standard library's is not importable and
// the module takes no dependencies (golang.org/x/sys/cpu).
//
// Like the runtime, it honours GODEBUG=cpu.avx2=off, so the portable paths
// can be tested and measured on a machine that has AVX2:
//
//	GODEBUG=cpu.avx2=off go test ./mx ./subgroup
//
// cpu.avx512f=off likewise keeps the AVX-512 kernels from running.
package cpuid

import (
	"os"
	"strings"
)

// AVX2 reports whether the processor supports AVX2 and the operating system
// saves the YMM registers, and GODEBUG does not turn it off.
func AVX2() bool { return hasAVX2 }

// hasAVX2 is computed once at start-up: one CPUID and an environment read.
var hasAVX2 = detectAVX2() && !disabled(os.Getenv("GODEBUG"), "avx2")

// F16C reports whether AVX2 kernels may also use the F16C conversions
// between float32 and binary16 (VCVTPS2PH, VCVTPH2PS); GODEBUG=cpu.avx2=off
// or cpu.f16c=off turns them off.
func F16C() bool { return hasF16C }

var hasF16C = hasAVX2 && detectF16C() && !disabled(os.Getenv("GODEBUG"), "f16c")

// AVX512 reports whether the processor supports AVX-512 F, BW, DQ and VL
// (the subsets spvx's 512-bit kernels use) and the operating system saves
// the ZMM and opmask registers, and GODEBUG does not turn it off:
// cpu.avx512f=off, the runtime's name, or cpu.avx2=off.
func AVX512() bool { return hasAVX512 }

var hasAVX512 = hasAVX2 && detectAVX512() && !disabled(os.Getenv("GODEBUG"), "avx512f")

// AVX512VBMI reports AVX512() and the VBMI byte permutes (VPERMB,
// VPERMT2B, VPMULTISHIFTQB); GODEBUG cpu.avx512vbmi=off turns it off.
func AVX512VBMI() bool { return hasVBMI }

var hasVBMI = hasAVX512 && detectVBMI() && !disabled(os.Getenv("GODEBUG"), "avx512vbmi")

// disabled reports whether a GODEBUG value holds cpu.<name>=off (or
// cpu.all=off), the runtime's syntax; a later setting overrides an earlier.
func disabled(godebug, name string) bool {
	off := false
	for _, kv := range strings.Split(godebug, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || (k != "cpu."+name && k != "cpu.all") {
			continue
		}
		off = v == "off"
	}
	return off
}
