package main

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRunSaxpy(t *testing.T) {
	dir := t.TempDir()
	x := make([]byte, 4*128)
	for i := 0; i < 128; i++ {
		binary.LittleEndian.PutUint32(x[4*i:], math.Float32bits(float32(i)))
	}
	pc := make([]byte, 8)
	binary.LittleEndian.PutUint32(pc, math.Float32bits(2))
	binary.LittleEndian.PutUint32(pc[4:], 100)
	xf, yf, sf, pf := filepath.Join(dir, "x.bin"), filepath.Join(dir, "y.bin"), filepath.Join(dir, "s.bin"), filepath.Join(dir, "pc.bin")
	os.WriteFile(xf, x, 0o644)
	os.WriteFile(pf, pc, 0o644)
	out, errs, code := runCLI(t, nil, "run", "../../examples/saxpy.spv", "--groups", "2", "--subgroup", "16",
		"--buffer", "0:0="+xf, "--buffer", "0:1="+yf+":512", "--buffer", "0:2="+sf+":64", "--push", pf, "--print", "0:2:f32")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	// subgroup sums of 2*i over lanes of 16, for i < n = 100
	if !strings.Contains(out, "0: 240 752 1264 1776 2288 2800 780 0") {
		t.Errorf("unexpected output:\n%s", out)
	}
	y, err := os.ReadFile(yf)
	if err != nil || len(y) != 512 || math.Float32frombits(binary.LittleEndian.Uint32(y[4*99:])) != 198 {
		t.Errorf("y not written back: %v len %d", err, len(y))
	}
}

func TestRunErrors(t *testing.T) {
	dir := t.TempDir()
	am := filepath.Join(dir, "t.amber")
	os.WriteFile(am, []byte("#!amber\nSHADER compute x GLSL\nEND\n"), 0o644)
	_, errs, code := runCLI(t, nil, "run", am)
	if code != exitUsage || !strings.Contains(errs, "Amber scripts are not supported in this build") {
		t.Errorf("amber: exit %d, %q", code, errs)
	}
	_, errs, code = runCLI(t, nil, "run", "../../examples/saxpy.spv", "--groups", "1")
	if code != exitRejected || !strings.Contains(errs, "push constants") {
		t.Errorf("missing buffer: exit %d, %q", code, errs)
	}
	_, _, code = runCLI(t, nil, "run")
	if code != exitUsage {
		t.Errorf("no input: exit %d", code)
	}
}
