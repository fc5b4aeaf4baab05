#!/usr/bin/env bash
# Usage: build.sh LINKER OUTDIR   (LINKER: gradlink or lld)
# Builds lib.rs as a Rust staticlib of LLVM bitcode (-C linker-plugin-lto), compiles main.c with
# -flto and links both with -fuse-ld=LINKER: cross-language LTO. Prints nothing on success.
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
RUSTC=${RUSTC:-rustc}

"$RUSTC" -O --crate-type=staticlib -C linker-plugin-lto --edition 2021 "$src/lib.rs" \
  -o "$out/librsmath.a"
"$CC" -O2 -flto -c "$src/main.c" -o "$out/main.o"
# Native libraries a Rust staticlib needs (see `rustc --print native-static-libs`).
"$CC" -O2 -flto -fuse-ld="$linker" "$out/main.o" -L"$out" -lrsmath \
  -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc -o "$out/rsmath"
