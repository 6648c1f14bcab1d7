package amber

import (
	"os"
	"testing"
)

// BenchmarkParseCorpus parses the 317 shared scripts (read into memory
// first; FILE companions are read from disk), both syntaxes.
func BenchmarkParseCorpus(b *testing.B) {
	files := corpusScripts(b)
	srcs := make([][]byte, len(files))
	n := 0
	for i, f := range files {
		var err error
		if srcs[i], err = os.ReadFile(f); err != nil {
			b.Fatal(err)
		}
		n += len(srcs[i])
	}
	b.SetBytes(int64(n))
	b.ReportAllocs()
	for b.Loop() {
		for i, f := range files {
			if _, err := Parse(f, srcs[i], ParseOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkAssembleCorpus assembles the 146 SPIR-V assembly shaders of
// the shared scripts at their effective environments.
func BenchmarkAssembleCorpus(b *testing.B) {
	type job struct {
		path string
		sh   *Shader
	}
	var jobs []job
	for _, f := range corpusScripts(b) {
		s, err := ParseFile(f)
		if err != nil {
			b.Fatal(err)
		}
		for _, sh := range s.Shaders {
			if sh.Format == FormatSPIRVAsm {
				jobs = append(jobs, job{f, sh})
			}
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, j := range jobs {
			if _, _, err := CompileShader(b.Context(), j.sh, j.path, CompileOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkRunCorpusNoEngine runs the 317 shared scripts without an
// executor, two at a time: parse, compile (GLSL from the in-process cache
// after the first pass), set up buffers, stop at the first RUN. It is the
// runner's own cost in a whole-folder run.
func BenchmarkRunCorpusNoEngine(b *testing.B) {
	files := corpusScripts(b)
	if _, err := GlslangPath(); err != nil {
		b.Skip(err)
	}
	run := func() {
		ch := make(chan string)
		done := make(chan bool)
		for w := 0; w < 2; w++ {
			go func() {
				for f := range ch {
					RunFile(b.Context(), f, Options{})
				}
				done <- true
			}()
		}
		for _, f := range files {
			ch <- f
		}
		close(ch)
		<-done
		<-done
	}
	run() // fill the GLSL cache
	b.ResetTimer()
	for b.Loop() {
		run()
	}
}
