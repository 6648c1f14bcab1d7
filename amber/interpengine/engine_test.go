package interpengine

import (
	"context"
	"strings"
	"testing"
	"time"

	"spvx/amber"
	"spvx/interp"
)

// emptyKernelScript runs an empty kernel over RUN's GROUPS.
const emptyKernelScript = `#!amber
SHADER compute k SPIRV-ASM
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
END
PIPELINE compute p
  ATTACH k
END
BODY
`

func runText(t *testing.T, ctx context.Context, src string) amber.Result {
	t.Helper()
	s, err := amber.Parse("t.amber", []byte(src), amber.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return amber.Run(ctx, s, amber.Options{Engine: Engine{}})
}

// A RUN whose workgroup count overflows fails naming the sizes; it does
// not pass as an empty dispatch.
func TestRunGroupsOverflowFails(t *testing.T) {
	src := strings.Replace(emptyKernelScript, "BODY\n", "RUN p 4194304 2097152 2097152\n", 1)
	r := runText(t, context.Background(), src)
	if r.Status != amber.Fail || !strings.Contains(r.Reason, "4194304x2097152x2097152 workgroups") {
		t.Errorf("%v: %s", r.Status, r.Reason)
	}
}

// A REPEAT of two billion RUNs ends by the script's deadline, with
// amber's timeout message.
func TestRunRepeatEndsByDeadline(t *testing.T) {
	src := strings.Replace(emptyKernelScript, "BODY\n", "REPEAT 2000000000\nRUN p 64 64 1\nEND\n", 1)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	r := runText(t, ctx, src)
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the script ran %v after its 300 ms deadline", d)
	}
	if r.Status != amber.Fail || !strings.Contains(r.Reason, "context deadline exceeded") {
		t.Errorf("%v: %s", r.Status, r.Reason)
	}
}

// A dispatch stopped by the deadline reports amber's fence timeout.
func TestRunDeadlineInDispatch(t *testing.T) {
	// 2^32 workgroups of 1024, with no work budget: only the deadline ends it
	src := strings.Replace(emptyKernelScript, "BODY\n", "RUN p 65536 65536 1\n", 1)
	src = strings.Replace(src, "LocalSize 1 1 1", "LocalSize 1024 1 1", 1)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	s, err := amber.Parse("t.amber", []byte(src), amber.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// an unlimited work budget: an empty workgroup is cheap enough that a
	// fast machine spends the default budget before the deadline
	r := amber.Run(ctx, s, amber.Options{Engine: Engine{Options: interp.Options{MaxSteps: -1}}})
	if r.Status != amber.Fail || !strings.Contains(r.Reason, "Vulkan::Calling vkWaitForFences Timeout") {
		t.Errorf("%v: %s", r.Status, r.Reason)
	}
}

// An empty REPEAT of two billion iterations ends by the deadline too.
func TestRunEmptyRepeatEndsByDeadline(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	r := runText(t, ctx, "#!amber\nREPEAT 2000000000\nEND\n")
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the script ran %v after its 100 ms deadline", d)
	}
	if r.Status != amber.Fail || !strings.Contains(r.Reason, "context deadline exceeded") {
		t.Errorf("%v: %s", r.Status, r.Reason)
	}
}
