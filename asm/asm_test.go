package asm

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"spvx/spirv"
)

// lastInst assembles src and returns the words of its last instruction.
func lastInst(t *testing.T, src string, opt Options) []uint32 {
	t.Helper()
	words, err := Assemble([]byte(src), opt)
	if err != nil {
		t.Fatalf("Assemble(%q): %v", src, err)
	}
	m, err := spirv.DecodeWords(words)
	if err != nil {
		t.Fatalf("DecodeWords(Assemble(%q)): %v", src, err)
	}
	return m.Inst(m.Len() - 1).Words
}

func hex(words []uint32) string {
	var b strings.Builder
	for i, w := range words {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%08x", w)
	}
	return b.String()
}

// TestLiterals covers every kind of literal operand: the last instruction
// of each text must assemble to the given words.
func TestLiterals(t *testing.T) {
	const i8 = "%t = OpTypeInt 8 1\n"
	const u16 = "%t = OpTypeInt 16 0\n"
	const s32 = "%t = OpTypeInt 32 1\n"
	const u64 = "%t = OpTypeInt 64 0\n"
	const s64 = "%t = OpTypeInt 64 1\n"
	const f16 = "%t = OpTypeFloat 16\n"
	const f32 = "%t = OpTypeFloat 32\n"
	const f64 = "%t = OpTypeFloat 64\n"
	tests := []struct {
		name, src, want string
	}{
		{"LiteralInteger decimal", "%t = OpTypeStruct\nOpMemberDecorate %t 3 Offset 16", "00050048 00000001 00000003 00000023 00000010"},
		{"LiteralInteger hex", "OpDecorate %t Location 0x10\n%t = OpTypeVoid\nOpDecorate %t Location 0XfF", "00040047 00000001 0000001e 000000ff"},
		{"LiteralInteger octal", "OpDecorate %t Location 017\n%t = OpTypeVoid\nOpDecorate %t Location 017", "00040047 00000001 0000001e 0000000f"},
		{"LiteralInteger plus", "%t = OpTypeVoid\nOpDecorate %t Location +5", "00040047 00000001 0000001e 00000005"},
		{"LiteralInteger max", "%t = OpTypeVoid\nOpDecorate %t Location 4294967295", "00040047 00000001 0000001e ffffffff"},
		{"int8 negative sign-extends", i8 + "%c = OpConstant %t -1", "0004002b 00000001 00000002 ffffffff"},
		{"int8 hex sign-extends", i8 + "%c = OpConstant %t 0x80", "0004002b 00000001 00000002 ffffff80"},
		{"int8 max", i8 + "%c = OpConstant %t 127", "0004002b 00000001 00000002 0000007f"},
		{"uint16 max", u16 + "%c = OpConstant %t 65535", "0004002b 00000001 00000002 0000ffff"},
		{"int32 min", s32 + "%c = OpConstant %t -2147483648", "0004002b 00000001 00000002 80000000"},
		{"int32 hex", s32 + "%c = OpConstant %t 0xffffffff", "0004002b 00000001 00000002 ffffffff"},
		{"uint64 two words", u64 + "%c = OpConstant %t 0x123456789abcdef0", "0005002b 00000001 00000002 9abcdef0 12345678"},
		{"uint64 max", u64 + "%c = OpConstant %t 18446744073709551615", "0005002b 00000001 00000002 ffffffff ffffffff"},
		{"int64 min", s64 + "%c = OpConstant %t -9223372036854775808", "0005002b 00000001 00000002 00000000 80000000"},
		{"int64 small negative", s64 + "%c = OpConstant %t -2", "0005002b 00000001 00000002 fffffffe ffffffff"},
		{"spec constant", s32 + "%c = OpSpecConstant %t -7", "00040032 00000001 00000002 fffffff9"},
		{"float16 decimal", f16 + "%c = OpConstant %t 1.5", "0004002b 00000001 00000002 00003e00"},
		{"float16 hex subnormal", f16 + "%c = OpConstant %t -0x1p-24", "0004002b 00000001 00000002 00008001"},
		{"float16 infinity", f16 + "%c = OpConstant %t 0x1p+16", "0004002b 00000001 00000002 00007c00"},
		{"float32 decimal", f32 + "%c = OpConstant %t 0.100000001", "0004002b 00000001 00000002 3dcccccd"},
		{"float32 exponent", f32 + "%c = OpConstant %t -2.5e-3", "0004002b 00000001 00000002 bb23d70a"},
		{"float32 subnormal", f32 + "%c = OpConstant %t 0x1p-149", "0004002b 00000001 00000002 00000001"},
		{"float32 infinity", f32 + "%c = OpConstant %t -0x1p+128", "0004002b 00000001 00000002 ff800000"},
		{"float32 nan", f32 + "%c = OpConstant %t 0x1.8p+128", "0004002b 00000001 00000002 7fc00000"},
		{"float32 negative zero", f32 + "%c = OpConstant %t -0", "0004002b 00000001 00000002 80000000"},
		{"float64 decimal", f64 + "%c = OpConstant %t 3.1415926535897931", "0005002b 00000001 00000002 54442d18 400921fb"},
		{"float64 hex", f64 + "%c = OpConstant %t 0x1p-1074", "0005002b 00000001 00000002 00000001 00000000"},
		{"bfloat16", "%t = OpTypeFloat 16 BFloat16KHR\n%c = OpConstant %t 1.5", "0004002b 00000001 00000002 00003fc0"},
		{"E4M3", "%t = OpTypeFloat 8 Float8E4M3EXT\n%c = OpConstant %t 448", "0004002b 00000001 00000002 0000007e"},
		{"E4M3 nan", "%t = OpTypeFloat 8 Float8E4M3EXT\n%c = OpConstant %t -0x1.ep+8", "0004002b 00000001 00000002 000000ff"},
		{"E5M2", "%t = OpTypeFloat 8 Float8E5M2EXT\n%c = OpConstant %t 0x1.8p+16", "0004002b 00000001 00000002 0000007e"},
		{"E2M3", "%t = OpTypeFloat 6 Float6E2M3EXT\n%c = OpConstant %t 0x1p-3", "0004002b 00000001 00000002 00000001"},
		{"E3M2", "%t = OpTypeFloat 6 Float6E3M2EXT\n%c = OpConstant %t -28", "0004002b 00000001 00000002 0000003f"},
		{"E2M1", "%t = OpTypeFloat 4 Float4E2M1EXT\n%c = OpConstant %t -0x1.8p+2", "0004002b 00000001 00000002 0000000f"},
		{"E8M0", "%t = OpTypeFloat 8 Float8UnsignedE8M0EXT\n%c = OpConstant %t 0x1p-127", "0004002b 00000001 00000002 00000000"},
		{"MXInt8 no sign extension", "%t = OpTypeFloat 8 MXInt8EXT\n%c = OpConstant %t -0x1p-6", "0004002b 00000001 00000002 000000ff"},
		{"switch 64-bit case", s64 + "%x = OpUndef %t\nOpSwitch %x %d -1 %a 0x7fffffffffffffff %b", "000900fb 00000002 00000003 ffffffff ffffffff 00000004 ffffffff 7fffffff 00000005"},
		{"switch no cases", s32 + "%x = OpUndef %t\nOpSwitch %x %d", "000300fb 00000002 00000003"},
		{"LiteralFloat", "OpCapability Shader\n%t = OpTypeVoid\nOpDecorate %t FPMaxErrorDecorationINTEL 0.5", "00040047 00000001 0000181a 3f000000"},
		{"string", `OpSourceExtension "abc"`, "00020004 00636261"},
		{"string multiple of four", `OpSourceExtension "abcd"`, "00030004 64636261 00000000"},
		{"string empty", `OpSourceExtension ""`, "00020004 00000000"},
		{"string escapes", `OpSourceExtension "a\"b\\c\n"`, "00030004 5c622261 00006e63"},
		{"string with spaces and semicolon", `OpSourceExtension "a b;c"`, "00030004 3b622061 00000063"},
		{"string utf-8", `OpSourceExtension "é"`, "00020004 0000a9c3"},
		{"ext inst by name", "%1 = OpExtInstImport \"GLSL.std.450\"\n%t = OpTypeFloat 32\n%x = OpUndef %t\n%y = OpExtInst %t %1 Sqrt %x", "0006000c 00000002 00000004 00000001 0000001f 00000003"},
		{"ext inst non-semantic number", "%1 = OpExtInstImport \"NonSemantic.Foo\"\n%t = OpTypeVoid\n%y = OpExtInst %t %1 12 %1 %t", "0007000c 00000002 00000003 00000001 0000000c 00000001 00000002"},
		{"spec constant op", s32 + "%a = OpConstant %t 1\n%b = OpSpecConstantOp %t IAdd %a %a", "00060034 00000001 00000003 00000080 00000002 00000002"},
		{"spec constant op literal operands", s32 + "%v = OpTypeVector %t 2\n%a = OpUndef %v\n%b = OpSpecConstantOp %t CompositeExtract %a 1", "00060034 00000001 00000004 00000051 00000003 00000001"},
		{"enumerant alias", "OpCapability StorageUniformBufferBlock16", "00020011 00001151"},
		{"enumerant keyed by kind", "%t = OpTypeFloat 8 MXInt8EXT\nOpCapability MXInt8EXT", "00020011 00001087"},
		{"opcode alias", "%t = OpTypeInt 32 0\n%x = OpUndef %t\n%d = OpSDotKHR %t %x %x", "00051162 00000001 00000003 00000002 00000002"},
		{"mask parameters in bit order", "%t = OpTypeInt 32 0\n%p = OpUndef %t\n%s = OpUndef %t\n%l = OpLoad %t %p Aligned|Volatile|MakePointerVisible|NonPrivatePointer 4 %s", "0007003d 00000001 00000004 00000002 00000033 00000004 00000003"},
		{"mask None", "%t = OpTypeInt 32 0\n%p = OpUndef %t\n%l = OpLoad %t %p None", "0005003d 00000001 00000003 00000002 00000000"},
		{"enumerant parameters", "%f = OpTypeVoid\nOpExecutionMode %f LocalSize 8 4 1", "00060010 00000001 00000011 00000008 00000004 00000001"},
		{"optional operand absent", "%t = OpTypeFloat 32", "00030016 00000001 00000020"},
		{"optional operand present", "%t = OpTypeFloat 8 Float8E4M3EXT", "00040016 00000001 00000008 00001076"},
		{"phi pairs", "%t = OpTypeInt 32 0\n%a = OpUndef %t\n%p = OpPhi %t %a %l1 %a %l2", "000700f5 00000001 00000003 00000002 00000004 00000002 00000005"},
		{"immediate operand", "OpDecorate %x !30 !7\n%x = OpTypeVoid\nOpDecorate %x !30 !7", "00040047 00000001 0000001e 00000007"},
		{"immediate instruction", "!0x00020011 !1", "00020011 00000001"},
		{"OpUnknown", "%t = OpTypeInt 32 0\nOpUnknown(1, 3) %t %u", "00030001 00000001 00000002"},
		{"comment and CRLF", "OpCapability Shader ; comment\r\nOpCapability Linkage;x", "00020011 00000005"},
		{"operands across lines", "OpCapability\nShader", "00020011 00000001"},
		{"opcode then comment", "OpCapability Shader\nOpNop;c", "00010000"},
		{"opcode then escape", "OpCapability Shader\nOpName %a \"x\"\n%a = OpTypeVoid\nOpNop", "00010000"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := hex(lastInst(t, tc.src, Options{LaxIDs: true}))
			if got != tc.want {
				t.Errorf("Assemble(%q): last instruction %s, want %s", tc.src, got, tc.want)
			}
		})
	}
}

