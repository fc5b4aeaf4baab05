#!/usr/bin/env bash
# Usage: build.sh LINKER OUTDIR   (LINKER: gradlink or lld, the name of a configure preset)
# Configures this project with the preset LINKER from the repository's CMakePresets.json into
# OUTDIR (overriding the preset's binaryDir) and builds it. Prints nothing on success.
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 LINKER OUTDIR" >&2
  exit 2
fi
linker=$1
src=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
log="$out/build.log"

# Presets are read from the source directory; its CMakePresets.json includes the root one.
if ! (cd "$src" && cmake --preset "$linker" -B "$out" && cmake --build "$out") >"$log" 2>&1; then
  cat "$log" >&2
  exit 1
fi
