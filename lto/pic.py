"""Making non-PIC bitcode fit a shared object.

Bitcode compiled without -fPIC marks definitions (and, with -fno-pic, data declarations)
``dso_local``: code generation then uses PC-relative relocations that lld rejects against
preemptible symbols of a -shared output. Dropping the flag on global headers makes those accesses
go through the GOT/PLT; hidden and local symbols stay local since their linkage implies it.
"""

from __future__ import annotations

import re

import llvmlite.binding as llvm

from lto.diag import LinkError

_HEADER = re.compile(r"^((?:define|declare|@\S+ =)[^\n]*?) dso_local\b", re.M)


def drop_dso_local(module: llvm.ModuleRef) -> llvm.ModuleRef:
    text = str(module)
    if " dso_local" not in text:
        return module
    fixed = _HEADER.sub(r"\1", text)
    try:
        new = llvm.parse_assembly(fixed)
    except RuntimeError as e:
        raise LinkError(f"internal error re-reading the LTO unit: {' '.join(str(e).split())}") from None
    new.name = module.name
    return new
