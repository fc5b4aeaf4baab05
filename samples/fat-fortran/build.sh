#!/usr/bin/env bash
# Usage: build.sh LINKER OUTDIR   (LINKER must be gradlink: the program calls __enzyme_autodiff)
# Compiles kepler.f90 with flang-22 twice, to native code and to LLVM bitcode (-flto): flang
# writes no fat objects, so gradlink fat build --bitcode joins the two into the fat archive
# libkepler.a, with kepler_solve's gradient from derivatives.toml and orbit_radius's derivatives
# compiled now (--export-derivatives). Then the C program orbitfit (differentiated at link time
# by -fuse-ld=LINKER) and plain, a program without derivatives linked with -fuse-ld=lld.
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
CC=${CC:-clang-22}
FC=${FC:-flang-22}
GRADLINK=${GRADLINK:-gradlink}
# gradlink fat build names each member it writes; keep that in a log shown only on failure.
quiet() {
  if ! "$@" >"$out/fat-build.log" 2>&1; then
    cat "$out/fat-build.log" >&2
    exit 1
  fi
}

# -J keeps the .mod file out of the source tree.
"$FC" -O2 -c "$src/kepler.f90" -J "$out" -o "$out/kepler.o"
# The bitcode twin keeps kepler_solve a call (flang has no noinline attribute, so LLVM's inliner
# is told not to inline): its registered derivative must not be bypassed by an inlined copy in
# orbit_radius. -g lets gradlink check that exactly (it refuses an inlined copy, naming the line).
"$FC" -O2 -g -flto -mllvm -inline-threshold=-1000 -c "$src/kepler.f90" -J "$out" -o "$out/kepler.bc.o"
quiet "$GRADLINK" fat build -o "$out/libkepler.a" "$out/kepler.o" \
  --bitcode "$out/kepler.o=$out/kepler.bc.o" \
  --derivatives "$src/derivatives.toml" \
  --export-derivatives orbit_radius:reverse

"$CC" -O2 -flto -c "$src/main.c" -o "$out/main.o"
"$CC" -O2 -flto -fuse-ld="$linker" "$out/main.o" -L"$out" -lkepler -lm -o "$out/orbitfit"

"$CC" -O2 -c "$src/plain.c" -o "$out/plain.o"
"$CC" -O2 -fuse-ld=lld "$out/plain.o" -L"$out" -lkepler -lm -o "$out/plain"
