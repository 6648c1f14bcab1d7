package diagram

import (
	"fmt"
	"html/template"
	"io"
	"sort"

	"spvx/amber"
)

// Script is one script of a run report.
type Script struct {
	Path    string
	Status  string // "pass", "fail" or "skip"
	Seconds float64
	Reason  string         // why it failed or was skipped
	Failure *amber.Failure // the failed check, for the report's details
	Source  string         // the script's text, shown collapsed
}

// Report is a whole run.
type Report struct {
	Title   string
	Seconds float64
	Scripts []Script
}

type reportView struct {
	Report
	Pass, Fail, Skip          int
	PassPct, FailPct, SkipPct float64
	Failures                  []int // indexes into Scripts
}

// WriteRunReport writes the report as one self-contained HTML page (no
// external assets): a summary bar, a table of the scripts that sorts by
// any column on a click, each failure's EXPECT with the values around it
// (got against wanted, the failing ones marked), and each script's text,
// collapsed. Scripts are listed failures first, then by path.
func WriteRunReport(w io.Writer, r Report) error {
	v := reportView{Report: r}
	v.Scripts = append([]Script(nil), r.Scripts...)
	rank := map[string]int{"fail": 0, "skip": 1, "pass": 2}
	sort.SliceStable(v.Scripts, func(i, j int) bool {
		a, b := v.Scripts[i], v.Scripts[j]
		if rank[a.Status] != rank[b.Status] {
			return rank[a.Status] < rank[b.Status]
		}
		return a.Path < b.Path
	})
	for i, s := range v.Scripts {
		switch s.Status {
		case "pass":
			v.Pass++
		case "fail":
			v.Fail++
			v.Failures = append(v.Failures, i)
		default:
			v.Skip++
		}
	}
	if n := len(v.Scripts); n > 0 {
		v.PassPct = 100 * float64(v.Pass) / float64(n)
		v.FailPct = 100 * float64(v.Fail) / float64(n)
		v.SkipPct = 100 * float64(v.Skip) / float64(n)
	}
	return reportTemplate.Execute(w, v)
}

var reportTemplate = template.Must(template.New("report").Funcs(template.FuncMap{
	"secs": func(s float64) string { return fmt.Sprintf("%.3f", s) },
	"pct":  func(p float64) template.CSS { return template.CSS(fmt.Sprintf("width:%.3f%%", p)) },
	"script": func(scripts []Script, i int) Script {
		return scripts[i]
	},
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{.Title}}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
h1 { font-size: 1.4em; }
.bar { display: flex; height: 1.6em; border-radius: 4px; overflow: hidden; margin: .5em 0 1.5em; background: #eee; }
.bar div { height: 100%; }
.bar .pass { background: #4c9a2a; } .bar .fail { background: #c62828; } .bar .skip { background: #b0b0b0; }
tr.fail { background: #fff3f3; }
.counts span { margin-right: 1.5em; }
table { border-collapse: collapse; font-size: .9em; }
th, td { border-bottom: 1px solid #ddd; padding: .25em .7em; text-align: left; vertical-align: top; }
th { cursor: pointer; background: #f4f4f4; user-select: none; }
th.sorted-asc::after { content: " ▲"; } th.sorted-desc::after { content: " ▼"; }
td.status { font-weight: 600; text-transform: uppercase; }
tr.fail td.status { color: #c62828; } tr.skip td.status { color: #777; } tr.pass td.status { color: #2e7d32; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.failure { border-left: 4px solid #c62828; padding: .3em 1em; margin: 1em 0; background: #fff8f8; }
.failure code { background: #f1f1f1; padding: 0 .2em; }
table.diff td { font-family: ui-monospace, monospace; }
table.diff tr.differs td { background: #ffd9d9; font-weight: 600; }
pre { background: #f7f7f7; padding: .8em; overflow-x: auto; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
<div class="bar" id="summary-bar">
{{- if .Pass}}<div class="pass" style="{{pct .PassPct}}" title="{{.Pass}} passed"></div>{{end -}}
{{- if .Fail}}<div class="fail" style="{{pct .FailPct}}" title="{{.Fail}} failed"></div>{{end -}}
{{- if .Skip}}<div class="skip" style="{{pct .SkipPct}}" title="{{.Skip}} skipped"></div>{{end -}}
</div>
<p class="counts"><span id="count-pass">{{.Pass}} passed</span><span id="count-fail">{{.Fail}} failed</span><span id="count-skip">{{.Skip}} skipped</span><span>{{len .Scripts}} scripts in {{secs .Seconds}} s</span></p>

<h2>Scripts</h2>
<table id="scripts">
<thead><tr><th data-type="text">status</th><th data-type="text">script</th><th data-type="num">seconds</th><th data-type="text">reason</th></tr></thead>
<tbody>
{{- range $i, $s := .Scripts}}
<tr class="{{$s.Status}}"><td class="status">{{$s.Status}}</td><td><a href="#script-{{$i}}">{{$s.Path}}</a></td><td class="num">{{secs $s.Seconds}}</td><td>{{$s.Reason}}</td></tr>
{{- end}}
</tbody>
</table>

{{if .Failures}}<h2>Failures</h2>{{end}}
{{- range .Failures}}{{$s := script $.Scripts .}}
<div class="failure" id="failure-{{.}}">
<h3>{{$s.Path}}</h3>
{{- with $s.Failure}}
<p><code>{{.File}}:{{.Line}}</code>: <code>{{.Command}}</code></p>
{{- if .Msg}}<p class="message">{{.Msg}}</p>{{end}}
{{- if .Got}}<p>buffer <code>{{.Buffer}}</code>: got <code class="got">{{.Got}}</code>, want <code class="want">{{.Op}} {{.Want}}</code>{{if .Tolerance}} (tolerance {{.Tolerance}}){{end}}</p>{{end}}
{{- if .Context}}
<table class="diff">
<thead><tr><th>index</th><th>element</th><th>component</th><th>got</th><th>want</th></tr></thead>
<tbody>
{{- range .Context}}
<tr{{if .Differs}} class="differs"{{end}}><td class="num">{{.Index}}</td><td class="num">{{.Element}}</td><td class="num">{{.Component}}</td><td>{{.Got}}</td><td>{{.Want}}</td></tr>
{{- end}}
</tbody>
</table>
{{- end}}
{{- else}}
<p>{{$s.Reason}}</p>
{{- end}}
</div>
{{- end}}

<h2>Script texts</h2>
{{- range $i, $s := .Scripts}}
<details id="script-{{$i}}"><summary>{{$s.Status}}: {{$s.Path}}</summary>
<pre>{{$s.Source}}</pre>
</details>
{{- end}}
<script>
// Sort the scripts table by the clicked column; a second click reverses.
document.querySelectorAll("#scripts th").forEach(function (th, col) {
  th.addEventListener("click", function () {
    var tbody = document.querySelector("#scripts tbody");
    var asc = !th.classList.contains("sorted-asc");
    document.querySelectorAll("#scripts th").forEach(function (h) { h.classList.remove("sorted-asc", "sorted-desc"); });
    th.classList.add(asc ? "sorted-asc" : "sorted-desc");
    var num = th.dataset.type === "num";
    var rows = Array.prototype.slice.call(tbody.rows);
    rows.sort(function (a, b) {
      var x = a.cells[col].textContent, y = b.cells[col].textContent;
      var c = num ? parseFloat(x) - parseFloat(y) : x.localeCompare(y);
      return asc ? c : -c;
    });
    rows.forEach(function (r) { tbody.appendChild(r); });
  });
});
</script>
</body>
</html>
`))
