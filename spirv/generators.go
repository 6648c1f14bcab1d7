package spirv

import "strconv"

// toolNames maps the tool id (the high 16 bits of the header's
// generator word) to the name spirv-dis prints: the vendor, then the tool
// when the Khronos registry (SPIRV-Headers include/spirv/spir-v.xml,
// "SPIR-V Tool ID Definitions") gives one. Ids the registry does not list
// print as "Unknown(<id>)". Indexed by tool id.
var toolNames = [...]string{
	0:  "Khronos",
	1:  "LunarG",
	2:  "Valve",
	3:  "Codeplay",
	4:  "NVIDIA",
	5:  "ARM",
	6:  "Khronos LLVM/SPIR-V Translator",
	7:  "Khronos SPIR-V Tools Assembler",
	8:  "Khronos Glslang Reference Front End",
	9:  "Qualcomm",
	10: "AMD",
	11: "Intel",
	12: "Imagination",
	13: "Google Shaderc over Glslang",
	14: "Google spiregg",
	15: "Google rspirv",
	16: "X-LEGEND Mesa-IR/SPIR-V Translator",
	17: "Khronos SPIR-V Tools Linker",
	18: "Wine VKD3D Shader Compiler",
	19: "Tellusim Clay Shader Compiler",
	20: "W3C WebGPU Group WHLSL Shader Translator",
	21: "Google Clspv",
	22: "LLVM MLIR SPIR-V Serializer",
	23: "Google Tint Compiler",
	24: "Google ANGLE Shader Compiler",
	25: "Netease Games Messiah Shader Compiler",
	26: "Xenia Xenia Emulator Microcode Translator",
	27: "Embark Studios Rust GPU Compiler Backend",
	28: "gfx-rs community Naga",
	29: "Mikkosoft Productions MSP Shader Compiler",
	30: "SpvGenTwo community SpvGenTwo SPIR-V IR Tools",
	31: "Google Skia SkSL",
	32: "TornadoVM Beehive SPIRV Toolkit",
	33: "DragonJoker ShaderWriter",
	34: "Rayan Hatout SPIRVSmith",
	35: "Saarland University Shady",
	36: "Taichi Graphics Taichi",
	37: "heroseh Hero C Compiler",
	38: "Meta SparkSL",
	39: "SirLynix Nazara ShaderLang Compiler",
	40: "Khronos Slang Compiler",
	41: "Zig Software Foundation Zig Compiler",
	42: "Rendong Liang spq",
	43: "LLVM LLVM SPIR-V Backend",
	44: "Robert Konrad Kongruent",
	45: "Kitsunebi Games Nuvk SPIR-V Emitter and DLSL compiler",
	46: "Nintendo",
	47: "ARM",
	48: "Goopax",
	49: "Icyllis Milica Arc3D Shader Compiler",
}

// ToolName returns the name spirv-dis prints for a generator's tool id
// (Header.Generator>>16): the registered vendor and tool, or "Unknown(id)".
func ToolName(id uint32) string {
	if int(id) < len(toolNames) && toolNames[id] != "" {
		return toolNames[id]
	}
	return "Unknown(" + strconv.FormatUint(uint64(id), 10) + ")"
}
