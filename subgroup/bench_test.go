package subgroup

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// benchData bytes of subgroup data per benchmark iteration: many subgroups
// (512 of N = 16 for u32), in L1 with the result, so the figures measure
// the shuffle and the per-call cost, not memory.
const benchData = 16 << 10

// benchPairs: splits and merges at every width ratio, small and large
// invocations.
var benchPairs = [][2]Type{
	{U(16, 1), U(8, 2)}, {U(32, 1), U(16, 2)}, {U(16, 2), U(32, 1)}, {U(32, 1), U(8, 4)},
	{U(64, 1), U(8, 8)}, {U(8, 8), U(64, 1)}, {U(32, 4), U(8, 16)}, {U(8, 16), U(32, 4)},
	{U(16, 16), U(64, 4)}, {U(64, 8), U(32, 16)}, {U(32, 16), U(64, 8)},
}

var benchSizes = []int{8, 16, 32}

// BenchmarkBitcastShuffleBytes shuffles benchData bytes one subgroup per
// call, as an executor running subgroup after subgroup would. MB/s counts
// result bytes, which equal the data bytes.
func BenchmarkBitcastShuffleBytes(b *testing.B) {
	for _, p := range benchPairs {
		for _, n := range benchSizes {
			sub := n * p[0].Bits() / 8
			b.Run(fmt.Sprintf("%v_to_%v/N=%d", p[0], p[1], n), func(b *testing.B) {
				src := packBytes(randomData(rand.New(rand.NewPCG(1, 1)), p[0], benchData/sub*n), p[0])
				dst := make([]byte, len(src))
				b.SetBytes(int64(len(dst)))
				b.ReportAllocs()
				for b.Loop() {
					for off := 0; off < len(src); off += sub {
						_ = BitcastShuffleBytes(dst[off:off+sub], src[off:off+sub], p[0], p[1], n)
					}
				}
			})
		}
	}
}

// BenchmarkBitcastShuffleBytesBatch shuffles the same data in one call.
func BenchmarkBitcastShuffleBytesBatch(b *testing.B) {
	for _, p := range benchPairs {
		n := 16
		b.Run(fmt.Sprintf("%v_to_%v/N=%d", p[0], p[1], n), func(b *testing.B) {
			sub := n * p[0].Bits() / 8
			src := packBytes(randomData(rand.New(rand.NewPCG(1, 1)), p[0], benchData/sub*n), p[0])
			dst := make([]byte, len(src))
			b.SetBytes(int64(len(dst)))
			b.ReportAllocs()
			for b.Loop() {
				_ = BitcastShuffleBytes(dst, src, p[0], p[1], n)
			}
		})
	}
}

// BenchmarkBitcastShuffle runs the []uint64 form over the same subgroups,
// one call each. MB/s counts the uint64 slots written (8 bytes per result
// component, what the copy baseline moves); data-MB/s the subgroup data.
func BenchmarkBitcastShuffle(b *testing.B) {
	for _, p := range benchPairs {
		for _, n := range benchSizes {
			b.Run(fmt.Sprintf("%v_to_%v/N=%d", p[0], p[1], n), func(b *testing.B) {
				groups := benchData / (n * p[0].Bits() / 8)
				cs, cd := n*p[0].Components, n*p[1].Components
				src := randomData(rand.New(rand.NewPCG(1, 1)), p[0], groups*n)
				dst := make([]uint64, groups*cd)
				b.SetBytes(int64(len(dst) * 8))
				b.ReportAllocs()
				for b.Loop() {
					for g := range groups {
						_ = BitcastShuffle(dst[g*cd:(g+1)*cd], src[g*cs:(g+1)*cs], p[0], p[1], n)
					}
				}
				b.ReportMetric(float64(b.N)*benchData/b.Elapsed().Seconds()/1e6, "data-MB/s")
			})
		}
	}
}

// BenchmarkCopy is the yardstick: copy() of the same result bytes, in the
// same pieces. bytes=K copies benchData bytes K at a time (one subgroup of
// the packed form); slots=K copies K uint64 slots at a time, 8 bytes each.
func BenchmarkCopy(b *testing.B) {
	for _, k := range []int{16, 32, 64, 128, 256, 512, 1024, 2048, benchData} {
		b.Run(fmt.Sprintf("bytes=%d", k), func(b *testing.B) {
			src, dst := make([]byte, benchData), make([]byte, benchData)
			b.SetBytes(benchData)
			for b.Loop() {
				for off := 0; off < benchData; off += k {
					copy(dst[off:off+k], src[off:off+k])
				}
			}
		})
	}
	for _, k := range []int{8, 16, 32, 64, 128, 256, 512} {
		b.Run(fmt.Sprintf("slots=%d", k), func(b *testing.B) {
			const slots = benchData // as many slots as a u8-result shuffle of benchData bytes writes
			src, dst := make([]uint64, slots), make([]uint64, slots)
			b.SetBytes(slots * 8)
			for b.Loop() {
				for off := 0; off < slots; off += k {
					copy(dst[off:off+k], src[off:off+k])
				}
			}
		})
	}
}
