#!/bin/sh
# Rebuilds the example modules of ../ from these sources: saxpy.comp with
# Debian's glslangValidator (glslang-tools 12.0.0), switch64.spvasm and
# scan.spvasm with spvx's own assembler (the same bytes Debian's spirv-as 2023.1 writes).
# The .spv files are committed; examples_test.go checks that they still
# match these sources and flags (keep the two in step). gemm_int8_dpas.spvasm
# and gemm_bf16_dpas.spvasm are not prebuilt: gemm_test.go assembles them
# (--target-env spv1.2) and spvx run assembles them on the fly.
set -e
cd "$(dirname "$0")"
glslangValidator -V --target-env vulkan1.1 saxpy.comp -o ../saxpy.spv
go run ../../cmd/spvx as --target-env spv1.3 switch64.spvasm -o ../switch64.spv
go run ../../cmd/spvx as --target-env spv1.2 scan.spvasm -o ../scan.spv
