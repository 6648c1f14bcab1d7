package val

import "testing"

func TestConversionRules(t *testing.T) {
	kernel := func(decls, body string) module {
		return module{caps: "Kernel Addresses Int64 GenericPointer", kernel: true, decls: `
%u32 = OpTypeInt 32 0
%u64 = OpTypeInt 64 0
%f32 = OpTypeFloat 32
%u1 = OpConstant %u32 1
%l1 = OpConstant %u64 1
%pw = OpTypePointer Workgroup %u32
%pg = OpTypePointer Generic %u32
%pgf = OpTypePointer Generic %f32
%pp = OpTypePointer CrossWorkgroup %u32
%pu = OpTypePointer UniformConstant %u32
%pf = OpTypePointer Function %u32
%w = OpVariable %pw Workgroup
` + decls, body: "%v = OpVariable %pf Function\n" + body}
	}
	runRuleCases(t, []ruleCase{
		{name: "valid", oracle: true, mod: tr64(`
%a = OpConvertFToU %u32 %f1
%b = OpConvertFToS %v2i %fv
%c = OpConvertSToF %f32 %i1
%d = OpConvertUToF %v2f %uv
%e = OpSConvert %i64 %u1
%f = OpSConvert %i32 %l1
%g = OpBitcast %v2u %fv
%h = OpBitcast %i64 %uv
%k = OpQuantizeToF16 %f32 %f1
`)},
		{name: "ftou result", oracle: true, mod: tr("", "%a = OpConvertFToU %i32 %f1"),
			want: "Expected unsigned int scalar or vector type as Result Type: ConvertFToU"},
		{name: "ftou input", oracle: true, mod: tr("", "%a = OpConvertFToU %u32 %u1"),
			want: "Expected input to be float scalar or vector: ConvertFToU"},
		{name: "ftou dimension", oracle: true, mod: tr("", "%a = OpConvertFToU %u32 %fv"),
			want: "Expected input to have the same dimension as Result Type: ConvertFToU"},
		{name: "ftos result", oracle: true, mod: tr("", "%a = OpConvertFToS %f32 %f1"),
			want: "Expected int scalar or vector type as Result Type: ConvertFToS"},
		{name: "stof result", oracle: true, mod: tr("", "%a = OpConvertSToF %u32 %i1"),
			want: "Expected float scalar or vector type as Result Type: ConvertSToF"},
		{name: "utof input", oracle: true, mod: tr("", "%a = OpConvertUToF %f32 %f1"),
			want: "Expected input to be int scalar or vector: ConvertUToF"},
		{name: "utof dimension", oracle: true, mod: tr("", "%a = OpConvertUToF %v2f %u1"),
			want: "Expected input to have the same dimension as Result Type: ConvertUToF"},
		{name: "uconvert result", oracle: true, mod: tr("", "%a = OpUConvert %i32 %u1"),
			want: "Expected unsigned int scalar or vector type as Result Type: UConvert"},
		{name: "uconvert width", oracle: true, mod: tr("", "%a = OpUConvert %u32 %i1"),
			want: "Expected input to have different bit width from Result Type: UConvert"},
		{name: "sconvert input", oracle: true, mod: tr("", "%a = OpSConvert %i32 %f1"),
			want: "Expected input to be int scalar or vector: SConvert"},
		{name: "sconvert width", oracle: true, mod: tr("", "%a = OpSConvert %i32 %u1"),
			want: "Expected input to have different bit width from Result Type: SConvert"},
		{name: "fconvert result", oracle: true, mod: tr("", "%a = OpFConvert %u32 %f1"),
			want: "Expected float scalar or vector type as Result Type: FConvert"},
		{name: "fconvert same", // 2023.1 words it "Expected input to have different bit width"
			mod:  tr("", "%a = OpFConvert %f32 %f1"),
			want: "Expected component type of Value to be different from component type of Result Type: FConvert"},
		{name: "quantize result", oracle: true, mod: tr("", "%a = OpQuantizeToF16 %u32 %u1"),
			want: "Expected 32-bit float scalar or vector type as Result Type: QuantizeToF16"},
		{name: "quantize input", oracle: true, mod: tr("", "%a = OpQuantizeToF16 %v2f %f1"),
			want: "Expected input type to be equal to Result Type: QuantizeToF16"},
		{name: "limited use", oracle: true, mod: module{caps: "Shader StorageBuffer16BitAccess", exts: "SPV_KHR_16bit_storage",
			decls: "%h = OpTypeFloat 16\n%u16 = OpTypeInt 16 0\n%f32 = OpTypeFloat 32\n%f1 = OpConstant %f32 1\n%pf = OpTypePointer Function %h"},
			want: ""},
		{name: "bitcast input", oracle: true, mod: tr("", "%a = OpBitcast %u32 %true"),
			want: "Expected input to be a pointer or int or float vector or scalar: Bitcast"},
		{name: "bitcast result", oracle: true, mod: tr("", "%a = OpBitcast %bool %u1"),
			want: "Expected Result Type to be a pointer or int or float vector or scalar type: Bitcast"},
		{name: "bitcast width", oracle: true, mod: tr("", "%a = OpBitcast %v2u %f1"),
			want: "Expected input to have the same total bit width as Result Type: Bitcast"},
		{name: "bitcast pointer 1.0", // 2023.1 words it without the version prefix
			patch: setVersion(0x10400), mod: kernel("", "%a = OpBitcast %f32 %v"),
			want: "In SPIR-V 1.4 or earlier (and without SPV_KHR_physical_storage_buffer), pointer can only be converted to another pointer or int scalar: Bitcast"},
		{name: "bitcast to pointer 1.0", // as above
			patch: setVersion(0x10400), mod: kernel("%f1 = OpConstant %f32 1", "%a = OpBitcast %pf %f1"),
			want: "In SPIR-V 1.4 or earlier (and without SPV_KHR_physical_storage_buffer), expected input to be a pointer or int scalar if Result Type is pointer: Bitcast"},
		{name: "bitcast pointer psb", patch: setVersion(0x10400), // 2023.1 words it "Pointer can only be converted ..."
			mod: func() module {
				m := kernel("", "%a = OpBitcast %f32 %v")
				m.exts = "SPV_KHR_physical_storage_buffer"
				return m
			}(),
			want: "In SPIR-V 1.5 or later (or with SPV_KHR_physical_storage_buffer), pointer can only be converted to another pointer, int scalar or 32-bit int vector: Bitcast"},
		{name: "bitcast pointer ok", oracle: true, mod: kernel("", "%a = OpBitcast %u64 %v\n%b = OpBitcast %pp %a")},
		{name: "ptrtou logical", oracle: true, mod: func() module {
			m := tr("%pf = OpTypePointer Function %u32", "%v = OpVariable %pf Function\n%a = OpConvertPtrToU %u32 %v")
			m.caps += " Addresses"
			return m
		}(),
			want: "Logical addressing not supported: ConvertPtrToU"},
		{name: "ptrtou result", oracle: true, mod: kernel("", "%a = OpConvertPtrToU %f32 %v"),
			want: "Expected unsigned int scalar type as Result Type: ConvertPtrToU"},
		{name: "ptrtou input", oracle: true, mod: kernel("", "%a = OpConvertPtrToU %u64 %u1"),
			want: "Expected input to be a pointer: ConvertPtrToU"},
		{name: "utoptr result", oracle: true, mod: kernel("", "%a = OpConvertUToPtr %u64 %l1"),
			want: "Expected Result Type to be a pointer: ConvertUToPtr"},
		{name: "utoptr input", oracle: true, mod: kernel("%f1 = OpConstant %f32 1", "%a = OpConvertUToPtr %pf %f1"),
			want: "Expected int scalar as input: ConvertUToPtr"},
		{name: "to generic", oracle: true, mod: kernel("", "%a = OpPtrCastToGeneric %pg %v")},
		{name: "to generic result", oracle: true, mod: kernel("", "%a = OpPtrCastToGeneric %pw %w"),
			want: "Expected Result Type to have storage class Generic: PtrCastToGeneric"},
		{name: "to generic not pointer", oracle: true, mod: kernel("", "%a = OpPtrCastToGeneric %u32 %w"),
			want: "Expected Result Type to be a pointer: PtrCastToGeneric"},
		{name: "to generic input", oracle: true, mod: kernel("", "%a = OpPtrCastToGeneric %pg %u1"),
			want: "Expected input to be a pointer: PtrCastToGeneric"},
		{name: "to generic class", // 2023.1 does not name CodeSectionINTEL
			mod:  kernel("%pvar = OpVariable %pu UniformConstant", "%a = OpPtrCastToGeneric %pg %pvar"),
			want: "Expected input to have storage class Workgroup, CrossWorkgroup, Function or CodeSectionINTEL: PtrCastToGeneric"},
		{name: "to generic pointee", oracle: true, mod: kernel("", "%a = OpPtrCastToGeneric %pgf %w"),
			want: "Expected input and Result Type to point to the same type: PtrCastToGeneric"},
		{name: "from generic", oracle: true, mod: kernel("", "%g = OpPtrCastToGeneric %pg %v\n%a = OpGenericCastToPtr %pf %g\n%b = OpGenericCastToPtrExplicit %pf %g Function")},
		{name: "from generic result", // 2023.1 does not name CodeSectionINTEL
			mod:  kernel("", "%g = OpPtrCastToGeneric %pg %v\n%a = OpGenericCastToPtr %pu %g"),
			want: "Expected Result Type to have storage class Workgroup, CrossWorkgroup, Function or CodeSectionINTEL: GenericCastToPtr"},
		{name: "from generic input", oracle: true, mod: kernel("", "%a = OpGenericCastToPtr %pw %v"),
			want: "Expected input to have storage class Generic: GenericCastToPtr"},
		{name: "explicit target", oracle: true, mod: kernel("", "%g = OpPtrCastToGeneric %pg %v\n%a = OpGenericCastToPtrExplicit %pw %g Function"),
			want: "Expected Result Type to be of target storage class: GenericCastToPtrExplicit"},
		{name: "explicit class", // as above
			mod:  kernel("", "%g = OpPtrCastToGeneric %pg %v\n%a = OpGenericCastToPtrExplicit %pu %g UniformConstant"),
			want: "Expected target storage class to be Workgroup, CrossWorkgroup, Function or CodeSectionINTEL: GenericCastToPtrExplicit"},
		{name: "sat convert", oracle: true, mod: kernel("", "%a = OpSatConvertSToU %u32 %l1\n%b = OpSatConvertUToS %u32 %u1")},
		{name: "sat convert input", oracle: true, mod: kernel("%f1 = OpConstant %f32 1", "%a = OpSatConvertSToU %u32 %f1"),
			want: "Expected int scalar or vector as input: SatConvertSToU"},
		{name: "sat convert result", oracle: true, mod: kernel("", "%a = OpSatConvertUToS %f32 %u1"),
			want: "Expected int scalar or vector type as Result Type: SatConvertUToS"},
		{name: "spec constant uconvert", mod: kernel("%sc = OpSpecConstantOp %u32 UConvert %u1", ""),
			want: "Expected input to have different bit width from Result Type: SpecConstantOp"},
	})
}

