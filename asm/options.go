package asm

import (
	"slices"
	"strings"

	"spvx/spirv"
)

// Options control Assemble. The zero value behaves like spirv-as with no
// flags, except for the id checks described at LaxIDs.
type Options struct {
	// TargetEnv is spirv-as's --target-env: one of the names of
	// TargetEnvs, or a string starting with one (spirv-as matches
	// prefixes, so "vulkan1.2spv1.5" means vulkan1.2). It selects the
	// header's SPIR-V version and hides the instructions that version
	// lacks. Empty means what current spirv-as does without the flag: the
	// version named by a "; Version: 1.X" comment in the leading comment
	// block, else SPIR-V 1.6.
	TargetEnv string

	// PreserveNumericIDs is spirv-as's --preserve-numeric-ids: ids written
	// as numbers (%12) keep their number; named ids take the lowest
	// numbers left free, in order of first appearance.
	PreserveNumericIDs bool

	// LaxIDs turns off the two id checks spirv-as does not make: that
	// every id used is defined by some instruction, and that no id is
	// defined twice (spirv-as only rejects a type id defined twice). With
	// LaxIDs, Assemble accepts exactly what spirv-as accepts, which is
	// useful for building deliberately invalid modules.
	LaxIDs bool

	// File names the input in error positions; it may be empty.
	File string
}

// TargetEnv is one --target-env name and the SPIR-V version it implies.
type TargetEnv struct {
	Name    string
	Version spirv.Version
}

// targetEnvs lists the names spirv-as v2026.4 accepts, in its matching
// order: the first name that is a prefix of the argument wins, so a name
// must come before its own prefixes ("vulkan1.1spv1.4" before "vulkan1.1").
// The universal1.X names are spvx's spelling of SPIRV-Tools'
// SPV_ENV_UNIVERSAL_1_X; spirv-as itself only knows spv1.X.
var targetEnvs = [...]TargetEnv{
	{"vulkan1.0", v(1, 0)},
	{"vulkan1.1spv1.4", v(1, 4)},
	{"vulkan1.1", v(1, 3)},
	{"vulkan1.2", v(1, 5)},
	{"vulkan1.3", v(1, 6)},
	{"vulkan1.4", v(1, 6)},
	{"spv1.0", v(1, 0)},
	{"spv1.1", v(1, 1)},
	{"spv1.2", v(1, 2)},
	{"spv1.3", v(1, 3)},
	{"spv1.4", v(1, 4)},
	{"spv1.5", v(1, 5)},
	{"spv1.6", v(1, 6)},
	{"opencl1.2embedded", v(1, 0)},
	{"opencl1.2", v(1, 0)},
	{"opencl2.0embedded", v(1, 0)},
	{"opencl2.0", v(1, 0)},
	{"opencl2.1embedded", v(1, 0)},
	{"opencl2.1", v(1, 0)},
	{"opencl2.2embedded", v(1, 2)},
	{"opencl2.2", v(1, 2)},
	{"opengl4.0", v(1, 0)},
	{"opengl4.1", v(1, 0)},
	{"opengl4.2", v(1, 0)},
	{"opengl4.3", v(1, 0)},
	{"opengl4.5", v(1, 0)},
	{"universal1.0", v(1, 0)},
	{"universal1.1", v(1, 1)},
	{"universal1.2", v(1, 2)},
	{"universal1.3", v(1, 3)},
	{"universal1.4", v(1, 4)},
	{"universal1.5", v(1, 5)},
	{"universal1.6", v(1, 6)},
}

func v(major, minor int) spirv.Version { return spirv.MakeVersion(major, minor) }

// DefaultVersion is the SPIR-V version spirv-as writes when neither
// --target-env nor a "; Version:" comment says otherwise: 1.6.
const DefaultVersion spirv.Version = 1<<16 | 6<<8

// TargetEnvs returns the --target-env names Assemble accepts, in matching
// order.
func TargetEnvs() []TargetEnv { return slices.Clone(targetEnvs[:]) }

// LookupTargetEnv returns the SPIR-V version of a --target-env argument,
// matching names as prefixes like spirv-as.
func LookupTargetEnv(arg string) (spirv.Version, bool) {
	for _, e := range targetEnvs {
		if strings.HasPrefix(arg, e.Name) {
			return e.Version, true
		}
	}
	return 0, false
}

// versionFromText finds the "; Version: 1.X" comment spirv-dis writes, as
// spirv-as does: only in the leading block of comments and blank lines,
// with a single minor digit naming a version spirv-as knows (1.0 to 1.6).
func versionFromText(src []byte) (spirv.Version, bool) {
	const prefix = "; Version: 1."
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c == ';' {
			d := i + len(prefix)
			if d >= len(src) {
				return 0, false
			}
			j := 1
			for j < len(prefix) && src[i+j] == prefix[j] {
				j++
			}
			if j == len(prefix) {
				minor := src[d]
				next := byte(0)
				if d+1 < len(src) {
					next = src[d+1]
				}
				if isDigit(minor) && !isDigit(next) && minor-'0' <= 6 {
					return spirv.MakeVersion(1, int(minor-'0')), true
				}
			}
			i += j
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		}
		switch c {
		case ' ', '\t', '\n', '\v', '\f', '\r':
			continue
		}
		return 0, false // the header comments have ended
	}
	return 0, false
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
