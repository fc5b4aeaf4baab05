#!/usr/bin/env bash
# `make demo`: builds samples/c-multi with -fuse-ld=gradlink into samples/c-multi/out/, runs it and
# explains what happened. Exits non-zero if any step fails.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
out="$here/c-multi/out"

if ! command -v ld.gradlink >/dev/null 2>&1 && [ -x "$root/.venv/bin/ld.gradlink" ]; then
  PATH="$root/.venv/bin:$PATH"
fi
if ! command -v ld.gradlink >/dev/null 2>&1; then
  echo "demo: ld.gradlink is not on PATH; run 'make demo' (it installs it into .venv)" >&2
  exit 1
fi

echo "== gradlink demo: samples/c-multi"
echo "Compiling 5 C units with 'clang-22 -O2 -flto -c' (LLVM bitcode, not machine code),"
echo "packing 4 of them into the bitcode archive libphys.a with llvm-ar-22, and linking with"
echo "'clang-22 -flto -fuse-ld=gradlink main.o -L. -lphys -lm' -> $(command -v ld.gradlink)"
rm -rf "$out"
if ! "$here/c-multi/build.sh" gradlink "$out"; then
  echo "demo: FAILED: the build or the link with ld.gradlink failed (see above)" >&2
  exit 1
fi

echo
echo "== running samples/c-multi/out/phys"
errfile="$out/phys.stderr"
if ! "$out/phys" 2>"$errfile" | tee "$out/phys.stdout"; then
  cat "$errfile" >&2
  echo "demo: FAILED: the program linked by ld.gradlink did not run successfully" >&2
  exit 1
fi
if [ -s "$errfile" ]; then
  cat "$errfile" >&2
  echo "demo: FAILED: unexpected output on stderr" >&2
  exit 1
fi
if ! grep -q '^best angle: 40.0 deg (range 620.890 m)$' "$out/phys.stdout"; then
  echo "demo: FAILED: the program printed wrong results" >&2
  exit 1
fi

echo
echo "== what happened"
echo "- ld.gradlink received main.o and libphys.a as LLVM bitcode, picked from the archive only the"
echo "  members main needs (vec.o, integrate.o, stats.o; spectrum.o stays out, otherwise its"
echo "  constructor would have complained on stderr), optimized them together as one module and"
echo "  emitted the executable samples/c-multi/out/phys, linked against libm and libc."
echo "- The first line comes from a constructor in integrate.o, which ran before main."
echo "- The table is a projectile with altitude-dependent air drag fired at 10..50 degrees; with"
echo "  drag the best angle is 40 degrees, and without drag the 45-degree range matches v^2/g."
echo "- Compare with the reference linker: samples/c-multi/build.sh lld /tmp/phys-lld"

echo
echo "== gradients at link time: samples/gradient"
echo "range.c asks __enzyme_autodiff for d range / d (angle, drag) of an RK4 projectile integration;"
echo "ld.gradlink optimizes the program, synthesizes the derivative from the optimized IR and links it."
gout="$here/gradient/out"
rm -rf "$gout"
if ! "$here/gradient/build.sh" gradlink "$gout"; then
  echo "demo: FAILED: the gradient sample did not link" >&2
  exit 1
fi
"$gout/range" | tee "$gout/range.stdout"
if ! grep -q '^range 529.281 m$' "$gout/range.stdout"; then
  echo "demo: FAILED: the gradient sample printed wrong results" >&2
  exit 1
fi
