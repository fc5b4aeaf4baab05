#!/usr/bin/env bash
# Usage: build.sh LINKER OUTDIR   (LINKER must be gradlink: the programs call __enzyme_autodiff)
# Configures this CMake project in OUTDIR with gradlink's CMake module (-DCMAKE_MODULE_PATH=
# $(gradlink cmake-dir)), clang-22, -flto and -fuse-ld=LINKER, and builds it: the fat libraries
# libchain.a, libchain_closed.a and libchain_shared.so, the programs relax, relax_closed and
# relax_shared, and plain (linked with -fuse-ld=lld). Prints nothing on success.
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 LINKER OUTDIR" >&2
  exit 2
fi
linker=$1
src=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
CC=${CC:-clang-22}
GRADLINK=${GRADLINK:-gradlink}
log="$out/build.log"

if ! {
  cmake -S "$src" -B "$out" -G "Unix Makefiles" \
    -DCMAKE_MODULE_PATH="$("$GRADLINK" cmake-dir)" \
    -DCMAKE_C_COMPILER="$CC" \
    -DCMAKE_C_FLAGS=-flto \
    -DCMAKE_EXE_LINKER_FLAGS="-fuse-ld=$linker" \
    -DCMAKE_BUILD_TYPE=Release &&
    cmake --build "$out" -j 2
} >"$log" 2>&1; then
  cat "$log" >&2
  exit 1
fi
