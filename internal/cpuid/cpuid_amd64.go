package cpuid

// cpuid and xgetbv are in cpuid_amd64.s.
func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
func xgetbv() (eax, edx uint32)

// detectAVX2 follows the Intel SDM §14.3 recipe: CPUID.1:ECX reports
// OSXSAVE (bit 27) and AVX (bit 28), XCR0 must enable the XMM and YMM
// state (bits 1 and 2), and CPUID.(7,0):EBX bit 5 reports AVX2.
func detectAVX2() bool {
	maxLeaf, _, _, _ := cpuid(0, 0)
	if maxLeaf < 7 {
		return false
	}
	_, _, ecx1, _ := cpuid(1, 0)
	if ecx1&(1<<27) == 0 || ecx1&(1<<28) == 0 {
		return false
	}
	if xcr0, _ := xgetbv(); xcr0&6 != 6 {
		return false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	return ebx7&(1<<5) != 0
}

// detectF16C reads CPUID.1:ECX bit 29 (its YMM forms need the AVX state
// detectAVX2 checks).
func detectF16C() bool {
	_, _, ecx1, _ := cpuid(1, 0)
	return ecx1&(1<<29) != 0
}

// detectAVX512 needs XCR0 to enable the opmask, ZMM_Hi256 and Hi16_ZMM
// state (bits 5 to 7) besides the YMM state, and CPUID.(7,0):EBX to report
// AVX512F (bit 16), DQ (17), BW (30) and VL (31).
func detectAVX512() bool {
	if !detectAVX2() {
		return false
	}
	if xcr0, _ := xgetbv(); xcr0&0xE6 != 0xE6 {
		return false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	const want = 1<<16 | 1<<17 | 1<<30 | 1<<31
	return ebx7&want == want
}

// detectVBMI reads CPUID.(7,0):ECX bit 1.
func detectVBMI() bool {
	_, _, ecx7, _ := cpuid(7, 0)
	return ecx7&(1<<1) != 0
}
