#!/usr/bin/env bash
# Usage: build.sh LINKER OUTDIR   (LINKER must be gradlink: the program calls __enzyme_autodiff)
# Builds the fat archive liblse.a from lse.c (gradlink fat build: native code, bitcode, and the
# manifest holding lse's registered gradient), the C++ program softmax (its loss differentiated
# at link time by -fuse-ld=LINKER) and plain, a program without derivatives linked with
# -fuse-ld=lld: the fat archive links as an ordinary static library. Prints nothing on success.
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
CXX=${CXX:-clang++-22}
GRADLINK=${GRADLINK:-gradlink}
# gradlink fat build names each member it writes; keep that in a log shown only on failure.
quiet() {
  if ! "$@" >"$out/fat-build.log" 2>&1; then
    cat "$out/fat-build.log" >&2
    exit 1
  fi
}

"$CC" -O2 -flto -c "$src/lse.c" -o "$out/lse.o"
quiet "$GRADLINK" fat build -o "$out/liblse.a" "$out/lse.o"

"$CXX" -O2 -flto -I"$src" -c "$src/main.cpp" -o "$out/main.o"
"$CXX" -O2 -flto -fuse-ld="$linker" "$out/main.o" -L"$out" -llse -lm -o "$out/softmax"

"$CXX" -O2 -I"$src" -c "$src/plain.cpp" -o "$out/plain.o"
"$CXX" -O2 -fuse-ld=lld "$out/plain.o" -L"$out" -llse -lm -o "$out/plain"
