"""gradlink's clang plugin (gradlink/clang/gradlink_clang.cpp), built on first use.

    clang-22 -O2 -flto -fplugin=$(gradlink clang-plugin) -c f.c

The plugin gives clang Enzyme's source attributes (``enzyme_inactive``, ``enzyme_function_like``,
``enzyme_shadow``, ...) and keeps every function a registration names from being inlined before
the link. It is C++ compiled against the headers of the clang it is loaded into, so it is built
here, once per source and compiler version, into the user's cache folder
(``$GRADLINK_CACHE_DIR``, else ``$XDG_CACHE_HOME/gradlink``, else ``~/.cache/gradlink``).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

SOURCE = Path(__file__).resolve().parent / "clang" / "gradlink_clang.cpp"
CXX = "clang++-22"
LLVM_CONFIG = "llvm-config-22"
HEADERS_PACKAGE = "libclang-22-dev"


class PluginError(Exception):
    """The plugin cannot be built: says why and what to install."""


def cache_dir() -> Path:
    if os.environ.get("GRADLINK_CACHE_DIR"):
        return Path(os.environ["GRADLINK_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "gradlink"


def _run(cmd: list[str]) -> str:
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    except FileNotFoundError:
        raise PluginError(f"{cmd[0]} not found: the plugin is built with the LLVM 22 toolchain "
                          f"(Debian: apt-get install clang-22 llvm-22-dev {HEADERS_PACKAGE})"
                          ) from None
    if done.returncode != 0:
        raise PluginError(f"{' '.join(cmd[:2])} failed:\n{done.stderr.strip()}")
    return done.stdout.strip()


def plugin_path(rebuild: bool = False) -> Path:
    """The built plugin, building it when the cache has none for this source and compiler."""
    cxxflags = _run([LLVM_CONFIG, "--cxxflags"]).split()
    include = _run([LLVM_CONFIG, "--includedir"])
    if not (Path(include) / "clang" / "Frontend" / "FrontendPluginRegistry.h").is_file():
        raise PluginError(f"the clang headers are missing from {include}/clang: install them "
                          f"(Debian: apt-get install {HEADERS_PACKAGE})")
    version = _run([CXX, "--version"]).splitlines()[0]
    key = hashlib.sha256(SOURCE.read_bytes() + version.encode() + " ".join(cxxflags).encode())
    out = cache_dir() / f"gradlink_clang-{key.hexdigest()[:16]}.so"
    if out.is_file() and not rebuild:
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=out.parent) as tmp:
        built = Path(tmp) / out.name
        _run([CXX, "-shared", "-fPIC", "-O2", *cxxflags, "-fno-rtti", str(SOURCE),
              "-o", str(built)])
        shutil.move(built, out)             # atomic in one folder: a parallel build is harmless
    return out
