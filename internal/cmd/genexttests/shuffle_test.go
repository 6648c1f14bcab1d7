package main

import (
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"spvx/subgroup"
)

// TestSpecExamples checks the spec-examples script against the results the
// extension's text prints (copied from its Examples section), independently
// of spvx/subgroup.
func TestSpecExamples(t *testing.T) {
	p := generated(t)["bitcast_shuffle_spec_examples.amber"]
	if p == nil {
		t.Fatal("no spec examples script")
	}
	pack16 := func(pairs ...[2]uint64) []uint64 {
		var w []uint64
		for _, p := range pairs {
			w = append(w, p[0]|p[1]<<16)
		}
		return w
	}
	pack8 := func(quads ...[4]uint64) []uint64 {
		var w []uint64
		for _, q := range quads {
			w = append(w, q[0]|q[1]<<8|q[2]<<16|q[3]<<24)
		}
		return w
	}
	want := map[string][]uint64{
		// <0,8> <1,9> ... <7,15>
		"out_u32_to_2xu16": pack16([2]uint64{0, 8}, [2]uint64{1, 9}, [2]uint64{2, 10}, [2]uint64{3, 11},
			[2]uint64{4, 12}, [2]uint64{5, 13}, [2]uint64{6, 14}, [2]uint64{7, 15}),
		// 0|2 4|6 8|10 12|14 1|3 5|7 9|11 13|15
		"out_2xu16_to_u32": pack16([2]uint64{0, 2}, [2]uint64{4, 6}, [2]uint64{8, 10}, [2]uint64{12, 14},
			[2]uint64{1, 3}, [2]uint64{5, 7}, [2]uint64{9, 11}, [2]uint64{13, 15}),
		// <0,4,8,12> <1,5,9,13> <2,6,10,14> <3,7,11,15>
		"out_u32_to_4xu8": pack8([4]uint64{0, 4, 8, 12}, [4]uint64{1, 5, 9, 13}, [4]uint64{2, 6, 10, 14}, [4]uint64{3, 7, 11, 15}),
		// 0|4|8|12 1|5|9|13 2|6|10|14 3|7|11|15
		"out_4xu8_to_u32": pack8([4]uint64{0, 4, 8, 12}, [4]uint64{1, 5, 9, 13}, [4]uint64{2, 6, 10, 14}, [4]uint64{3, 7, 11, 15}),
	}
	// The operands of the text: 0|1, 2|3, ... (16-bit pieces) and 0|1|2|3, ...
	wantIn := map[string][]uint64{
		"in_u32_to_2xu16": pack16([2]uint64{0, 1}, [2]uint64{2, 3}, [2]uint64{4, 5}, [2]uint64{6, 7},
			[2]uint64{8, 9}, [2]uint64{10, 11}, [2]uint64{12, 13}, [2]uint64{14, 15}),
		"in_u32_to_4xu8": pack8([4]uint64{0, 1, 2, 3}, [4]uint64{4, 5, 6, 7}, [4]uint64{8, 9, 10, 11}, [4]uint64{12, 13, 14, 15}),
	}
	wantIn["in_2xu16_to_u32"] = wantIn["in_u32_to_2xu16"]
	wantIn["in_4xu8_to_u32"] = wantIn["in_u32_to_4xu8"]
	for buf, w := range wantIn {
		if got := p.buffers[buf].values; fmt.Sprint(got) != fmt.Sprint(w) {
			t.Errorf("%s = %v, want %v", buf, got, w)
		}
	}
	seen := map[string]bool{}
	for _, e := range p.expects {
		if e.offset != 0 {
			t.Errorf("%s: unexpected offset %d", e.buf, e.offset)
		}
		if fmt.Sprint(e.values) != fmt.Sprint(want[e.buf]) {
			t.Errorf("EXPECT %s = %v, the spec says %v", e.buf, e.values, want[e.buf])
		}
		seen[e.buf] = true
	}
	if len(seen) != 4 {
		t.Errorf("checked %d examples, want 4", len(seen))
	}
}

