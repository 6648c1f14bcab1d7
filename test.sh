#!/usr/bin/env bash
# Runs spvx's whole test suite. It first installs, when they are missing and
# this user can install packages, Debian's spirv-tools (the oracles of the
# differential tests), glslang-tools (glslangValidator, which the examples
# test compiles examples/src/saxpy.comp with), and clang-15 and
# llvm-spirv-15 (the OpenCL C kernels of the executor's tests), PoCL with
# the OpenCL headers and ICD loader (pocl-opencl-icd, ocl-icd-opencl-dev: the
# independent OpenCL implementation internal/oclref compares the executor
# with), Mesa's lavapipe with the Vulkan headers and loader
# (mesa-vulkan-drivers, libvulkan-dev: internal/vkref's GLCompute oracle),
# and python3-numpy (the independent reader of the checkpoint files),
# librsvg2-bin and chromium (rendering the SVGs and the run report). Without
# them the tests that need them skip with a message and everything else
# still runs.
set -euo pipefail
cd "$(dirname "$0")"

need=()
command -v spirv-as >/dev/null 2>&1 || need+=(spirv-tools)
command -v glslangValidator >/dev/null 2>&1 || need+=(glslang-tools)
command -v clang-15 >/dev/null 2>&1 || need+=(clang-15)
command -v llvm-spirv-15 >/dev/null 2>&1 || need+=(llvm-spirv-15)
[ -e /etc/OpenCL/vendors/pocl.icd ] || need+=(pocl-opencl-icd)
[ -e /usr/include/CL/cl.h ] || need+=(ocl-icd-opencl-dev)
[ -e /usr/share/vulkan/icd.d/lvp_icd.x86_64.json ] || need+=(mesa-vulkan-drivers)
[ -e /usr/include/vulkan/vulkan.h ] || need+=(libvulkan-dev)
[ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import numpy' >/dev/null 2>&1 || need+=(python3-numpy)
command -v rsvg-convert >/dev/null 2>&1 || need+=(librsvg2-bin)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "test.sh: installing ${need[*]}"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  else
    echo "test.sh: ${need[*]} missing and cannot be installed here; differential tests will skip"
  fi
fi

unformatted=$(gofmt -l .)
if [ -n "$unformatted" ]; then
  echo "test.sh: not gofmt-formatted:" $unformatted
  exit 1
fi
go vet ./...
go test ./...
