package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"spvx/amber"
	"spvx/diagram"
	"spvx/internal/boundedread"
)

// runScriptFiles is spvx run in script mode: Amber scripts on engine.
func runScriptFiles(fs *cmdFlags, a *scriptFlags, timeout time.Duration, args []string, engine amber.Engine) int {
	stdout, stderr := fs.s.out, fs.s.err
	dev := amber.DefaultDevice()
	if *a.devInfo {
		dev.Print(stdout)
		return exitOK
	}
	extract, msg := a.check(args)
	if msg != "" {
		return fs.usageErr(msg)
	}
	paths, err := findScripts(args)
	if err != nil {
		fmt.Fprintf(stderr, "spvx run: %v\n", err)
		return exitRejected
	}
	if *a.listUnsupported {
		return listUnsupportedMain(paths, stdout, dev)
	}
	opt := amber.Options{Engine: engine, Device: dev, NoValidate: a.noValidate, Timeout: timeout,
		Compile:     amber.CompileOptions{TargetEnv: a.targetEnv, CacheDir: *a.cache},
		CompileOnly: *a.parseOnly, Extract: extract}
	if *a.parseOnly {
		return compileOnlyReport(amber.RunAll(context.Background(), paths, opt, *a.jobs).Wait(), stderr)
	}
	if *a.logCommands && !*a.json {
		opt.Log = stdout // with -j above 1, RunAll keeps each script's log for runs.Log
	}
	start := time.Now()
	results, failed := reportRuns(stdout, a, paths, amber.RunAll(context.Background(), paths, opt, *a.jobs))
	summary := fmt.Sprintf("%d passed, %d failed, %d skipped (%.2f s)", countStatus(results, amber.Pass), failed, countStatus(results, amber.SkipStatus), time.Since(start).Seconds())
	switch {
	case a.quiet:
	case *a.json:
		fmt.Fprintln(stderr, summary)
	default:
		fmt.Fprintln(stdout, summary)
	}
	if !writeScriptReports(fs.s, a, results, time.Since(start)) || failed > 0 {
		return exitRejected
	}
	return exitOK
}

// check checks the script-mode flags against each other and the files,
// returning -B's buffers (for -b) or a usage error.
func (a *scriptFlags) check(args []string) (extract []amber.BufferID, msg string) {
	switch {
	case len(args) == 0:
		return nil, "no scripts given"
	case *a.jobs < 1:
		return nil, "-j must be at least 1"
	case *a.dumpFile == "" && len(a.dumpBuffers) > 0:
		return nil, "-B names a buffer for -b FILE, which is not given"
	case *a.dumpFile == "":
		return nil, ""
	case *a.parseOnly:
		return nil, "-b dumps buffers after a run, and -p runs nothing"
	case len(args) != 1:
		return nil, "-b dumps the buffers of one script; give one SCRIPT"
	}
	ids := a.dumpBuffers
	if len(ids) == 0 {
		ids = []string{"0:0"} // amber's default: the first pipeline's 0:0
	}
	for _, v := range ids {
		id, err := amber.ParseBufferID(v)
		if err != nil {
			return nil, "-B " + err.Error()
		}
		extract = append(extract, id)
	}
	return extract, ""
}

// reportRuns prints each script's result in path order as it finishes
// (with a progress line on a terminal) and returns the results and how
// many failed.
func reportRuns(stdout io.Writer, a *scriptFlags, paths []string, runs *amber.Runs) ([]amber.Result, int) {
	term := isTerminal(stdout) && !*a.json
	failed := 0
	for i := range paths {
		if term {
			waitShowing(stdout, runs.Done(i), fmt.Sprintf("[%d/%d] %s", i, len(paths), paths[i]))
		}
		r := runs.Result(i)
		if r.Status == amber.Fail {
			failed++
		}
		if *a.json {
			writeJSONResult(stdout, r)
			continue
		}
		stdout.Write(runs.Log(i))
		printResult(stdout, r, *a.logCommands)
	}
	return runs.Wait(), failed
}

