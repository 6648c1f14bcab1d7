package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// The JSON schema of the Khronos grammar files (spirv.core.grammar.json and
// extinst.*.grammar.json) and of spvx's overlay, which uses the same shape.

type jsonGrammar struct {
	MajorVersion int               `json:"major_version"`
	MinorVersion int               `json:"minor_version"`
	Version      int               `json:"version"`
	Revision     int               `json:"revision"`
	Instructions []jsonInstruction `json:"instructions"`
	OperandKinds []jsonOperandKind `json:"operand_kinds"`
}

type jsonInstruction struct {
	OpName       string        `json:"opname"`
	Class        string        `json:"class"`
	Opcode       jsonNumber    `json:"opcode"`
	Operands     []jsonOperand `json:"operands"`
	Capabilities []string      `json:"capabilities"`
	Capability   string        `json:"capability"` // a few ext-inst grammars use the singular
	Extensions   []string      `json:"extensions"`
	Version      string        `json:"version"`
	LastVersion  string        `json:"lastVersion"`
	Aliases      []string      `json:"aliases"`
	Provisional  bool          `json:"provisional"`
	// Overlay-only fields.
	Source  string `json:"source"`
	Replace bool   `json:"replace"`
}

type jsonOperand struct {
	Kind       string `json:"kind"`
	Name       string `json:"name"`
	Quantifier string `json:"quantifier"`
}

type jsonOperandKind struct {
	Category   string          `json:"category"`
	Kind       string          `json:"kind"`
	Enumerants []jsonEnumerant `json:"enumerants"`
	Bases      []string        `json:"bases"`
	Doc        string          `json:"doc"`
}

type jsonEnumerant struct {
	Enumerant    string        `json:"enumerant"`
	Value        jsonNumber    `json:"value"`
	Aliases      []string      `json:"aliases"`
	Parameters   []jsonOperand `json:"parameters"`
	Capabilities []string      `json:"capabilities"`
	Extensions   []string      `json:"extensions"`
	Version      string        `json:"version"`
	LastVersion  string        `json:"lastVersion"`
	Provisional  bool          `json:"provisional"`
	Source       string        `json:"source"`
	Replace      bool          `json:"replace"`
}

// jsonNumber accepts a JSON number or a string holding a decimal or 0x-hex
// number: the grammar writes BitEnum values as "0x0004".
type jsonNumber uint32

func (n *jsonNumber) UnmarshalJSON(b []byte) error {
	s := string(b)
	if strings.HasPrefix(s, `"`) {
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
	}
	v, err := strconv.ParseUint(s, 0, 32)
	if err != nil {
		return fmt.Errorf("bad number %s: %v", b, err)
	}
	*n = jsonNumber(v)
	return nil
}

// input is one file read by the generator, remembered for the provenance
// header of the output.
type input struct {
	name   string // base name
	sha256 string
}

func readJSON(path string, v any) (input, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return input{}, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		// The Khronos files carry fields spvx does not use (copyright,
		// instruction_printing_class, ...); retry leniently for them but
		// keep the strict pass for the overlay, which spvx owns.
		if strings.HasSuffix(path, "overlay.json") {
			return input{}, fmt.Errorf("%s: %v", path, err)
		}
		if err := json.Unmarshal(data, v); err != nil {
			return input{}, fmt.Errorf("%s: %v", path, err)
		}
	}
	sum := sha256.Sum256(data)
	return input{name: filepath.Base(path), sha256: hex.EncodeToString(sum[:])}, nil
}

// extSetName maps an extinst grammar file to the name modules import it by.
// The grammar files do not carry that name, so it is spelled out here.
var extSetNames = map[string]struct {
	name   string
	prefix bool
}{
	"glsl.std.450":                             {"GLSL.std.450", false},
	"opencl.std.100":                           {"OpenCL.std", false},
	"debuginfo":                                {"DebugInfo", false},
	"opencl.debuginfo.100":                     {"OpenCL.DebugInfo.100", false},
	"nonsemantic.shader.debuginfo.100":         {"NonSemantic.Shader.DebugInfo.100", false},
	"nonsemantic.shader.debuginfo":             {"NonSemantic.Shader.DebugInfo", true},
	"nonsemantic.clspvreflection":              {"NonSemantic.ClspvReflection.", true},
	"nonsemantic.debugprintf":                  {"NonSemantic.DebugPrintf", false},
	"nonsemantic.debugbreak":                   {"NonSemantic.DebugBreak", false},
	"nonsemantic.vkspreflection":               {"NonSemantic.VkspReflection", true},
	"nonsemantic.graph.debuginfo":              {"NonSemantic.Graph.DebugInfo.", true},
	"spv-amd-gcn-shader":                       {"SPV_AMD_gcn_shader", false},
	"spv-amd-shader-ballot":                    {"SPV_AMD_shader_ballot", false},
	"spv-amd-shader-explicit-vertex-parameter": {"SPV_AMD_shader_explicit_vertex_parameter", false},
	"spv-amd-shader-trinary-minmax":            {"SPV_AMD_shader_trinary_minmax", false},
	"tosa.001000.1":                            {"TOSA.001000.1", false},
	"arm.motion-engine.100":                    {"Arm.MotionEngine.100", false},
	"arm.experimental-ml-operations":           {"Arm.ExperimentalMLOperations", true},
}

