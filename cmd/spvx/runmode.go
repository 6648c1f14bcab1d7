package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"

	"spvx/amber"
	"spvx/amber/interpengine"
)

// spvx run has two modes: kernel mode runs one SPIR-V module's compute
// entry point, script mode runs Amber scripts. Both modes' flags live in
// one flag set, so the command line parses the same whatever its order;
// the mode is then decided once, from the positional arguments or
// --kernel/--script, and a flag of the other mode is a usage error.

const runUsage = `usage: spvx run [flags] KERNEL.spv|KERNEL.spvasm
       spvx run [flags] SCRIPT.amber|SCRIPT.vkscript|DIR...

Kernel mode runs a compute entry point of one SPIR-V module (binary, hex
dump or assembly text) on the CPU executor. Script mode runs Amber scripts
(AmberScript and VkScript compute tests; a DIR is searched for *.amber and
*.vkscript) and reports each as amber does: PASS, FAIL (with the first
failed EXPECT) or SKIP (with what is missing); exit status 1 when any
fails. The mode follows the files; --kernel or --script forces it.
Script mode takes amber's flags with amber's meaning (docs/run.md).
`

// runMode is what spvx run runs.
type runMode int

const (
	kernelMode runMode = iota
	scriptMode
)

// runFlags are spvx run's flags, in three groups for the help page and for
// telling a flag of the wrong mode.
type runFlags struct {
	kernel  kernelFlags
	script  scriptFlags
	timeout *time.Duration
	version *bool
	forceK  *bool
	forceS  *bool
	// group maps each flag name to its heading: kernel, script or both.
	group map[string]runMode
	both  map[string]bool
}

// kernelFlags are kernel mode's flags.
type kernelFlags struct {
	entry, groups, push, global, local, offset *string
	matrixAccumulate, coopMatLayout            *string
	sgSize                                     *int
	trace, shuffle, separate, strict, listArgs *bool
	robustImages                               *bool
	maxSteps, seed                             *int64
	buffers, images, prints, args, specs       listFlag
	samplers                                   listFlag
}

// scriptFlags are script mode's flags.
type scriptFlags struct {
	jobs                                        *int
	logCommands, json, listUnsupported, devInfo *bool
	stats, parseOnly                            *bool
	noValidate                                  bool
	quiet                                       bool
	targetEnv, engineVersion                    string
	junit, html, cache, dumpFile                *string
	dumpBuffers                                 listFlag
}

// declareRunFlags declares spvx run's flags on fs.
func declareRunFlags(fs *cmdFlags) *runFlags {
	r := &runFlags{group: map[string]runMode{}, both: map[string]bool{}}
	mark := func(m runMode) {
		fs.VisitAll(func(f *flag.Flag) {
			if _, ok := r.group[f.Name]; !ok && !r.both[f.Name] {
				r.group[f.Name] = m
			}
		})
	}
	r.timeout = fs.Duration("timeout", defaultRunTimeout, "stop a dispatch (script mode: fail a script) that runs longer than `D` (0 for no limit)")
	r.version = fs.Bool("V", false, "print the version and exit (amber's -V)")
	fs.BoolVar(r.version, "version", false, "print the version and exit")
	r.forceK = fs.Bool("kernel", false, "kernel mode, whatever the file is called")
	r.forceS = fs.Bool("script", false, "script mode, whatever the files are called")
	fs.VisitAll(func(f *flag.Flag) { r.both[f.Name] = true })
	declareKernelFlags(fs, &r.kernel)
	// The executor's choices that are not the module's serve a script's
	// dispatches as much as a module's: an Amber script that depends on
	// the order of subgroups or on where a cooperative matrix's elements
	// live is as much worth exposing.
	for _, n := range []string{"shuffle", "seed", "coopmat-layout"} {
		r.both[n] = true
	}
	mark(kernelMode)
	declareScriptFlags(fs, &r.script)
	mark(scriptMode)
	fs.helpFunc = r.help(fs)
	return r
}

