package amber

import (
	"fmt"
	"strings"
	"testing"
)

// amberPipe is a script with a buffer b and a compute pipeline p whose
// BIND line (line 8) ends with bind; more follows the pipeline.
func amberPipe(bind, more string) string {
	return "#!amber\nDEVICE_FEATURE SubgroupSizeControl.subgroupSizeControl\nSHADER compute s GLSL\nvoid main() {}\nEND\n" +
		"BUFFER b DATA_TYPE uint32 SIZE 4 FILL 0\nPIPELINE compute p\n  ATTACH s\n  BIND BUFFER b AS " + bind + "\nEND\n" + more
}

// vkPipe is a VkScript whose [test] section is test, starting at line 4.
func vkPipe(require, test string) string {
	return "[require]\n" + require + "\n[compute shader spirv]\nOpNop\n[test]\n" + test
}

// numberCase is one numeric field with a value: want is "" when the
// script parses, else the error's text after "FILE:LINE: ".
type numberCase struct {
	field, src, want string
	line             int
}

// amberNumberCases has, per AmberScript numeric field, a value just out
// of its range (an error naming the token and the range) and the edge
// value in range.
func amberNumberCases() []numberCase {
	buf := func(ty, init string) string { return "#!amber\nBUFFER x DATA_TYPE " + ty + " " + init + "\n" }
	data := func(ty, v string) string { return buf(ty, "DATA\n"+v+"\nEND") }
	cs := []numberCase{
		{"SIZE", buf("uint8", "SIZE 4294967297 FILL 0"), "BUFFER size invalid: 4294967297 (out of range for uint32)", 2},
		{"SIZE", buf("uint8", "SIZE 4294967295 FILL 0"), "BUFFER too large: the script's buffers would exceed 1073741824 bytes", 2},
		{"SIZE beyond 64 bits", buf("uint8", "SIZE 99999999999999999999 FILL 0"), "BUFFER size invalid: 99999999999999999999 (out of range for uint32)", 2},
		{"WIDTH", buf("uint8", "WIDTH 4294967296 HEIGHT 1"), "expected an integer for WIDTH: 4294967296 (out of range for uint32)", 2},
		{"HEIGHT", buf("uint8", "WIDTH 1 HEIGHT 4294967296"), "expected an integer for HEIGHT: 4294967296 (out of range for uint32)", 2},
		{"WIDTH HEIGHT", buf("uint8", "WIDTH 65536 HEIGHT 1"), "", 0},
		{"FILL float", buf("float", "SIZE 1 FILL 1.0e39"), "invalid BUFFER fill value: 1.0e39 (out of range for float)", 2},
		{"FILL float", buf("float", "SIZE 1 FILL 3.4028234e38"), "", 0},
		{"FILL double", buf("double", "SIZE 1 FILL 1.0e309"), "invalid BUFFER fill value: 1.0e309 (out of range for double)", 2},
		{"FILL double", buf("double", "SIZE 1 FILL 1.0e308"), "", 0},
		{"FILL float16", buf("float16", "SIZE 1 FILL 65536"), "invalid BUFFER fill value: 65536 (out of range for float16)", 2},
		{"FILL float16", buf("float16", "SIZE 1 FILL 65535.9"), "", 0},
		{"SERIES_FROM", buf("int16", "SIZE 2 SERIES_FROM -32769 INC_BY 1"), "invalid BUFFER series_from value: -32769 (out of range for int16)", 2},
		{"SERIES_FROM", buf("int16", "SIZE 2 SERIES_FROM -32768 INC_BY 1"), "", 0},
		{"INC_BY", buf("uint32", "SIZE 2 SERIES_FROM 0 INC_BY 4294967296"), "invalid BUFFER series_from inc_by value: 4294967296 (out of range for uint32)", 2},
		{"INC_BY", buf("uint32", "SIZE 2 SERIES_FROM 0 INC_BY 4294967295"), "", 0},
		{"DATA double", data("double", "-1.0e400"), "invalid BUFFER data value: -1.0e400 (out of range for double)", 3},
		{"DATA hex", data("uint16", "0x10000"), "invalid BUFFER data value: 0x10000 (out of range for uint16)", 3},
		{"DATA hex", data("int16", "0xffff"), "", 0},
		{"DATA int64", data("int64", "-9223372036854775809"), "invalid BUFFER data value: -9223372036854775809 (out of range for int64)", 3},
		{"DATA int64", data("int64", "-9223372036854775808"), "", 0},
		{"DATA uint64", data("uint64", "18446744073709551616"), "invalid BUFFER data value: 18446744073709551616 (out of range for uint64)", 3},
		{"DATA uint64", data("uint64", "18446744073709551615"), "", 0},
		{"DATA vec", data("vec2<float>", "1 2\n3 1.0e39"), "invalid BUFFER data value: 1.0e39 (out of range for float)", 4},
		{"SET fence_timeout_ms", "#!amber\nSET ENGINE_DATA fence_timeout_ms 4294967296\n", "SET invalid value for fence_timeout_ms, must be uint32: 4294967296 (out of range for uint32)", 2},
		{"SET fence_timeout_ms", "#!amber\nSET ENGINE_DATA fence_timeout_ms 4294967295\n", "", 0},
		{"DESCRIPTOR_SET", amberPipe("storage DESCRIPTOR_SET 4294967296 BINDING 0", ""), "invalid value for DESCRIPTOR_SET in BIND command: 4294967296 (out of range for uint32)", 9},
		{"DESCRIPTOR_SET", amberPipe("storage DESCRIPTOR_SET 4294967295 BINDING 0", ""), "", 0},
		{"BINDING", amberPipe("storage DESCRIPTOR_SET 0 BINDING -1", ""), "invalid value for BINDING in BIND command: -1 (out of range for uint32)", 9},
		{"BINDING", amberPipe("storage DESCRIPTOR_SET 0 BINDING 4294967295", ""), "", 0},
		{"OFFSET", amberPipe("storage_dynamic DESCRIPTOR_SET 0 BINDING 0 OFFSET 4294967296", ""), "invalid value for OFFSET: 4294967296 (out of range for uint32)", 9},
		{"DESCRIPTOR_RANGE", amberPipe("storage DESCRIPTOR_SET 0 BINDING 0 DESCRIPTOR_RANGE 9223372036854775808", ""), "invalid value for DESCRIPTOR_RANGE: 9223372036854775808 (out of range for a byte range)", 9},
		{"DESCRIPTOR_RANGE", amberPipe("storage DESCRIPTOR_SET 0 BINDING 0 DESCRIPTOR_RANGE 4", ""), "", 0},
		{"DESCRIPTOR_OFFSET", amberPipe("storage DESCRIPTOR_SET 0 BINDING 0 DESCRIPTOR_OFFSET 99999999999999999999", ""), "invalid value for DESCRIPTOR_OFFSET: 99999999999999999999 (out of range for a byte offset)", 9},
		{"RUN X", amberPipe("storage DESCRIPTOR_SET 0 BINDING 0", "RUN p 4294967297 1 1\n"), "invalid token in RUN command: 4294967297 (out of range for uint32)", 11},
		{"RUN Z", amberPipe("storage DESCRIPTOR_SET 0 BINDING 0", "RUN p 1 1 4294967296\n"), "invalid parameter for RUN command: 4294967296 (out of range for uint32)", 11},
		{"RUN", amberPipe("storage DESCRIPTOR_SET 0 BINDING 0", "RUN p 4294967295 1 1\n"), "", 0},
		{"REPEAT", amberPipe("storage DESCRIPTOR_SET 0 BINDING 0", "REPEAT 4294967297\nRUN p 1 1 1\nEND\n"), "invalid count parameter for REPEAT command: 4294967297 (out of range for int32)", 11},
		{"REPEAT", amberPipe("storage DESCRIPTOR_SET 0 BINDING 0", "REPEAT 2147483647\nRUN p 1 1 1\nEND\n"), "", 0},
		{"EXPECT IDX", amberPipe("storage DESCRIPTOR_SET 0 BINDING 0", "EXPECT b IDX 4294967300 EQ 0\n"), "invalid X value in EXPECT command: 4294967300 (out of range for int32)", 11},
		{"EXPECT IDX", amberPipe("storage DESCRIPTOR_SET 0 BINDING 0", "EXPECT b IDX 12 EQ 0\n"), "", 0},
		{"EXPECT value", amberPipe("storage DESCRIPTOR_SET 0 BINDING 0", "EXPECT b IDX 0 EQ 4294967296\n"), "Invalid value provided to EXPECT command: 4294967296 (out of range for uint32)", 11},
		{"EXPECT value", amberPipe("storage DESCRIPTOR_SET 0 BINDING 0", "EXPECT b IDX 0 EQ 4294967295\n"), "", 0},
		{"TOLERANCE", amberPipe("storage DESCRIPTOR_SET 0 BINDING 0", "EXPECT b IDX 0 TOLERANCE 1.0e999 EQ 0\n"), "invalid value for TOLERANCE: 1.0e999 (out of range for double)", 11},
		{"TOLERANCE", amberPipe("storage DESCRIPTOR_SET 0 BINDING 0", "EXPECT b IDX 0 TOLERANCE 1.0e308 EQ 0\n"), "", 0},
		{"RMSE TOLERANCE", amberPipe("storage DESCRIPTOR_SET 0 BINDING 0", "EXPECT b RMSE_BUFFER b TOLERANCE 1.0e39\n"), "invalid TOLERANCE for EXPECT RMSE_BUFFER: 1.0e39 (out of range for float)", 11},
		{"REQUIRED_SIZE", amberPipe("storage DESCRIPTOR_SET 0 BINDING 0", "PIPELINE compute q\n  ATTACH s\n  SUBGROUP s\n    REQUIRED_SIZE 4294967300\n  END\nEND\n"), "invalid size for REQUIRED_SIZE command: 4294967300 (must be a power of two from 1 to 128)", 14},
		{"REQUIRED_SIZE", amberPipe("storage DESCRIPTOR_SET 0 BINDING 0", "PIPELINE compute q\n  ATTACH s\n  SUBGROUP s\n    REQUIRED_SIZE 128\n  END\nEND\n"), "", 0},
		{"SPECIALIZE id", "#!amber\nSHADER compute s GLSL\nvoid main() {}\nEND\nPIPELINE compute p\n  ATTACH s SPECIALIZE 4294967296 AS uint32 1\nEND\n", "specialization ID must be an integer: 4294967296 (out of range for uint32)", 6},
		{"SPECIALIZE value", "#!amber\nSHADER compute s GLSL\nvoid main() {}\nEND\nPIPELINE compute p\n  ATTACH s SPECIALIZE 1 AS int8 128\nEND\n", "", 0},
		{"SPECIALIZE value", "#!amber\nSHADER compute s GLSL\nvoid main() {}\nEND\nPIPELINE compute p\n  ATTACH s SPECIALIZE 1 AS int8 256\nEND\n", "invalid value for SPECIALIZE: 256 (out of range for int8)", 6},
	}
	// Every integer width at both ends, as DATA values.
	for _, w := range []int{8, 16, 32} {
		lo, hi := -(int64(1) << (w - 1)), uint64(1)<<w-1
		for _, k := range []string{"int", "uint"} {
			ty := fmt.Sprintf("%s%d", k, w)
			cs = append(cs,
				numberCase{"DATA " + ty, data(ty, fmt.Sprint(hi+1)), fmt.Sprintf("invalid BUFFER data value: %d (out of range for %s)", hi+1, ty), 3},
				numberCase{"DATA " + ty, data(ty, fmt.Sprint(lo-1)), fmt.Sprintf("invalid BUFFER data value: %d (out of range for %s)", lo-1, ty), 3},
				numberCase{"DATA " + ty, data(ty, fmt.Sprint(hi)+" "+fmt.Sprint(lo)), "", 0})
		}
	}
	return cs
}