// errorCase is one rejected text and its first error, as spirv-as reports
// it: line, column and message. ours marks the checks spirv-as does not
// make (undefined and redefined ids).
type errorCase struct {
	name, src, want string
	ours            bool
}

// errorCases are shared with TestErrorOracle, which checks them against
// Debian's spirv-as.
var errorCases = []errorCase{
	{name: "unknown opcode", src: "OpFoo\n", want: "1:1: Invalid Opcode name 'OpFoo'"},
	{name: "error after a string of several lines", src: "OpSource GLSL 450 %f \"line1\nline2\nline3\"\nOpFoo\n", want: "4:1: Invalid Opcode name 'OpFoo'"},
	{name: "error on the line a string ends", src: "OpSource GLSL 450 %f \"line1\nline2\nline3\" OpFoo\n", want: "3:8: Invalid Opcode name 'OpFoo'"},
	{name: "unknown opcode before comment", src: "OpFoo;OpNop\n", want: "1:1: Invalid Opcode name 'OpFoo'"},
	{name: "opcode with backslash", src: "OpNo\\p\n", want: "1:1: Invalid Opcode name 'OpNo\\p'"},
	{name: "unknown enumerant", src: "OpCapability Foo\n", want: "1:14: Invalid capability 'Foo'."},
	{name: "unknown decoration", src: "OpDecorate %x Foo\n", want: "1:15: Invalid decoration 'Foo'."},
	{name: "unknown memory model", src: "OpMemoryModel Logical Foo\n", want: "1:23: Invalid memory model 'Foo'."},
	{name: "enumerant by number", src: "OpCapability 1\n", want: "1:14: Invalid capability '1'."},
	{name: "enumerant quoted", src: "OpCapability \"Shader\"\n", want: "1:14: Invalid capability '\"Shader\"'."},
	{name: "unknown mask bit", src: "OpLoopMerge %a %b Unroll|Foo\n", want: "1:19: Invalid loop control operand 'Unroll|Foo'."},
	{name: "unknown memory access bit", src: "%1 = OpLoad %2 %3 Volatile|Foo\n", want: "1:19: Invalid memory access operand 'Volatile|Foo'."},
	{name: "missing operand at end", src: "%1 = OpTypeInt 32\n", want: "2:1: Expected operand for OpTypeInt instruction, but found the end of the stream."},
	{name: "missing operand before next", src: "%1 = OpTypeInt 32\n%2 = OpTypeVoid\n", want: "2:1: Expected operand for OpTypeInt instruction, but found the next instruction instead."},
	{name: "missing parameter", src: "OpExecutionMode %m LocalSize 1 1\n", want: "2:1: Expected operand for OpExecutionMode instruction, but found the end of the stream."},
	{name: "missing mask parameter", src: "OpStore %a %b Aligned\n", want: "2:1: Expected operand for OpStore instruction, but found the end of the stream."},
	{name: "missing spec op operands", src: "%1 = OpSpecConstantOp %2 IAdd\n", want: "2:1: Expected operand for OpSpecConstantOp instruction, but found the end of the stream."},
	{name: "extra operand", src: "OpDecorate %a Location 1 2\n", want: "1:26: Expected <opcode> or <result-id> at the beginning of an instruction, found '2'."},
	{name: "extra mask parameter", src: "OpStore %a %b Volatile|Aligned 4 5\n", want: "1:34: Expected <opcode> or <result-id> at the beginning of an instruction, found '5'."},
	{name: "switch literal not a number", src: "%1 = OpTypeInt 32 0\n%2 = OpUndef %1\nOpSwitch %2 %3 1 %4 foo\n", want: "3:21: Expected <opcode> or <result-id> at the beginning of an instruction, found 'foo'."},
	{name: "not an instruction", src: "foo\n", want: "1:1: Expected <opcode> or <result-id> at the beginning of an instruction, found 'foo'."},
	{name: "missing result id", src: "OpTypeVoid\n", want: "1:1: Expected <result-id> at the beginning of an instruction, found 'OpTypeVoid'."},
	{name: "result id without result", src: "%a = OpName %a \"x\"\n", want: "1:6: Cannot set ID %a because OpName does not produce a result ID."},
	{name: "equals at end", src: "%x\n", want: "2:1: Expected '=', found end of stream."},
	{name: "equals missing", src: "%x OpTypeVoid\n", want: "1:4: '=' expected after result id but found 'OpTypeVoid'."},
	{name: "opcode at end", src: "%x =\n", want: "2:1: Expected opcode, found end of stream."},
	{name: "opcode prefix", src: "%x = TypeVoid\n", want: "1:6: Invalid Opcode prefix 'TypeVoid'."},
	{name: "id without percent", src: "OpName a \"abc\"\n", want: "1:8: Expected id to start with %."},
	{name: "id characters", src: "%a.b = OpTypeVoid\n", want: "1:18: Invalid ID a.b"},
	{name: "string unterminated", src: "OpName %a \"abc\n", want: "1:11: Invalid literal string '\"abc\n'."},
	{name: "string is a number", src: "OpName %a 5\n", want: "1:11: Expected literal string, found literal number '5'."},
	{name: "string unquoted", src: "OpExtension SPV_KHR_foo\n", want: "1:13: Invalid literal string 'SPV_KHR_foo'."},
	{name: "id is a string", src: "OpSource GLSL 450 \"x\"\n", want: "1:19: Expected id to start with %."},
	{name: "negative unsigned", src: "%t = OpTypeInt 32 0\n%c = OpConstant %t -1\n", want: "2:20: Cannot put a negative number in an unsigned literal"},
	{name: "integer too large", src: "%t = OpTypeInt 8 0\n%c = OpConstant %t 256\n", want: "2:20: Integer 256 does not fit in a 8-bit unsigned integer"},
	{name: "hex too large", src: "%t = OpTypeInt 8 1\n%c = OpConstant %t 0x1ff\n", want: "2:20: Integer 0x1ff does not fit in a 8-bit signed integer"},
	{name: "signed too large", src: "%t = OpTypeInt 32 1\n%c = OpConstant %t 2147483648\n", want: "2:20: Integer 2147483648 does not fit in a 32-bit signed integer"},
	{name: "signed too small", src: "%t = OpTypeInt 32 1\n%c = OpConstant %t -2147483649\n", want: "2:20: Integer -2147483649 does not fit in a 32-bit signed integer"},
	{name: "uint64 too large", src: "%t = OpTypeInt 64 0\n%c = OpConstant %t 18446744073709551616\n", want: "2:20: Invalid unsigned integer literal: 18446744073709551616"},
	{name: "literal integer too large", src: "OpDecorate %a Location 4294967296\n", want: "1:24: Integer 4294967296 does not fit in a 32-bit unsigned integer"},
	{name: "literal integer negative", src: "OpDecorate %a Location -1\n", want: "1:24: Cannot put a negative number in an unsigned literal"},
	{name: "literal integer minus zero", src: "OpDecorate %a Location -0\n", want: "1:24: Cannot put a negative number in an unsigned literal"},
	{name: "literal integer float", src: "OpDecorate %a Location 1.5\n", want: "1:24: Invalid unsigned integer literal: 1.5"},
	{name: "literal integer bare 0x", src: "OpDecorate %a Location 0x\n", want: "1:24: Invalid unsigned integer literal: 0x"},
	{name: "float too large", src: "%t = OpTypeFloat 32\n%c = OpConstant %t 1e40\n", want: "2:20: Invalid 32-bit float literal: 1e40"},
	{name: "float nan text", src: "%t = OpTypeFloat 32\n%c = OpConstant %t -nan\n", want: "2:20: Invalid 32-bit float literal: -nan"},
	{name: "half too large", src: "%t = OpTypeFloat 16\n%c = OpConstant %t 70000\n", want: "2:20: Invalid 16-bit float literal: 70000"},
	{name: "double too large", src: "%t = OpTypeFloat 64\n%c = OpConstant %t 1e400\n", want: "2:20: Invalid 64-bit float literal: 1e400"},
	{name: "int128 literal", src: "%t = OpTypeInt 128 0\n%c = OpConstant %t 1\n", want: "2:20: Unsupported 128-bit integer literals"},
	{name: "float128 literal", src: "%t = OpTypeFloat 128\n%c = OpConstant %t 1\n", want: "2:20: Unsupported 128-bit float literals"},
	{name: "constant of unknown type", src: "%c = OpConstant %t 5\n", want: "1:20: Type for Constant must be a scalar floating point or integer type"},
	{name: "constant of vector type", src: "%1 = OpTypeInt 32 0\n%2 = OpTypeVector %1 4\n%3 = OpConstant %2 1\n", want: "3:20: Type for Constant must be a scalar floating point or integer type"},
	{name: "switch selector type", src: "OpSwitch %2 %3 1 %4\n", want: "1:16: The selector operand for OpSwitch must be the result of an instruction that generates an integer scalar"},
	{name: "type defined twice", src: "%1 = OpTypeInt 32 0\n%1 = OpTypeInt 32 1\n", want: "2:20: Value 1 has already been used to generate a type"},
	{name: "unknown ext set", src: "%1 = OpExtInstImport \"Foo.bar\"\n", want: "1:22: Invalid extended instruction import 'Foo.bar'"},
	{name: "ext set imported twice", src: "%a = OpExtInstImport \"GLSL.std.450\"\n%a = OpExtInstImport \"GLSL.std.450\"\n", want: "2:22: Import Id is being defined a second time"},
	{name: "unknown ext inst", src: "%1 = OpExtInstImport \"GLSL.std.450\"\n%2 = OpExtInst %3 %1 Foo %4\n", want: "2:22: Invalid extended instruction name 'Foo'."},
	{name: "ext inst set not imported", src: "%1 = OpExtInstImport \"GLSL.std.450\"\n%2 = OpExtInst %3 %4 Sqrt %5\n", want: "2:19: Invalid extended instruction import Id 3"},
	{name: "ext inst extra operand", src: "%1 = OpExtInstImport \"GLSL.std.450\"\n%t = OpTypeFloat 32\n%x = OpUndef %t\n%y = OpExtInst %t %1 Sqrt %x %x\n", want: "5:1: Expected '=', found end of stream."},
	{name: "non-semantic ext inst name", src: "%1 = OpExtInstImport \"NonSemantic.Foo\"\n%2 = OpExtInst %3 %1 Bar %4\n", want: "2:22: Couldn't translate unknown extended instruction name 'Bar' to unsigned integer."},
	{name: "unknown spec op", src: "%1 = OpSpecConstantOp %2 Foo %3\n", want: "1:26: Invalid OpSpecConstantOp opcode 'Foo'."},
	{name: "spec op not allowed", src: "%1 = OpSpecConstantOp %2 BitcastExtractEXT %3 %4\n", want: "1:26: Invalid OpSpecConstantOp opcode 'BitcastExtractEXT'."},
	{name: "spec op with Op prefix", src: "%1 = OpSpecConstantOp %2 OpIAdd %3 %4\n", want: "1:26: Invalid OpSpecConstantOp opcode 'OpIAdd'. Did you mean 'IAdd'?"},
	{name: "immediate not a number", src: "!x5\n", want: "1:1: Invalid immediate integer: !x5"},
	{name: "immediate before equals", src: "OpNop\n!0x00010000 =\n", want: "2:13: !0x00010000 not allowed before =."},
	{name: "word after immediate", src: "!0x00020011 !1 %a.b\n", want: "1:16: Invalid word following !<integer>: %a.b"},
	{name: "word after immediate operand", src: "%f = OpTypeFunction %v !5 %x.y\n", want: "1:27: Invalid word following !<integer>: %x.y"},
	{name: "fp encoding name", src: "%1 = OpTypeFloat 32 Foo\n", want: "1:21: Invalid FP encoding 'Foo'."},
	{name: "fp encoding number", src: "%1 = OpTypeFloat 32 5\n", want: "1:21: Invalid FP encoding '5'."},
	{name: "fp encoding width", src: "%1 = OpTypeFloat 8 Float4E2M1EXT\n", want: "1:33: Invalid bit width 8 for floating point encoding Float4E2M1EXT; expected 4"},
	{name: "narrow no encoding", src: "%1 = OpTypeFloat 8\n%2 = OpConstant %1 1\n", want: "2:20: Unsupported 8-bit float literals"},
	{name: "narrow literal", src: "%1 = OpTypeFloat 4 Float4E2M1EXT\n%2 = OpConstant %1 7\n", want: "2:20: Invalid E2M1 float literal: 7"},
	{name: "unknown paren", src: "OpUnknown 1, 2)\n", want: "1:11: '(' expected after OpUnknown but found '1'."},
	{name: "unknown zero count", src: "OpUnknown(1, 0)\n", want: "1:15: Number of words (which includes the opcode) must be greater than zero."},
	{name: "unknown operands", src: "OpUnknown(1, 3) %a\n", want: "2:1: Expected 1 more operands, found end of stream."},
	{name: "unknown in assignment", src: "%a = OpUnknown(1, 2) %b\n", want: "1:6: OpUnknown not allowed in assignment. Use an explicit result id operand instead."},
	{name: "undefined id", src: "OpCapability Shader\nOpName %x \"x\"\n", want: "2:8: ID '%x' has not been defined", ours: true},
	{name: "id defined twice", src: "%t = OpTypeInt 32 0\n%x = OpUndef %t\n%x = OpUndef %t\n", want: "3:1: ID '%x' has already been defined", ours: true},
}

