package amber

import (
	"strings"
	"testing"
)

// TestDeviceCoopMat checks that the device declares cooperative matrices:
// the feature and extension a script requires, and a property list at
// Subgroup scope whose entries --device-info prints.
func TestDeviceCoopMat(t *testing.T) {
	d := DefaultDevice()
	reqs := append(req("feature", "CooperativeMatrixFeaturesKHR.cooperativeMatrix"), req("extension", "VK_KHR_cooperative_matrix")...)
	if m := d.Missing(reqs); len(m) != 0 {
		t.Errorf("device lacks %v", m)
	}
	if len(d.CoopMat) == 0 {
		t.Fatal("no cooperative matrix properties")
	}
	var b strings.Builder
	d.Print(&b)
	for _, want := range []string{"cooperative matrix properties (36;", "  16 16 16 FLOAT16 FLOAT16 FLOAT32 FLOAT32 false SUBGROUP\n",
		"  8 8 32 SINT8 SINT8 SINT32 SINT32 true SUBGROUP\n", "  16 8 16 FLOAT8_E4M3_EXT FLOAT8_E4M3_EXT FLOAT16 FLOAT16 false SUBGROUP\n",
		"Intel subgroup matrix multiply-accumulate (SPV_INTEL_subgroup_matrix_multiply_accumulate rev 1, Kernel):\n  subgroup sizes 8 16 32;",
		"Intel 2D block I/O (SPV_INTEL_2d_block_io rev 2, Kernel):\n"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("--device-info lacks %q", want)
		}
	}
	for _, p := range d.CoopMat {
		if p.Scope != "SUBGROUP" || p.M*p.N > 1<<16 || p.A != p.B || p.C != p.Result {
			t.Errorf("property %+v", p)
		}
	}
}
