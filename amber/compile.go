package amber

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"spvx/asm"
	"spvx/internal/hexdump"
)

// CompileOptions configure shader compilation.
type CompileOptions struct {
	// TargetEnv overrides every shader's TARGET_ENV and the CTS folder
	// rules (spvx run --target-env). Empty keeps them.
	TargetEnv string
	// Glslang is the glslangValidator to run; empty finds it on PATH.
	Glslang string
	// CacheDir keeps compiled GLSL by content hash across processes; empty
	// means no disk cache.
	CacheDir string
}

// SkipError is an error that makes a script SKIP rather than FAIL: the
// script is valid but needs what this machine or spvx lacks (a missing
// glslangValidator, a device feature, an unsupported command).
type SkipError struct{ Reason string }

func (e *SkipError) Error() string { return e.Reason }

// Skip returns a SkipError.
func Skip(format string, args ...any) error { return &SkipError{fmt.Sprintf(format, args...)} }

// IsSkip reports whether err is (or wraps) a SkipError.
func IsSkip(err error) bool {
	var s *SkipError
	return errors.As(err, &s)
}

// shaderEnv is the target environment a shader is compiled for: the
// --target-env override, else the script's TARGET_ENV, else for SPIR-V
// assembly the CTS folder rule, else amber's default spv1.0.
func shaderEnv(sh *Shader, scriptPath string, opt *CompileOptions) (env, why string) {
	if opt.TargetEnv != "" {
		return opt.TargetEnv, "--target-env"
	}
	if sh.Format == FormatSPIRVAsm {
		for _, r := range ctsRules(scriptPath) {
			if r.SPIRVAsmEnv != "" {
				// The CTS ignores TARGET_ENV for these groups.
				return r.SPIRVAsmEnv, "CTS rule for " + r.Dir + " (" + r.Source + ")"
			}
		}
	}
	if sh.TargetEnv != "" {
		return sh.TargetEnv, "TARGET_ENV"
	}
	return "", "default"
}

// glslCache holds compiled GLSL by a hash of the flags and source, for
// the whole process: many scripts share shaders (160 distinct sources among
// the shared corpus's 289), and a source being compiled by one goroutine is
// waited for, not compiled again, by the others.
var glslCache = struct {
	sync.Mutex
	m map[string]*glslEntry
}{m: map[string]*glslEntry{}}

type glslEntry struct {
	done chan struct{}
	bin  []byte
	err  error
}

// CompileShader turns a shader into a SPIR-V binary (little-endian bytes).
// The error of a bad shader names the script line; a missing
// glslangValidator or an unsupported format is a SkipError.
func CompileShader(ctx context.Context, sh *Shader, scriptPath string, opt CompileOptions) ([]byte, string, error) {
	env, why := shaderEnv(sh, scriptPath, &opt)
	where := func() string {
		if sh.File != "" {
			return sh.File
		}
		return fmt.Sprintf("%s:%d", scriptPath, sh.Line)
	}
	switch sh.Format {
	case FormatSPIRVAsm:
		e := env
		if e == "" {
			e = "spv1.0"
		}
		words, err := asm.Assemble(sh.Source, asm.Options{TargetEnv: e, LaxIDs: true, File: sh.File})
		if err != nil {
			return nil, e, asmError(err, sh, scriptPath, fmt.Sprintf("shader %s, SPIRV-ASM for %s from %s", sh.Name, e, why))
		}
		out := make([]byte, 4*len(words))
		for i, w := range words {
			binary.LittleEndian.PutUint32(out[4*i:], w)
		}
		return out, e, nil
	case FormatSPIRVHex:
		b, err := hexdump.Decode(sh.Source)
		if err != nil || b == nil {
			msg := "Unable to parse shader hex."
			if err != nil {
				msg += " " + err.Error()
			}
			return nil, "", fmt.Errorf("%s: shader %s: %s", where(), sh.Name, msg)
		}
		return b, "", nil
	case FormatSPIRVBin:
		if len(sh.Source)%4 != 0 || len(sh.Source) < 20 {
			return nil, "", fmt.Errorf("%s: shader %s: SPIRV-BIN file is not a SPIR-V module (%d bytes)", where(), sh.Name, len(sh.Source))
		}
		return sh.Source, "", nil
	case FormatGLSL, FormatHLSL:
		return compileGLSL(ctx, sh, env, &opt, where())
	}
	return nil, "", Skip("shader %s: %s shaders are not supported by spvx", sh.Name, sh.Format)
}

