package amber

// Sampler is a SAMPLER declaration, with amber's defaults (src/sampler.h):
// nearest filters and mipmaps, repeat addressing, a float transparent
// black border, MinLOD 0, MaxLOD 1, normalized coordinates, no
// comparison. Filters, address modes, border colours and comparisons are
// the indices of Vulkan's enumerations (VkFilter, VkSamplerAddressMode,
// VkBorderColor, VkCompareOp), so an engine converts them by value.
type Sampler struct {
	Name                         string
	MagFilter, MinFilter         uint8 // 0 nearest, 1 linear
	MipmapMode                   uint8 // 0 nearest, 1 linear (amber has no option for it)
	AddressU, AddressV, AddressW uint8
	BorderColor                  uint8
	MinLOD, MaxLOD               float32
	NormalizedCoords             bool
	CompareEnable                bool
	CompareOp                    uint8
	Line                         int
}

// The option values SAMPLER accepts, in Vulkan's order.
var (
	filterNames      = []string{"nearest", "linear"}
	addressModeNames = []string{"repeat", "mirrored_repeat", "clamp_to_edge", "clamp_to_border", "mirror_clamp_to_edge"}
	borderColorNames = []string{"float_transparent_black", "int_transparent_black", "float_opaque_black",
		"int_opaque_black", "float_opaque_white", "int_opaque_white"}
	compareOpNames = []string{"never", "less", "equal", "less_or_equal", "greater", "not_equal", "greater_or_equal", "always"}
)

func indexOf(names []string, s string) (uint8, bool) {
	for i, n := range names {
		if n == s {
			return uint8(i), true
		}
	}
	return 0, false
}

// sampler parses SAMPLER as amber's Parser::ParseSampler.
func (p *amberParser) sampler(cmd token) error {
	t := p.z.next()
	if t.kind != tokIdent {
		return errAt(t.line, "invalid token when looking for sampler name: %s", t.show())
	}
	s := &Sampler{Name: t.text, MaxLOD: 1, NormalizedCoords: true, Line: cmd.line}
	for t = p.z.next(); !t.isEnd(); t = p.z.next() {
		if t.kind != tokIdent {
			return errAt(t.line, "invalid token when looking for sampler parameters: %s", t.show())
		}
		if err := p.samplerOption(s, t); err != nil {
			return err
		}
	}
	if s.MaxLOD < s.MinLOD {
		return errAt(t.line, "max LOD needs to be greater than or equal to min LOD")
	}
	if _, dup := p.s.samplers[s.Name]; dup {
		return errAt(cmd.line, "duplicate sampler name provided")
	}
	p.s.samplers[s.Name] = s
	p.s.Samplers = append(p.s.Samplers, s)
	return nil
}

// samplerOption applies one SAMPLER parameter, t being its keyword.
func (p *amberParser) samplerOption(s *Sampler, t token) error {
	named := func(names []string, dst *uint8) error {
		v := p.z.next()
		if v.kind != tokIdent {
			return errAt(v.line, "invalid token when looking for %s value: %s", t.text, v.show())
		}
		i, ok := indexOf(names, v.text)
		if !ok {
			return errAt(v.line, "invalid %s value %s", t.text, v.text)
		}
		*dst = i
		return nil
	}
	lod := func(dst *float32) error {
		// amber takes only a token with a decimal point (IsDouble).
		v := p.z.next()
		f, ok := v.asDouble()
		if v.kind != tokDouble || !ok {
			return errAt(v.line, "invalid token when looking for %s value: %s", t.text, v.show())
		}
		*dst = float32(f)
		return nil
	}
	switch t.text {
	case "MAG_FILTER":
		return named(filterNames, &s.MagFilter)
	case "MIN_FILTER":
		return named(filterNames, &s.MinFilter)
	case "ADDRESS_MODE_U":
		return named(addressModeNames, &s.AddressU)
	case "ADDRESS_MODE_V":
		return named(addressModeNames, &s.AddressV)
	case "ADDRESS_MODE_W":
		return named(addressModeNames, &s.AddressW)
	case "BORDER_COLOR":
		return named(borderColorNames, &s.BorderColor)
	case "MIN_LOD":
		return lod(&s.MinLOD)
	case "MAX_LOD":
		return lod(&s.MaxLOD)
	case "NORMALIZED_COORDS":
		s.NormalizedCoords = true
	case "UNNORMALIZED_COORDS":
		s.NormalizedCoords, s.MinLOD, s.MaxLOD = false, 0, 0
	case "COMPARE":
		v := p.z.next()
		if v.kind != tokIdent {
			return errAt(v.line, "invalid value for COMPARE: %s", v.show())
		}
		if v.text != "on" && v.text != "off" {
			return errAt(v.line, "invalid value for COMPARE: %s", v.text)
		}
		s.CompareEnable = v.text == "on"
	case "COMPARE_OP":
		v := p.z.next()
		if v.kind != tokIdent {
			return errAt(v.line, "invalid value for COMPARE_OP: %s", v.show())
		}
		i, ok := indexOf(compareOpNames, v.text)
		if !ok {
			return errAt(v.line, "invalid value for COMPARE_OP: %s", v.text)
		}
		s.CompareOp = i
	default:
		return errAt(t.line, "unexpected sampler parameter %s", t.text)
	}
	return nil
}
