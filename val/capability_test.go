package val

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"spvx/asm"
	"spvx/internal/oracle"
)

// TestEnvCapabilities checks CapabilityPass's tables per environment:
// a capability each table allows (guaranteed, optional, enabled by an
// extension or by ImageBasic), and one it does not, with spirv-val's
// message. Where Debian's spirv-val 2023.1 has the same table (no
// capability newer than it, no vulkan1.4), its verdict and first line
// are checked too.
func TestEnvCapabilities(t *testing.T) {
	shader := func(caps, exts string) string {
		m := module{caps: "Shader " + caps, exts: exts}
		return m.text()
	}
	kernel := func(caps string) string {
		var b strings.Builder
		for _, c := range strings.Fields("Kernel Addresses " + caps) {
			b.WriteString("OpCapability " + c + "\n")
		}
		b.WriteString("OpMemoryModel Physical32 OpenCL\nOpEntryPoint Kernel %main \"main\"\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n" +
			"%main = OpFunction %void None %fn\n%entry = OpLabel\nOpReturn\nOpFunctionEnd\n")
		return b.String()
	}
	cases := []struct {
		env    string
		src    string
		want   string // "" for valid
		oracle bool   // 2023.1 knows the rule as current words it
	}{
		{"vulkan1.0", shader("Geometry Int64 ImageQuery", ""), "", true},
		{"vulkan1.0", shader("DeviceGroup", ""), "Capability DeviceGroup is not allowed by Vulkan 1.0 specification (or requires extension)", true},
		{"vulkan1.0", shader("DeviceGroup", "SPV_KHR_device_group"), "", true},
		{"vulkan1.0", shader("GroupNonUniform", ""), "Capability GroupNonUniform is not allowed by Vulkan 1.0 specification (or requires extension)", false},
		{"vulkan1.1", shader("DeviceGroup MultiView GroupNonUniformBallot VariablePointers", ""), "", true},
		{"vulkan1.1", shader("DenormPreserve", ""), "Capability DenormPreserve is not allowed by Vulkan 1.1 specification (or requires extension)", true},
		{"vulkan1.2", shader("ShaderNonUniform DenormPreserve RoundingModeRTE", ""), "", true},
		{"vulkan1.2", shader("Kernel", ""), "Capability Kernel is not allowed by Vulkan 1.2 specification (or requires extension)", true},
		{"vulkan1.3", shader("DotProduct DemoteToHelperInvocation", ""), "", true},
		{"vulkan1.3", shader("Linkage", ""), "Capability Linkage is not allowed by Vulkan 1.3 specification (or requires extension)", false}, // 2023.1 has no Vulkan 1.3 table,
		{"vulkan1.4", shader("Int8 SampleRateShading StorageImageExtendedFormats", ""), "", false},
		{"vulkan1.4", shader("Addresses", ""), "Capability Addresses is not allowed by Vulkan 1.4 specification (or requires extension)", false},
		{"opencl1.2", kernel("Int64 Int16 Vector16 ImageBasic Float64"), "", true},
		{"opencl1.2", kernel("ImageBasic Sampled1D LiteralSampler"), "", true},
		{"opencl1.2", kernel("Sampled1D"), "Capability Sampled1D is not allowed by OpenCL 1.2 Full Profile specification (or requires extension or capability)", true},
		{"opencl1.2", kernel("Shader"), "Capability Shader is not allowed by OpenCL 1.2 Full Profile specification (or requires extension or capability)", true},
		{"opencl1.2embedded", kernel("Int64"), "Capability Int64 is not allowed by OpenCL 1.2 Embedded Profile specification (or requires extension or capability)", true},
		{"opencl1.2", kernel("DeviceEnqueue"), "Capability DeviceEnqueue is not allowed by OpenCL 1.2 Full Profile specification (or requires extension or capability)", true},
		{"opencl2.0", kernel("DeviceEnqueue GenericPointer Pipes Groups ImageBasic ImageReadWrite"), "", true},
		{"opencl2.0", kernel("ImageReadWrite"), "Capability ImageReadWrite is not allowed by OpenCL 2.0/2.1 Full Profile specification (or requires extension or capability)", true},
		{"opencl2.1embedded", kernel("Int64"), "Capability Int64 is not allowed by OpenCL 2.0/2.1 Embedded Profile specification (or requires extension or capability)", true},
		{"opencl2.1", kernel("SubgroupDispatch"), "Capability SubgroupDispatch is not allowed by OpenCL 2.0/2.1 Full Profile specification (or requires extension or capability)", false},
		{"opencl2.2", kernel("SubgroupDispatch PipeStorage Pipes"), "", true},
		{"opencl2.2embedded", kernel("Int64"), "Capability Int64 is not allowed by OpenCL 2.2 Embedded Profile specification (or requires extension or capability)", true},
		{"opencl2.2", kernel("Shader"), "Capability Shader is not allowed by OpenCL 2.2 Full Profile specification (or requires extension or capability)", true},
		// No table: the universal environments and OpenGL.
		{"spv1.6", shader("DeviceGroup Kernel", ""), "", true},
		{"opengl4.5", shader("Kernel Geometry", ""), "", true},
	}
	sv, err := oracle.Path(oracle.SpirvVal)
	dir := t.TempDir()
	for _, c := range cases {
		env, err2 := ParseEnv(c.env)
		if err2 != nil {
			t.Fatal(err2)
		}
		words, err2 := asm.Assemble([]byte(c.src), asm.Options{TargetEnv: c.env})
		if err2 != nil {
			t.Fatalf("%s: %v\n%s", c.env, err2, c.src)
		}
		got := firstError(t, words, Options{Env: env})
		if got != c.want {
			t.Errorf("%s %q:\n\tgot  %q\n\twant %q", c.env, c.src[:60], got, c.want)
		}
		if !c.oracle || err != nil || testing.Short() {
			continue
		}
		bin := filepath.Join(dir, "m.spv")
		if err := os.WriteFile(bin, wordsToBytes(words), 0o666); err != nil {
			t.Fatal(err)
		}
		r := oracle.Run(sv, nil, "--target-env", c.env, bin)
		if r.Status == oracle.Failed {
			t.Fatal(r.Err)
		}
		theirs, _, _ := strings.Cut(string(r.Stderr), "\n")
		if (r.Status == oracle.Accepted) != (c.want == "") {
			t.Errorf("%s: spirv-val 2023.1 %v: %s", c.env, r.Status, theirs)
		} else if c.want != "" && !strings.HasSuffix(theirs, ": "+c.want) {
			t.Errorf("%s: spirv-val 2023.1 says %q", c.env, theirs)
		}
	}
}
