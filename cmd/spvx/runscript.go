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
func runScriptFiles(fs *cmdFlags, a *scriptFlags, timeoutD time.Duration, args []string, engine amber.Engine) int {
	stdout, stderr := fs.s.out, fs.s.err
	jobs, verbose, jsonOut, junit, htmlOut := a.jobs, a.logCommands, a.json, a.junit, a.html
	listUnsupported, deviceInfo, stats := a.listUnsupported, a.devInfo, a.stats
	timeout := &timeoutD
	dev := amber.DefaultDevice()
	if *deviceInfo {
		dev.Print(stdout)
		return exitOK
	}
	if len(args) == 0 {
		return fs.usageErr("no scripts given")
	}
	if *jobs < 1 {
		return fs.usageErr("-j must be at least 1")
	}
	if *a.dumpFile != "" && len(args) != 1 {
		return fs.usageErr("-b dumps the buffers of one script; give one SCRIPT")
	}
	if *a.dumpFile == "" && len(a.dumpBuffers) > 0 {
		return fs.usageErr("-B names a buffer for -b FILE, which is not given")
	}
	dumps, err := parseDumpBuffers(a.dumpBuffers)
	if err != nil {
		return fs.usageErr(err.Error())
	}
	paths, err := findScripts(args)
	if err != nil {
		fmt.Fprintf(stderr, "spvx run: %v\n", err)
		return exitRejected
	}
	if *listUnsupported {
		return listUnsupportedMain(paths, stdout, dev)
	}
	if *a.parseOnly {
		return parseScripts(paths, stderr)
	}
	var capture *captureEngine
	if *a.dumpFile != "" {
		capture = &captureEngine{Engine: engine, want: dumps}
		engine = capture
	}
	opt := amber.Options{Engine: engine, Device: dev, NoValidate: a.noValidate, Timeout: *timeout,
		Compile: amber.CompileOptions{TargetEnv: a.targetEnv, CacheDir: *a.cache}}
	if *verbose && !*jsonOut {
		opt.Log = stdout // with -j above 1, RunAll keeps each script's log for runs.Log
	}
	start := time.Now()
	runs := amber.RunAll(context.Background(), paths, opt, *jobs)
	term := isTerminal(stdout) && !*jsonOut
	var pass, fail, skip int
	for i := range paths {
		if term {
			// Wait for the script in order, showing progress meanwhile.
			t := time.NewTicker(200 * time.Millisecond)
		wait:
			for {
				select {
				case <-runs.Done(i):
					break wait
				case <-t.C:
					fmt.Fprintf(stdout, "\r\033[K[%d/%d] %s", i, len(paths), paths[i])
				}
			}
			t.Stop()
			fmt.Fprint(stdout, "\r\033[K")
		}
		r := runs.Result(i)
		switch r.Status {
		case amber.Pass:
			pass++
		case amber.Fail:
			fail++
		default:
			skip++
		}
		if *jsonOut {
			writeJSONResult(stdout, r)
			continue
		}
		stdout.Write(runs.Log(i))
		printResult(stdout, r, *verbose)
	}
	results := runs.Wait()
	summary := fmt.Sprintf("%d passed, %d failed, %d skipped (%.2f s)", pass, fail, skip, time.Since(start).Seconds())
	switch {
	case a.quiet:
	case *jsonOut:
		fmt.Fprintln(stderr, summary)
	default:
		fmt.Fprintln(stdout, summary)
	}
	if capture != nil {
		if err := os.WriteFile(*a.dumpFile, capture.dump(), 0o644); err != nil {
			fmt.Fprintf(stderr, "spvx run: %v\n", err)
			return exitRejected
		}
	}
	if *stats {
		w := stdout
		if *jsonOut {
			w = stderr
		}
		printStats(w, results)
	}
	if *junit != "" {
		if err := writeJUnit(*junit, results, time.Since(start)); err != nil {
			fmt.Fprintf(stderr, "spvx run: %v\n", err)
			return exitRejected
		}
	}
	if *htmlOut != "" {
		if err := writeHTMLReport(*htmlOut, results, time.Since(start)); err != nil {
			fmt.Fprintf(stderr, "spvx run: %v\n", err)
			return exitRejected
		}
	}
	if fail > 0 {
		return exitRejected
	}
	return exitOK
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
