package val

import "testing"

func TestCompositesRules(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "valid", oracle: true, mod: tr("%rta = OpTypeRuntimeArray %f32", `
%a = OpVectorExtractDynamic %f32 %fv %u1
%b = OpVectorInsertDynamic %v2f %fv %f1 %i1
%c = OpVectorShuffle %v3f %fv %fv 0 3 0xFFFFFFFF
%d = OpCompositeConstruct %v4f %fv %f1 %f1
%e = OpCompositeConstruct %m22 %fv %fv
%f = OpCompositeConstruct %arr2 %f1 %f1
%g = OpCompositeConstruct %sUU %u1 %u1
%h = OpCompositeExtract %f32 %m 1 1
%k = OpCompositeInsert %m22 %f1 %m 0 1
%l = OpCopyObject %v2f %fv
%n = OpTranspose %m23 %m3
%o = OpCompositeExtract %u32 %sv 1
`)},
		{name: "extract dynamic result", oracle: true, mod: tr("", "%a = OpVectorExtractDynamic %v2f %fv %u1"),
			want: "Expected Result Type to be a scalar type"},
		{name: "extract dynamic vector", oracle: true, mod: tr("", "%a = OpVectorExtractDynamic %f32 %f1 %u1"),
			want: "Expected Vector type to be OpTypeVector"},
		{name: "extract dynamic component", oracle: true, mod: tr("", "%a = OpVectorExtractDynamic %u32 %fv %u1"),
			want: "Expected Vector component type to be equal to Result Type"},
		{name: "extract dynamic index", oracle: true, mod: tr("", "%a = OpVectorExtractDynamic %f32 %fv %f1"),
			want: "Expected Index to be int scalar"},
		{name: "insert dynamic result", oracle: true, mod: tr("", "%a = OpVectorInsertDynamic %f32 %fv %f1 %u1"),
			want: "Expected Result Type to be OpTypeVector"},
		{name: "insert dynamic vector", oracle: true, mod: tr("", "%a = OpVectorInsertDynamic %v3f %fv %f1 %u1"),
			want: "Expected Vector type to be equal to Result Type"},
		{name: "insert dynamic component", oracle: true, mod: tr("", "%a = OpVectorInsertDynamic %v2f %fv %u1 %u1"),
			want: "Expected Component type to be equal to Result Type component type"},
		{name: "insert dynamic index", oracle: true, mod: tr("", "%a = OpVectorInsertDynamic %v2f %fv %f1 %uv"),
			want: "Expected Index to be int scalar"},
		{name: "shuffle result", // 2023.1: "must be OpTypeVector"
			mod:  tr("", "%a = OpVectorShuffle %f32 %fv %fv 0"),
			want: "The Result Type of OpVectorShuffle must be a vector type. Found OpTypeFloat."},
		{name: "shuffle count", oracle: true, mod: tr("", "%a = OpVectorShuffle %v3f %fv %fv 0 1"),
			want: "OpVectorShuffle component literals count does not match Result Type <id> '*[%v3float]'s vector component count."},
		{name: "shuffle vector 1", // 2023.1: "must be OpTypeVector"
			mod:  tr("", "%a = OpVectorShuffle %v2f %f1 %fv 0 1"),
			want: "The type of Vector 1 must be a vector type."},
		{name: "shuffle vector 2", // 2023.1: "must be OpTypeVector"
			mod:  tr("", "%a = OpVectorShuffle %v2f %fv %f1 0 1"),
			want: "The type of Vector 2 must be a vector type."},
		{name: "shuffle component 1", oracle: true, mod: tr("", "%a = OpVectorShuffle %v2f %uv %fv 0 1"),
			want: "The Component Type of Vector 1 must be the same as ResultType."},
		{name: "shuffle component 2", oracle: true, mod: tr("", "%a = OpVectorShuffle %v2f %fv %uv 0 1"),
			want: "The Component Type of Vector 2 must be the same as ResultType."},
		{name: "shuffle index", oracle: true, mod: tr("", "%a = OpVectorShuffle %v2f %fv %fv3 0 5"),
			want: "Component index 5 is out of bounds for combined (Vector1 + Vector2) size of 5."},
		{name: "construct one", oracle: true, mod: tr("", "%a = OpCompositeConstruct %v2f %fv"),
			want: "Expected number of constituents to be at least 2"},
		{name: "construct constituent", oracle: true, mod: tr("", "%a = OpCompositeConstruct %v2f %f1 %u1"),
			want: "Expected Constituents to be scalars or vectors of the same type as Result Type components"},
		{name: "construct total", oracle: true, mod: tr("", "%a = OpCompositeConstruct %v3f %fv %fv"),
			want: "Expected total number of given components to be equal to the size of Result Type vector"},
		{name: "construct matrix count", oracle: true, mod: tr("", "%a = OpCompositeConstruct %m22 %fv"),
			want: "Expected total number of Constituents to be equal to the number of columns of Result Type matrix"},
		{name: "construct matrix column", oracle: true, mod: tr("", "%a = OpCompositeConstruct %m22 %fv %fv3"),
			want: "Expected Constituent type to be equal to the column type Result Type matrix"},
		{name: "construct array count", oracle: true, mod: tr("", "%a = OpCompositeConstruct %arr2 %f1"),
			want: "Expected total number of Constituents to be equal to the number of elements of Result Type array"},
		{name: "construct array element", oracle: true, mod: tr("", "%a = OpCompositeConstruct %arr2 %f1 %u1"),
			want: "Expected Constituent type to be equal to the column type Result Type array"},
		{name: "construct struct count", oracle: true, mod: tr("", "%a = OpCompositeConstruct %sUU %u1"),
			want: "Expected total number of Constituents to be equal to the number of members of Result Type struct"},
		{name: "construct struct member", oracle: true, mod: tr("", "%a = OpCompositeConstruct %sUU %u1 %i1"),
			want: "Expected Constituent type to be equal to the corresponding member type of Result Type struct"},
		{name: "construct scalar", oracle: true, mod: tr("", "%a = OpCompositeConstruct %f32 %f1"),
			want: "Expected Result Type to be a composite type"},
		// validate_misc.cpp (first in the second loop) rejects the 16-bit
		// OpUndef before the extract is reached, as spirv-val does.
		{name: "extract 16-bit, the OpUndef first",
			mod: module{caps: "Shader Float16Buffer", kernel: false, decls: `
%h = OpTypeFloat 16
%v2h = OpTypeVector %h 2
%f32 = OpTypeFloat 32
%v2f = OpTypeVector %f32 2
%f1 = OpConstant %f32 1
%fv = OpConstantComposite %v2f %f1 %f1
`, body: "%x = OpUndef %v2h\n%a = OpCompositeExtract %h %x 0"},
			want: "Cannot create undefined values with 8- or 16-bit types"},
		{name: "extract no index", oracle: true, mod: tr("", "%a = OpCompositeExtract %v2f %fv"),
			want: "Expected at least one index to OpCompositeExtract, zero found"},
		{name: "extract not composite", oracle: true, mod: tr("", "%a = OpCompositeExtract %f32 %fv 0 0"),
			want: "Reached non-composite type while indexes still remain to be traversed."},
		{name: "extract vector bound", oracle: true, mod: tr("", "%a = OpCompositeExtract %f32 %fv 2"),
			want: "Vector access is out of bounds, vector size is 2, but access index is 2"},
		{name: "extract matrix bound", oracle: true, mod: tr("", "%a = OpCompositeExtract %v2f %m 2"),
			want: "Matrix access is out of bounds, matrix has 2 columns, but access index is 2"},
		{name: "extract array bound", oracle: true, mod: tr("%ca = OpConstantComposite %arr2 %f1 %f1", "%a = OpCompositeExtract %f32 %ca 2"),
			want: "Array access is out of bounds, array size is 2, but access index is 2"},
		{name: "extract struct bound", oracle: true, mod: tr("", "%a = OpCompositeExtract %u32 %sv 2"),
			want: "Index is out of bounds, can not find index 2 in the structure <id> '*'. This structure has 2 members. Largest valid index is 1."},
		{name: "extract result", oracle: true, mod: tr("", "%a = OpCompositeExtract %u32 %fv 1"),
			want: "Result type (OpTypeInt) does not match the type that results from indexing into the composite (OpTypeFloat)."},
		{name: "insert result", oracle: true, mod: tr("", "%a = OpCompositeInsert %v3f %f1 %fv 0"),
			want: "The Result Type must be the same as Composite type in OpCompositeInsert yielding Result Id *."},
		{name: "insert object", oracle: true, mod: tr("", "%a = OpCompositeInsert %v2f %u1 %fv 0"),
			want: "The Object type (OpTypeInt) does not match the type that results from indexing into the Composite (OpTypeFloat)."},
		{name: "insert spec", mod: tr("%sc = OpSpecConstantOp %v2f CompositeInsert %u1 %fv 0", ""),
			want: "The Object type (OpTypeInt) does not match the type that results from indexing into the Composite (OpTypeFloat)."},
		{name: "copy object", oracle: true, mod: tr("", "%a = OpCopyObject %v3f %fv"),
			want: "Expected Result Type and Operand type to be the same"},
		{name: "transpose result", oracle: true, mod: tr("", "%a = OpTranspose %v2f %m"),
			want: "Expected Result Type to be a matrix type"},
		{name: "transpose matrix", oracle: true, mod: tr("", "%a = OpTranspose %m22 %fv"),
			want: "Expected Matrix to be of type OpTypeMatrix"},
		{name: "transpose shape", oracle: true, mod: tr("", "%a = OpTranspose %m22 %m3"),
			want: "Expected number of columns and the column size of Matrix to be the reverse of those of Result Type"},
		{name: "copy logical", oracle: true, mod: tr("%sUU2 = OpTypeStruct %u32 %u32", "%a = OpCopyLogical %sUU2 %sv")},
		{name: "copy logical same", oracle: true, mod: tr("", "%a = OpCopyLogical %sUU %sv"),
			want: "Result Type must not equal the Operand type"},
		{name: "copy logical mismatch", oracle: true, mod: tr("", "%a = OpCopyLogical %sII %sv"),
			want: "Result Type does not logically match the Operand type"},
	})
}
