package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime/debug"

	"spvx/asm"
	"spvx/spirv"
	"spvx/val"
)

const valUsage = `usage: spvx val [options] FILE...

Validates SPIR-V modules as spirv-val does, with the same flags and the
same output: "error: line N: <message>", then the instruction. A FILE may
be a binary, a hex dump, or .spvasm text (assembled first); - reads
standard input, as does no FILE at all. With several files, each file's report is preceded by
"FILE:". Exit status 1 if any module is invalid.

Options (spirv-val's):
  --target-env ENV                   ` + "spv1.0 … spv1.6 (default spv1.6), vulkan1.0 … vulkan1.4,\n" +
	`                                     vulkan1.1spv1.4, opencl1.2 … opencl2.2[embedded], opengl4.0 … opengl4.5
  --max-struct-members N, --max-struct-depth N, --max-local-variables N,
  --max-global-variables N, --max-switch-branches N, --max-function-args N,
  --max-control-flow-nesting-depth N, --max-access-chain-indexes N, --max-id-bound N
  --relax-logical-pointer, --relax-block-layout, --uniform-buffer-standard-layout,
  --scalar-block-layout, --workgroup-scalar-block-layout, --skip-block-layout,
  --relax-struct-store, --allow-localsizeid, --allow-offset-texture-operand,
  --allow-vulkan-32-bit-bitwise, --before-hlsl-legalization
  --buffer-descriptor-layout SIZE:ALIGN, --image-descriptor-layout SIZE:ALIGN,
  --sampler-descriptor-layout SIZE:ALIGN, --tensor-descriptor-layout SIZE:ALIGN
  --version      print the version and the target environments
  -h, --help     print this help
Options (spvx's):
  --all          report every error of a module, not only the first
  --json         write the diagnostics as JSON on standard output
  --spec-strict  also enforce the FP8/OCP extension spec texts where spirv-val is looser
`

// valDiag is one --json diagnostic.
type valDiag struct {
	File    string `json:"file"`
	Inst    int    `json:"inst"`          // instruction index, -1 for the module
	Word    int    `json:"word"`          // word offset, header included
	Line    int    `json:"line"`          // spirv-val's "line N"
	Pos     string `json:"pos,omitempty"` // FILE:LINE:COL in assembly text
	Message string `json:"message"`
	VUID    string `json:"vuid,omitempty"`
	Text    string `json:"instruction,omitempty"`
}

func runVal(args []string, s stdio) int {
	// A validation allocates a few times the module's size, all of it
	// live until the end: collecting it early is wasted work in a
	// short-lived process, so the collector runs less often (3% of
	// spvx val big.spv).
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	fs := newFlagSet("val", valUsage, s)
	v := declareValFlags(fs)
	files, code, ok := fs.parse(args)
	if !ok {
		return code
	}
	if *v.version {
		printValVersion(s.out)
		return exitOK
	}
	e, err := val.ParseEnv(*v.env)
	if err != nil {
		return fs.usageErr(err.Error())
	}
	v.opts.Env = e
	if v.opts.BeforeHLSLLegalization {
		v.opts.RelaxLogicalPointer = true
	}
	if len(files) == 0 {
		files = []string{"-"} // spirv-val reads standard input without a file
	}
	out := bufio.NewWriter(s.err)
	defer out.Flush()
	status := exitOK
	var diags []valDiag
	for _, name := range files {
		d, ok := v.validateFile(name, len(files) > 1, out, s)
		diags = append(diags, d...)
		if !ok {
			status = exitRejected
		}
	}
	if *v.json {
		writeValJSON(s, diags)
	}
	return status
}

// valFlags are spvx val's flags: spirv-val's options and spvx's own.
type valFlags struct {
	opts               val.Options
	env                *string
	version, all, json *bool
}

// declareValFlags declares spvx val's flags (their help is valUsage).
func declareValFlags(fs *cmdFlags) *valFlags {
	v := &valFlags{}
	v.env = fs.String("target-env", "spv1.6", "")
	lim := &v.opts.Limits
	for _, l := range []struct {
		name string
		p    *uint32
	}{
		{"max-struct-members", &lim.MaxStructMembers}, {"max-struct-depth", &lim.MaxStructDepth},
		{"max-local-variables", &lim.MaxLocalVariables}, {"max-global-variables", &lim.MaxGlobalVariables},
		{"max-switch-branches", &lim.MaxSwitchBranches}, {"max-function-args", &lim.MaxFunctionArgs},
		{"max-control-flow-nesting-depth", &lim.MaxControlFlowNestingDepth},
		{"max-access-chain-indexes", &lim.MaxAccessChainIndexes}, {"max-id-bound", &lim.MaxIDBound},
	} {
		fs.Func(l.name, "", func(s string) (err error) { *l.p, err = parsePositive(s); return err })
	}
	o := &v.opts
	for name, p := range map[string]*bool{
		"relax-logical-pointer": &o.RelaxLogicalPointer, "relax-block-layout": &o.RelaxBlockLayout,
		"uniform-buffer-standard-layout": &o.UniformBufferStandardLayout, "scalar-block-layout": &o.ScalarBlockLayout,
		"workgroup-scalar-block-layout": &o.WorkgroupScalarBlockLayout, "skip-block-layout": &o.SkipBlockLayout,
		"relax-struct-store": &o.RelaxStructStore, "allow-localsizeid": &o.AllowLocalSizeID,
		"before-hlsl-legalization": &o.BeforeHLSLLegalization, "allow-offset-texture-operand": &o.AllowOffsetTextureOperand,
		"allow-vulkan-32-bit-bitwise": &o.AllowVulkan32BitBitwise, "all": &o.All, "spec-strict": &o.SpecStrict,
	} {
		fs.BoolVar(p, name, false, "")
	}
	for _, l := range []struct {
		name string
		p    *val.DescriptorLayout
	}{
		{"buffer-descriptor-layout", &o.BufferDescriptorLayout}, {"image-descriptor-layout", &o.ImageDescriptorLayout},
		{"sampler-descriptor-layout", &o.SamplerDescriptorLayout}, {"tensor-descriptor-layout", &o.TensorDescriptorLayout},
	} {
		fs.Func(l.name, "", func(s string) error {
			size, align, err := parseSizeAlign(s)
			*l.p = val.DescriptorLayout{Size: size, Align: align}
			return err
		})
	}
	v.version = fs.Bool("version", false, "")
	v.json = fs.Bool("json", false, "")
	return v
}