type extSet struct {
	file    string
	name    string
	prefix  bool
	grammar jsonGrammar
}

// model is everything the generator read, after the overlay merge.
type model struct {
	core    jsonGrammar
	sets    []extSet
	inputs  []input
	overlay map[string]bool // "op:Name" / "enum:Kind:Name" entries that came from the overlay
}

// load reads the grammar folder and merges the overlay (which may be "").
func load(grammarDir, overlayPath string) (*model, error) {
	m := &model{overlay: map[string]bool{}}
	in, err := readJSON(filepath.Join(grammarDir, "spirv.core.grammar.json"), &m.core)
	if err != nil {
		return nil, err
	}
	m.inputs = append(m.inputs, in)
	files, err := filepath.Glob(filepath.Join(grammarDir, "extinst.*.grammar.json"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	for _, f := range files {
		key := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "extinst."), ".grammar.json")
		n, ok := extSetNames[key]
		if !ok {
			return nil, fmt.Errorf("%s: no import name known for extended instruction set %q; add it to extSetNames", f, key)
		}
		s := extSet{file: filepath.Base(f), name: n.name, prefix: n.prefix}
		in, err := readJSON(f, &s.grammar)
		if err != nil {
			return nil, err
		}
		m.inputs = append(m.inputs, in)
		m.sets = append(m.sets, s)
	}
	if overlayPath != "" {
		var ov jsonGrammar
		in, err := readJSON(overlayPath, &ov)
		if err != nil {
			return nil, err
		}
		m.inputs = append(m.inputs, in)
		if err := m.merge(&ov); err != nil {
			return nil, fmt.Errorf("%s: %v", overlayPath, err)
		}
	}
	return m, nil
}

// merge adds the overlay's entries to the core grammar. An entry that the
// base grammar already has (by name or by value) is an error unless it is
// marked "replace": when Khronos catches up, the generator says which
// overlay entries to delete.
func (m *model) merge(ov *jsonGrammar) error {
	for _, oi := range ov.Instructions {
		if oi.Source == "" {
			return fmt.Errorf("instruction %s: missing \"source\"", oi.OpName)
		}
		idx := -1
		for i, ci := range m.core.Instructions {
			if ci.OpName == oi.OpName || ci.Opcode == oi.Opcode {
				idx = i
				break
			}
		}
		if idx >= 0 && !oi.Replace {
			ci := m.core.Instructions[idx]
			return fmt.Errorf("instruction %s (opcode %d) collides with the base grammar's %s (opcode %d); mark it \"replace\": true or delete it", oi.OpName, oi.Opcode, ci.OpName, ci.Opcode)
		}
		if idx < 0 && oi.Replace {
			return fmt.Errorf("instruction %s is marked \"replace\" but the base grammar has no such instruction", oi.OpName)
		}
		if idx >= 0 {
			m.core.Instructions[idx] = oi
		} else {
			m.core.Instructions = append(m.core.Instructions, oi)
		}
		m.overlay["op:"+oi.OpName] = true
	}
	for _, ok := range ov.OperandKinds {
		k := -1
		for i := range m.core.OperandKinds {
			if m.core.OperandKinds[i].Kind == ok.Kind {
				k = i
			}
		}
		if k < 0 {
			if ok.Category == "" {
				return fmt.Errorf("operand kind %s: not in the base grammar and no \"category\" given", ok.Kind)
			}
			m.core.OperandKinds = append(m.core.OperandKinds, jsonOperandKind{Category: ok.Category, Kind: ok.Kind})
			k = len(m.core.OperandKinds) - 1
		}
		base := &m.core.OperandKinds[k]
		for _, oe := range ok.Enumerants {
			if oe.Source == "" {
				return fmt.Errorf("%s %s: missing \"source\"", ok.Kind, oe.Enumerant)
			}
			idx := -1
			for i, be := range base.Enumerants {
				if be.Enumerant == oe.Enumerant || be.Value == oe.Value {
					idx = i
					break
				}
			}
			if idx >= 0 && !oe.Replace {
				be := base.Enumerants[idx]
				return fmt.Errorf("%s %s (%d) collides with the base grammar's %s (%d); mark it \"replace\": true or delete it", ok.Kind, oe.Enumerant, oe.Value, be.Enumerant, be.Value)
			}
			if idx < 0 && oe.Replace {
				return fmt.Errorf("%s %s is marked \"replace\" but the base grammar has no such enumerant", ok.Kind, oe.Enumerant)
			}
			if idx >= 0 {
				base.Enumerants[idx] = oe
			} else {
				base.Enumerants = append(base.Enumerants, oe)
			}
			m.overlay["enum:"+ok.Kind+":"+oe.Enumerant] = true
		}
	}
	return nil
}
