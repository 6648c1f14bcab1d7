package dis

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"spvx/spirv"
)

// countWriter counts what is written and fails past limit bytes.
type countWriter struct {
	n, limit int
	maxLine  int // the longest line seen
	line     int // length of the current line
}

var errTooMuch = errors.New("output limit reached")

func (w *countWriter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			w.line += len(p)
			w.n += len(p)
			break
		}
		w.line += i
		w.maxLine = max(w.maxLine, w.line)
		w.line = 0
		w.n += i + 1
		p = p[i+1:]
	}
	if w.limit > 0 && w.n > w.limit {
		return 0, errTooMuch
	}
	return n, nil
}

// longLineModule has one OpName of about 64 KiB, then n instructions
// that each get a comment under --offsets (OpNop) or --comment (OpName).
func longLineModule(n int, op spirv.Opcode) []byte {
	b := newBuilder()
	b.op(spirv.OpCapability, uint32(spirv.CapabilityShader))
	b.op(spirv.OpMemoryModel, uint32(spirv.AddressingModelLogical), uint32(spirv.MemoryModelGLSL450))
	id := b.id()
	b.op(spirv.OpName, id, strings.Repeat("x", 65000))
	for range n {
		if op == spirv.OpName {
			b.op(spirv.OpName, id, "y")
		} else {
			b.op(op)
		}
	}
	return b.bytes()
}

// TestCommentColumnBounded is the regression test for the comment column
// that carried over without limit: after a 64 KiB line, 200k commented
// lines were each padded as far (13 GB of text, against 54 MB now). As
// current spirv-dis (SPIRV-Tools #6149), a carried column is at most 256,
// so no commented line but the long one exceeds 256 + its comment.
func TestCommentColumnBounded(t *testing.T) {
	const n = 200_000
	for _, c := range []struct {
		op  spirv.Opcode
		opt Options
	}{
		{spirv.OpNop, Options{Offsets: true}},
		{spirv.OpName, Options{Comment: true}},
		{spirv.OpName, Options{Comment: true, Offsets: true, Color: true}},
	} {
		bin := longLineModule(n, c.op)
		w := &countWriter{limit: 400 * n}
		if err := FprintBinary(w, bin, c.opt); err != nil {
			t.Fatalf("%+v: %v after %d bytes", c.opt, err, w.n)
		}
		if w.n < 256*n {
			t.Errorf("%+v: %d bytes: the comments no longer carry the column to 256", c.opt, w.n)
		}
		// The first few lines after the long one, exactly.
		text, err := DisassembleBinary(longLineModule(3, c.op), c.opt)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(text), "\n")
		tail := lines[len(lines)-3]
		if n := visibleLen([]byte(tail)); n > 256+len("; 0x00000000, id %1") {
			t.Errorf("%+v: line of %d columns: %q", c.opt, n, tail)
		}
		if k := strings.Index(tail, "; "); visibleLen([]byte(tail[:k])) != 256 {
			t.Errorf("%+v: comment at column %d, want 256: %q", c.opt, visibleLen([]byte(tail[:k])), tail)
		}
	}
}

// nestedModule is one function of depth nested selections: block i
// branches to block i+1 (its true branch, two levels deeper) or to its
// merge block. Under --nested-indent the text grows as depth squared, in
// spvx as in spirv-dis, whose indentation has no limit either.
func nestedModule(depth int) []byte {
	b := newBuilder()
	b.op(spirv.OpCapability, uint32(spirv.CapabilityShader))
	b.op(spirv.OpMemoryModel, uint32(spirv.AddressingModelLogical), uint32(spirv.MemoryModelGLSL450))
	main := b.id()
	b.op(spirv.OpEntryPoint, uint32(spirv.ExecutionModelGLCompute), main, "main")
	void, fn, boolT, cond := b.id(), b.id(), b.id(), b.id()
	b.op(spirv.OpTypeVoid, void)
	b.op(spirv.OpTypeFunction, fn, void)
	b.op(spirv.OpTypeBool, boolT)
	b.op(spirv.OpConstantTrue, boolT, cond)
	b.op(spirv.OpFunction, void, main, 0, fn)
	labels, merges := make([]uint32, depth+1), make([]uint32, depth)
	for i := range labels {
		labels[i] = b.id()
	}
	for i := range merges {
		merges[i] = b.id()
	}
	for i := range depth {
		b.op(spirv.OpLabel, labels[i])
		b.op(spirv.OpSelectionMerge, merges[i], 0)
		b.op(spirv.OpBranchConditional, cond, labels[i+1], merges[i])
	}
	b.op(spirv.OpLabel, labels[depth])
	b.op(spirv.OpBranch, merges[depth-1])
	for i := depth - 1; i >= 0; i-- {
		b.op(spirv.OpLabel, merges[i])
		if i > 0 {
			b.op(spirv.OpBranch, merges[i-1])
		} else {
			b.op(spirv.OpReturn)
		}
	}
	b.op(spirv.OpFunctionEnd)
	return b.bytes()
}

