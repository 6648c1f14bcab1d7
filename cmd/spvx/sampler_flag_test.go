package main

import (
	"strings"
	"testing"

	"spvx/interp"
)

// TestParseSamplerFlag: each key sets its field, shorthands set several,
// and bad values name themselves.
func TestParseSamplerFlag(t *testing.T) {
	key, sm, err := parseSamplerFlag("1:2=mag_filter=linear,MIPMAP_MODE=linear,address=mirrored_repeat,address_mode_w=clamp_to_border," +
		"border_color=int_opaque_white,lod=0.5:7,mip_lod_bias=-1.5,compare_op=greater_or_equal")
	want := interp.Sampler{MagFilter: interp.FilterLinear, MipmapMode: interp.MipmapLinear, AddressU: interp.AddressMirroredRepeat,
		AddressV: interp.AddressMirroredRepeat, AddressW: interp.AddressClampToBorder, BorderColor: interp.BorderIntOpaqueWhite,
		MinLod: 0.5, MaxLod: 7, MipLodBias: -1.5, CompareEnable: true, CompareOp: interp.CompareGreaterOrEqual}
	if err != nil || key != (interp.BindingKey{Set: 1, Binding: 2}) || *sm != want {
		t.Fatalf("got %v %+v %v, want %+v", key, sm, err, want)
	}
	_, sm, err = parseSamplerFlag("0:0=filter=nearest,address=clamp_to_edge,unnormalized_coords")
	if err != nil || !sm.UnnormalizedCoordinates || sm.AddressW != interp.AddressClampToEdge {
		t.Fatalf("unnormalized: %+v %v", sm, err)
	}
	for v, msg := range map[string]string{
		"0=filter=linear":          "want S:B=KEY=VALUE",
		"0:0=min_lod=x":            `bad number "x"`,
		"0:0=max_lod=nan":          `bad number "nan"`,
		"0:0=lod=1":                "want lod=MIN:MAX",
		"0:0=address=wrap":         `unknown value "wrap"`,
		"0:0=normalized_coords=1":  "takes no value",
		"0:0=min_lod=3":            "minLod must not exceed maxLod",
		"0:0=unnormalized_coords":  "unnormalizedCoordinates needs",
		"0:0=border_color=magenta": "want one of float_opaque_black",
	} {
		if _, _, err := parseSamplerFlag(v); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%q: error %v, want one containing %q", v, err, msg)
		}
	}
}

// FuzzParseSamplerFlag: any value parses or is refused with an error,
// never a panic, and what parses passes interp's check.
func FuzzParseSamplerFlag(f *testing.F) {
	for _, s := range []string{"0:1=filter=linear,address=clamp_to_edge,border_color=float_opaque_white,lod=0:4",
		"0:0=unnormalized_coords,address=clamp_to_border", "1:2=compare_op=less,mip_lod_bias=1e30", "0:0=lod=-1:", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		_, sm, err := parseSamplerFlag(v)
		if err == nil && sm.Check() != nil {
			t.Fatalf("%q parsed to a sampler interp refuses: %v", v, sm.Check())
		}
	})
}
