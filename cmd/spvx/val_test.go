package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"spvx/internal/oracle"
)

const valHead = "OpCapability Shader\nOpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\n"

const valTail = `%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
`

const domTypes = `%void = OpTypeVoid
%bool = OpTypeBool
%true = OpConstantTrue %bool
%u32 = OpTypeInt 32 0
%c = OpConstant %u32 1
%fn = OpTypeFunction %void
`

// valCases are small modules for the layout, id, capability, extension
// and version families, each checked against Debian's spirv-val: same
// exit status, same output byte for byte.
var valCases = []struct {
	name, src string
	asEnv     string   // spirv-as --target-env, "" for its default
	args      []string // extra spirv-val flags
	version   uint32   // if not 0, the header's version word is set to it
}{
	{name: "valid", src: valHead + valTail},
	{name: "capability after memory model", src: "OpCapability Shader\nOpMemoryModel Logical GLSL450\nOpCapability Int8\n" + valTail},
	{name: "name after types", src: valHead + "%void = OpTypeVoid\nOpName %void \"v\"\n%fn = OpTypeFunction %void\n%main = OpFunction %void None %fn\n%entry = OpLabel\nOpReturn\nOpFunctionEnd\n"},
	{name: "entry point before memory model", src: "OpCapability Shader\nOpEntryPoint GLCompute %main \"main\"\nOpMemoryModel Logical GLSL450\n" + valTail},
	{name: "missing memory model", src: "OpCapability Shader\n"},
	{name: "function in function", src: valHead + "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%main = OpFunction %void None %fn\n%entry = OpLabel\n%g = OpFunction %void None %fn\nOpFunctionEnd\n"},
	{name: "label in block", src: valHead + "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%main = OpFunction %void None %fn\n%entry = OpLabel\n%b = OpLabel\nOpReturn\nOpFunctionEnd\n"},
	{name: "function end in block", src: valHead + "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%main = OpFunction %void None %fn\n%entry = OpLabel\nOpFunctionEnd\n"},
	{name: "missing function end", src: valHead + "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%main = OpFunction %void None %fn\n%entry = OpLabel\nOpReturn\n"},
	{name: "instruction outside block", src: valHead + "%void = OpTypeVoid\n%u32 = OpTypeInt 32 0\n%c = OpConstant %u32 1\n%fn = OpTypeFunction %void\n%main = OpFunction %void None %fn\n%entry = OpLabel\nOpReturn\n%x = OpIAdd %u32 %c %c\nOpFunctionEnd\n"},
	{name: "undefined id", src: valHead + "%void = OpTypeVoid\n%u32 = OpTypeInt 32 0\n%c = OpConstant %u32 1\n%fn = OpTypeFunction %void\n%main = OpFunction %void None %fn\n%entry = OpLabel\n%x = OpIAdd %u32 %c %nowhere\nOpReturn\nOpFunctionEnd\n"},
	{name: "forward reference never defined", src: valHead + "OpName %ghost \"ghost\"\n" + valTail},
	{name: "result type not a type", src: valHead + "%void = OpTypeVoid\n%u32 = OpTypeInt 32 0\n%c = OpConstant %u32 1\n%fn = OpTypeFunction %void\n%main = OpFunction %void None %fn\n%entry = OpLabel\n%x = OpIAdd %c %c %c\nOpReturn\nOpFunctionEnd\n"},
	{name: "opcode capability", src: "OpCapability Kernel\nOpCapability Addresses\nOpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %main \"main\"\n%void = OpTypeVoid\n%f32 = OpTypeFloat 32\n%c = OpConstant %f32 1\n%fn = OpTypeFunction %void\n%main = OpFunction %void None %fn\n%entry = OpLabel\n%x = OpDPdx %f32 %c\nOpReturn\nOpFunctionEnd\n"},
	{name: "operand capability", src: valHead + "OpDecorate %v InputAttachmentIndex 4\n%void = OpTypeVoid\n%f32 = OpTypeFloat 32\n%p = OpTypePointer Private %f32\n%v = OpVariable %p Private\n%fn = OpTypeFunction %void\n%main = OpFunction %void None %fn\n%entry = OpLabel\nOpReturn\nOpFunctionEnd\n"},
	{name: "capability version", version: 0x10000, src: "OpCapability Shader\nOpCapability GroupNonUniform\nOpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\n" + valTail},
	{name: "operand extension", src: "OpCapability Shader\nOpCapability DrawParameters\nOpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\n" + valTail, asEnv: "spv1.0"},
	{name: "int8 without capability", src: valHead + "%u8 = OpTypeInt 8 0\n" + valTail},
	{name: "int64 without capability", src: valHead + "%u64 = OpTypeInt 64 0\n" + valTail},
	{name: "float64 without capability", src: valHead + "%d = OpTypeFloat 64\n" + valTail},
	{name: "float16 without capability", src: valHead + "%h = OpTypeFloat 16\n" + valTail},
	{name: "kernel signedness", src: "OpCapability Kernel\nOpCapability Addresses\nOpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %main \"main\"\n%i32 = OpTypeInt 32 1\n" + valTail},
	{name: "binary version above target", asEnv: "spv1.6", src: valHead + valTail, args: []string{"--target-env", "spv1.0"}},
	{name: "max id bound", src: valHead + valTail, args: []string{"--max-id-bound", "3"}},
	{name: "max struct members", src: valHead + "%u32 = OpTypeInt 32 0\n%s = OpTypeStruct %u32 %u32 %u32\n" + valTail, args: []string{"--max-struct-members", "2"}},
	{name: "use not dominated", src: valHead + domTypes + `%main = OpFunction %void None %fn
%entry = OpLabel
OpSelectionMerge %merge None
OpBranchConditional %true %then %merge
%then = OpLabel
%x = OpIAdd %u32 %c %c
OpBranch %merge
%merge = OpLabel
%y = OpIAdd %u32 %x %c
OpReturn
OpFunctionEnd
`},
	{name: "phi parent not dominated", src: valHead + domTypes + `%main = OpFunction %void None %fn
%entry = OpLabel
OpSelectionMerge %merge None
OpBranchConditional %true %then %else
%then = OpLabel
%x = OpIAdd %u32 %c %c
OpBranch %merge
%else = OpLabel
OpBranch %merge
%merge = OpLabel
%y = OpPhi %u32 %x %then %x %else
OpReturn
OpFunctionEnd
`},
	{name: "phi valid and unreachable use", src: valHead + domTypes + `%main = OpFunction %void None %fn
%entry = OpLabel
OpSelectionMerge %merge None
OpBranchConditional %true %then %else
%then = OpLabel
%x = OpIAdd %u32 %c %c
OpBranch %merge
%else = OpLabel
OpBranch %merge
%merge = OpLabel
%y = OpPhi %u32 %x %then %c %else
OpReturn
%dead = OpLabel
%z = OpIAdd %u32 %x %c
OpReturn
OpFunctionEnd
`},
	{name: "loop with back edge", src: valHead + domTypes + `%main = OpFunction %void None %fn
%entry = OpLabel
OpBranch %header
%header = OpLabel
%i = OpPhi %u32 %c %entry %next %continue
OpLoopMerge %exit %continue None
OpBranchConditional %true %body %exit
%body = OpLabel
OpBranch %continue
%continue = OpLabel
%next = OpIAdd %u32 %i %c
OpBranch %header
%exit = OpLabel
OpReturn
OpFunctionEnd
`},
	{name: "parameter used in another function", src: valHead + domTypes + `%fnu = OpTypeFunction %void %u32
%main = OpFunction %void None %fn
%entry = OpLabel
%r = OpFunctionCall %void %f %c
OpReturn
OpFunctionEnd
%f = OpFunction %void None %fnu
%p = OpFunctionParameter %u32
%fe = OpLabel
OpReturn
OpFunctionEnd
%g = OpFunction %void None %fn
%ge = OpLabel
%q = OpIAdd %u32 %p %c
OpReturn
OpFunctionEnd
`},
	{name: "variable not first", src: valHead + domTypes + `%pf = OpTypePointer Function %u32
%main = OpFunction %void None %fn
%entry = OpLabel
%x = OpIAdd %u32 %c %c
%v = OpVariable %pf Function
OpReturn
OpFunctionEnd
`},
	{name: "selection merge not before branch", src: valHead + domTypes + `%main = OpFunction %void None %fn
%entry = OpLabel
OpSelectionMerge %m None
%x = OpIAdd %u32 %c %c
OpBranchConditional %true %a %m
%a = OpLabel
OpBranch %m
%m = OpLabel
OpReturn
OpFunctionEnd
`},
	{name: "function call argument type", src: valHead + domTypes + `%f32 = OpTypeFloat 32
%fnf = OpTypeFunction %void %f32
%main = OpFunction %void None %fn
%entry = OpLabel
%r = OpFunctionCall %void %g %c
OpReturn
OpFunctionEnd
%g = OpFunction %void None %fnf
%p = OpFunctionParameter %f32
%ge = OpLabel
OpReturn
OpFunctionEnd
`},
	{name: "derivative width", src: "OpCapability Shader\nOpCapability Float16\nOpMemoryModel Logical GLSL450\nOpEntryPoint Fragment %main \"main\"\nOpExecutionMode %main OriginUpperLeft\n" + domTypes + `%h = OpTypeFloat 16
%hc = OpConstant %h 1
%main = OpFunction %void None %fn
%entry = OpLabel
%d = OpDPdx %h %hc
OpReturn
OpFunctionEnd
`},
	{name: "interface variable not listed", src: valHead + domTypes + `%pp = OpTypePointer Private %u32
%v = OpVariable %pp Private
%main = OpFunction %void None %fn
%entry = OpLabel
%x = OpLoad %u32 %v
OpReturn
OpFunctionEnd
`},
	{name: "interface variable listed", src: "OpCapability Shader\nOpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %main \"main\" %v\nOpExecutionMode %main LocalSize 1 1 1\n" + domTypes + `%pp = OpTypePointer Private %u32
%v = OpVariable %pp Private
%main = OpFunction %void None %fn
%entry = OpLabel
%x = OpLoad %u32 %v
OpReturn
OpFunctionEnd
`},
	{name: "phi in entry block", src: valHead + domTypes + `%main = OpFunction %void None %fn
%entry = OpLabel
%p = OpPhi %u32 %c %entry
OpReturn
OpFunctionEnd
`},
	{name: "phi incoming type", src: valHead + domTypes + `%main = OpFunction %void None %fn
%entry = OpLabel
OpBranch %b
%b = OpLabel
%p = OpPhi %u32 %true %entry
OpReturn
OpFunctionEnd
`},
	{name: "branch to the same label twice", src: valHead + domTypes + `%main = OpFunction %void None %fn
%entry = OpLabel
OpSelectionMerge %m None
OpBranchConditional %true %m %m
%m = OpLabel
OpReturn
OpFunctionEnd
`},
	{name: "branch condition not bool", src: valHead + domTypes + `%main = OpFunction %void None %fn
%entry = OpLabel
OpSelectionMerge %m None
OpBranchConditional %c %a %m
%a = OpLabel
OpBranch %m
%m = OpLabel
OpReturn
OpFunctionEnd
`},
	{name: "return value type", src: valHead + domTypes + `%fnu = OpTypeFunction %u32
%main = OpFunction %void None %fn
%entry = OpLabel
%r = OpFunctionCall %u32 %f
OpReturn
OpFunctionEnd
%f = OpFunction %u32 None %fnu
%fe = OpLabel
OpReturnValue %true
OpFunctionEnd
`},
	{name: "memory model twice", src: "OpCapability Shader\nOpMemoryModel Logical GLSL450\nOpMemoryModel Logical GLSL450\n" + valTail},
}