// waitShowing waits for done, showing progress on the terminal meanwhile.
func waitShowing(w io.Writer, done <-chan struct{}, progress string) {
	t := time.NewTicker(200 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-done:
			fmt.Fprint(w, "\r\033[K")
			return
		case <-t.C:
			fmt.Fprintf(w, "\r\033[K%s", progress)
		}
	}
}

// countStatus counts the results with status st.
func countStatus(results []amber.Result, st amber.Status) int {
	n := 0
	for _, r := range results {
		if r.Status == st {
			n++
		}
	}
	return n
}

// writeScriptReports writes what the flags ask for after the summary: the
// -b buffer dump, --stats, --junit and --html. It reports whether all
// were written (and every -B buffer found).
func writeScriptReports(s stdio, a *scriptFlags, results []amber.Result, total time.Duration) bool {
	ok := true
	report := func(err error) {
		if err != nil {
			fmt.Fprintf(s.err, "spvx run: %v\n", err)
			ok = false
		}
	}
	// A script that did not parse has no buffers, and amber then writes
	// no file.
	if *a.dumpFile != "" && results[0].Extractions != nil {
		file, found := dumpFile(results[0].Extractions, s.err)
		ok = ok && found
		report(os.WriteFile(*a.dumpFile, file, 0o644))
	}
	if *a.stats {
		w := s.out
		if *a.json {
			w = s.err
		}
		printStats(w, results)
	}
	if *a.junit != "" {
		report(writeJUnit(*a.junit, results, total))
	}
	if *a.html != "" {
		report(writeHTMLReport(*a.html, results, total))
	}
	return ok
}

// maxReportSource bounds the script text a report shows.
const maxReportSource = 256 << 10

func writeHTMLReport(path string, results []amber.Result, total time.Duration) error {
	rep := diagram.Report{Title: fmt.Sprintf("spvx run: %d scripts", len(results)), Seconds: total.Seconds()}
	for _, r := range results {
		sc := diagram.Script{Path: r.Path, Status: statusWord(r.Status), Seconds: r.Elapsed.Seconds(), Reason: r.Reason}
		if b, err := readHead(r.Path, maxReportSource); err == nil {
			sc.Source = string(b)
		}
		sc.Failure = r.Failure
		rep.Scripts = append(rep.Scripts, sc)
	}
	var b bytes.Buffer
	if err := diagram.WriteRunReport(&b, rep); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// readHead reads at most limit bytes of a regular file, marking a cut; a
// script path that has become a FIFO is refused, not waited on.
func readHead(path string, limit int64) ([]byte, error) {
	f, _, err := boundedread.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if int64(len(b)) > limit {
		b = append(b[:limit], "\n[... cut at 256 KiB]"...)
	}
	return b, err
}

func defaultCacheDir() string {
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "spvx", "glsl")
}

// findScripts expands the arguments: files as given, directories searched
// (sorted) for *.amber and *.vkscript.
func findScripts(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			out = append(out, a)
			continue
		}
		var found []string
		err = filepath.WalkDir(a, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !e.IsDir() && (strings.HasSuffix(p, ".amber") || strings.HasSuffix(p, ".vkscript")) {
				found = append(found, p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("%s: no .amber or .vkscript files", a)
		}
		sort.Strings(found)
		out = append(out, found...)
	}
	return out, nil
}

func printResult(w io.Writer, r amber.Result, verbose bool) {
	// Names and reasons come from the scripts: escape what a terminal
	// would act on.
	path, reason := termSafe(r.Path, false), termSafe(r.Reason, true)
	switch r.Status {
	case amber.Pass:
		note := ""
		if r.ExpectFail {
			note = " (expected failure: " + reason + ")"
		}
		fmt.Fprintf(w, "PASS %s (%.2f s)%s\n", path, r.Elapsed.Seconds(), note)
	case amber.Fail:
		fmt.Fprintf(w, "FAIL %s: %s\n", path, reason)
	default:
		fmt.Fprintf(w, "SKIP %s: %s\n", path, reason)
	}
	// Notes (what was ignored) print always, so nothing is skipped silently.
	for _, n := range r.Notes {
		fmt.Fprintf(w, "  note: %s\n", termSafe(n, true))
	}
	if verbose {
		for _, d := range r.Timed {
			fmt.Fprintf(w, "  timed execution: %.6f s\n", d.Seconds())
		}
	}
}

