#!/usr/bin/env bash
# Installs what gradlink needs on a fresh Debian machine: the LLVM 22 toolchain from Debian's
# packages, then a .venv holding the package in editable mode. Idempotent: a second run only checks.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
for tool in clang-22:clang-22 clang++-22:clang-22 ld.lld-22:lld-22 llvm-ar-22:llvm-22 \
            flang-22:flang-22 cmake:cmake valgrind:valgrind; do
  command -v "${tool%%:*}" >/dev/null 2>&1 || need+=("${tool##*:}")
done
# lit and FileCheck for the IR tests (tests/ir)
[ -x /usr/lib/llvm-22/bin/lit ] && [ -x /usr/lib/llvm-22/bin/FileCheck ] || need+=(llvm-22-tools)
# llvm-config and the LLVM and clang headers for gradlink's clang plugin (gradlink clang-plugin)
command -v llvm-config-22 >/dev/null 2>&1 || need+=(llvm-22-dev)
[ -f /usr/lib/llvm-22/include/clang/Frontend/FrontendPluginRegistry.h ] || need+=(libclang-22-dev)
python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || need+=(python3-venv)
if ((${#need[@]})); then
  echo "install-deps: apt-get install ${need[*]}"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
if ! command -v rustc >/dev/null 2>&1; then
  echo "install-deps: warning: rustc not found; the Rust samples and tests need rustc 1.95 (LLVM 22)" >&2
fi

if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
stamp=.venv/.gradlink-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  .venv/bin/pip install -q --disable-pip-version-check -e '.[test]'
  touch "$stamp"
fi