// declareKernelFlags declares kernel mode's flags into k.
func declareKernelFlags(fs *cmdFlags, k *kernelFlags) {
	k.entry = fs.String("entry", "", "entry point `NAME` (default: the only or first GLCompute/Kernel entry point)")
	k.groups = fs.String("groups", "1,1,1", "GLCompute: workgroups `X,Y,Z`")
	k.sgSize = fs.Int("subgroup", 0, "subgroup size `N` (1..128; default: the entry point's OpExecutionMode SubgroupSize, else 32)")
	k.push = fs.String("push", "", "GLCompute: push-constant data `FILE`")
	k.global = fs.String("global", "", "Kernel: global size `X,Y,Z`")
	k.local = fs.String("local", "", "Kernel: local size `X,Y,Z` (default: the module's, or 64)")
	k.offset = fs.String("offset", "", "Kernel: global offset `X,Y,Z`")
	k.trace = fs.Bool("trace", false, "print, per subgroup, the executed blocks and active masks (to stderr)")
	k.maxSteps = fs.Int64("max-steps", 0, "work budget `N` (interp.Options.MaxSteps: instructions, components × invocations, bytes moved; 0 default 2^33, -1 unlimited)")
	k.shuffle = fs.Bool("shuffle", false, "permute workgroup and subgroup order (with --seed)")
	k.seed = fs.Int64("seed", 1, "seed for --shuffle and --coopmat-layout shuffle")
	k.separate = fs.Bool("separate-subgroups", false, "run each subgroup on its own, never a workgroup's subgroups as one wide group")
	k.listArgs = fs.Bool("list-args", false, "print each compute entry point's parameters (Kernel) or bindings and push constants (GLCompute), with the flag that gives each, and run nothing (with --entry: that one)")
	k.strict = fs.Bool("strict", false, "fault on undefined behaviour that otherwise gets a value")
	k.matrixAccumulate = fs.String("matrix-accumulate", "ordered", "how matrix instructions sum float products: `ordered` (in order of k in float32, rounding each step) or exact (rounded once)")
	k.coopMatLayout = fs.String("coopmat-layout", "linear", "where a cooperative matrix's elements live among a subgroup's invocations: `linear` (element e of the row-major matrix in component e/S of invocation e%S) or shuffle (a permutation drawn from --seed, exposing programs that depend on one layout)")
	k.robustImages = fs.Bool("robust-image-access", false, "GLCompute: image accesses out of bounds read zeros and write nothing (Vulkan's robustImageAccess) instead of faulting")
	fs.Var(&k.buffers, "buffer", "GLCompute: `S:B=FILE[:SIZE]`: a storage/uniform buffer read from FILE (or SIZE zero bytes), written back after the run (repeatable)")
	fs.Var(&k.images, "image", "GLCompute: `S:B=FILE:FORMAT:W[xH[xD]][:LAYERS[:LEVELS[:SAMPLES]]]`: a storage or sampled image or texel buffer of FORMAT (SPIR-V's name: Rgba8, R32ui...; for sampled images also Srgba8, Bgra8, Sbgra8, D16, D32f) whose texels, tightly packed, level 0 first, a multisampled texel's samples together, are read from FILE (zeros if FILE does not exist) and written back after the run (repeatable)")
	fs.Var(&k.samplers, "sampler", "GLCompute: `S:B=KEY=VALUE,...`: a sampler, or a combined image sampler's sampler half (with --image on the same S:B); keys: filter, mag_filter, min_filter (nearest, linear), mipmap_mode, address (all three), address_mode_u/v/w (repeat, mirrored_repeat, clamp_to_edge, clamp_to_border, mirror_clamp_to_edge), border_color (float|int_transparent_black, float|int_opaque_black, float|int_opaque_white), min_lod, max_lod, lod=MIN:MAX, mip_lod_bias, compare_op (never, less, equal, less_or_equal, greater, not_equal, greater_or_equal, always; enables comparison), and the words unnormalized_coords, normalized_coords; unset fields are interp.Sampler's zero value (nearest, repeat, max_lod 0) (repeatable)")
	fs.Var(&k.prints, "print", "`S:B:TYPE` (Kernel: N:TYPE): print a buffer after the run as u8..u64, i8..i64, f16, f32, f64 or hex, each line labelled with the index of its first element (repeatable)")
	fs.Var(&k.args, "arg", "Kernel: argument `N=FILE|FILE:SIZE|TYPE:VALUE|local:SIZE` (repeatable)")
	fs.Var(&k.specs, "spec", "specialization constant `ID=VALUE` (raw bits, or a float with a '.') (repeatable)")
}

