package spirv_test

import (
	"fmt"
	"os"

	"spvx/spirv"
)

// Decode a module and walk its instructions.
func ExampleModule_All() {
	b, err := os.ReadFile("../examples/saxpy.spv")
	if err != nil {
		fmt.Println(err)
		return
	}
	m, err := spirv.Decode(b)
	if err != nil {
		fmt.Println(err)
		return
	}
	loads := 0
	for i, in := range m.All() {
		switch in.Opcode {
		case spirv.OpEntryPoint:
			fmt.Printf("instruction %d: entry point %q, function %%%d\n", i, in.String(2), in.Word(1))
		case spirv.OpLoad:
			loads++
		}
	}
	fmt.Println(m.Len(), "instructions,", loads, "loads")
	// Output:
	// instruction 5: entry point "main", function %4
	// 149 instructions, 15 loads
}
