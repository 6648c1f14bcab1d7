package main

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"spvx/interp"
)

// The --sampler value, S:B=KEY=VALUE,...: its keys are amber's SAMPLER
// command words lower-cased (mag_filter, address_mode_u, border_color,
// min_lod...), with the shorthands filter, address, lod=MIN:MAX and
// mip_lod_bias, and the words unnormalized_coords and normalized_coords.

var (
	filterNames  = map[string]interp.Filter{"nearest": interp.FilterNearest, "linear": interp.FilterLinear}
	mipmapNames  = map[string]interp.MipmapMode{"nearest": interp.MipmapNearest, "linear": interp.MipmapLinear}
	addressNames = map[string]interp.AddressMode{"repeat": interp.AddressRepeat, "mirrored_repeat": interp.AddressMirroredRepeat,
		"clamp_to_edge": interp.AddressClampToEdge, "clamp_to_border": interp.AddressClampToBorder, "mirror_clamp_to_edge": interp.AddressMirrorClampToEdge}
	borderNames = map[string]interp.BorderColor{"float_transparent_black": interp.BorderFloatTransparentBlack,
		"int_transparent_black": interp.BorderIntTransparentBlack, "float_opaque_black": interp.BorderFloatOpaqueBlack,
		"int_opaque_black": interp.BorderIntOpaqueBlack, "float_opaque_white": interp.BorderFloatOpaqueWhite, "int_opaque_white": interp.BorderIntOpaqueWhite}
	compareNames = map[string]interp.CompareOp{"never": interp.CompareNever, "less": interp.CompareLess, "equal": interp.CompareEqual,
		"less_or_equal": interp.CompareLessOrEqual, "greater": interp.CompareGreater, "not_equal": interp.CompareNotEqual,
		"greater_or_equal": interp.CompareGreaterOrEqual, "always": interp.CompareAlways}
)

// parseSamplerFlag reads a --sampler value.
func parseSamplerFlag(v string) (interp.BindingKey, *interp.Sampler, error) {
	k, rest, _ := strings.Cut(v, "=")
	key, _, _, err := parseBufferFlag(k + "=x")
	if err != nil {
		return key, nil, errors.New("want S:B=KEY=VALUE,...")
	}
	sm := &interp.Sampler{}
	for _, item := range strings.Split(rest, ",") {
		if item = strings.TrimSpace(strings.ToLower(item)); item == "" {
			continue
		}
		name, val, _ := strings.Cut(item, "=")
		if err := setSamplerField(sm, name, val); err != nil {
			return key, nil, fmt.Errorf("%s: %w", item, err)
		}
	}
	return key, sm, sm.Check()
}

// lookupName finds val in names, or lists the names wanted.
func lookupName[T any](names map[string]T, val string) (T, error) {
	if t, ok := names[val]; ok {
		return t, nil
	}
	want := slices.Sorted(maps.Keys(names))
	var zero T
	return zero, fmt.Errorf("unknown value %q (want one of %s)", val, strings.Join(want, ", "))
}

// setSamplerField sets the field KEY names to VALUE.
func setSamplerField(sm *interp.Sampler, name, val string) (err error) {
	switch name {
	case "unnormalized_coords", "normalized_coords":
		if val != "" {
			return errors.New("takes no value")
		}
		sm.UnnormalizedCoordinates = name == "unnormalized_coords"
	case "filter", "mag_filter", "min_filter":
		var f interp.Filter
		f, err = lookupName(filterNames, val)
		if name != "min_filter" {
			sm.MagFilter = f
		}
		if name != "mag_filter" {
			sm.MinFilter = f
		}
	case "mipmap_mode":
		sm.MipmapMode, err = lookupName(mipmapNames, val)
	case "address", "address_mode_u", "address_mode_v", "address_mode_w":
		var m interp.AddressMode
		m, err = lookupName(addressNames, val)
		for i, p := range []*interp.AddressMode{&sm.AddressU, &sm.AddressV, &sm.AddressW} {
			if name == "address" || name == "address_mode_"+string("uvw"[i]) {
				*p = m
			}
		}
	case "border_color":
		sm.BorderColor, err = lookupName(borderNames, val)
	case "compare_op":
		sm.CompareOp, err = lookupName(compareNames, val)
		sm.CompareEnable = true
	default:
		return setSamplerLod(sm, name, val)
	}
	return err
}

// setSamplerLod sets the LOD fields: min_lod, max_lod, lod=MIN:MAX and
// mip_lod_bias.
func setSamplerLod(sm *interp.Sampler, name, val string) error {
	num := func(s string) (float32, error) {
		f, err := strconv.ParseFloat(s, 32)
		if err != nil || f != f {
			return 0, fmt.Errorf("bad number %q", s)
		}
		return float32(f), nil
	}
	var err error
	switch name {
	case "min_lod":
		sm.MinLod, err = num(val)
	case "max_lod":
		sm.MaxLod, err = num(val)
	case "mip_lod_bias":
		sm.MipLodBias, err = num(val)
	case "lod":
		lo, hi, ok := strings.Cut(val, ":")
		if !ok {
			return errors.New("want lod=MIN:MAX")
		}
		if sm.MinLod, err = num(lo); err == nil {
			sm.MaxLod, err = num(hi)
		}
	default:
		return errors.New("unknown key (want filter, mag_filter, min_filter, mipmap_mode, address, address_mode_u/v/w, border_color, min_lod, max_lod, lod, mip_lod_bias, compare_op, unnormalized_coords or normalized_coords)")
	}
	return err
}
