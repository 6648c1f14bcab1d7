package diagram

import (
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"spvx/amber"
)

func sampleReport() Report {
	return Report{Title: "spvx run: 4 scripts", Seconds: 1.5, Scripts: []Script{
		{Path: "a/pass.amber", Status: "pass", Seconds: 0.25, Source: "#!amber\nBUFFER x DATA_TYPE uint32 SIZE 4 FILL 0\n"},
		{Path: "b/fail.amber", Status: "fail", Seconds: 0.5, Reason: "b/fail.amber:13: EXPECT out IDX 0 EQ 2 4 6.5 8: Verifier failed",
			Source: "#!amber\nEXPECT out IDX 0 EQ 2 4 6.5 8\n",
			Failure: &amber.Failure{File: "b/fail.amber", Line: 13, Command: "EXPECT out IDX 0 EQ 2 4 6.5 8", Buffer: "out", Got: "6", Want: "6.5", Op: "==",
				Context: []amber.ValueDiff{{Index: 0, Element: 0, Component: 0, Got: "2", Want: "2", Differs: false}, {Index: 1, Element: 1, Component: 0, Got: "4", Want: "4", Differs: false}, {Index: 2, Element: 2, Component: 0, Got: "6", Want: "6.5", Differs: true}, {Index: 3, Element: 3, Component: 0, Got: "8", Want: "8", Differs: false}}}},
		{Path: "c/skip.amber", Status: "skip", Seconds: 0.01, Reason: "missing feature geometryShader"},
		{Path: "d/<fail>.amber", Status: "fail", Seconds: 0.75, Reason: "parse error: <script>alert(1)</script>", Source: "<script>"},
	}}
}

// readHTML parses the page with encoding/xml in HTML mode, failing on
// malformed markup, and counts elements by tag and class.
func readHTML(t *testing.T, b []byte) map[string]int {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(b))
	d.Strict = false
	d.AutoClose = xml.HTMLAutoClose
	d.Entity = xml.HTMLEntity
	counts := map[string]int{}
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("HTML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			counts[se.Name.Local]++
			for _, a := range se.Attr {
				if a.Name.Local == "class" {
					for _, c := range strings.Fields(a.Value) {
						counts[se.Name.Local+"."+c]++
					}
				}
				if a.Name.Local == "src" || a.Name.Local == "href" && !strings.HasPrefix(a.Value, "#") {
					t.Errorf("external asset %s=%q", a.Name.Local, a.Value)
				}
			}
		}
	}
	return counts
}

func TestRunReport(t *testing.T) {
	var b bytes.Buffer
	if err := WriteRunReport(&b, sampleReport()); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	c := readHTML(t, b.Bytes())
	if c["tr.pass"] != 1 || c["tr.fail"] != 2 || c["tr.skip"] != 1 || c["div.failure"] != 2 || c["tr.differs"] != 1 || c["details"] != 4 || c["script"] != 1 {
		t.Errorf("counts %v", c)
	}
	// Failures come first; names and reasons are escaped.
	if strings.Index(page, "b/fail.amber") > strings.Index(page, "a/pass.amber") {
		t.Error("failures are not listed first")
	}
	if strings.Contains(page, "<script>alert") || !strings.Contains(page, "&lt;script&gt;alert(1)") {
		t.Error("a reason is not escaped")
	}
	if !strings.Contains(page, `style="width:50.000%"`) || !strings.Contains(page, "2 failed") {
		t.Error("summary bar")
	}
	if !strings.Contains(page, "<code>b/fail.amber:13</code>: <code>EXPECT out IDX 0 EQ 2 4 6.5 8</code>") {
		t.Error("the failure's FILE:LINE and command are not shown")
	}
}

// TestRunReportInChromium renders the page with headless Chromium and
// checks its DOM (the rows, the failure details) and that a screenshot
// can be taken; it skips where Chromium is absent.
func TestRunReportInChromium(t *testing.T) {
	chrome := ""
	for _, c := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(c); err == nil {
			chrome = p
			break
		}
	}
	if chrome == "" {
		t.Skip("no Chromium (Debian: apt-get install chromium)")
	}
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	var b bytes.Buffer
	if err := WriteRunReport(&b, sampleReport()); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(page, b.Bytes(), 0o644)
	args := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--user-data-dir=" + filepath.Join(dir, "profile")}
	dom, err := exec.Command(chrome, append(args, "--dump-dom", "file://"+page)...).Output()
	if err != nil {
		t.Fatalf("chromium --dump-dom: %v", err)
	}
	s := string(dom)
	if n := strings.Count(s, `<tr class="fail">`) + strings.Count(s, `<tr class="pass">`) + strings.Count(s, `<tr class="skip">`); n != 4 {
		t.Errorf("DOM has %d script rows, want 4", n)
	}
	if strings.Count(s, `class="failure"`) != 2 || !strings.Contains(s, `<tr class="differs">`) || !strings.Contains(s, `<code class="got">6</code>`) {
		t.Errorf("DOM lacks the failure details:\n%s", s)
	}
	png := filepath.Join(dir, "report.png")
	if out, err := exec.Command(chrome, append(args, "--screenshot="+png, "--window-size=1200,900", "file://"+page)...).CombinedOutput(); err != nil {
		t.Fatalf("screenshot: %v\n%s", err, out)
	}
	if st, err := os.Stat(png); err != nil || st.Size() < 1000 {
		t.Errorf("screenshot: %v", err)
	}
}

// TestRenderSVGs renders every kind of SVG with rsvg-convert (Debian
// librsvg2-bin), which rejects what it cannot draw; it skips where absent.
func TestRenderSVGs(t *testing.T) {
	rsvg, err := exec.LookPath("rsvg-convert")
	if err != nil {
		t.Skip("no rsvg-convert (Debian: apt-get install librsvg2-bin)")
	}
	dir := t.TempDir()
	pics := map[string][]byte{}
	grid, _ := ShuffleSVG(u(32, 1), u(8, 4), 8, ShuffleOptions{})
	lines, _ := ShuffleSVG(u(16, 2), u(32, 1), 4, ShuffleOptions{Style: Lines})
	pics["grid"], pics["lines"] = grid, lines
	pics["table"] = MXTableSVG(allFormats)
	for name, b := range pics {
		in, out := filepath.Join(dir, name+".svg"), filepath.Join(dir, name+".png")
		os.WriteFile(in, b, 0o644)
		if msg, err := exec.Command(rsvg, in, "-o", out).CombinedOutput(); err != nil {
			t.Errorf("%s: rsvg-convert: %v\n%s", name, err, msg)
		} else if st, err := os.Stat(out); err != nil || st.Size() < 1000 {
			t.Errorf("%s: no PNG", name)
		}
	}
}
