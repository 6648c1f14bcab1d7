package checkpoint

import (
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"spvx/internal/tensorfile"
	"spvx/mx"
)

// writeBigCheckpoint streams a checkpoint of about 210 MB to path without
// holding it in memory: bf16 and f32 tensors of several shapes, one of
// them with rows that are not whole blocks. It returns the largest
// tensor's size.
func writeBigCheckpoint(t *testing.T, path string) (largest int64) {
	type spec struct {
		name  string
		dtype string
		shape []int
	}
	var specs []spec
	for i := 0; i < 5; i++ {
		specs = append(specs, spec{fmt.Sprintf("model.layers.%d.mlp.w", i), "BF16", []int{4096, 4096}})
	}
	specs = append(specs,
		spec{"model.embed", "F32", []int{4096, 2048}},
		spec{"model.odd", "F32", []int{1000, 3001}},
		spec{"model.layers.0.norm", "F32", []int{4096}},
		spec{"model.head", "BF16", []int{8, 32, 1024}},
	)
	var infos []tensorfile.TensorInfo
	for _, s := range specs {
		n := 1
		for _, d := range s.shape {
			n *= d
		}
		es, _ := tensorfile.DTypeSize(s.dtype)
		infos = append(infos, tensorfile.TensorInfo{Name: s.name, DType: s.dtype, Shape: s.shape, Size: int64(n * es)})
		largest = max(largest, int64(n*es))
	}
	header, placed, total, err := tensorfile.PlanSafeTensors(infos, map[string]string{"format": "pt"})
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(header); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 1<<20)
	x := uint64(0x9E3779B97F4A7C15)
	for _, p := range placed {
		for left := p.Size; left > 0; {
			n := min(int64(len(buf)), left)
			es := 2
			if p.DType == "F32" {
				es = 4
			}
			for i := 0; i < int(n); i += es {
				x ^= x << 13
				x ^= x >> 7
				x ^= x << 17
				// Sign, an exponent within 2^-8..2^7, random mantissa.
				bits := uint32(x>>32)&0x807FFFFF | uint32(119+x%16)<<23
				if es == 2 {
					binary.LittleEndian.PutUint16(buf[i:], uint16(bits>>16))
				} else {
					binary.LittleEndian.PutUint32(buf[i:], bits)
				}
			}
			if _, err := f.Write(buf[:n]); err != nil {
				t.Fatal(err)
			}
			left -= n
		}
	}
	if st, _ := f.Stat(); st.Size() != total {
		t.Fatalf("wrote %d bytes, planned %d", st.Size(), total)
	}
	return largest
}

// TestBigCheckpointMemory quantizes a checkpoint of over 200 MB in a child
// process and checks its peak RSS stays below twice the largest tensor
// plus 100 MB: the tensors are streamed, never the file held.
func TestBigCheckpointMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 210 MB checkpoint")
	}
	dir := t.TempDir()
	in, out := filepath.Join(dir, "big.safetensors"), filepath.Join(dir, "big-mxfp4.safetensors")
	largest := writeBigCheckpoint(t, in)
	st, _ := os.Stat(in)
	if st.Size() < 200<<20 {
		t.Fatalf("checkpoint is %d bytes, want at least 200 MB", st.Size())
	}
	for _, format := range []string{"mxfp4", "mxfp8_e4m3"} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestQuantizeChild$")
		cmd.Env = append(os.Environ(), "SPVX_CHECKPOINT_CHILD="+in+","+out+","+format)
		start := time.Now()
		msg, err := cmd.CombinedOutput()
		elapsed := time.Since(start)
		if err != nil {
			t.Fatalf("%s: child: %v\n%s", format, err, msg)
		}
		ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
		peak := ru.Maxrss << 10 // kilobytes on Linux
		limit := 2*largest + 100<<20
		t.Logf("%s: %d MB checkpoint (largest tensor %d MB) quantized in %.2fs wall, %.2fs user; peak RSS %d MB (limit %d MB)",
			format, st.Size()>>20, largest>>20, elapsed.Seconds(), time.Duration(ru.Utime.Nano()).Seconds(), peak>>20, limit>>20)
		if peak > limit {
			t.Errorf("%s: peak RSS %d MB exceeds %d MB", format, peak>>20, limit>>20)
		}
		h, err := openInput(out)
		if err != nil {
			t.Fatal(err)
		}
		if h.h.Tensor("model.odd.scales") == nil || h.h.Tensor("model.layers.0.norm") == nil {
			t.Errorf("%s: output tensors %v", format, h.h.Tensors)
		}
		h.f.Close()
	}
}

// TestQuantizeChild is the child process of TestBigCheckpointMemory.
func TestQuantizeChild(t *testing.T) {
	args := os.Getenv("SPVX_CHECKPOINT_CHILD")
	if args == "" {
		t.Skip("run by TestBigCheckpointMemory")
	}
	p := strings.Split(args, ",")
	b, err := mx.ParseBlockFormat(p[2])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Quantize(p[0], p[1], Options{Format: b, Filter: Filter{Exclude: []string{"*.norm"}}, Stats: true, Force: true}); err != nil {
		t.Fatal(err)
	}
}
