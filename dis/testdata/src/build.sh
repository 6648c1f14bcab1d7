#!/bin/sh
# Rebuilds the binary test modules of ../ from these sources with Debian's
# tools (glslang-tools 12.0.0, spirv-tools 2023.1). Run once; the .spv files
# are committed so the tests need neither tool. narrow.spv is built by the
# test itself (TestNarrowModule), since these tools predate its types.
set -e
cd "$(dirname "$0")"
glslangValidator -V -g --target-env vulkan1.1 control.comp -o ../control.spv
glslangValidator -V --target-env vulkan1.2 types.comp -o ../types.spv
spirv-as --target-env spv1.2 kernel.spvasm -o ../kernel.spv
