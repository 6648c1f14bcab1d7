package interp

import (
	"context"
	"encoding/binary"
	"fmt"
	"testing"
)

// coopStorageSrc (a subgroup of 8): loads a 4×6 u32 matrix from In
// (row-major, stride 6), stores it column-major with stride 5 (a padding
// word per column) into a Workgroup array, then from there loads it back
// column-major (→ Out1 row-major: In again) and reads the same words
// row-major as a 6×4 matrix with stride 5 (its transpose → Out2
// row-major, stride 4); finally stores the transpose column-major
// (stride 6) through a PhysicalStorageBuffer pointer whose address is in
// Addr, the address of Out3 (binding 4, which the shader names but does
// not otherwise use): In again.
const coopStorageSrc = `OpCapability Shader
OpCapability CooperativeMatrixKHR
OpCapability VulkanMemoryModel
OpCapability Int64
OpCapability PhysicalStorageBufferAddresses
OpExtension "SPV_KHR_cooperative_matrix"
OpExtension "SPV_KHR_physical_storage_buffer"
OpMemoryModel PhysicalStorageBuffer64 Vulkan
OpEntryPoint GLCompute %main "main" %in %o1 %o2 %addr %o3 %wg
OpExecutionMode %main LocalSize 8 1 1
OpDecorate %arr ArrayStride 4
OpDecorate %arr64 ArrayStride 8
OpMemberDecorate %Buf 0 Offset 0
OpMemberDecorate %Buf64 0 Offset 0
OpDecorate %Buf Block
OpDecorate %Buf64 Block
OpDecorate %in DescriptorSet 0
OpDecorate %in Binding 0
OpDecorate %o1 DescriptorSet 0
OpDecorate %o1 Binding 1
OpDecorate %o2 DescriptorSet 0
OpDecorate %o2 Binding 2
OpDecorate %addr DescriptorSet 0
OpDecorate %addr Binding 3
OpDecorate %o3 DescriptorSet 0
OpDecorate %o3 Binding 4
%void = OpTypeVoid
%fn = OpTypeFunction %void
%u32 = OpTypeInt 32 0
%u64 = OpTypeInt 64 0
%arr = OpTypeRuntimeArray %u32
%arr64 = OpTypeRuntimeArray %u64
%Buf = OpTypeStruct %arr
%Buf64 = OpTypeStruct %arr64
%pBuf = OpTypePointer StorageBuffer %Buf
%pBuf64 = OpTypePointer StorageBuffer %Buf64
%pu = OpTypePointer StorageBuffer %u32
%pu64 = OpTypePointer StorageBuffer %u64
%ppsb = OpTypePointer PhysicalStorageBuffer %u32
%c0 = OpConstant %u32 0
%c2 = OpConstant %u32 2
%c3 = OpConstant %u32 3
%c4 = OpConstant %u32 4
%c5 = OpConstant %u32 5
%c6 = OpConstant %u32 6
%c1 = OpConstant %u32 1
%c2_64 = OpConstant %u32 64
%c264 = OpConstant %u32 264
%wgarr = OpTypeArray %u32 %c2_64
%pwgarr = OpTypePointer Workgroup %wgarr
%pwu = OpTypePointer Workgroup %u32
%M = OpTypeCooperativeMatrixKHR %u32 %c3 %c4 %c6 %c2
%T = OpTypeCooperativeMatrixKHR %u32 %c3 %c6 %c4 %c2
%in = OpVariable %pBuf StorageBuffer
%o1 = OpVariable %pBuf StorageBuffer
%o2 = OpVariable %pBuf StorageBuffer
%addr = OpVariable %pBuf64 StorageBuffer
%o3 = OpVariable %pBuf StorageBuffer
%wg = OpVariable %pwgarr Workgroup
%main = OpFunction %void None %fn
%entry = OpLabel
%pin = OpAccessChain %pu %in %c0 %c0
%m = OpCooperativeMatrixLoadKHR %M %pin %c0 %c6
%pw = OpAccessChain %pwu %wg %c0
OpCooperativeMatrixStoreKHR %pw %m %c1 %c5 Aligned 4
OpControlBarrier %c2 %c2 %c264
%back = OpCooperativeMatrixLoadKHR %M %pw %c1 %c5
%p1 = OpAccessChain %pu %o1 %c0 %c0
OpCooperativeMatrixStoreKHR %p1 %back %c0 %c6
%tr = OpCooperativeMatrixLoadKHR %T %pw %c0 %c5
%p2 = OpAccessChain %pu %o2 %c0 %c0
OpCooperativeMatrixStoreKHR %p2 %tr %c0 %c4
%pa = OpAccessChain %pu64 %addr %c0 %c0
%a = OpLoad %u64 %pa
%p3 = OpConvertUToPtr %ppsb %a
OpCooperativeMatrixStoreKHR %p3 %tr %c1 %c6 Aligned 4
OpReturn
OpFunctionEnd
`

