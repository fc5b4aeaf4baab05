#!/usr/bin/env bash
# Usage: build.sh LINKER OUTDIR   (LINKER must be gradlink: the program calls __enzyme_autodiff)
# The vendor's side: pricing.c becomes the fat archive vendor/libpricing.a with bs_call's
# derivatives compiled in (--export-derivatives bs_call:reverse,forward), and gradlink fat
# strip-bitcode writes the closed-source libpricing.a that ships: native code, manifest and
# derivatives, no bitcode. The customer's side: the C program risk, differentiated at link time
# by -fuse-ld=LINKER in both modes, and plain, a program without derivatives linked with
# -fuse-ld=lld. Prints nothing on success.
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
# gradlink fat build names each member it writes; keep that in a log shown only on failure.
quiet() {
  if ! "$@" >"$out/fat-build.log" 2>&1; then
    cat "$out/fat-build.log" >&2
    exit 1
  fi
}

# the vendor
mkdir -p "$out/vendor"
"$CC" -O2 -flto -c "$src/pricing.c" -o "$out/vendor/pricing.o"
quiet "$GRADLINK" fat build -o "$out/vendor/libpricing.a" "$out/vendor/pricing.o" \
  --export-derivatives bs_call:reverse,forward
quiet "$GRADLINK" fat strip-bitcode -o "$out/libpricing.a" "$out/vendor/libpricing.a"

# the customer: pricing.h and libpricing.a
"$CC" -O2 -flto -I"$src" -c "$src/main.c" -o "$out/main.o"
"$CC" -O2 -flto -fuse-ld="$linker" "$out/main.o" -L"$out" -lpricing -lm -o "$out/risk"

"$CC" -O2 -I"$src" -c "$src/plain.c" -o "$out/plain.o"
"$CC" -O2 -fuse-ld=lld "$out/plain.o" -L"$out" -lpricing -lm -o "$out/plain"