func TestErrors(t *testing.T) {
	for _, c := range errorCases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Assemble([]byte(c.src), Options{TargetEnv: "spv1.6", LaxIDs: !c.ours})
			var list ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("Assemble(%q) = %v, want an ErrorList", c.src, err)
			}
			if got := list[0].Error(); got != c.want {
				t.Errorf("Assemble(%q): first error\n got %s\nwant %s", c.src, got, c.want)
			}
		})
	}
}

// TestErrorRecovery checks that errors are reported for every bad
// instruction, not just the first, without cascades, in position order.
func TestErrorRecovery(t *testing.T) {
	src := `OpCapability Shader
OpCapability Bogus
%t = OpTypeInt 32 2 3
%c = OpConstant %t 1
%d = OpConstant %t -1
OpFoo %x
%u = OpTypeFloat 32
%e = OpConstant %u 1e99
OpName %nowhere "n"
%d = OpUndef %u
`
	_, err := Assemble([]byte(src), Options{File: "f.spvasm"})
	var list ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("Assemble = %v, want an ErrorList", err)
	}
	var got []string
	for _, e := range list {
		got = append(got, e.Error())
	}
	want := []string{
		"f.spvasm:2:14: Invalid capability 'Bogus'.",
		"f.spvasm:3:21: Expected <opcode> or <result-id> at the beginning of an instruction, found '3'.",
		"f.spvasm:6:1: Invalid Opcode name 'OpFoo'",
		"f.spvasm:8:20: Invalid 32-bit float literal: 1e99",
		"f.spvasm:9:8: ID '%nowhere' has not been defined",
		"f.spvasm:10:1: ID '%d' has already been defined",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if s := list[0].SPIRVTools(); s != "error: 2: 14: Invalid capability 'Bogus'." {
		t.Errorf("SPIRVTools() = %q", s)
	}
	// spirv-as does not count the newlines inside a quoted string.
	_, err = Assemble([]byte("OpSource GLSL 450 %f \"a\nb\nc\" OpFoo\n"), Options{LaxIDs: true})
	if !errors.As(err, &list) || list[0].Error() != "3:4: Invalid Opcode name 'OpFoo'" || list[0].SPIRVTools() != "error: 1: 30: Invalid Opcode name 'OpFoo'" {
		t.Errorf("after a string of several lines: %v / %s", err, list[0].SPIRVTools())
	}
}

