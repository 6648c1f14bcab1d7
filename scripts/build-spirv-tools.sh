#!/bin/sh
# build-spirv-tools.sh builds current SPIRV-Tools' spirv-as and spirv-val,
# for val's current-oracle differential only (val/mutation_current_test.go).
# Nothing of SPIRV-Tools is ever committed: the sources are exported with
# `git archive` into a scratch folder and the binaries are installed into a
# cache folder outside the repository.
#
# Usage: scripts/build-spirv-tools.sh TOOLS HEADERS [REV]
#   TOOLS    a SPIRV-Tools git dir or clone (bare is fine)
#   HEADERS  a SPIRV-Headers git dir or clone; the commit used is the one
#            SPIRV-Tools' DEPS file names (spirv_headers_revision)
#   REV      SPIRV-Tools revision to build (default HEAD)
#
# Prints the bin folder, $CACHE/<commit>/bin, where CACHE defaults to
# ~/.cache/spvx-spirv-tools. A second run for the same commit only prints it.
# With GOLDENS=1 it then refreshes val's goldens with those tools
# (go test ./val -run MutationCurrent -update-current, from this checkout).
# Needs cmake (≥ 3.22), ninja, python3 and a C++17 compiler. Builds with
# `nice -n 15 ninja -j$JOBS` (JOBS defaults to 2) so a shared machine stays usable.
set -eu

if [ $# -lt 2 ]; then
	echo "usage: $0 SPIRV-Tools-git SPIRV-Headers-git [rev]" >&2
	exit 2
fi
tools=$1
headers=$2
rev=${3:-HEAD}
cache=${CACHE:-$HOME/.cache/spvx-spirv-tools}
jobs=${JOBS:-2}

commit=$(git -C "$tools" rev-parse --verify "$rev^{commit}")
out=$cache/$commit
goldens() {
	[ "${GOLDENS:-}" = 1 ] || return 0
	cd "$(dirname "$0")/.."
	SPVX_CURRENT_SPIRV_TOOLS=$out/bin nice -n 10 go test ./val -run 'MutationCurrent$' -count 1 -update-current -update
}
if [ -x "$out/bin/spirv-val" ] && [ -x "$out/bin/spirv-as" ]; then
	echo "$out/bin"
	goldens
	exit 0
fi
hrev=$(git -C "$tools" show "$commit:DEPS" |
	sed -n "s/.*'spirv_headers_revision': *'\([0-9a-f]*\)'.*/\1/p")
if [ -z "$hrev" ]; then
	echo "$0: no spirv_headers_revision in DEPS of $commit" >&2
	exit 1
fi
git -C "$headers" rev-parse --verify -q "$hrev^{commit}" >/dev/null || {
	echo "$0: SPIRV-Headers commit $hrev (named by DEPS) is not in $headers" >&2
	exit 1
}

scratch=$(mktemp -d "${TMPDIR:-/tmp}/spvx-spirv-tools.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/src/external/spirv-headers"
git -C "$tools" archive "$commit" | tar -x -C "$scratch/src"
git -C "$headers" archive "$hrev" | tar -x -C "$scratch/src/external/spirv-headers"

cmake -S "$scratch/src" -B "$scratch/build" -G Ninja \
	-DCMAKE_BUILD_TYPE=Release -DSPIRV_SKIP_TESTS=ON \
	-DSPIRV_WERROR=OFF -DSPIRV_SKIP_EXECUTABLES=OFF >"$scratch/cmake.log" 2>&1 || {
	tail -30 "$scratch/cmake.log" >&2
	exit 1
}
nice -n 15 ninja -C "$scratch/build" -j"$jobs" spirv-as spirv-val >"$scratch/ninja.log" 2>&1 || {
	tail -30 "$scratch/ninja.log" >&2
	exit 1
}

mkdir -p "$out/bin.tmp"
cp "$scratch/build/tools/spirv-as" "$scratch/build/tools/spirv-val" "$out/bin.tmp/"
{
	echo "SPIRV-Tools $commit"
	echo "SPIRV-Headers $hrev"
} >"$out/VERSION"
rm -rf "$out/bin"
mv "$out/bin.tmp" "$out/bin"
echo "$out/bin"
goldens