func TestSmallTypeUses(t *testing.T) {
	ssbo := func(body string) module {
		return module{caps: "Shader StorageBuffer16BitAccess", exts: "SPV_KHR_16bit_storage SPV_KHR_storage_buffer_storage_class",
			annot: "OpDecorate %blk Block\nOpMemberDecorate %blk 0 Offset 0\nOpDecorate %buf DescriptorSet 0\nOpDecorate %buf Binding 0\n",
			decls: `
%h = OpTypeFloat 16
%f32 = OpTypeFloat 32
%u32 = OpTypeInt 32 0
%u0 = OpConstant %u32 0
%blk = OpTypeStruct %h
%pblk = OpTypePointer StorageBuffer %blk
%ph = OpTypePointer StorageBuffer %h
%buf = OpVariable %pblk StorageBuffer
`, body: "%p = OpAccessChain %ph %buf %u0\n%x = OpLoad %h %p\n" + body}
	}
	v13 := setVersion(0x10300)
	runRuleCases(t, []ruleCase{
		{name: "width conversion", oracle: true, patch: v13, mod: ssbo("%y = OpFConvert %f32 %x\n%z = OpCopyObject %h %x\nOpStore %p %x")},
		{name: "arithmetic", oracle: true, patch: v13, mod: ssbo("%y = OpFAdd %h %x %x"),
			want: "Invalid use of 8- or 16-bit result"},
		{name: "with Float16", oracle: true, patch: v13, mod: func() module {
			m := ssbo("%y = OpFAdd %h %x %x")
			m.caps += " Float16"
			return m
		}()},
	})
}
