#!/usr/bin/env bash
# Usage: build.sh LINKER OUTDIR   (LINKER must be gradlink: the program calls __enzyme_autodiff)
# Compiles lib.rs with rustc twice, to native code (--emit=obj) and to LLVM bitcode
# (--emit=llvm-bc): rustc writes no fat objects, so gradlink fat build --bitcode joins the two
# into the fat archive libsoftplus.a and moves the crate's __enzyme_register_gradient_softplus
# into its manifest. Then the C program logistic (differentiated at link time by -fuse-ld=LINKER)
# and plain, a program without derivatives linked with -fuse-ld=lld. Prints nothing on success.
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
GRADLINK=${GRADLINK:-gradlink}
# gradlink fat build names each member it writes; keep that in a log shown only on failure.
quiet() {
  if ! "$@" >"$out/fat-build.log" 2>&1; then
    cat "$out/fat-build.log" >&2
    exit 1
  fi
}

# A library crate (no std runtime needed: softplus uses only f64 math, i.e. libm's exp and log1p).
"$RUSTC" --edition 2021 --crate-type=lib --crate-name softplus -C opt-level=2 \
  --emit=obj="$out/softplus.o" --emit=llvm-bc="$out/softplus.bc" "$src/lib.rs"
quiet "$GRADLINK" fat build -o "$out/libsoftplus.a" "$out/softplus.o" \
  --bitcode "$out/softplus.o=$out/softplus.bc"

"$CC" -O2 -flto -c "$src/main.c" -o "$out/main.o"
"$CC" -O2 -flto -fuse-ld="$linker" "$out/main.o" -L"$out" -lsoftplus -lm -o "$out/logistic"

"$CC" -O2 -c "$src/plain.c" -o "$out/plain.o"
"$CC" -O2 -fuse-ld=lld "$out/plain.o" -L"$out" -lsoftplus -lm -o "$out/plain"
