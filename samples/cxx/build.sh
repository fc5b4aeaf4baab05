#!/usr/bin/env bash
# Usage: build.sh LINKER OUTDIR   (LINKER: gradlink or lld)
# Compiles both C++ units to LLVM bitcode and links them with -fuse-ld=LINKER.
# Prints nothing on success.
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 LINKER OUTDIR" >&2
  exit 2
fi
linker=$1
src=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
CXX=${CXX:-clang++-22}

for unit in shapes main; do
  "$CXX" -std=c++17 -O2 -flto -c "$src/$unit.cpp" -o "$out/$unit.o"
done
"$CXX" -O2 -flto -fuse-ld="$linker" "$out/shapes.o" "$out/main.o" -o "$out/shapes"
