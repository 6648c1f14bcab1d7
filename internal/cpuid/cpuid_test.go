package cpuid

import (
	"os"
	"runtime"
	"strings"
	"testing"
)

func TestDisabled(t *testing.T) {
	tests := []struct {
		godebug string
		want    bool
	}{
		{"", false},
		{"cpu.avx2=off", true},
		{"gctrace=1,cpu.avx2=off", true},
		{"cpu.all=off", true},
		{"cpu.avx2=off,cpu.avx2=on", false},
		{"cpu.avx2=on", false},
		{"cpu.avx512=off", false},
		{"xcpu.avx2=off", false},
	}
	for _, tc := range tests {
		if got := disabled(tc.godebug, "avx2"); got != tc.want {
			t.Errorf("disabled(%q, avx2) = %v, want %v", tc.godebug, got, tc.want)
		}
	}
}

// TestAVX2MatchesProcCPUInfo cross-checks the CPUID stub with the kernel's
// view where Linux exposes it.
func TestAVX2MatchesProcCPUInfo(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		if AVX2() {
			t.Fatal("AVX2 reported on a non-amd64 build")
		}
		return
	}
	info, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		t.Skipf("no /proc/cpuinfo: %v", err)
	}
	var flags string
	for _, line := range strings.Split(string(info), "\n") {
		if strings.HasPrefix(line, "flags") {
			flags = " " + line + " "
			break
		}
	}
	want := strings.Contains(flags, " avx2 ") && !disabled(os.Getenv("GODEBUG"), "avx2")
	if got := AVX2(); got != want {
		t.Errorf("AVX2() = %v, /proc/cpuinfo (and GODEBUG) say %v", got, want)
	}
	want = want && strings.Contains(flags, " f16c ") && !disabled(os.Getenv("GODEBUG"), "f16c")
	if got := F16C(); got != want {
		t.Errorf("F16C() = %v, /proc/cpuinfo (and GODEBUG) say %v", got, want)
	}
	godebug := os.Getenv("GODEBUG")
	has := func(f string) bool { return strings.Contains(flags, " "+f+" ") }
	want512 := AVX2() && has("avx512f") && has("avx512bw") && has("avx512dq") && has("avx512vl") && !disabled(godebug, "avx512f")
	if got := AVX512(); got != want512 {
		t.Errorf("AVX512() = %v, /proc/cpuinfo (and GODEBUG) say %v", got, want512)
	}
	if got, want := AVX512VBMI(), want512 && has("avx512vbmi") && !disabled(godebug, "avx512vbmi"); got != want {
		t.Errorf("AVX512VBMI() = %v, /proc/cpuinfo (and GODEBUG) say %v", got, want)
	}
}