// printValVersion is val --version: the build, then the target
// environments, as spirv-val --version lists them.
func printValVersion(w io.Writer) {
	printVersion(w)
	fmt.Fprintln(w, "Targets:")
	for _, name := range val.EnvNames() {
		e, _ := val.ParseEnv(name)
		fmt.Fprintf(w, "  %s\n", e.Description())
	}
}

// validateFile validates one file, printing its errors to out as
// spirv-val does (after "FILE:" when there are several files), or, with
// --json, returning them. ok is false when the module is not valid.
func (v *valFlags) validateFile(name string, several bool, out io.Writer, s stdio) (diags []valDiag, ok bool) {
	m, text, err := loadValModule(name, *v.env, s)
	if err != nil {
		if *v.json {
			return []valDiag{{File: name, Inst: -1, Message: err.Error()}}, false
		}
		if several {
			fmt.Fprintf(out, "%s:\n", name)
		}
		if d, ok := val.FromDecodeError(err); ok {
			fmt.Fprintf(out, "error: line %d: %s\n", d.Line(), d.Msg)
		} else {
			fmt.Fprintf(out, "error: %v\n", err)
		}
		return nil, false
	}
	verr := val.Validate(m, v.opts)
	if verr == nil {
		return nil, true
	}
	var list val.ErrorList
	if !errors.As(verr, &list) {
		fmt.Fprintf(out, "error: %v\n", verr)
		return nil, false
	}
	texts := val.ErrorTexts(m, list)
	where := instructionPlaces(m, text)
	if several && !*v.json {
		fmt.Fprintf(out, "%s:\n", name)
	}
	for k, d := range list {
		at := ""
		if where != nil && d.Inst >= 0 && d.Inst < len(where) {
			at = fmt.Sprintf("%s:%d:%d", name, where[d.Inst].line, where[d.Inst].col)
		}
		if *v.json {
			diags = append(diags, valDiag{File: name, Inst: d.Inst, Word: d.Word, Line: d.Line(),
				Pos: at, Message: d.Msg, VUID: d.VUID, Text: texts[k]})
			continue
		}
		printValError(out, d, texts[k], at)
	}
	return diags, false
}

// writeValJSON writes --json's diagnostics (an empty list for valid
// modules) to standard output.
func writeValJSON(s stdio, diags []valDiag) {
	if diags == nil {
		diags = []valDiag{}
	}
	enc := json.NewEncoder(s.out)
	enc.SetIndent("", "  ")
	if err := enc.Encode(diags); err != nil {
		fmt.Fprintf(s.err, "spvx val: %v\n", err)
	}
}

// printValError prints one diagnostic as spirv-val does ("error: line N",
// N the instruction's index), or, when the input was assembly text, with
// the instruction's place in the text, FILE:LINE:COL, as compilers do.
func printValError(w io.Writer, d val.Error, text, at string) {
	if at != "" {
		fmt.Fprintf(w, "%s: error: %s\n", at, d.Error())
	} else {
		fmt.Fprintf(w, "error: line %d: %s\n", d.Line(), d.Error())
	}
	if d.Inst >= 0 {
		fmt.Fprintf(w, "  %s\n\n", text)
	}
}

// loadValModule reads and decodes one input of spvx val, whatever its
// kind (a binary, a hex dump, or assembly text, assembled first). For
// text it also returns the text, so diagnostics can name FILE:LINE:COL
// (see instructionPlaces); nil otherwise.
func loadValModule(name, env string, s stdio) (*spirv.Module, []byte, error) {
	// Not released: the decoded module may view the bytes in place, and
	// the caller keeps it; a mapping lasts until spvx exits.
	b, _, err := readAny(name, s)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, pathless(err))
	}
	switch inputKindOf(b) {
	case kindEmpty:
		return nil, nil, fmt.Errorf("%s: %w", name, errEmptyModule)
	case kindOther:
		return nil, nil, fmt.Errorf("%s: this is %s", name, kindOther)
	}
	m, err := decodeInput(b, asm.Options{File: name, TargetEnv: env, LaxIDs: true})
	if err != nil || inputKindOf(b) != kindText {
		return m, nil, err
	}
	return m, b, nil
}

// instructionPlaces returns where each of m's instructions starts in its
// assembly text, or nil when the text is nil or the scan cannot follow it
// (raw !words), and diagnostics fall back to spirv-val's "line N".
func instructionPlaces(m *spirv.Module, text []byte) []textPos {
	if text == nil {
		return nil
	}
	pos := textPositions(text)
	if len(pos) != m.Len() {
		return nil
	}
	return pos
}
