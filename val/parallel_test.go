package val

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"spvx/spirv"
)

// TestParallelSameAsSequential: a module of 60 functions, some with
// second-loop errors, gets the same error list from the parallel second
// loop as from a sequential one, run after run, with and without --all;
// without it the one error is the first of the --all list.
func TestParallelSameAsSequential(t *testing.T) {
	var b strings.Builder
	b.WriteString("OpCapability Shader\nOpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\n")
	b.WriteString("%void = OpTypeVoid\n%u32 = OpTypeInt 32 0\n%f32 = OpTypeFloat 32\n%c = OpConstant %u32 1\n%fc = OpConstant %f32 1\n%fn = OpTypeFunction %void\n%fu = OpTypeFunction %u32\n")
	b.WriteString("%main = OpFunction %void None %fn\n%e = OpLabel\nOpReturn\nOpFunctionEnd\n")
	for f := 0; f < 60; f++ {
		fmt.Fprintf(&b, "%%fun%d = OpFunction %%u32 None %%fu\n%%l%d = OpLabel\n", f, f)
		for k := 0; k < 100; k++ {
			fmt.Fprintf(&b, "%%x%d_%d = OpIAdd %%u32 %%c %%c\n", f, k)
		}
		if f%7 == 3 {
			b.WriteString("OpReturnValue %fc\nOpFunctionEnd\n") // a float returned from a u32 function
		} else {
			b.WriteString("OpReturnValue %c\nOpFunctionEnd\n")
		}
	}
	m := decodeAsm(t, b.String())
	if m.Len() < parallelMinInsts {
		t.Fatalf("only %d instructions: the loop would not go parallel", m.Len())
	}
	seq := Validate(m, Options{All: true, sequential: true}).(ErrorList)
	if len(seq) != 9 {
		t.Fatalf("sequential: %d errors, want 9: %v", len(seq), seq)
	}
	for range 20 {
		if got := Validate(m, Options{All: true}).(ErrorList); !reflect.DeepEqual(got, seq) {
			t.Fatalf("parallel --all:\n%v\nsequential:\n%v", got, seq)
		}
		if got := Validate(m, Options{}).(ErrorList); len(got) != 1 || got[0] != seq[0] {
			t.Fatalf("parallel: %v, want %v", got, seq[0])
		}
		if got := Validate(m, Options{forceParallel: true}).(ErrorList); len(got) != 1 || got[0] != seq[0] {
			t.Fatalf("forced parallel: %v, want %v", got, seq[0])
		}
	}
}

// TestParallelCorpus: on the shared invalid modules and some valid ones,
// the second loop and the module passes forced onto goroutines give the
// errors of the sequential run, with --all and without (the first error).
func TestParallelCorpus(t *testing.T) {
	files := corpusGlob(t, "invalid/*.spv")
	valid := corpusGlob(t, "valid/*.spv")
	files = append(files, valid[:min(len(valid), 50)]...)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m, err := spirv.Decode(b)
		if err != nil {
			continue // the decoder's error, no validation
		}
		for _, env := range []Env{EnvUniversal1_6, EnvVulkan1_2} {
			par := Validate(m, Options{Env: env, All: true, forceParallel: true})
			seq := Validate(m, Options{Env: env, All: true, sequential: true})
			if !reflect.DeepEqual(par, seq) {
				t.Errorf("%s %v:\nparallel:   %v\nsequential: %v", f, env, par, seq)
			}
			par = Validate(m, Options{Env: env, forceParallel: true})
			seq = Validate(m, Options{Env: env, sequential: true})
			if !reflect.DeepEqual(par, seq) {
				t.Errorf("%s %v without --all:\nparallel:   %v\nsequential: %v", f, env, par, seq)
			}
		}
	}
}

// TestParallelModulePasses: errors of three module-level passes (the
// duplicate execution modes, the decorations, the interfaces) come out
// of the parallel module passes in pass order, run after run.
func TestParallelModulePasses(t *testing.T) {
	m := decodeAsm(t, `OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %in Location 0
OpDecorate %in Location 1
%void = OpTypeVoid
%u32 = OpTypeInt 32 0
%ptr = OpTypePointer Input %u32
%in = OpVariable %ptr Input
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%e = OpLabel
%x = OpLoad %u32 %in
OpReturn
OpFunctionEnd
`)
	seq := Validate(m, Options{All: true, sequential: true}).(ErrorList)
	want := []string{"LocalSize execution mode must not be specified multiple times",
		"decorated with Location multiple times", "is not listed as an interface"}
	if len(seq) != len(want) {
		t.Fatalf("sequential: %v, want %d errors", seq, len(want))
	}
	for k, w := range want {
		if !strings.Contains(seq[k].Msg, w) {
			t.Fatalf("sequential error %d: %q, want %q", k, seq[k].Msg, w)
		}
	}
	for range 50 {
		if got := Validate(m, Options{All: true, forceParallel: true}).(ErrorList); !reflect.DeepEqual(got, seq) {
			t.Fatalf("parallel --all:\n%v\nsequential:\n%v", got, seq)
		}
		if got := Validate(m, Options{forceParallel: true}).(ErrorList); len(got) != 1 || got[0] != seq[0] {
			t.Fatalf("parallel: %v, want %v", got, seq[0])
		}
	}
}

// TestValidateLeavesNothingRunning: Validate starts the def-use index on
// another goroutine before the first loop; when the first loop fails it
// must still wait for it, since the caller owns the module again once
// Validate returns. Under -race, writing the module's words right after
// Validate reports the race if the index is still being built.
func TestValidateLeavesNothingRunning(t *testing.T) {
	var b strings.Builder
	b.WriteString("OpCapability Shader\nOpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\n")
	b.WriteString("%void = OpTypeVoid\n%u32 = OpTypeInt 32 0\n%c = OpConstant %u32 1\n%fn = OpTypeFunction %void\n")
	b.WriteString("%main = OpFunction %void None %fn\n%e = OpLabel\n")
	for k := 0; k < 5000; k++ {
		fmt.Fprintf(&b, "%%x%d = OpIAdd %%u32 %%c %%c\n", k)
	}
	b.WriteString("OpReturn\nOpFunctionEnd\n")
	for range 20 {
		m := decodeAsm(t, b.String())
		w := m.Words() // a first-loop error: OpCapability's operand made unknown
		w[5] = 2<<16 | uint32(spirv.OpCapability)
		w[6] = 0xFFFF
		if err := Validate(m, Options{}); err == nil {
			t.Fatal("a module with capability 0xFFFF validated")
		}
		for i := range w {
			w[i] = 0
		}
	}
}
