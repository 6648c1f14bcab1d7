package interp

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"spvx/spirv"
	sgpkg "spvx/subgroup"
)

// FuzzRun decodes, compiles and runs a small dispatch of arbitrary modules
// with a step budget: the executor must never panic, hang or allocate
// without bound (errors and faults are fine).
func FuzzRun(f *testing.F) {
	for _, p := range []string{"../examples/saxpy.spv", "../examples/switch64.spv"} {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	for _, src := range []string{shuffleModule(f, sgpkg.U(32, 1), sgpkg.U(16, 2), 8, true), shuffleModule(f, sgpkg.U(8, 4), sgpkg.U(32, 1), 16, false)} {
		m := assemble(f, src)
		f.Add(m.Encode())
	}
	if _, err := exec.LookPath("glslangValidator"); err == nil {
		f.Add(glsl(f, oobSrc, "").Encode()) // storage images
		f.Add(glsl(f, image2DSrc, "").Encode())
		f.Add(glsl(f, sample2DSrc, "").Encode()) // samplers
		f.Add(glsl(f, shadowCubeSrc, "").Encode())
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := spirv.Decode(data)
		if err != nil {
			return
		}
		p, err := Compile(m, "", Options{SubgroupSize: 4, MaxSteps: 20000, Parallelism: 1})
		if err != nil {
			if strings.Contains(err.Error(), "internal error") {
				t.Fatal(err) // a recovered panic: an executor bug
			}
			return
		}
		ls := p.LocalSize()
		if uint64(ls[0])*uint64(ls[1])*uint64(ls[2]) > 256 {
			return
		}
		res := &Resources{Buffers: map[BindingKey][]*Buffer{}, Images: map[BindingKey][]*Image{}, PushConstants: make([]byte, 64),
			Samplers: map[BindingKey][]*Sampler{}}
		for _, b := range p.Bindings() {
			n := max(b.ArraySize, 1)
			key := BindingKey{b.Set, b.Binding}
			if b.Kind == SamplerDescriptor || b.Kind == CombinedImageSampler {
				res.Samplers[key] = []*Sampler{{MagFilter: FilterLinear, MinFilter: FilterLinear, MipmapMode: MipmapLinear, MaxLod: 4, AddressU: AddressMirroredRepeat}}
			}
			if b.Kind == SampledImage || b.Kind == CombinedImageSampler { // R32f, 3 levels
				res.Images[key] = []*Image{{Format: spirv.ImageFormatR32f, Width: 4, Height: 4, Levels: 3, Data: make([]byte, 84)}}
				continue
			}
			if b.Kind.isImage() { // an R32ui image: formats declared otherwise are dispatch errors
				res.Images[BindingKey{b.Set, b.Binding}] = []*Image{{Format: spirv.ImageFormatR32ui, Width: 4, Height: 4, Data: make([]byte, 64)}}
				continue
			}
			for i := 0; i < n && i < 4; i++ {
				res.Buffers[BindingKey{b.Set, b.Binding}] = append(res.Buffers[BindingKey{b.Set, b.Binding}], &Buffer{Data: make([]byte, 256)})
			}
		}
		for _, a := range p.Args() {
			switch {
			case a.Pointer && a.Storage == spirv.StorageClassWorkgroup:
				res.Args = append(res.Args, KernelArg{Kind: ArgLocal, LocalSize: 256})
			case a.Pointer && a.Storage == spirv.StorageClassFunction:
				res.Args = append(res.Args, KernelArg{Kind: ArgBytes, Bytes: make([]byte, a.Size)})
			case a.Pointer:
				res.Args = append(res.Args, KernelArg{Kind: ArgGlobal, Global: make([]byte, 256)})
			case a.Size > 8:
				res.Args = append(res.Args, KernelArg{Kind: ArgBytes, Bytes: make([]byte, a.Size)})
			default:
				res.Args = append(res.Args, KernelArg{Kind: ArgScalar, Scalar: 3})
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if p.ExecutionModel() == spirv.ExecutionModelKernel {
			err = p.DispatchND(ctx, [3]uint32{8, 1, 1}, [3]uint32{4, 1, 1}, res)
		} else {
			err = p.Dispatch(ctx, 2, 1, 1, res)
		}
		if err != nil && strings.Contains(err.Error(), "internal error") {
			t.Fatal(err)
		}
	})
}