// TestValDifferential runs each case through Debian's spirv-as, then both
// spirv-val and spvx val, and compares exit status and output.
func TestValDifferential(t *testing.T) {
	as := oracle.Require(t, "spirv-as")
	sv := oracle.Require(t, "spirv-val")
	dir := t.TempDir()
	for _, c := range valCases {
		t.Run(c.name, func(t *testing.T) {
			src := filepath.Join(dir, "in.spvasm")
			bin := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+".spv")
			if err := os.WriteFile(src, []byte(c.src), 0o666); err != nil {
				t.Fatal(err)
			}
			asArgs := []string{src, "-o", bin}
			if c.asEnv != "" {
				asArgs = append(asArgs, "--target-env", c.asEnv)
			}
			if _, stderr, ok := oracle.Exec(t, as, nil, asArgs...); !ok {
				t.Fatalf("spirv-as: %s", stderr)
			}
			if c.version != 0 {
				b, err := os.ReadFile(bin)
				if err != nil {
					t.Fatal(err)
				}
				b[4], b[5], b[6], b[7] = byte(c.version), byte(c.version>>8), byte(c.version>>16), byte(c.version>>24)
				if err := os.WriteFile(bin, b, 0o666); err != nil {
					t.Fatal(err)
				}
			}
			args := append(append([]string{}, c.args...), bin)
			_, want, ok := oracle.Exec(t, sv, nil, args...)
			wantCode := exitOK
			if !ok {
				wantCode = exitRejected
			}
			var out, errb bytes.Buffer
			code := run(append([]string{"val"}, args...), stdio{nil, &out, &errb})
			if code != wantCode || errb.String() != string(want) {
				t.Errorf("spvx val: status %d\n%s\nspirv-val: status %d\n%s", code, errb.String(), wantCode, want)
			}
		})
	}
}

