"""Merge the pulled bitcode into one module and internalize what nothing outside can see."""

from __future__ import annotations

import os
import tempfile

import llvmlite.binding as llvm

from lto.diag import LinkError
from lto.inputs import Unit


def merge(units: list[Unit]) -> llvm.ModuleRef:
    """Link all units' modules into the first one, in link order."""
    dest = units[0].take_module()
    for unit in units[1:]:
        src = unit.take_module()
        if src.triple != dest.triple and _same_target(src.triple, dest.triple):
            src.triple = dest.triple        # rustc says -unknown-, clang -pc-: same target
        try:
            dest.link_in(src)
        except RuntimeError as e:
            detail = " ".join(str(e).split())
            raise LinkError(f"{unit.display}: cannot merge into the LTO unit: {detail}") from None
    dest.name = "ld-temp.o"
    return dest


def _same_target(a: str, b: str) -> bool:
    pa, pb = a.split("-"), b.split("-")
    return len(pa) >= 3 and len(pb) >= 3 and pa[0] == pb[0] and pa[2:] == pb[2:]


def internalize(module: llvm.ModuleRef, keep: set[str], pass_builder: llvm.PassBuilder) -> None:
    """Give internal linkage to every definition not in ``keep``, with LLVM's Internalize pass
    (it also handles comdats: a comdat any of whose members stays external stays whole)."""
    fd, path = tempfile.mkstemp(prefix="gradlink-keep-", suffix=".txt")
    try:
        with os.fdopen(fd, "w") as f:
            f.write("".join(f"{name}\n" for name in sorted(keep)))
        llvm.set_option("ld.gradlink", f"-internalize-public-api-file={path}")
        mpm = llvm.create_new_module_pass_manager()
        mpm.add_internalize_pass()
        mpm.add_global_dead_code_eliminate_pass()
        mpm.run(module, pass_builder)
    finally:
        os.unlink(path)
