package amber

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeScript writes src to a file in a test folder.
func writeScript(t *testing.T, name, src string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// buffers is a script declaring n buffers of size bytes each.
func buffers(n, size int) string {
	var b strings.Builder
	b.WriteString("#!amber\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "BUFFER b%d DATA_TYPE uint8 SIZE %d FILL 1\n", i, size)
	}
	return b.String()
}

// values is a script with one DATA buffer of n uint8 values.
func values(n int) string {
	return "#!amber\nBUFFER b DATA_TYPE uint8 DATA\n" + strings.Repeat("7 ", n) + "\nEND\n"
}

// TestParseAllocationCounted checks issue 19 (d): what the parser
// allocates (buffers, and the values of DATA and VkScript subdata, 24
// bytes each before they are written) is reserved from the run's budget
// as it is allocated, so a script fails at the line that goes over, and
// every byte is returned whatever the outcome.
func TestParseAllocationCounted(t *testing.T) {
	cases := []struct {
		name, src string
		budget    int
		want      string // "" passes
	}{
		// 100 buffers of 100 MB: the first is refused before it is made.
		{"huge.amber", buffers(100, 100<<20), 64 << 20, "huge.amber:2: BUFFER too large: buffers of 104857600 bytes exceed the budget of 67108864 bytes"},
		// 100 of 1 MB against 10 MB: the 10th cannot be had, having 9.
		{"many.amber", buffers(100, 1<<20), 10<<20 - 1, "many.amber:11: BUFFER too large: buffers of 10485760 bytes exceed the budget of 10485759 bytes"},
		{"fits.amber", buffers(10, 1<<20), 10 << 20, ""},
		// 200,000 one-byte values are 4.8 MB while they are parsed.
		{"data.amber", values(200000), 2 << 20, "data.amber:3: BUFFER too large: buffers of "},
		{"data_ok.amber", values(200000), 8 << 20, ""},
		{"sub.vkscript", "[compute shader spirv]\nOpNop\n[test]\nssbo 0 subdata uint8_t 0 " + strings.Repeat("1 ", 200000) + "\n", 2 << 20, "sub.vkscript:4: BUFFER too large: buffers of "},
	}
	for _, c := range cases {
		b := NewBudget(c.budget)
		r := RunFile(context.Background(), writeScript(t, c.name, c.src), Options{Budget: b})
		failed := r.Status == Fail && strings.Contains(r.Reason, string(filepath.Separator)+c.want)
		if c.want == "" && r.Status != Pass || c.want != "" && !failed {
			t.Errorf("%s: %v %q, want %q", c.name, r.Status, r.Reason, c.want)
		}
		if u := b.Used(); u != 0 {
			t.Errorf("%s: %d bytes still reserved after the run", c.name, u)
		}
	}
}

// TestParseHoldsUntilRun checks that the parse's reservation is held
// while the script waits to run, so scripts parsed at once cannot
// together exceed the budget, and that it is taken over, not doubled, by
// the run.
func TestParseHoldsUntilRun(t *testing.T) {
	b := NewBudget(8 << 20)
	opt := ParseOptions{budget: b, ctx: context.Background()}
	s, err := Parse("a.amber", []byte(buffers(3, 1<<20)), opt)
	if err != nil {
		t.Fatal(err)
	}
	if u := b.Used(); u != 3<<20 {
		t.Fatalf("after the parse %d bytes are reserved, want %d", u, 3<<20)
	}
	// Another script of 6 MB cannot be parsed now: it waits for the
	// budget until its context ends.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = Parse("b.amber", []byte(buffers(6, 1<<20)), ParseOptions{budget: b, ctx: ctx})
	if err == nil || !strings.Contains(err.Error(), "b.amber:7: BUFFER too large: context canceled") {
		t.Fatalf("second parse: %v", err)
	}
	if u := b.Used(); u != 3<<20 {
		t.Fatalf("the failed parse left %d bytes reserved, want %d", u-3<<20, 0)
	}
	r := run(context.Background(), s, Options{Budget: b}, true)
	if r.Status != Pass || b.Used() != 0 {
		t.Fatalf("run: %v %s; %d bytes left reserved", r.Status, r.Reason, b.Used())
	}
}
