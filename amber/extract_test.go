package amber

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseBufferID(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want BufferID
		err  string
	}{
		{"3", BufferID{Binding: 3}, ""},
		{"1:2", BufferID{Set: 1, Binding: 2}, ""},
		{"p:2", BufferID{Pipeline: "p", Binding: 2}, ""},
		{"my_pipe2:1:4294967295", BufferID{Pipeline: "my_pipe2", Set: 1, Binding: 1<<32 - 1}, ""},
		{"p", BufferID{}, "invalid buffer id: p"},
		{"p:", BufferID{}, "invalid buffer id: p:"},
		{"", BufferID{}, "invalid buffer id: "},
		{"1:2:3", BufferID{}, "invalid buffer id: 1:2:3"},
		{"-1", BufferID{}, `got "-1"`},
		{"0:4294967296", BufferID{}, `got "4294967296"`},
		{"p:x", BufferID{}, `got "x"`},
	} {
		got, err := ParseBufferID(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: err %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		tc.want.Text = tc.in
		if err != nil || got != tc.want {
			t.Errorf("%q: %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
	}
}

// extractScript has two pipelines sharing buffer a: "first" doubles a
// into b; "second" copies b back into a. A COPY at the end replaces b.
func extractScript(t *testing.T, tail string) *Script {
	t.Helper()
	asm, err := filepath.Abs("testdata/kernels.spvasm")
	if err != nil {
		t.Fatal(err)
	}
	src := "#!amber\nSHADER compute k SPIRV-ASM TARGET_ENV spv1.0 FILE " + asm + `
BUFFER a DATA_TYPE uint32 DATA 1 2 END
BUFFER b DATA_TYPE uint32 DATA 0 0 END
BUFFER c DATA_TYPE uint32 DATA 9 9 9 END
PIPELINE compute first
  ATTACH k ENTRY_POINT double
  BIND BUFFER a AS storage DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER b AS storage DESCRIPTOR_SET 0 BINDING 1
END
PIPELINE compute second
  ATTACH k ENTRY_POINT copy
  BIND BUFFER b AS storage DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER a AS storage DESCRIPTOR_SET 0 BINDING 1
END
RUN first 2 1 1
RUN second 1 1 1
` + tail
	s, err := Parse("x.amber", []byte(src), ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func extractIDs(t *testing.T, ids ...string) []BufferID {
	var out []BufferID
	for _, s := range ids {
		id, err := ParseBufferID(s)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, id)
	}
	return out
}

// TestExtract: -B's buffers are found through the named pipeline (or the
// first one) and copied as the script left them, whole, after a failure
// too; a wrong pipeline or binding says which.
func TestExtract(t *testing.T) {
	ids := extractIDs(t, "0:0", "first:0:1", "second:0:1", "1", "nope:0:0", "second:0:0")
	r := Run(context.Background(), extractScript(t, "COPY c TO b\nEXPECT a IDX 0 EQ 5\n"), Options{Engine: &fakeEngine{}, Extract: ids})
	if r.Status != Fail {
		t.Errorf("status %v, want the EXPECT to fail", r.Status)
	}
	le := func(v ...byte) []byte { return v }
	for i, want := range []struct {
		buffer string
		data   []byte
		err    string
	}{
		// a: doubled into b (2, 4), which second copied back into a; the
		// COPY after both RUNs made b three elements of 9.
		{"a", le(2, 0, 0, 0, 4, 0, 0, 0), ""},
		{"b", le(9, 0, 0, 0, 9, 0, 0, 0, 9, 0, 0, 0), ""},
		{"a", le(2, 0, 0, 0, 4, 0, 0, 0), ""},
		{"b", le(9, 0, 0, 0, 9, 0, 0, 0, 9, 0, 0, 0), ""},
		{"", nil, `x.amber has no pipeline "nope"`},
		{"b", le(9, 0, 0, 0, 9, 0, 0, 0, 9, 0, 0, 0), ""},
	} {
		x := r.Extractions[i]
		switch {
		case x.ID != ids[i]:
			t.Errorf("%d: id %+v, want %+v", i, x.ID, ids[i])
		case want.err != "" && (x.Err == nil || !strings.Contains(x.Err.Error(), want.err)):
			t.Errorf("%s: err %v, want %q", ids[i].Text, x.Err, want.err)
		case want.err == "" && (x.Err != nil || x.Buffer != want.buffer || string(x.Data) != string(want.data)):
			t.Errorf("%s: %s %v (%v), want %s %v", ids[i].Text, x.Buffer, x.Data, x.Err, want.buffer, want.data)
		}
	}
	r = Run(context.Background(), extractScript(t, ""), Options{Engine: &fakeEngine{}, Extract: extractIDs(t, "first:2:0")})
	if x := r.Extractions[0]; x.Err == nil || x.Err.Error() != "pipeline first binds no buffer at descriptor set 2, binding 0" {
		t.Errorf("unbound: %v", x.Err)
	}
}

// TestCompileOnly: -p compiles and validates every shader and runs
// nothing; an invalid shader fails, an expect_fail script that compiles
// passes (it has not reached the failure it expects).
func TestCompileOnly(t *testing.T) {
	eng := &fakeEngine{}
	opt := Options{Engine: eng, CompileOnly: true}
	r := Run(context.Background(), extractScript(t, "EXPECT a IDX 0 EQ 5\n"), opt)
	if r.Status != Pass || len(eng.jobs) != 0 {
		t.Errorf("status %v (%s), %d jobs; want a pass and none", r.Status, r.Reason, len(eng.jobs))
	}
	s := extractScript(t, "")
	s.Path = "y.expect_fail.amber"
	if r := Run(context.Background(), s, opt); r.Status != Pass {
		t.Errorf("expect_fail: %v %s", r.Status, r.Reason)
	}
	bad := `#!amber
SHADER compute s SPIRV-ASM
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%f1 = OpConstant %float 1
%main = OpFunction %void None %fn
%l = OpLabel
%x = OpIAdd %uint %f1 %f1
OpReturn
OpFunctionEnd
END
PIPELINE compute p
  ATTACH s
END
RUN p 1 1 1
`
	s, err := Parse("bad.amber", []byte(bad), ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r = Run(context.Background(), s, opt)
	if r.Status != Fail || !strings.Contains(r.Reason, "bad.amber:2: shader s fails validation") {
		t.Errorf("invalid shader: %v %q", r.Status, r.Reason)
	}
	if r = Run(context.Background(), s, Options{Engine: eng, CompileOnly: true, NoValidate: true}); r.Status != Pass {
		t.Errorf("invalid shader, NoValidate: %v %q", r.Status, r.Reason)
	}
}