// declareScriptFlags declares script mode's flags into a.
func declareScriptFlags(fs *cmdFlags, a *scriptFlags) {
	a.jobs = fs.Int("j", runtime.GOMAXPROCS(0), "run `N` scripts at once")
	a.logCommands = fs.Bool("log-commands", false, "print every command of a script as it runs (spvx's old -v)")
	a.json = fs.Bool("json", false, `write one JSON object per script, one per line: {"script", "status", "reason", "seconds"}`)
	a.junit = fs.String("junit", "", "also write a JUnit XML report to `FILE`")
	a.html = fs.String("html", "", "also write a self-contained HTML report to `FILE`: summary, sortable table, each failure's values, the scripts' texts")
	a.listUnsupported = fs.Bool("list-unsupported", false, "name, per script, what it needs that spvx lacks (runs nothing)")
	a.devInfo = fs.Bool("device-info", false, "print the declared device: features, extensions, properties, limits, subgroup sizes")
	fs.StringVar(&a.targetEnv, "target-env", "", "compile every shader for `ENV` (spv1.0-1.6, vulkan1.0-1.3), overriding TARGET_ENV and the CTS folder rules")
	fs.StringVar(&a.targetEnv, "t", "", "`ENV`: amber's name for --target-env")
	a.stats = fs.Bool("stats", false, "after the summary, print the per-script median and the slowest five")
	fs.BoolVar(&a.noValidate, "no-validate", false, "do not validate compiled shaders with spvx val (amber validates with spirv-val)")
	fs.BoolVar(&a.noValidate, "disable-spirv-val", false, "amber's name for --no-validate")
	a.cache = fs.String("cache", defaultCacheDir(), "keep compiled GLSL in `DIR` across runs (\"\" for none)")
	a.parseOnly = fs.Bool("p", false, "parse each script and compile (and validate) its shaders; run nothing (amber's -p)")
	fs.BoolFunc("q", "no summary line (amber's -q)", func(v string) error { return setTo(&a.quiet, v, true) })
	fs.BoolFunc("s", "print the summary line, the default (amber's -s; the last of -q and -s wins)", func(v string) error { return setTo(&a.quiet, v, false) })
	fs.BoolFunc("d", "amber's \"disable validation layers\": spvx has none, so it changes nothing", func(v string) error { return setTo(new(bool), v, true) })
	fs.Func("v", "amber's engine version `MAJOR.MINOR` (e.g. 1.1): checked; the CPU device has one version", func(v string) error {
		a.engineVersion = v
		return checkVersionForm(v)
	})
	a.dumpFile = fs.String("b", "", "after the run, write the buffers -B names to `FILE` as amber does: the name, then hex bytes (one script only)")
	fs.Var(&a.dumpBuffers, "B", "buffer to dump with -b: the one `[PIPELINE:][SET:]BINDING` binds (default: the first pipeline's 0:0), as the script left it (repeatable)")
}

// help returns spvx run's help page: both modes' flags, under headings.
func (r *runFlags) help(fs *cmdFlags) func(io.Writer) {
	return func(w io.Writer) {
		fmt.Fprint(w, runUsage)
		for _, h := range []struct {
			title string
			keep  func(string) bool
		}{
			{"Kernel mode flags", func(n string) bool { g, ok := r.group[n]; return ok && g == kernelMode }},
			{"Script mode flags (amber's where amber has one; see docs/run.md)", func(n string) bool { g, ok := r.group[n]; return ok && g == scriptMode }},
			{"Both modes", func(n string) bool { return r.both[n] }},
		} {
			fmt.Fprintf(w, "\n%s:\n", h.title)
			fs.printFlags(w, h.keep)
		}
		fmt.Fprintln(w, "  -h, --help\n    \tprint this help")
	}
}