func TestValCLI(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.spvasm")
	bad := filepath.Join(dir, "bad.spvasm")
	os.WriteFile(good, []byte(valHead+valTail), 0o666)
	// Comments, a blank line, a string holding "OpCapability" and
	// indentation: the error's place is the text's line 6, column 3, where
	// spirv-val would say "line 3" (the instruction's index).
	os.WriteFile(bad, []byte("; a module\nOpCapability Shader ; \"OpNop\n\nOpMemoryModel Logical GLSL450 ; OpNop\n\n  OpCapability Int8\nOpName %ghost \"gh\\\"OpNop\nost\"\n"+valTail), 0o666)
	runVal := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := run(append([]string{"val"}, args...), stdio{nil, &out, &errb})
		return code, out.String(), errb.String()
	}
	if code, _, e := runVal(good); code != exitOK || e != "" {
		t.Errorf("valid module: status %d, %q", code, e)
	}
	code, _, e := runVal(bad)
	want := bad + ":6:3: error: Capability is in an invalid layout section\n  OpCapability Int8\n\n"
	if code != exitRejected || e != want {
		t.Errorf("invalid module: status %d\n%q\nwant\n%q", code, e, want)
	}
	// --all goes on; several files are labelled.
	code, _, e = runVal("--all", good, bad)
	if code != exitRejected || !strings.Contains(e, bad+":\n") || strings.Count(e, "error: ") < 2 {
		t.Errorf("--all with two files: status %d\n%s", code, e)
	}
	// --json.
	code, o, _ := runVal("--json", bad)
	var diags []valDiag
	if err := json.Unmarshal([]byte(o), &diags); err != nil || code != exitRejected || len(diags) != 1 ||
		diags[0].Line != 3 || diags[0].Pos != bad+":6:3" || diags[0].Inst != 2 || diags[0].Word != 5+2+3 || diags[0].Text != "OpCapability Int8" {
		t.Errorf("--json: status %d, %v, %+v\n%s", code, err, diags, o)
	}
	if code, _, _ := runVal("--target-env", "vulkan9", good); code != exitUsage {
		t.Errorf("bad target env: status %d", code)
	}
	if code, _, e := runVal(filepath.Join(dir, "missing.spv")); code != exitRejected || !strings.HasPrefix(e, "error: ") {
		t.Errorf("missing file: status %d, %q", code, e)
	}
}

