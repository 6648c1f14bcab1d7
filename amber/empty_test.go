package amber

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestEmptyScript: an empty file is an error saying so, as amber's runner
// says "FILE is empty.", in both syntaxes' files.
func TestEmptyScript(t *testing.T) {
	for _, name := range []string{"e.amber", "e.vkscript"} {
		p := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		r := RunFile(context.Background(), p, Options{Engine: &fakeEngine{}})
		if r.Status != Fail || r.Reason != p+": the file is empty" {
			t.Errorf("%s: %v %q", name, r.Status, r.Reason)
		}
	}
}