func statusWord(s amber.Status) string {
	switch s {
	case amber.Fail:
		return "fail"
	case amber.SkipStatus:
		return "skip"
	}
	return "pass"
}

func writeJSONResult(w io.Writer, r amber.Result) {
	b, _ := json.Marshal(struct {
		Script  string  `json:"script"`
		Status  string  `json:"status"`
		Reason  string  `json:"reason"`
		Seconds float64 `json:"seconds"`
	}{r.Path, statusWord(r.Status), r.Reason, r.Elapsed.Seconds()})
	w.Write(append(b, '\n'))
}

type junitSuite struct {
	XMLName  xml.Name    `xml:"testsuite"`
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	ClassName string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitMessage `xml:"failure,omitempty"`
	Skipped   *junitMessage `xml:"skipped,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

func writeJUnit(path string, results []amber.Result, total time.Duration) error {
	s := junitSuite{Name: "spvx run", Tests: len(results), Time: fmt.Sprintf("%.3f", total.Seconds())}
	for _, r := range results {
		c := junitCase{Name: filepath.Base(r.Path), ClassName: filepath.ToSlash(filepath.Dir(r.Path)),
			Time: fmt.Sprintf("%.3f", r.Elapsed.Seconds())}
		switch r.Status {
		case amber.Fail:
			s.Failures++
			c.Failure = &junitMessage{Message: firstLine(r.Reason), Text: r.Reason}
		case amber.SkipStatus:
			s.Skipped++
			c.Skipped = &junitMessage{Message: r.Reason}
		}
		s.Cases = append(s.Cases, c)
	}
	b, err := xml.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append([]byte(xml.Header), append(b, '\n')...), 0o644)
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func listUnsupportedMain(paths []string, w io.Writer, dev *amber.Device) int {
	n := 0
	for _, p := range paths {
		s, err := amber.ParseFile(p)
		if err != nil {
			if pe, ok := err.(*amber.Error); ok && pe.Unsupported {
				fmt.Fprintf(w, "%s: %s\n", termSafe(p, false), termSafe(pe.Msg, true))
			} else {
				fmt.Fprintf(w, "%s: does not parse: %s\n", termSafe(p, false), termSafe(err.Error(), true))
			}
			n++
			continue
		}
		if miss := amber.Unsupported(s, dev); len(miss) > 0 {
			fmt.Fprintf(w, "%s: needs %s\n", termSafe(p, false), termSafe(strings.Join(miss, ", "), true))
			n++
		}
	}
	fmt.Fprintf(w, "%d of %d scripts need what spvx lacks\n", n, len(paths))
	return exitOK
}

// printStats prints the per-script median wall time and the slowest five.
func printStats(w io.Writer, results []amber.Result) {
	if len(results) == 0 {
		return
	}
	byTime := append([]amber.Result(nil), results...)
	sort.Slice(byTime, func(i, j int) bool { return byTime[i].Elapsed > byTime[j].Elapsed })
	med := byTime[len(byTime)/2].Elapsed
	if len(byTime)%2 == 0 {
		med = (byTime[len(byTime)/2-1].Elapsed + byTime[len(byTime)/2].Elapsed) / 2
	}
	fmt.Fprintf(w, "median %.3f s per script; slowest:\n", med.Seconds())
	for _, r := range byTime[:min(5, len(byTime))] {
		fmt.Fprintf(w, "  %.3f s %s %s\n", r.Elapsed.Seconds(), r.Status, termSafe(r.Path, false))
	}
}
