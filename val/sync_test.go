package val

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"spvx/asm"
	"spvx/internal/oracle"
	"spvx/spirv"
)

// The harness of the atomics, barriers, scopes, memory-semantics,
// non-uniform, execution-limitation, mode-setting, built-in and misc
// tests: each case is a whole module in assembly, the environment, and
// the exact first line we must print ("" for a valid module). Unless the
// case names a gap of the older oracle, Debian's spirv-val must give the
// same verdict and the same first line.

type vcase struct {
	name string
	env  Env
	src  string
	want string // "error: line N: [VUID] message" (first line), or "" for valid
	// gap says why Debian spirv-val 2023.1 is not asked (a rule newer than
	// it), if it is not; a gap starting "wording" still asks it for the
	// verdict, not the message (its text is older).
	gap  string
	opts *Options
}

// compSrc is a GLCompute module: capabilities (space separated, Shader
// is always there), the memory model, declarations after the common ones
// and main's body. Common: %void %fn %uint %int %float %bool, %u0..%u6
// (uint constants 0..6, usable as scopes), %wg (Workgroup uint) and %pv
// (Private uint) listed in the interface from SPIR-V 1.4 ({IFACE}).
func compSrc(caps, mm, decls, body string) string {
	return modelSrc("GLCompute", "OpExecutionMode %main LocalSize 1 1 1\n", caps, mm, decls, body)
}

func modelSrc(model, modes, caps, mm, decls, body string) string {
	var b strings.Builder
	b.WriteString("OpCapability Shader\n")
	for _, c := range strings.Fields(caps) {
		if strings.HasPrefix(c, "SPV_") {
			b.WriteString("OpExtension \"" + c + "\"\n")
			continue
		}
		b.WriteString("OpCapability " + c + "\n")
	}
	if mm == "" {
		mm = "GLSL450"
	}
	b.WriteString("OpMemoryModel Logical " + mm + "\n")
	b.WriteString("OpEntryPoint " + model + " %main \"main\"{IFACE}\n")
	b.WriteString(modes)
	b.WriteString(`%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%float = OpTypeFloat 32
%bool = OpTypeBool
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%u2 = OpConstant %uint 2
%u3 = OpConstant %uint 3
%u4 = OpConstant %uint 4
%u5 = OpConstant %uint 5
%u6 = OpConstant %uint 6
%ptr_wg = OpTypePointer Workgroup %uint
%ptr_pv = OpTypePointer Private %uint
%ptr_fn = OpTypePointer Function %uint
%wg = OpVariable %ptr_wg Workgroup
%pv = OpVariable %ptr_pv Private
`)
	b.WriteString(decls)
	b.WriteString("\n%main = OpFunction %void None %fn\n%entry = OpLabel\n")
	b.WriteString(body)
	b.WriteString("\nOpReturn\nOpFunctionEnd\n")
	return b.String()
}

// oracleEnvs are the --target-env names Debian spirv-val 2023.1 knows.
func oracleKnows(e Env) bool { return e != EnvVulkan1_4 }

func runCases(t *testing.T, cases []vcase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := c.src
			iface := ""
			// The interface: Input and Output variables, and from SPIR-V
			// 1.4 every global variable.
			spv14 := c.env.Version() >= spirv.MakeVersion(1, 4)
			for _, l := range strings.Split(src, "\n") {
				if f := strings.Fields(l); len(f) == 5 && f[2] == "OpVariable" && f[4] != "Function" &&
					(spv14 || f[4] == "Input" || f[4] == "Output") {
					iface += " " + f[0]
				}
			}
			src = strings.ReplaceAll(src, "{IFACE}", iface)
			words, err := asm.Assemble([]byte(src), asm.Options{TargetEnv: c.env.String()})
			if err != nil {
				t.Fatalf("assembling:\n%s\n%v", src, err)
			}
			m, err := spirv.DecodeWords(words)
			if err != nil {
				t.Fatal(err)
			}
			opts := Options{}
			if c.opts != nil {
				opts = *c.opts
			}
			opts.Env = c.env
			got := ""
			if err := Validate(m, opts); err != nil {
				var list ErrorList
				if !errors.As(err, &list) {
					t.Fatal(err)
				}
				got = "error: line " + itoa(list[0].Line()) + ": " + strings.SplitN(list[0].Error(), "\n", 2)[0]
			}
			if got != c.want {
				t.Errorf("env %s\n got  %q\n want %q\n%s", c.env, got, c.want, src)
			}
			wordingOnly := strings.HasPrefix(c.gap, "wording")
			if (c.gap != "" && !wordingOnly) || !oracleKnows(c.env) || c.opts != nil {
				return
			}
			sv := oracle.Require(t, "spirv-val")
			bin := filepath.Join(t.TempDir(), "m.spv")
			b := make([]byte, 4*len(words))
			for k, w := range words {
				b[4*k], b[4*k+1], b[4*k+2], b[4*k+3] = byte(w), byte(w>>8), byte(w>>16), byte(w>>24)
			}
			if err := os.WriteFile(bin, b, 0o666); err != nil {
				t.Fatal(err)
			}
			_, stderr, ok := oracle.Exec(t, sv, nil, "--target-env", c.env.String(), bin)
			theirs := ""
			if !ok {
				theirs, _, _ = strings.Cut(string(stderr), "\n")
			}
			if wordingOnly {
				if (theirs == "") != (c.want == "") {
					t.Errorf("Debian spirv-val (env %s) gives another verdict: %q", c.env, theirs)
				}
				return
			}
			if theirs != c.want {
				t.Errorf("Debian spirv-val (env %s) disagrees:\n theirs %q\n want   %q", c.env, theirs, c.want)
			}
		})
	}
}
