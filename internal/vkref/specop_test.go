package vkref

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"spvx/asm"
	"spvx/interp"
)

// specOpShader computes vector OpSpecConstantOps (VectorShuffle with an
// OpUndef operand and an undefined component, CompositeExtract and
// CompositeInsert, elementwise arithmetic, Select) over three 32-bit spec
// constants, and stores every defined component of the results, one uint
// per word of the output buffer.
const specOpShader = `OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %buf
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %S Block
OpMemberDecorate %S 0 Offset 0
OpDecorate %arr ArrayStride 4
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
OpDecorate %a SpecId 0
OpDecorate %b SpecId 1
OpDecorate %c SpecId 2
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%u32 = OpTypeInt 32 0
%v3 = OpTypeVector %u32 3
%v4 = OpTypeVector %u32 4
%v3b = OpTypeVector %bool 3
%n = OpConstant %u32 64
%arr = OpTypeArray %u32 %n
%S = OpTypeStruct %arr
%pS = OpTypePointer StorageBuffer %S
%pu = OpTypePointer StorageBuffer %u32
%buf = OpVariable %pS StorageBuffer
%c0 = OpConstant %u32 0
%k7 = OpConstant %u32 7
%a = OpSpecConstant %u32 3
%b = OpSpecConstant %u32 0xfffffff0
%c = OpSpecConstant %u32 100
%undef = OpUndef %v3
%k = OpConstantComposite %v3 %k7 %c0 %k7
%v = OpSpecConstantComposite %v3 %a %b %c
%w = OpSpecConstantComposite %v3 %c %a %b
%sh = OpSpecConstantOp %v3 VectorShuffle %v %undef 2 0xffffffff 0
%sh2 = OpSpecConstantOp %v4 VectorShuffle %sh %w 0 2 3 5
%ins = OpSpecConstantOp %v3 CompositeInsert %b %sh 1
%sum = OpSpecConstantOp %v3 IAdd %ins %w
%prod = OpSpecConstantOp %v3 IMul %sum %v
%neg = OpSpecConstantOp %v3 SNegate %prod
%shl = OpSpecConstantOp %v3 ShiftLeftLogical %neg %k
%lt = OpSpecConstantOp %v3b ULessThan %v %w
%sel = OpSpecConstantOp %v3 Select %lt %shl %k
%div = OpSpecConstantOp %v3 UDiv %w %ins
%x0 = OpSpecConstantOp %u32 CompositeExtract %sh2 3
%x1 = OpSpecConstantOp %u32 CompositeExtract %sel 1
%main = OpFunction %void None %fn
%e = OpLabel
STORES
OpReturn
OpFunctionEnd
`

// TestSpecConstantOpVectors: lavapipe and spvx fold the same vector
// OpSpecConstantOps to the same values, under the default spec constants
// and two sets of overrides.
func TestSpecConstantOpVectors(t *testing.T) {
	d, err := New(Lavapipe)
	if err != nil {
		t.Skip(err)
	}
	word := 0
	// Constants must precede the function: collect them apart.
	var consts, body strings.Builder
	emit := func(id string, comps, skip int) {
		for c := range comps {
			if c == skip {
				continue
			}
			fmt.Fprintf(&consts, "%%i%d = OpConstant %%u32 %d\n", word, word)
			val := id
			if comps > 1 {
				val = fmt.Sprintf("%%e%d", word)
				fmt.Fprintf(&body, "%s = OpCompositeExtract %%u32 %s %d\n", val, id, c)
			}
			fmt.Fprintf(&body, "%%p%[1]d = OpAccessChain %%pu %%buf %%c0 %%i%[1]d\nOpStore %%p%[1]d %[2]s\n", word, val)
			word++
		}
	}
	emit("%sh", 3, 1) // component 1 is undefined
	emit("%sh2", 4, 1)
	for _, id := range []string{"%ins", "%sum", "%prod", "%neg", "%shl", "%sel", "%div"} {
		emit(id, 3, -1)
	}
	emit("%x0", 1, -1)
	emit("%x1", 1, -1)
	src := strings.Replace(specOpShader, "%main = OpFunction", consts.String()+"%main = OpFunction", 1)
	src = strings.Replace(src, "STORES\n", body.String(), 1)
	words, err := asm.Assemble([]byte(src), asm.Options{})
	if err != nil {
		t.Fatalf("assemble: %v\n%s", err, src)
	}
	spv := make([]byte, 4*len(words))
	for i, w := range words {
		binary.LittleEndian.PutUint32(spv[4*i:], w)
	}
	for _, spec := range []map[uint32]uint32{nil, {0: 0x80000001, 1: 5, 2: 9}, {0: 12, 2: 0xffffffff}} {
		job := &Job{SPIRV: spv, Entry: "main", Groups: [3]uint32{1, 1, 1}, Spec: spec,
			Buffers: []Buffer{{Binding: 0, Data: make([]byte, 4*64)}}}
		want, err := d.Run(job)
		if err != nil {
			t.Fatalf("lavapipe: %v", err)
		}
		got, err := RunSPVX(job, interp.Options{SubgroupSize: 8})
		if err != nil {
			t.Fatalf("spvx: %v", err)
		}
		if !bytes.Equal(got[0][:4*word], want[0][:4*word]) {
			t.Errorf("spec %v: spvx and lavapipe differ\nspvx     % x\nlavapipe % x", spec, got[0][:4*word], want[0][:4*word])
		}
	}
}
