package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"spvx/asm"
	"spvx/internal/oracle"
)

// vulkanEnv maps a script's TARGET_ENV to the Vulkan environment spirv-val
// checks it against.
var vulkanEnv = map[string]string{"spv1.0": "vulkan1.0", "spv1.3": "vulkan1.1", "spv1.5": "vulkan1.2", "spv1.6": "vulkan1.3"}

// coreShaders returns the shaders of the core (no new extension) scripts.
func coreShaders(t *testing.T) map[string]shaderBlock {
	out := map[string]shaderBlock{}
	for name, p := range generated(t) {
		if !strings.HasPrefix(name, "subgroup_") {
			continue
		}
		for _, sh := range p.shaders {
			out[name+":"+sh.name] = sh
		}
	}
	if len(out) != len(coreOps) {
		t.Fatalf("%d core shaders, want %d", len(out), len(coreOps))
	}
	return out
}

func wordsToBytes(w []uint32) []byte {
	b := make([]byte, 4*len(w))
	for i, x := range w {
		binary.LittleEndian.PutUint32(b[4*i:], x)
	}
	return b
}

// TestCoreShadersValidate assembles the core subgroup shaders with spvx and
// validates them with Debian's spirv-val for the script's Vulkan
// environment. (The extension scripts cannot be checked this way: spirv-val
// 2023.1 knows none of the new extensions.)
func TestCoreShadersValidate(t *testing.T) {
	val := oracle.Require(t, oracle.SpirvVal)
	dir := t.TempDir()
	for name, sh := range coreShaders(t) {
		words, err := asm.Assemble([]byte(sh.text), asm.Options{TargetEnv: sh.targetEnv})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		env := vulkanEnv[sh.targetEnv]
		if env == "" {
			t.Errorf("%s: no Vulkan environment for %s", name, sh.targetEnv)
			continue
		}
		f := filepath.Join(dir, strings.NewReplacer(":", "_", ".", "_").Replace(name)+".spv")
		if err := os.WriteFile(f, wordsToBytes(words), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, stderr, ok := oracle.Exec(t, val, nil, "--target-env", env, f); !ok {
			t.Errorf("%s: spirv-val --target-env %s: %s", name, env, stderr)
		}
	}
}

// TestCoreShadersMatchSpirvAs: spvx's assembler and Debian's spirv-as give
// the same binary for the core shaders.
func TestCoreShadersMatchSpirvAs(t *testing.T) {
	as := oracle.Require(t, oracle.SpirvAs)
	for name, sh := range coreShaders(t) {
		words, err := asm.Assemble([]byte(sh.text), asm.Options{TargetEnv: sh.targetEnv})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		env := vulkanEnv[sh.targetEnv]
		out, stderr, ok := oracle.Exec(t, as, []byte(sh.text), "--target-env", env, "-o", "-", "-")
		if !ok {
			t.Errorf("%s: spirv-as: %s", name, stderr)
			continue
		}
		if !bytes.Equal(out, wordsToBytes(words)) {
			t.Errorf("%s: spvx as and spirv-as differ", name)
		}
	}
}

// TestCoreExpectationsByHandModel spot-checks the Go models on a subgroup
// small enough to follow: inputs 1, 2, 3, 4 at N = 4.
func TestCoreExpectationsByHandModel(t *testing.T) {
	in := []uint32{1, 2, 3, 4}
	want := map[string]string{
		"subgroup_elect.amber":       "[[1] [0] [0] [0]]",
		"subgroup_ballot.amber":      "[[5 0 0 0 2] [5 0 0 0 2] [5 0 0 0 2] [5 0 0 0 2]]",
		"subgroup_broadcast.amber":   "[[4 1] [4 1] [4 1] [4 1]]",
		"subgroup_shuffle_xor.amber": "[[2 4] [1 3] [4 2] [3 1]]",
		"subgroup_iadd.amber":        "[[10 1 0] [10 3 1] [10 6 3] [10 10 6]]",
	}
	for _, op := range coreOps {
		if got := fmt.Sprint(op.model(in)); got != want[op.file] {
			t.Errorf("%s: model gives %s, want %s", op.file, got, want[op.file])
		}
	}
}

// TestShuffleScaffoldValidates validates the bitcast-shuffle shaders with
// Debian's spirv-val after replacing the one new instruction by the core
// OpBitcast between the same types (valid: equal total bits) and dropping the
// extension's capability and OpExtension: everything else (types, layout
// decorations, built-ins, capabilities for 8/16/64-bit integers) is then
// checked by the oracle. Shaders with 8- or 16-component vectors are skipped:
// spirv-val 2023.1 does not know SPV_EXT_long_vector.
func TestShuffleScaffoldValidates(t *testing.T) {
	val := oracle.Require(t, oracle.SpirvVal)
	dir := t.TempDir()
	checked, skipped := 0, 0
	for name, p := range generated(t) {
		if !strings.HasPrefix(name, "bitcast_shuffle_") {
			continue
		}
		for _, sh := range p.shaders {
			if strings.Contains(sh.text, "LongVectorEXT") {
				skipped++
				continue
			}
			var core []string
			replaced := 0
			for _, l := range strings.Split(sh.text, "\n") {
				switch {
				case l == "OpCapability SubgroupBitcastShuffleINTEL", l == `OpExtension "SPV_INTEL_subgroup_bitcast_shuffle"`:
					continue
				case strings.Contains(l, "OpSubgroupBitcastShuffleINTEL"):
					l = strings.Replace(l, "OpSubgroupBitcastShuffleINTEL", "OpBitcast", 1)
					replaced++
				}
				core = append(core, l)
			}
			if replaced != 1 {
				t.Errorf("%s %s: %d shuffles, want 1", name, sh.name, replaced)
				continue
			}
			text := strings.Join(core, "\n")
			words, err := asm.Assemble([]byte(text), asm.Options{TargetEnv: sh.targetEnv})
			if err != nil {
				t.Errorf("%s %s: %v", name, sh.name, err)
				continue
			}
			f := filepath.Join(dir, "s.spv")
			if err := os.WriteFile(f, wordsToBytes(words), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, stderr, ok := oracle.Exec(t, val, nil, "--target-env", vulkanEnv[sh.targetEnv], f); !ok {
				t.Errorf("%s %s: spirv-val: %s", name, sh.name, stderr)
			}
			checked++
		}
	}
	t.Logf("%d shaders validated, %d with long vectors skipped", checked, skipped)
	if checked == 0 {
		t.Fatal("nothing validated")
	}
}
