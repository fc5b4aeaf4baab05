#!/usr/bin/env bash
# build.sh LINKER OUTDIR: the gradient sample needs ld.gradlink (LINKER must be gradlink).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
linker=${1:-gradlink}
out=${2:-$here/out}
mkdir -p "$out"
clang-22 -O2 -flto -c "$here/range.c" -o "$out/range.o"
clang-22 -flto -fuse-ld="$linker" "$out/range.o" -lm -o "$out/range"