// TestShuffleExpectations re-derives every bitcast-shuffle EXPECT from the
// script's own input buffer with spvx/subgroup.BitcastShuffle (the uint64
// lane form, a different code path from the packed form the generator uses)
// and the subgroup size read from the pipeline name.
func TestShuffleExpectations(t *testing.T) {
	pairs, err := supportedPairs()
	if err != nil {
		t.Fatal(err)
	}
	scripts := generated(t)
	checked := 0
	for _, pr := range pairs {
		src, dst := pr[0], pr[1]
		name := fmt.Sprintf("bitcast_shuffle_%s_to_%s.amber", fileType(src), fileType(dst))
		p := scripts[name]
		if p == nil {
			t.Errorf("%s missing", name)
			continue
		}
		in := p.buffers["in"]
		eb := amberTypeBytes[in.typ]
		raw := make([]byte, len(in.values)*eb)
		for i, v := range in.values {
			if eb == 2 {
				binary.LittleEndian.PutUint16(raw[2*i:], uint16(v))
			} else {
				binary.LittleEndian.PutUint32(raw[4*i:], uint32(v))
			}
		}
		runs := shuffleRuns(src.Bits())
		// EXPECT lines follow the runs in order; each run's lines start at IDX 0.
		ri := -1
		var got []uint64
		flush := func() {
			if ri < 0 {
				return
			}
			r := runs[ri]
			inv := r.G * r.L
			lanes := func(t subgroup.Type, b []byte) []uint64 {
				out := make([]uint64, inv*t.Components)
				for i := range out {
					for k := 0; k < t.Width/8; k++ {
						out[i] |= uint64(b[i*t.Width/8+k]) << (8 * k)
					}
				}
				return out
			}
			srcL := lanes(src, raw[:inv*src.Bits()/8])
			dstL := make([]uint64, inv*dst.Components)
			for g := 0; g < inv/r.N; g++ {
				if err := subgroup.BitcastShuffle(dstL[g*r.N*dst.Components:(g+1)*r.N*dst.Components],
					srcL[g*r.N*src.Components:(g+1)*r.N*src.Components], src, dst, r.N); err != nil {
					t.Fatal(err)
				}
			}
			b := make([]byte, inv*dst.Bits()/8)
			for i, v := range dstL {
				for k := 0; k < dst.Width/8; k++ {
					b[i*dst.Width/8+k] = byte(v >> (8 * k))
				}
			}
			want := words(b, eb)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s run N=%d: EXPECT values differ from subgroup.BitcastShuffle", name, r.N)
			}
			checked++
		}
		for _, e := range p.expects {
			if e.offset == 0 {
				flush()
				ri++
				got = nil
				if ri >= len(runs) {
					t.Fatalf("%s: more runs than %d", name, len(runs))
				}
			}
			got = append(got, e.values...)
		}
		flush()
		if ri != len(runs)-1 {
			t.Errorf("%s: %d runs checked, want %d", name, ri+1, len(runs))
		}
	}
	if checked == 0 {
		t.Fatal("nothing checked")
	}
}

// TestSupportedPairs: the 40 directed pairs are exactly the 20 rows of the
// table, both ways, and every REQUIRED_SIZE from 1 to 32 is covered.
func TestSupportedPairs(t *testing.T) {
	pairs, err := supportedPairs()
	if err != nil {
		t.Fatal(err)
	}
	set := map[string]bool{}
	for _, p := range pairs {
		set[p[0].String()+">"+p[1].String()] = true
	}
	for _, p := range pairs {
		if !set[p[1].String()+">"+p[0].String()] {
			t.Errorf("%s -> %s has no reverse", p[0], p[1])
		}
		if p[0].Components == p[1].Components || p[0].Bits() != p[1].Bits() {
			t.Errorf("bad pair %s -> %s", p[0], p[1])
		}
	}
	sizes := map[int]bool{}
	for _, bits := range []int{16, 32, 64, 128, 256, 512} {
		for _, r := range shuffleRuns(bits) {
			if r.L%r.N != 0 {
				t.Errorf("local size %d is not a multiple of %d", r.L, r.N)
			}
			sizes[r.N] = true
		}
	}
	for _, n := range []int{1, 4, 8, 16, 32} {
		if !sizes[n] {
			t.Errorf("no run at subgroup size %d", n)
		}
	}
	// The shader declares the extension and capability.
	sh := shuffleShader(subgroup.U(8, 16), subgroup.U(64, 2))
	for _, w := range []string{`OpExtension "SPV_INTEL_subgroup_bitcast_shuffle"`, "OpCapability SubgroupBitcastShuffleINTEL",
		"OpCapability Int8", "OpCapability Int64", "OpCapability LongVectorEXT", `OpExtension "SPV_EXT_long_vector"`} {
		if !strings.Contains(sh, w) {
			t.Errorf("shader lacks %s", w)
		}
	}
}
