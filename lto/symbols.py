"""Symbol tables of bitcode modules, in the same form fatlib.elf gives for native objects.

llvmlite lists functions and global variables with their linkage and visibility; it does not
list aliases or ifuncs, so those are read from the module's text when the module has any.
"""

from __future__ import annotations

import re

import llvmlite.binding as llvm

from fatlib.elf import Symbol
from lto.diag import LinkError

L = llvm.Linkage
_LOCAL = {L.internal, L.private}
_WEAK_DEF = {L.linkonce_any, L.linkonce_odr, L.linkonce_odr_autohide, L.weak_any, L.weak_odr}
_ALIAS_LINE = re.compile(
    r'^@("(?:[^"\\]|\\.)*"|[-a-zA-Z$._0-9]+) = ((?:[a-z_]+ )*)(?:alias|ifunc) ', re.M)
_ALIAS_LOCAL = {"internal", "private"}
_ALIAS_WEAK = {"weak", "weak_odr", "linkonce", "linkonce_odr"}


def parse_module(data: bytes, display: str) -> llvm.ModuleRef:
    """Parse bitcode; a corrupt or truncated file becomes an ld-style error naming it."""
    try:
        mod = llvm.parse_bitcode(data)
    except RuntimeError as e:
        detail = " ".join(str(e).split())
        raise LinkError(f"{display}: invalid bitcode: {detail}") from None
    mod.name = display
    return mod


def module_symbols(mod: llvm.ModuleRef) -> list[Symbol]:
    """The global symbols a bitcode module defines and references."""
    out: list[Symbol] = []
    for gv in list(mod.functions) + list(mod.global_variables):
        linkage = gv.linkage
        if linkage in _LOCAL or linkage == L.appending:
            continue
        name = gv.name
        if not name or name.startswith("llvm."):
            continue
        hidden = gv.visibility == llvm.Visibility.hidden
        if gv.is_declaration or linkage == L.available_externally:
            out.append(Symbol(name, defined=False, weak=linkage == L.external_weak, hidden=hidden))
        else:
            out.append(Symbol(name, defined=True, weak=linkage in _WEAK_DEF,
                              common=linkage == L.common, hidden=hidden))
    out.extend(_aliases(mod))
    return out


def _aliases(mod: llvm.ModuleRef) -> list[Symbol]:
    text = str(mod)
    if " alias " not in text and " ifunc " not in text:
        return []
    out = []
    for m in _ALIAS_LINE.finditer(text):
        words = set(m.group(2).split())
        if words & _ALIAS_LOCAL:
            continue
        name = m.group(1)
        if name.startswith('"'):
            name = name[1:-1]
        out.append(Symbol(name, defined=True, weak=bool(words & _ALIAS_WEAK),
                          hidden="hidden" in words))
    return out