// vkNumberCases is amberNumberCases for VkScript.
func vkNumberCases() []numberCase {
	ssbo := "ssbo 0:0 subdata int 0 1\n"
	return []numberCase{
		{"compute", vkPipe("", "compute 4294967296 1 1\n"), "Missing integer value for compute X entry: 4294967296 (out of range for uint32)", 6},
		{"compute", vkPipe("", "compute 1 1 4294967295\n"), "", 0},
		{"ssbo size", vkPipe("", "ssbo 0 4294967297\n"), "Invalid size value for ssbo command: 4294967297 (out of range for uint32)", 6},
		{"ssbo size", vkPipe("", "ssbo 0 4096\n"), "", 0},
		{"ssbo binding", vkPipe("", "ssbo 4294967296 4\n"), "Invalid binding value for ssbo command: 4294967296 (out of range for uint32)", 6},
		{"ssbo binding", vkPipe("", "ssbo 4294967295 4\n"), "", 0},
		{"subdata offset", vkPipe("", "ssbo 0 subdata int 4294967296 1\n"), "Invalid offset for ssbo command: 4294967296 (out of range for int32)", 6},
		{"subdata offset", vkPipe("", "ssbo 0 subdata int 4 1\n"), "", 0},
		{"subdata value", vkPipe("", "ssbo 0 subdata int8_t 0 -129\n"), "Invalid value provided to ssbo command: -129 (out of range for int8)", 6},
		{"subdata value", vkPipe("", "ssbo 0 subdata int8_t 0 -128 255\n"), "", 0},
		{"subdata float", vkPipe("", "ssbo 0 subdata float 0 1.0e39\n"), "Invalid value provided to ssbo command: 1.0e39 (out of range for float)", 6},
		{"subdata double", vkPipe("", "ssbo 0 subdata double 0 1.0e300\n"), "", 0},
		{"uniform offset", vkPipe("", "uniform ubo 0:1 int 4294967296 1\n"), "Invalid offset value for uniform command: 4294967296 (out of range for int32)", 6},
		{"probe offset", vkPipe("", ssbo+"probe ssbo int 0 4294967296 == 1\n"), "Invalid offset for probe ssbo command: 4294967296 (out of range for uint32)", 7},
		{"probe value", vkPipe("", ssbo+"probe ssbo int 0 0 == 4294967296\n"), "Invalid value provided to probe ssbo command: 4294967296 (out of range for int32)", 7},
		{"probe value", vkPipe("", ssbo+"probe ssbo int 0 0 == 4294967295\n"), "", 0},
		{"tolerance", vkPipe("", "tolerance 1.0e400\n"), "Invalid value for tolerance command: 1.0e400 (out of range for double)", 6},
		{"tolerance", vkPipe("", "tolerance 1.0e300\n"), "", 0},
		{"fence_timeout", vkPipe("fence_timeout 4294967296", ""), "Missing fence_timeout value: 4294967296 (out of range for uint32)", 2},
		{"fence_timeout", vkPipe("fence_timeout 4294967295", ""), "", 0},
		{"subgroupSize", vkPipe("subgroupSize 4294967300", ""), "invalid size for subgroupSize: 4294967300 (must be a power of two from 1 to 128)", 2},
		{"subgroupSize", vkPipe("subgroupSize 4", ""), "", 0},
	}
}

// TestNumbersAtFullRange checks issue 20: every numeric field is read at
// its full range, so a value that does not fit is a FILE:LINE: error
// naming it (SIZE 4294967297 made a 1-element buffer), and the edge value
// that fits is accepted.
func TestNumbersAtFullRange(t *testing.T) {
	run := func(file string, cs []numberCase) {
		for _, c := range cs {
			_, err := Parse(file, []byte(c.src), ParseOptions{})
			want := ""
			if c.want != "" {
				want = fmt.Sprintf("%s:%d: %s", file, c.line, c.want)
			}
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != want {
				t.Errorf("%s %s:\n got %q\nwant %q\nscript:\n%s", file, c.field, got, want, strings.TrimSpace(c.src))
			}
		}
	}
	run("n.amber", amberNumberCases())
	run("n.vkscript", vkNumberCases())
}