// mode decides what the positional arguments ask for: --kernel or
// --script if given; else script mode when a file is named .amber or
// .vkscript, or is a directory, or when a script-only flag asks for no
// file (--device-info); else kernel mode, unless the one file given is a
// script by its content (neither a module nor a hex dump, with Amber's
// keywords).
func (r *runFlags) mode(fs *cmdFlags, pos []string) (runMode, error) {
	switch {
	case *r.forceK && *r.forceS:
		return 0, fmt.Errorf("--kernel and --script exclude each other")
	case *r.forceK:
		return kernelMode, nil
	case *r.forceS:
		return scriptMode, nil
	case len(pos) == 0 && *r.script.devInfo:
		return scriptMode, nil
	case len(pos) == 0:
		return 0, fmt.Errorf("no input file: give a module (kernel mode) or Amber scripts")
	}
	var scripts []string
	for _, p := range pos {
		if isScriptPath(p) {
			scripts = append(scripts, p)
		}
	}
	switch {
	case len(scripts) == len(pos):
		return scriptMode, nil
	case len(scripts) > 0:
		return 0, fmt.Errorf("%s is a script, but %s is not: give scripts (or --script) or one module", scripts[0], nonScript(pos))
	case len(pos) == 1 && isScriptText(pos[0]):
		return scriptMode, nil
	case len(pos) > 1:
		return 0, fmt.Errorf("kernel mode runs one module, got %d files (scripts end in .amber or .vkscript; or give --script)", len(pos))
	}
	return kernelMode, nil
}

// isScriptPath reports whether p names Amber scripts by its name: a
// .amber or .vkscript file, or a directory.
func isScriptPath(p string) bool {
	if strings.HasSuffix(p, ".amber") || strings.HasSuffix(p, ".vkscript") {
		return true
	}
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// nonScript returns the first of pos that isScriptPath rejects.
func nonScript(pos []string) string {
	for _, p := range pos {
		if !isScriptPath(p) {
			return p
		}
	}
	return ""
}

// isScriptText reports whether the regular file p begins like an Amber
// script rather than a module or its text: spvx run takes a script under
// any name, as amber does.
func isScriptText(p string) bool {
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return false
	}
	head, _ := bufio.NewReader(f).Peek(4096)
	return inputKindOf(head) == kindText && looksLikeAmber(head)
}

// otherModeFlag returns the first flag given that belongs to the other
// mode, or "".
func (r *runFlags) otherModeFlag(fs *cmdFlags, m runMode) string {
	bad := ""
	fs.Visit(func(f *flag.Flag) {
		if g, ok := r.group[f.Name]; ok && g != m && bad == "" {
			bad = f.Name
		}
	})
	return bad
}

func runRun(args []string, s stdio) int {
	return runMain(args, s, interpengine.Engine{})
}

// runMain is spvx run over an amber.Engine (the executor in the spvx
// binary, a fake in tests) for script mode.
func runMain(args []string, s stdio, engine amber.Engine) int {
	fs := newFlagSet("run", runUsage, s)
	r := declareRunFlags(fs)
	pos, code, ok := fs.parse(args)
	if !ok {
		return code
	}
	if *r.version {
		printVersion(s.out)
		return exitOK
	}
	m, err := r.mode(fs, pos)
	if err != nil {
		return fs.usageErr(err.Error())
	}
	if f := r.otherModeFlag(fs, m); f != "" {
		what := "kernel mode (a module)"
		if m == scriptMode {
			what = "script mode (Amber scripts)"
		}
		return fs.usageErr(fmt.Sprintf("%s is not a flag of %s", dash(f), what))
	}
	if m == scriptMode {
		if engine, err = r.kernel.scriptEngine(engine); err != nil {
			return fs.usageErr(err.Error())
		}
		return runScriptFiles(fs, &r.script, *r.timeout, pos, engine)
	}
	if len(pos) != 1 {
		return fs.usageErr("kernel mode runs one module")
	}
	return runKernel(fs, &r.kernel, *r.timeout, pos[0])
}

// scriptEngine gives the executor the flags both modes share (--shuffle,
// --seed, --coopmat-layout); another engine (a test's fake) is kept as it
// is.
func (k *kernelFlags) scriptEngine(engine amber.Engine) (amber.Engine, error) {
	e, ok := engine.(interpengine.Engine)
	if !ok {
		return engine, nil
	}
	layout, err := parseCoopMatLayout(*k.coopMatLayout)
	if err != nil {
		return nil, err
	}
	e.Options.Shuffle, e.Options.Seed, e.Options.CoopMatLayout = *k.shuffle, *k.seed, layout
	return e, nil
}
