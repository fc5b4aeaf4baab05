"""The final native link: ld.lld-22 with the original command line, bitcode files removed and the
LTO object added last, archives with bitcode members replaced by copies holding only their
native members."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from fatlib.archive import write_archive
from lto.diag import PROG, LinkError
from lto.inputs import ArchiveInput, InputSet, Unit
from lto.options import LinkOptions

_LLD_CANDIDATES = ("ld.lld-22", "/usr/lib/llvm-22/bin/ld.lld", "ld.lld")


def find_lld() -> str:
    override = os.environ.get("GRADLINK_LLD")
    for cand in ((override,) if override else ()) + _LLD_CANDIDATES:
        path = shutil.which(cand) if not os.path.isabs(cand) else (cand if os.path.exists(cand) else None)
        if path:
            return path
    raise LinkError("cannot find ld.lld-22 (install the Debian package lld-22, or set GRADLINK_LLD)")


def native_args(opts: LinkOptions, inputs: InputSet, lto_object: str | None, tmpdir: str) -> list[str]:
    """The command line for the native linker (without argv[0])."""
    replacement: dict[int, list[str]] = {}
    for ld in inputs.loaded:
        if ld.script:
            continue
        (inp,) = ld.inputs
        if isinstance(inp, Unit) and inp.bitcode:
            replacement[ld.spec.item] = []
        elif isinstance(inp, ArchiveInput) and inp.has_bitcode:
            replacement[ld.spec.item] = _native_archive(inp, tmpdir, len(replacement))
    out: list[str] = []
    for index, item in enumerate(opts.items):
        if item.ours:
            continue
        out.extend(replacement.get(index, item.tokens))
    if lto_object is not None:
        # lld appends its LTO objects after every input file, so their .init_array entries
        # (static constructors) run after those of native objects: do the same.
        out.append(lto_object)
    return out


def _native_archive(ar: ArchiveInput, tmpdir: str, n: int) -> list[str]:
    """A copy of the archive without its bitcode members (they are in the LTO object)."""
    natives = [u for u in ar.units if not u.bitcode]
    if not natives:
        return []
    path = os.path.join(tmpdir, f"native-{n}-{Path(ar.path).name}")
    members = [(u.display[len(ar.path) + 1:-1], u.data) for u in natives]
    symbols = [[s.name for s in u.symbols if s.defined and not s.common] for u in natives]
    write_archive(path, members, symbols)
    return [path]


def run_native(args: list[str], lto_object: str | None) -> int:
    """Run lld, relaying its diagnostics under our name. Returns lld's exit code."""
    cmd = [find_lld(), *args]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True)
    except OSError as e:
        raise LinkError(f"cannot run {cmd[0]}: {e.strerror}") from None
    sys.stdout.write(p.stdout)
    for line in p.stderr.splitlines(keepends=True):
        for prefix in ("ld.lld: ", "ld.lld-22: "):
            if line.startswith(prefix):
                line = f"{PROG}: " + line[len(prefix):]
                break
        if lto_object:
            line = line.replace(lto_object, "<LTO object>")
        sys.stderr.write(line)
    return p.returncode