func TestIDChecksLax(t *testing.T) {
	src := "OpName %nowhere \"n\"\n%t = OpTypeInt 32 0\n%x = OpUndef %t\n%x = OpUndef %t\n"
	if _, err := Assemble([]byte(src), Options{}); err == nil {
		t.Errorf("Assemble without LaxIDs accepted an undefined and a redefined id")
	}
	if _, err := Assemble([]byte(src), Options{LaxIDs: true}); err != nil {
		t.Errorf("Assemble with LaxIDs: %v", err)
	}
}

func TestHeader(t *testing.T) {
	tests := []struct {
		name, src, env string
		version        spirv.Version
	}{
		{"default", "OpCapability Shader\n", "", spirv.MakeVersion(1, 6)},
		{"comment", "; SPIR-V\n; Version: 1.3\nOpCapability Shader\n", "", spirv.MakeVersion(1, 3)},
		{"comment after blank lines", "\n\n; Version: 1.0\n", "", spirv.MakeVersion(1, 0)},
		{"comment after code ignored", "OpCapability Shader\n; Version: 1.0\n", "", spirv.MakeVersion(1, 6)},
		{"comment two digits ignored", "; Version: 1.10\n", "", spirv.MakeVersion(1, 6)},
		{"comment 1.7 ignored", "; Version: 1.7\n", "", spirv.MakeVersion(1, 6)},
		{"target env wins", "; Version: 1.0\n", "spv1.5", spirv.MakeVersion(1, 5)},
		{"vulkan1.0", "", "vulkan1.0", spirv.MakeVersion(1, 0)},
		{"vulkan1.1", "", "vulkan1.1", spirv.MakeVersion(1, 3)},
		{"vulkan1.1spv1.4", "", "vulkan1.1spv1.4", spirv.MakeVersion(1, 4)},
		{"vulkan1.2", "", "vulkan1.2", spirv.MakeVersion(1, 5)},
		{"vulkan1.3", "", "vulkan1.3", spirv.MakeVersion(1, 6)},
		{"vulkan1.4", "", "vulkan1.4", spirv.MakeVersion(1, 6)},
		{"prefix match", "", "vulkan1.2spv1.5", spirv.MakeVersion(1, 5)},
		{"opencl2.2", "", "opencl2.2", spirv.MakeVersion(1, 2)},
		{"opencl1.2embedded", "", "opencl1.2embedded", spirv.MakeVersion(1, 0)},
		{"opengl4.5", "", "opengl4.5", spirv.MakeVersion(1, 0)},
		{"universal1.1", "", "universal1.1", spirv.MakeVersion(1, 1)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w, err := Assemble([]byte(tc.src), Options{TargetEnv: tc.env})
			if err != nil {
				t.Fatal(err)
			}
			want := []uint32{spirv.MagicNumber, uint32(tc.version), 0x00070000, 1, 0}
			if hex(w[:5]) != hex(want) {
				t.Errorf("header %s, want %s", hex(w[:5]), hex(want))
			}
		})
	}
	if _, err := Assemble(nil, Options{TargetEnv: "spv2.0"}); err == nil {
		t.Errorf("TargetEnv spv2.0 accepted")
	}
	for _, e := range TargetEnvs() {
		if v, ok := LookupTargetEnv(e.Name); !ok || v != e.Version {
			t.Errorf("LookupTargetEnv(%q) = %v, %v; want %v (an earlier name must not be its prefix)", e.Name, v, ok, e.Version)
		}
	}
}

