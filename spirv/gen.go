package spirv

//go:generate go run ../internal/cmd/spirvgen -grammar ../../shared/spirv-headers -overlay grammar/overlay.json -o grammar_gen.go
