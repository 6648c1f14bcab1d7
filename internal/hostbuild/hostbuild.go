// Package hostbuild builds the small C host programs through which spvx's
// tests drive independent implementations (an OpenCL runtime, a Vulkan
// driver). spvx has no cgo: a host is compiled with gcc when a test first
// needs it, cached by its source's hash, and run as a process.
package hostbuild

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
)

// CacheDir is where built hosts and the oracles' caches are kept between
// runs: $SPVX_ORACLE_CACHE, or spvx-oracles in the user's cache directory.
func CacheDir() string {
	if d := os.Getenv("SPVX_ORACLE_CACHE"); d != "" {
		return d
	}
	d, err := os.UserCacheDir()
	if err != nil {
		d = os.TempDir()
	}
	return filepath.Join(d, "spvx-oracles")
}

var built sync.Map // name+hash -> *result

type result struct {
	once sync.Once
	path string
	err  error
}

// Build compiles the C source src into an executable named after name and
// the source's hash, linking libs (as "-lOpenCL"), once per process and
// once per source on the machine. header is a header file the source needs
// (for example "/usr/include/CL/cl.h"); when it is absent, Build says which
// Debian package provides it (pkg).
func Build(name string, src []byte, header, pkg string, libs ...string) (string, error) {
	sum := sha256.Sum256(src)
	key := name + "-" + hex.EncodeToString(sum[:6])
	v, _ := built.LoadOrStore(key, &result{})
	r := v.(*result)
	r.once.Do(func() { r.path, r.err = build(key, src, header, pkg, libs) })
	return r.path, r.err
}

func build(key string, src []byte, header, pkg string, libs []string) (string, error) {
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		return "", errors.New("gcc not found: cannot build the test host " + key)
	}
	if _, err := os.Stat(header); err != nil {
		return "", fmt.Errorf("%s not found (Debian: %s)", header, pkg)
	}
	dir := CacheDir()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	bin := filepath.Join(dir, key)
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	cfile := bin + ".c"
	if err := os.WriteFile(cfile, src, 0o644); err != nil {
		return "", err
	}
	tmp := fmt.Sprintf("%s.%d", bin, os.Getpid())
	args := append([]string{"-O1", "-o", tmp, cfile}, libs...)
	if out, err := exec.Command(gcc, args...).CombinedOutput(); err != nil {
		return "", fmt.Errorf("building %s: %v\n%s", key, err, out)
	}
	return bin, os.Rename(tmp, bin)
}