// asmError reports assembler errors at script lines (shader-body lines
// shifted by the SHADER line), or in the shader's FILE.
func asmError(err error, sh *Shader, scriptPath, what string) error {
	var list asm.ErrorList
	if !errors.As(err, &list) || len(list) == 0 {
		return fmt.Errorf("%s:%d: %s: %v", scriptPath, sh.Line, what, err)
	}
	var parts []string
	for i, e := range list {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("and %d more", len(list)-3))
			break
		}
		if sh.File != "" {
			parts = append(parts, fmt.Sprintf("%s:%d:%d: %s", filepath.Join(filepath.Dir(scriptPath), sh.File), e.Pos.Line, e.Pos.Col, e.Msg))
		} else {
			parts = append(parts, fmt.Sprintf("%s:%d:%d: %s", scriptPath, sh.Line+e.Pos.Line, e.Pos.Col, e.Msg))
		}
	}
	return fmt.Errorf("%s (%s)", strings.Join(parts, "; "), what)
}

// glslangEnv maps an amber target environment to glslangValidator's
// --target-env flags, as amber's ParseSpvEnv maps it for shaderc.
func glslangEnv(env string) ([]string, error) {
	switch env {
	case "", "spv1.0", "vulkan1.0":
		return []string{"--target-env", "vulkan1.0"}, nil
	case "spv1.1", "spv1.2":
		return []string{"--target-env", "vulkan1.1", "--target-env", "spirv1." + env[5:]}, nil
	case "spv1.3", "vulkan1.1":
		return []string{"--target-env", "vulkan1.1"}, nil
	case "spv1.4":
		return []string{"--target-env", "vulkan1.2", "--target-env", "spirv1.4"}, nil
	case "vulkan1.1spv1.4":
		return []string{"--target-env", "vulkan1.1", "--target-env", "spirv1.4"}, nil
	case "spv1.5", "vulkan1.2":
		return []string{"--target-env", "vulkan1.2"}, nil
	case "spv1.6", "vulkan1.3":
		return []string{"--target-env", "vulkan1.3"}, nil
	}
	return nil, fmt.Errorf("Unrecognized environment %s", env)
}

// GlslangPath finds glslangValidator: SPVX_GLSLANGVALIDATOR, else PATH.
func GlslangPath() (string, error) {
	if p := os.Getenv("SPVX_GLSLANGVALIDATOR"); p != "" {
		return p, nil
	}
	p, err := exec.LookPath("glslangValidator")
	if err != nil {
		return "", errors.New("glslangValidator not found on PATH (install Debian's glslang-tools)")
	}
	return p, nil
}

func compileGLSL(ctx context.Context, sh *Shader, env string, opt *CompileOptions, where string) ([]byte, string, error) {
	flags, err := glslangEnv(env)
	if err != nil {
		return nil, env, fmt.Errorf("%s: shader %s: %v", where, sh.Name, err)
	}
	tool := opt.Glslang
	if tool == "" {
		if tool, err = GlslangPath(); err != nil {
			return nil, env, Skip("shader %s (%s): %v", sh.Name, sh.Format, err)
		}
	}
	args := append([]string{"-V"}, flags...)
	if sh.Format == FormatHLSL {
		args = append(args, "-D", "-e", "main")
	}
	args = append(args, "-S", stageFlag(sh.Stage))
	h := sha256.New()
	h.Write([]byte(strings.Join(args, " ")))
	h.Write([]byte{0})
	h.Write(sh.Source)
	key := hex.EncodeToString(h.Sum(nil))
	glslCache.Lock()
	e, ok := glslCache.m[key]
	if !ok {
		e = &glslEntry{done: make(chan struct{})}
		glslCache.m[key] = e
	}
	glslCache.Unlock()
	if ok {
		select {
		case <-e.done:
		case <-ctx.Done():
			return nil, env, ctx.Err()
		}
		if e.err != nil {
			return nil, env, glslFailure(e.err, sh, where)
		}
		return e.bin, env, nil
	}
	e.bin, e.err = runGlslang(ctx, tool, args, sh, opt.CacheDir, key)
	if e.err != nil && ctx.Err() != nil {
		// A cancelled compile is not the shader's fault: forget it.
		glslCache.Lock()
		delete(glslCache.m, key)
		glslCache.Unlock()
	}
	close(e.done)
	if e.err != nil {
		return nil, env, glslFailure(e.err, sh, where)
	}
	return e.bin, env, nil
}