// TestValRepoModules: the modules shipped in the repository get Debian
// spirv-val's verdict and output.
func TestValRepoModules(t *testing.T) {
	sv := oracle.Require(t, "spirv-val")
	files, _ := filepath.Glob("../../examples/*.spv")
	more, _ := filepath.Glob("../../dis/testdata/*.spv")
	files = append(files, more...)
	if len(files) == 0 {
		t.Skip("no modules found")
	}
	for _, f := range files {
		_, want, ok := oracle.Exec(t, sv, nil, f)
		wantCode := exitOK
		if !ok {
			wantCode = exitRejected
		}
		var out, errb bytes.Buffer
		if code := run([]string{"val", f}, stdio{nil, &out, &errb}); code != wantCode || errb.String() != string(want) {
			t.Errorf("%s: spvx val status %d\n%s\nspirv-val status %d\n%s", f, code, errb.String(), wantCode, want)
		}
	}
}

// TestValFlags: every flag of current spirv-val (and so every flag of
// Debian's 2023.1, whose --help is read where it is installed) is
// accepted with its argument; no FILE reads standard input; --version
// lists the environments; a bad SIZE:ALIGN is a usage error.
func TestValFlags(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.spvasm")
	if err := os.WriteFile(good, []byte(valHead+valTail), 0o666); err != nil {
		t.Fatal(err)
	}
	runVal := func(in []byte, args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := run(append([]string{"val"}, args...), stdio{bytes.NewReader(in), &out, &errb})
		return code, out.String(), errb.String()
	}
	withArg := map[string]string{"target-env": "vulkan1.1", "buffer-descriptor-layout": "16:8", "image-descriptor-layout": "32:16",
		"sampler-descriptor-layout": "16:16", "tensor-descriptor-layout": "64:16"}
	flags := []string{"max-struct-members", "max-struct-depth", "max-local-variables", "max-global-variables",
		"max-switch-branches", "max-function-args", "max-control-flow-nesting-depth", "max-access-chain-indexes", "max-id-bound",
		"relax-logical-pointer", "relax-block-layout", "uniform-buffer-standard-layout", "scalar-block-layout",
		"workgroup-scalar-block-layout", "skip-block-layout", "relax-struct-store", "allow-localsizeid",
		"allow-offset-texture-operand", "allow-vulkan-32-bit-bitwise", "before-hlsl-legalization",
		"buffer-descriptor-layout", "image-descriptor-layout", "sampler-descriptor-layout", "tensor-descriptor-layout", "target-env"}
	if sv, err := oracle.Path(oracle.SpirvVal); err == nil {
		r := oracle.Run(sv, nil, "--help")
		for _, l := range strings.Split(string(r.Stdout)+string(r.Stderr), "\n") {
			f := strings.Fields(l)
			if len(f) > 0 && strings.HasPrefix(f[0], "--") && f[0] != "--help" && f[0] != "--version" {
				flags = append(flags, strings.TrimSuffix(strings.TrimPrefix(f[0], "--"), ","))
			}
		}
	}
	for _, f := range flags {
		args := []string{"--" + f}
		switch {
		case withArg[f] != "":
			args = append(args, withArg[f])
		case strings.HasPrefix(f, "max-"):
			args = append(args, "100000")
		}
		if code, _, e := runVal(nil, append(args, good)...); code != exitOK {
			t.Errorf("%v: status %d, %s", args, code, e)
		}
	}
	// Standard input: a binary (assembled here) with no FILE and with "-".
	var bin bytes.Buffer
	if code := run([]string{"as", "-o", "-", good}, stdio{nil, &bin, &bytes.Buffer{}}); code != exitOK {
		t.Fatalf("spvx as: %d", code)
	}
	for _, args := range [][]string{nil, {"-"}} {
		if code, _, e := runVal(bin.Bytes(), args...); code != exitOK || e != "" {
			t.Errorf("stdin %v: status %d, %q", args, code, e)
		}
	}
	if code, o, _ := runVal(nil, "--version"); code != exitOK || !strings.Contains(o, "Targets:\n") || !strings.Contains(o, "SPIR-V 1.6 (under Vulkan 1.3 semantics)") {
		t.Errorf("--version: status %d\n%s", code, o)
	}
	for _, bad := range []string{"16", "0:4", "a:b"} {
		if code, _, _ := runVal(nil, "--buffer-descriptor-layout", bad, good); code != exitUsage {
			t.Errorf("--buffer-descriptor-layout %s: status %d", bad, code)
		}
	}
	if code, _, _ := runVal(nil, "--help"); code != exitOK {
		t.Errorf("--help: status %d", code)
	}
}
