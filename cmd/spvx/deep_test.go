package main

import (
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"spvx/spirv"
)

// deepChainModule returns a GLCompute module with a chain of n types made
// by op (OpTypeArray of the one before with length 1, or OpTypeStruct of
// it) over a uint, and a Private variable of a pointer to the deepest.
func deepChainModule(n int, op spirv.Opcode) []byte {
	w := func(op spirv.Opcode, count int) uint32 { return uint32(count)<<16 | uint32(op) }
	const (
		main, void, fn, u32, one, first = 1, 2, 3, 4, 5, 6
	)
	last := uint32(first + n - 1)
	words := []uint32{spirv.MagicNumber, 0x00010600, 0, last + 4, 0,
		w(spirv.OpCapability, 2), uint32(spirv.CapabilityShader),
		w(spirv.OpMemoryModel, 3), uint32(spirv.AddressingModelLogical), uint32(spirv.MemoryModelGLSL450),
		w(spirv.OpEntryPoint, 5), uint32(spirv.ExecutionModelGLCompute), main, 0x6e69616d, 0, // "main"
		w(spirv.OpExecutionMode, 6), main, uint32(spirv.ExecutionModeLocalSize), 1, 1, 1,
		w(spirv.OpTypeVoid, 2), void,
		w(spirv.OpTypeFunction, 3), fn, void,
		w(spirv.OpTypeInt, 4), u32, 32, 0,
		w(spirv.OpConstant, 4), u32, one, 1,
	}
	for id := uint32(first); id <= last; id++ {
		elem := id - 1
		if id == first {
			elem = u32
		}
		if op == spirv.OpTypeArray {
			words = append(words, w(op, 4), id, elem, one)
		} else {
			words = append(words, w(op, 3), id, elem)
		}
	}
	words = append(words,
		w(spirv.OpTypePointer, 4), last+1, uint32(spirv.StorageClassPrivate), last,
		w(spirv.OpVariable, 4), last+1, last+2, uint32(spirv.StorageClassPrivate),
		w(spirv.OpFunction, 5), void, main, 0, fn,
		w(spirv.OpLabel, 2), last+3,
		w(spirv.OpReturn, 1),
		w(spirv.OpFunctionEnd, 1))
	b := make([]byte, 4*len(words))
	for i, x := range words {
		binary.LittleEndian.PutUint32(b[4*i:], x)
	}
	return b
}

// childMaxStack is the goroutine stack limit of the child process: 1/128
// of Go's default, so that a recursion per nesting level fails on a chain
// of 200k types as it would on one of 25M with the default (the issue's
// 4M-deep module crashed spvx), while the test stays quick.
const childMaxStack = 8 << 20

// TestDeepChainChild is the spvx process of TestDeepChain: it runs the
// command line in SPVX_DEEP_ARGS and exits with its status.
func TestDeepChainChild(t *testing.T) {
	args := os.Getenv("SPVX_DEEP_ARGS")
	if args == "" {
		t.Skip("run by TestDeepChain")
	}
	debug.SetMaxStack(childMaxStack)
	os.Exit(run(strings.Split(args, "\n"), stdio{os.Stdin, os.Stdout, os.Stderr}))
}

// spvxProcess runs spvx with args in a process of its own (this test
// binary, through TestDeepChainChild), so that a Go fatal error, which no
// recover catches, shows as the child's failure instead of ending the
// tests.
func spvxProcess(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestDeepChainChild$")
	cmd.Env = append(os.Environ(), "SPVX_DEEP_ARGS="+strings.Join(args, "\n"))
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("spvx %v: %v", args, err)
	}
	return code, out.String(), errb.String()
}

// TestDeepChain runs every entry point that reads a module (val, run,
// dis, info, and as on dis's text) on chains of 200k arrays and of 200k
// structs, in a process with a small stack (childMaxStack). Recursive walks over types used to end val and run
// with "goroutine stack exceeds 1000000000-byte limit". Each must exit
// cleanly: val and run with the limit's message, the others as they
// would on any module.
func TestDeepChain(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	const n = 200_000
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		op   spirv.Opcode
		val  string // val's message
	}{
		{"array", spirv.OpTypeArray, "Type Nesting Depth may not be larger than 1024. Found 1025."},
		{"struct", spirv.OpTypeStruct, "Structure Nesting Depth may not be larger than 255. Found 256."},
	} {
		mod := filepath.Join(dir, c.name+".spv")
		text := filepath.Join(dir, c.name+".spvasm")
		back := filepath.Join(dir, c.name+"2.spv")
		if err := os.WriteFile(mod, deepChainModule(n, c.op), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, step := range []struct {
			args []string
			ok   bool   // exit 0 expected; else non-zero
			want string // in stdout or stderr
		}{
			{[]string{"val", mod}, false, c.val},
			{[]string{"val", "--all", mod}, false, c.val},
			{[]string{"run", mod}, false, "the limit is 1024"},
			{[]string{"dis", "-o", text, mod}, true, ""},
			{[]string{"info", mod}, true, ""},
			{[]string{"as", "-o", back, text}, true, ""},
		} {
			start := time.Now()
			code, out, errs := spvxProcess(t, step.args...)
			t.Logf("%s: spvx %s: exit %d in %v", c.name, step.args[0], code, time.Since(start).Round(time.Millisecond))
			if strings.Contains(errs, "fatal error") || strings.Contains(errs, "goroutine ") {
				t.Errorf("%s: spvx %v crashed:\n%.2000s", c.name, step.args, errs)
				continue
			}
			if (code == 0) != step.ok {
				t.Errorf("%s: spvx %v: exit %d\n%.500s", c.name, step.args, code, errs)
			}
			if !strings.Contains(out+errs, step.want) {
				t.Errorf("%s: spvx %v: no %q in\n%.500s\n%.500s", c.name, step.args, step.want, out, errs)
			}
		}
	}
}