// TestTargetEnvHidesInstructions checks that, as in spirv-as, an
// instruction the target version lacks, with no extension or capability
// to enable it, is an unknown opcode.
func TestTargetEnvHidesInstructions(t *testing.T) {
	src := "%t = OpTypeInt 32 0\n%x = OpUndef %t\n%y = OpCopyLogical %t %x\n"
	if _, err := Assemble([]byte(src), Options{TargetEnv: "spv1.4"}); err != nil {
		t.Errorf("spv1.4: %v", err)
	}
	_, err := Assemble([]byte(src), Options{TargetEnv: "spv1.3"})
	if err == nil || !strings.Contains(err.Error(), "3:6: Invalid Opcode name 'OpCopyLogical'") {
		t.Errorf("spv1.3: %v, want OpCopyLogical rejected", err)
	}
}

func TestPreserveNumericIDs(t *testing.T) {
	src := "%5 = OpTypeVoid\n%a = OpTypeBool\n%0x10 = OpTypeInt 32 0\n%b = OpTypeInt 32 1\n%017 = OpTypeFloat 32\n"
	w, err := Assemble([]byte(src), Options{PreserveNumericIDs: true})
	if err != nil {
		t.Fatal(err)
	}
	// %5, %0x10 (16) and %017 (octal 15) keep their numbers; %a and %b
	// take 1 and 2; the bound is one past the largest.
	want := "07230203 00010600 00070000 00000011 00000000 00020013 00000005 00020014 00000001 00040015 00000010 00000020 00000000 00040015 00000002 00000020 00000001 00030016 0000000f 00000020"
	if got := hex(w); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	w, err = Assemble([]byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if w[3] != 6 || w[6] != 1 {
		t.Errorf("without PreserveNumericIDs: bound %d, first id %d; want 6, 1", w[3], w[6])
	}
}

// TestPreserveNumericIDLimits checks the numbers that cannot be kept:
// 4294967295 leaves no bound (spirv-as writes bound 1), 0 is not an id
// (spirv-as writes it; so does LaxIDs). 4294967294 is the largest that can.
func TestPreserveNumericIDLimits(t *testing.T) {
	const head = "OpCapability Shader\nOpMemoryModel Logical GLSL450\n"
	tests := []struct {
		src     string
		lax     bool
		want    string // error, or "" for success
		bound   uint32
		firstID uint32 // the OpTypeVoid's result
	}{
		{src: "%4294967295 = OpTypeVoid\n", want: "3:1: ID '%4294967295' cannot keep its number: the bound (the largest id + 1) must fit in 32 bits, so ids are at most 4294967294"},
		{src: "%4294967295 = OpTypeVoid\n", lax: true, want: "3:1: ID '%4294967295' cannot keep its number"},
		{src: "%v = OpTypeVoid\n%t = OpTypeFunction %0xffffffff\n", lax: true, want: "4:21: ID '%0xffffffff' cannot keep its number"},
		{src: "%0 = OpTypeVoid\n", want: "3:1: ID '%0' cannot keep its number: 0 is not a valid id"},
		{src: "%0 = OpTypeVoid\n", lax: true, bound: 1, firstID: 0},
		{src: "%4294967294 = OpTypeVoid\n%b = OpTypeBool\n", bound: 0xffffffff, firstID: 0xfffffffe},
	}
	for _, tc := range tests {
		w, err := Assemble([]byte(head+tc.src), Options{PreserveNumericIDs: true, LaxIDs: tc.lax})
		switch {
		case tc.want != "":
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("%q (lax %v): %v, want %s", tc.src, tc.lax, err, tc.want)
			}
		case err != nil:
			t.Errorf("%q (lax %v): %v", tc.src, tc.lax, err)
		case w[3] != tc.bound || w[11] != tc.firstID:
			t.Errorf("%q (lax %v): bound %d, id %d; want %d, %d", tc.src, tc.lax, w[3], w[11], tc.bound, tc.firstID)
		}
	}
}

