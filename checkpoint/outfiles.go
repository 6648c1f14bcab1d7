package checkpoint

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"spvx/internal/tensorfile"
)

// CreateOutput creates the output file name, for writing. Without force
// an existing file is an error, never truncated: a shard index chooses
// output names, and one naming OUTDIR/.bashrc replaced that file; a
// mistyped -o replaced the user's data. O_EXCL makes the check and the
// creation one step. Every file spvx mx writes is created by it. A device
// or a FIFO (/dev/null) is written, not refused: it is no file to lose.
func CreateOutput(name string, force bool) (*os.File, error) {
	flag := os.O_RDWR | os.O_CREATE | os.O_EXCL
	if force {
		flag = os.O_RDWR | os.O_CREATE | os.O_TRUNC
	}
	f, err := os.OpenFile(name, flag, 0o644)
	if errors.Is(err, fs.ErrExist) {
		if isDevice(name) {
			return os.OpenFile(name, os.O_RDWR, 0)
		}
		return nil, existsError(name)
	}
	return f, err
}

// RemoveFailed removes an output f, named name, whose writing failed, if
// it is a regular file: never a device such as /dev/null. Call it before
// closing f.
func RemoveFailed(f *os.File, name string) {
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		os.Remove(name)
	}
}

// isDevice reports whether name is an existing device or FIFO (through
// symbolic links), such as /dev/null: writing to one truncates no file,
// so it is not refused.
func isDevice(name string) bool {
	st, err := os.Stat(name)
	return err == nil && st.Mode()&(fs.ModeDevice|fs.ModeCharDevice|fs.ModeNamedPipe) != 0
}

func existsError(name string) error {
	return fmt.Errorf("%s exists; use --force to overwrite", name)
}

// writeOutput writes a whole output file (an index) under CreateOutput's
// rule.
func writeOutput(name string, b []byte, force bool) error {
	f, err := CreateOutput(name, force)
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// CheckOutputsFree fails, before any work, if an output exists and force
// is not set, so that a sharded run does not stop halfway, and a long
// run does not fail at its end. CreateOutput still makes the decision.
func CheckOutputsFree(names []string, force bool) error {
	if force {
		return nil
	}
	for _, n := range names {
		if _, err := os.Lstat(n); err == nil && !isDevice(n) {
			return existsError(n)
		}
	}
	return nil
}

// hfShardName matches the shard names Hugging Face writes:
// PREFIX-00001-of-00003.safetensors, the prefix a plain name such as
// "model" or "diffusion_pytorch_model".
var hfShardName = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]*-[0-9]{5,}-of-[0-9]{5,}\.safetensors$`)

// outputShardNames chooses the output file name of each input shard
// (sorted, as x.Shards gives them). Input names of Hugging Face's form
// are kept; if any is not of that form, every output shard is named by
// spvx from the output index: OUT-00001-of-0000N.safetensors for
// OUT.safetensors.index.json. So an index can never choose an arbitrary
// output name (.bashrc, a file of the user's beside the output).
func outputShardNames(shards []string, outIndex string) []string {
	keep := true
	for _, s := range shards {
		keep = keep && hfShardName.MatchString(s)
	}
	if keep {
		return shards
	}
	base := strings.TrimSuffix(filepath.Base(outIndex), ".index.json")
	base = strings.TrimSuffix(base, ".safetensors")
	if base == "" || !hfShardName.MatchString(base+"-00001-of-00001.safetensors") {
		base = "model"
	}
	out := make([]string, len(shards))
	for i := range shards {
		out[i] = fmt.Sprintf("%s-%05d-of-%05d.safetensors", base, i+1, len(shards))
	}
	return out
}

// checkShardsHold checks that every tensor the index assigns to a shard
// is in that shard's header: an index naming a tensor its shard lacks is
// damaged, and the tensor would silently go missing from the output.
func checkShardsHold(x *tensorfile.ShardIndex, jobs []job) error {
	want := map[string][]string{}
	for name, shard := range x.WeightMap {
		want[shard] = append(want[shard], name)
	}
	for _, j := range jobs {
		in, err := openInput(j.in)
		if err != nil {
			return err
		}
		in.f.Close()
		for _, name := range want[filepath.Base(j.in)] {
			if in.h.Tensor(name) == nil {
				return fmt.Errorf("%s: the shard index names tensor %q in this shard, which does not hold it", j.in, name)
			}
		}
	}
	return nil
}