// glslangError is a failed glslangValidator run.
type glslangError struct{ args, out, src string }

func (e *glslangError) Error() string {
	return fmt.Sprintf("glslangValidator %s failed: %s", e.args, strings.TrimSpace(e.out))
}

// glslFailure reports glslangValidator's errors at script lines: its
// "ERROR: FILE:N: message" lines are shader-body lines, shifted by the
// SHADER line (or left in the shader's FILE).
func glslFailure(err error, sh *Shader, where string) error {
	ge, ok := err.(*glslangError)
	if !ok {
		return fmt.Errorf("%s: shader %s: %v", where, sh.Name, err)
	}
	var msgs []string
	for _, l := range strings.Split(ge.out, "\n") {
		rest, ok := strings.CutPrefix(strings.TrimSpace(l), "ERROR: "+ge.src+":")
		if !ok {
			continue
		}
		num, msg, ok := strings.Cut(rest, ":")
		n, err := strconv.Atoi(num)
		if !ok || err != nil {
			continue
		}
		if sh.File != "" {
			msgs = append(msgs, fmt.Sprintf("%s:%d:%s", sh.File, n, msg))
		} else {
			file, _, _ := strings.Cut(where, ":")
			msgs = append(msgs, fmt.Sprintf("%s:%d:%s", file, sh.Line+n, msg))
		}
	}
	if len(msgs) == 0 {
		return fmt.Errorf("%s: shader %s: %s", where, sh.Name, strings.ReplaceAll(ge.Error(), ge.src, "shader"))
	}
	if len(msgs) > 3 {
		msgs = append(msgs[:3], fmt.Sprintf("and %d more", len(msgs)-3))
	}
	return fmt.Errorf("%s (shader %s, glslangValidator %s)", strings.Join(msgs, "; "), sh.Name, ge.args)
}

// runGlslang compiles one source with glslangValidator, through the disk
// cache when there is one. Its errors name the flags and quote the tool.
func runGlslang(ctx context.Context, tool string, args []string, sh *Shader, cacheDir, key string) ([]byte, error) {
	if cacheDir != "" {
		if b, err := readLimited(filepath.Join(cacheDir, key+".spv")); err == nil && len(b) >= 20 {
			return b, nil
		}
	}
	dir, err := os.MkdirTemp("", "spvx-glsl-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	ext := "comp"
	if sh.Format == FormatHLSL {
		ext = "hlsl"
	}
	src := filepath.Join(dir, "shader."+ext)
	out := filepath.Join(dir, "shader.spv")
	if err := os.WriteFile(src, sh.Source, 0o600); err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, tool, append(args, "-o", out, src)...)
	var msg bytes.Buffer
	cmd.Stdout, cmd.Stderr = &msg, &msg
	if err := cmd.Run(); err != nil {
		return nil, &glslangError{args: strings.Join(args, " "), out: msg.String(), src: src}
	}
	b, err := readLimited(out)
	if err != nil {
		return nil, err
	}
	if cacheDir != "" && os.MkdirAll(cacheDir, 0o755) == nil {
		tmp := filepath.Join(cacheDir, key+".tmp"+filepath.Base(dir))
		if os.WriteFile(tmp, b, 0o644) == nil {
			os.Rename(tmp, filepath.Join(cacheDir, key+".spv"))
		}
	}
	return b, nil
}

func stageFlag(stage string) string {
	switch stage {
	case "vertex":
		return "vert"
	case "fragment":
		return "frag"
	case "geometry":
		return "geom"
	case "tessellation_control":
		return "tesc"
	case "tessellation_evaluation":
		return "tese"
	}
	return "comp"
}
