package interp

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"spvx/spirv"
)

// corpusComputeExceptions are the GLCompute entry points of the shared
// corpus that Compile refuses, by module, with the class that stops each.
// Issue 23's slices made storage images, texel buffers, samplers and
// sampled images, multisampled images and bindings two image kinds share
// compile, and coopmat.go runs both cooperative matrix extensions; ray
// queries stay (an acceleration structure has no meaning without a
// ray-tracing device).
var corpusComputeExceptions = map[string]string{
	"glslang__rayQuery-OpConvertUToAccelerationStructureKHR.comp.spv":                               "ray query",
	"glslang__rayQuery-types.comp.spv":                                                              "ray query",
	"spvcross__shaders-hlsl__comp__rayquery.nofxc.fxconly.comp.spv":                                 "ray query",
	"spvcross__shaders-no-opt__asm__comp__ray-query-function-object.spv14.asm.vk.nocompat.comp.spv": "ray query",
	"spvcross__shaders__vulkan__comp__ray-query.nocompat.spv14.invalid.vk.comp.spv":                 "ray query",
}

// TestCorpusComputeCompiles compiles every GLCompute entry point of the
// shared corpus's valid modules: each must compile unless the table above
// lists its module, and a listed module that compiles must leave it.
func TestCorpusComputeCompiles(t *testing.T) {
	files, _ := filepath.Glob("../../shared/corpus/valid/*.spv")
	if len(files) == 0 {
		t.Skip("../../shared/corpus/valid not found: skipping the corpus compile census")
	}
	failed := map[string]string{}
	total := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m, err := spirv.Decode(data)
		if err != nil {
			continue // the corpus's valid modules all decode; spirv's tests say so
		}
		for _, ep := range m.Index().EntryPoints {
			if ep.Model != spirv.ExecutionModelGLCompute {
				continue
			}
			total++
			if _, err := Compile(m, ep.Name, Options{SubgroupSize: 32}); err != nil {
				failed[filepath.Base(f)] = err.Error()
			}
		}
	}
	var names []string
	for name := range failed {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if _, listed := corpusComputeExceptions[name]; !listed {
			t.Errorf("%s: %s", name, failed[name])
		}
	}
	for name, why := range corpusComputeExceptions {
		if _, ok := failed[name]; !ok {
			t.Errorf("%s compiles now: remove it from corpusComputeExceptions (%s)", name, why)
		}
	}
	t.Logf("%d of %d GLCompute entry points compile", total-len(failed), total)
}
