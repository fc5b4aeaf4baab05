#!/usr/bin/env bash
# Usage: build.sh LINKER OUTDIR   (LINKER: gradlink or lld)
# Compiles kernel.f90 with flang-22 and main.c with clang-22, both to LLVM bitcode, and links them
# with the clang driver, -fuse-ld=LINKER and flang's runtime library. Prints nothing on success.
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
FC=${FC:-flang-22}
# flang's runtime (libflang_rt.runtime.a) lives in clang's per-target runtime directory,
# /usr/lib/llvm-22/lib/clang/22/lib/x86_64-pc-linux-gnu on Debian.
rtdir=$("$CC" -print-runtime-dir)

# -J keeps the .mod file out of the source tree.
"$FC" -O2 -flto -c "$src/kernel.f90" -J "$out" -o "$out/kernel.o"
"$CC" -O2 -flto -c "$src/main.c" -o "$out/main.o"
"$CC" -O2 -flto -fuse-ld="$linker" "$out/main.o" "$out/kernel.o" \
  -L"$rtdir" -lflang_rt.runtime -lm -o "$out/kernel"
