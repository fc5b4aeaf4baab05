#!/usr/bin/env bash
# Usage: build.sh LINKER OUTDIR   (LINKER: gradlink or lld)
# Compiles every unit to LLVM bitcode, packs the library units into the bitcode archive
# libphys.a and links main against it with -fuse-ld=LINKER. Prints nothing on success.
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
AR=${AR:-llvm-ar-22}

for unit in vec integrate stats spectrum main; do
  "$CC" -O2 -flto -c "$src/$unit.c" -o "$out/$unit.o"
done
rm -f "$out/libphys.a"
"$AR" rcs "$out/libphys.a" "$out/vec.o" "$out/integrate.o" "$out/stats.o" "$out/spectrum.o"
cd "$out"
"$CC" -O2 -flto -fuse-ld="$linker" main.o -L. -lphys -lm -o phys