// TestNestedIndentStreams: the text of a deeply nested function is
// quadratic in its size, as spirv-dis's (see docs/dis.md), so
// FprintBinary and Fprint must stream it: 40 MB of text from a 100 KB
// module, with a few hundred KB allocated.
func TestNestedIndentStreams(t *testing.T) {
	const depth = 2000
	bin := nestedModule(depth)
	opt := Options{NestedIndent: true}
	m, err := spirv.Decode(bin)
	if err != nil {
		t.Fatal(err)
	}
	for _, via := range []string{"FprintBinary", "Fprint"} {
		w := &countWriter{}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if via == "FprintBinary" {
			err = FprintBinary(w, bin, opt)
		} else {
			err = Fprint(w, m, opt)
		}
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		alloc := after.TotalAlloc - before.TotalAlloc
		t.Logf("%s: %d bytes of binary, %d of text, %d allocated, longest line %d", via, len(bin), w.n, alloc, w.maxLine)
		if w.n < 8*depth*depth {
			t.Errorf("%s: %d bytes of text, want the quadratic indentation", via, w.n)
		}
		if want := 4*depth + 2 + len("OpSelectionMerge"); w.maxLine < want {
			t.Errorf("%s: longest line %d, want at least %d", via, w.maxLine, want)
		}
		if alloc > uint64(20*len(bin))+4<<20 {
			t.Errorf("%s: %d bytes allocated for %d bytes of text: not streaming", via, alloc, w.n)
		}
	}
	// The streamed text is the text.
	small := nestedModule(50)
	want, err := DisassembleBinary(small, opt)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := FprintBinary(&buf, small, opt); err != nil || !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("FprintBinary differs (err %v)", err)
	}
	if !bytes.Contains(want, []byte("\n"+strings.Repeat(" ", 15+4*50+2)+"OpBranch %")) {
		t.Error("the innermost block is not indented 4*depth+2")
	}
}

// TestWriteErrorStops: after w fails, nothing more is formatted.
func TestWriteErrorStops(t *testing.T) {
	w := &countWriter{limit: 1}
	err := FprintBinary(w, nestedModule(2000), Options{NestedIndent: true})
	if !errors.Is(err, errTooMuch) {
		t.Fatalf("err %v", err)
	}
	if w.n > 2*flushSize {
		t.Errorf("%d bytes written after the error", w.n)
	}
}

// BenchmarkCommentColumn prints longLineModule under --offsets at two
// sizes: linear.
func BenchmarkCommentColumn(b *testing.B) {
	for _, n := range []int{20_000, 200_000} {
		bin := longLineModule(n, spirv.OpNop)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(len(bin)))
			for b.Loop() {
				if err := FprintBinary(io.Discard, bin, Options{Offsets: true}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkNestedIndent prints nestedModule at two depths; MB/s counts
// bytes of text, which grow as depth squared: constant MB/s is time
// linear in the output.
func BenchmarkNestedIndent(b *testing.B) {
	for _, depth := range []int{500, 2000} {
		bin := nestedModule(depth)
		w := &countWriter{}
		if err := FprintBinary(w, bin, Options{NestedIndent: true}); err != nil {
			b.Fatal(err)
		}
		b.Run(strconv.Itoa(depth), func(b *testing.B) {
			b.SetBytes(int64(w.n))
			b.ReportAllocs()
			for b.Loop() {
				if err := FprintBinary(io.Discard, bin, Options{NestedIndent: true}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
