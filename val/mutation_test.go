package val

import (
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"spvx/internal/oracle"
	"spvx/spirv"
)

// TestMutationDifferential mutates corpus modules' text (drop a
// capability, extension, decoration or name; duplicate a decoration; swap
// two type declarations), assembles each mutant with Debian's spirv-as and
// compares verdicts with Debian's spirv-val. A rejection only we make must
// be a rule of current spirv-val that the 2023.1 oracle lacks (listed in
// newerRules); anything else fails the test. Agreement figures are logged.
func TestMutationDifferential(t *testing.T) {
	as := oracle.Require(t, "spirv-as")
	sv := oracle.Require(t, "spirv-val")
	files, _ := filepath.Glob(filepath.Join(sharedDir, "corpus/asm/*.spvasm"))
	if len(files) == 0 {
		t.Skip("corpus not found")
	}
	var small []string
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil && fi.Size() < 6000 {
			small = append(small, f)
		}
	}
	sort.Strings(small)
	rng := rand.New(rand.NewSource(7))
	rng.Shuffle(len(small), func(i, j int) { small[i], small[j] = small[j], small[i] })
	// Current spirv-val rejects a decoration applied twice to one id for
	// every decoration but UserSemantic and FuncParamAttr; 2023.1 checked
	// only a few (the corpus's invalid modules show current's verdict).
	newerRules := []string{"multiple times is not allowed."}
	dir := t.TempDir()
	src, bin := filepath.Join(dir, "m.spvasm"), filepath.Join(dir, "m.spv")
	var total, bothAcc, bothRej, sameMsg, oursOnly, theirsOnly int
	kinds := []string{"dropcap", "dupdec", "dropdec", "swap", "dropext", "dropname"}
	for _, f := range small[:min(100, len(small))] {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(text), "\n")
		for range 3 {
			kind := kinds[rng.Intn(len(kinds))]
			var idx []int
			for i, l := range lines {
				switch {
				case kind == "dropcap" && strings.Contains(l, "OpCapability"),
					(kind == "dupdec" || kind == "dropdec") && strings.Contains(l, "OpDecorate"),
					kind == "dropext" && strings.Contains(l, "OpExtension"),
					kind == "dropname" && strings.Contains(l, "OpName"),
					kind == "swap" && strings.Contains(l, "= OpType") && i+1 < len(lines):
					idx = append(idx, i)
				}
			}
			if len(idx) == 0 {
				continue
			}
			i := idx[rng.Intn(len(idx))]
			m := append([]string(nil), lines...)
			switch kind {
			case "dupdec":
				m = append(m[:i+1], m[i:]...)
			case "swap":
				m[i], m[i+1] = m[i+1], m[i]
			default:
				m = append(m[:i], m[i+1:]...)
			}
			if err := os.WriteFile(src, []byte(strings.Join(m, "\n")), 0o666); err != nil {
				t.Fatal(err)
			}
			if _, _, ok := oracle.Exec(t, as, nil, src, "-o", bin); !ok {
				continue
			}
			b, err := os.ReadFile(bin)
			if err != nil {
				t.Fatal(err)
			}
			mod, err := spirv.Decode(b)
			if err != nil {
				continue
			}
			total++
			_, theirs, theyAccept := oracle.Exec(t, sv, nil, bin)
			ours := ""
			if err := Validate(mod, Options{}); err != nil {
				e := err.(ErrorList)[0]
				ours = "error: line " + itoa(e.Line()) + ": " + e.Error()
			}
			theirFirst, _, _ := strings.Cut(string(theirs), "\n")
			switch {
			case theyAccept && ours == "":
				bothAcc++
			case !theyAccept && ours != "":
				bothRej++
				if theirFirst == strings.SplitN(ours, "\n", 2)[0] {
					sameMsg++
				}
			case ours != "":
				oursOnly++
				known := false
				for _, r := range newerRules {
					known = known || strings.Contains(ours, r)
				}
				if !known {
					t.Errorf("%s (%s): we reject what spirv-val accepts: %s", filepath.Base(f), kind, ours)
				}
			default:
				theirsOnly++
			}
		}
	}
	t.Logf("%d mutants: both accept %d, both reject %d (same first line %d), only we reject %d (newer rules), only spirv-val rejects %d",
		total, bothAcc, bothRej, sameMsg, oursOnly, theirsOnly)
}