// TestCoopMatStorageClasses runs coopStorageSrc: StorageBuffer, Workgroup
// and PhysicalStorageBuffer pointers, both layouts, strides with padding,
// checked against the layout table's addresses (element (r, c) row-major
// at r·Stride + c, column-major at c·Stride + r), under both layouts.
func TestCoopMatStorageClasses(t *testing.T) {
	const R, C = 4, 6
	for _, lay := range []CoopMatLayout{CoopMatLinear, CoopMatShuffle} {
		p, err := Compile(assemble(t, coopStorageSrc), "", Options{SubgroupSize: 8, CoopMatLayout: lay, Seed: 4})
		if err != nil {
			t.Fatal(err)
		}
		in := make([]uint32, R*C)
		for i := range in {
			in[i] = uint32(100 + i)
		}
		o1, o2, o3 := make([]byte, 4*R*C), make([]byte, 4*R*C), make([]byte, 4*R*C)
		base, ok := p.BufferAddress(BindingKey{0, 4}, 0)
		if !ok {
			t.Fatal("no address for binding 4")
		}
		addr := make([]byte, 8)
		binary.LittleEndian.PutUint64(addr, base)
		res := &Resources{Buffers: map[BindingKey][]*Buffer{{0, 0}: {{Data: u32s(in...)}}, {0, 1}: {{Data: o1}},
			{0, 2}: {{Data: o2}}, {0, 3}: {{Data: addr}}, {0, 4}: {{Data: o3}}}}
		if err := p.Dispatch(context.Background(), 1, 1, 1, res); err != nil {
			t.Fatal(err)
		}
		for r := range R {
			for c := range C {
				want := in[r*C+c]
				if got := getU32(o1, r*C+c); got != want {
					t.Errorf("layout %d: Workgroup round trip [%d][%d] = %d, want %d", lay, r, c, got, want)
				}
				if got := getU32(o2, c*R+r); got != want {
					t.Errorf("layout %d: transpose [%d][%d] = %d, want %d", lay, c, r, got, want)
				}
				if got := getU32(o3, r*C+c); got != want {
					t.Errorf("layout %d: PhysicalStorageBuffer [%d][%d] = %d, want %d", lay, r, c, got, want)
				}
			}
		}
	}
}

// coopKernelSrc is an OpenCL kernel k(global uint* in, global uint* out)
// whose subgroups each load a 4×8 matrix from in (row-major, stride 8) and
// store it column-major (stride 4) at out: CrossWorkgroup pointers.
const coopKernelSrc = `OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpCapability CooperativeMatrixKHR
OpExtension "SPV_KHR_cooperative_matrix"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%u32 = OpTypeInt 32 0
%pg = OpTypePointer CrossWorkgroup %u32
%fn = OpTypeFunction %void %pg %pg
%c0 = OpConstant %u32 0
%c1 = OpConstant %u32 1
%c2 = OpConstant %u32 2
%c3 = OpConstant %u32 3
%c4 = OpConstant %u32 4
%c8 = OpConstant %u32 8
%M = OpTypeCooperativeMatrixKHR %u32 %c3 %c4 %c8 %c2
%k = OpFunction %void None %fn
%in = OpFunctionParameter %pg
%out = OpFunctionParameter %pg
%entry = OpLabel
%m = OpCooperativeMatrixLoadKHR %M %in %c0 %c8
OpCooperativeMatrixStoreKHR %out %m %c1 %c4
OpReturn
OpFunctionEnd
`

// TestCoopMatKernel runs coopKernelSrc at several subgroup sizes, two
// workgroups of two subgroups each (all storing the same values).
func TestCoopMatKernel(t *testing.T) {
	const R, C = 4, 8
	for _, S := range []int{1, 4, 16} {
		for _, lay := range []CoopMatLayout{CoopMatLinear, CoopMatShuffle} {
			t.Run(fmt.Sprint(S, lay), func(t *testing.T) {
				p, err := Compile(assemble(t, coopKernelSrc), "k", Options{SubgroupSize: S, CoopMatLayout: lay})
				if err != nil {
					t.Fatal(err)
				}
				in := make([]uint32, R*C)
				for i := range in {
					in[i] = uint32(7 * i)
				}
				ob := make([]byte, 4*R*C)
				args := []KernelArg{{Kind: ArgGlobal, Global: u32s(in...)}, {Kind: ArgGlobal, Global: ob}}
				if err := p.DispatchND(context.Background(), [3]uint32{uint32(4 * S), 1, 1}, [3]uint32{uint32(2 * S), 1, 1}, &Resources{Args: args}); err != nil {
					t.Fatal(err)
				}
				for r := range R {
					for c := range C {
						if got, want := getU32(ob, c*R+r), in[r*C+c]; got != want {
							t.Fatalf("out[%d] (element %d,%d) = %d, want %d", c*R+r, r, c, got, want)
						}
					}
				}
			})
		}
	}
}
