package val

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"spvx/spirv"
)

// FuzzValidate: any bytes that decode are validated, with and without
// --all and --spec-strict, in a Vulkan and an OpenCL environment (their
// capability tables), without panicking; with --all, the second loop on
// two goroutines (however small the module) gives the errors it gives on
// one.
func FuzzValidate(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(sharedDir, "corpus/invalid/*.spv"))
	valid, _ := filepath.Glob(filepath.Join(sharedDir, "corpus/valid/*.spv"))
	if len(valid) > 40 {
		valid = valid[:40]
	}
	for _, p := range append(files, valid...) {
		if b, err := os.ReadFile(p); err == nil && len(b) < 64<<10 {
			f.Add(b)
		}
	}
	for _, m := range []module{ocp("", "%x = OpFAdd %fp4 %fp4_1 %fp4_1"), shuffleModule("u32", "v2u16"), bx("%x = OpBitcastExtractEXT %fp4 %u8_1 %u32_0")} {
		f.Add(wordsToBytes(assembleF(f, m.text())))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := spirv.Decode(b)
		if err != nil {
			return
		}
		_ = Validate(m, Options{})
		_ = Validate(m, Options{Env: EnvOpenCLEmbedded2_0})
		all := Validate(m, Options{All: true, SpecStrict: true, Env: EnvVulkan1_3, forceParallel: true})
		seq := Validate(m, Options{All: true, SpecStrict: true, Env: EnvVulkan1_3, sequential: true})
		if !reflect.DeepEqual(all, seq) {
			t.Fatalf("parallel: %v\nsequential: %v", all, seq)
		}
	})
}

func wordsToBytes(w []uint32) []byte {
	b := make([]byte, 0, 4*len(w))
	for _, x := range w {
		b = append(b, byte(x), byte(x>>8), byte(x>>16), byte(x>>24))
	}
	return b
}