func TestNulEndsText(t *testing.T) {
	w, err := Assemble([]byte("OpCapability Shader\n\x00garbage"), Options{})
	if err != nil || len(w) != 7 {
		t.Errorf("Assemble = %v, %v; want the text before the nul byte", hex(w), err)
	}
}

func TestKindDescriptions(t *testing.T) {
	tests := map[string]string{
		"StorageClass":                      "storage class",
		"ExecutionModel":                    "execution model",
		"RayQueryCommittedIntersectionType": "ray query committed intersection type",
		"NamedMaximumNumberOfRegisters":     "named maximum number of registers",
		"FPEncoding":                        "FP encoding",
		"Dim":                               "dimensionality",
		"ImageOperands":                     "image",
		"MemoryAccess":                      "memory access",
		"KernelEnqueueFlags":                "kernel enqeue flags",
	}
	for name, want := range tests {
		k, ok := spirv.LookupOperandKind(name)
		if !ok {
			t.Fatalf("no kind %s", name)
		}
		if got := kindDesc(k); got != want {
			t.Errorf("kindDesc(%s) = %q, want %q", name, got, want)
		}
	}
}

func TestAssembleBytes(t *testing.T) {
	b, err := AssembleBytes([]byte("OpCapability Shader"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []byte{3, 2, 0x23, 7, 0, 6, 1, 0, 0, 0, 7, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0x11, 0, 2, 0, 1, 0, 0, 0}
	if string(b) != string(want) {
		t.Errorf("AssembleBytes = % x\nwant % x", b, want)
	}
}

// TestTypeRedefinition checks that "has already been used to generate a
// type" follows spirv.DeclaresType, as spirv-as follows
// spvOpcodeGeneratesType: OpTypeAvc*INTEL declare no type there, so under
// LaxIDs defining one twice is accepted, while OpTypeBool and
// OpTypeNodePayloadArrayAMDX are types.
func TestTypeRedefinition(t *testing.T) {
	tests := []struct {
		decl string
		want string // "" to accept
	}{
		{"OpTypeAvcImePayloadINTEL", ""},
		{"OpTypeVmeImageINTEL %i", ""},
		{"OpTypeBool", "4:16: Value 2 has already been used to generate a type"},
		{"OpTypeNodePayloadArrayAMDX %i", "4:35: Value 2 has already been used to generate a type"},
	}
	for _, tc := range tests {
		src := "OpCapability Shader\n%i = OpTypeImage %i 2D 0 0 0 0 Unknown\n%a = " + tc.decl + "\n%a = " + tc.decl + "\n"
		_, err := Assemble([]byte(src), Options{LaxIDs: true})
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || err.Error() != tc.want) {
			t.Errorf("%s twice: %v, want %q", tc.decl, err, tc.want)
		}
	}
}
