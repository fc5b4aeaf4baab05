"""Merge the pulled bitcode into one module and internalize what nothing outside can see."""

from __future__ import annotations

import os
import re
import tempfile

import llvmlite.binding as llvm

from lto.diag import LinkError
from lto.inputs import Unit


def merge(units: list[Unit], definitions: list[tuple[str, set[str]]] | None = None
          ) -> llvm.ModuleRef:
    """Link all units' modules into the first one, in link order. With ``definitions``, append
    per unit its display name and the names its function definitions have in the merged module
    (which translation unit defined what: inlining before the link stays within one)."""
    forced: dict[str, str] = {}
    while True:
        try:
            if definitions is not None:
                definitions.clear()
            return _merge_once(units, forced, definitions)
        except _FlagConflict as c:
            if c.name in forced:
                raise LinkError(f"{c.unit}: cannot merge into the LTO unit: {c.detail}") from None
            # LLVM's linker has already moved part of the failed module into the merged one:
            # start again from the bitcode, with that flag made uniform in every module.
            forced[c.name] = c.value


class _FlagConflict(Exception):
    def __init__(self, unit: str, name: str, value: str, detail: str) -> None:
        super().__init__(detail)
        self.unit, self.name, self.value, self.detail = unit, name, value, detail


def _merge_once(units: list[Unit], forced: dict[str, str],
                definitions: list[tuple[str, set[str]]] | None) -> llvm.ModuleRef:
    dest = _module(units[0], forced)
    known: set[str] = set()
    if definitions is not None:
        known = _defined(dest)
        definitions.append((units[0].display, set(known)))
    for unit in units[1:]:
        _link_unit(dest, unit, forced, known, definitions)
    dest.name = "ld-temp.o"
    return dest


def link_more(dest: llvm.ModuleRef, units: list[Unit],
              definitions: list[tuple[str, set[str]]] | None = None) -> None:
    """Link further units into an already merged module (fat objects whose bitcode a
    derivative needs, found after the first merge)."""
    known = _defined(dest) if definitions is not None else set()
    for unit in units:
        try:
            _link_unit(dest, unit, {}, known, definitions)
        except _FlagConflict as c:
            raise LinkError(f"{c.unit}: cannot merge into the LTO unit: {c.detail}") from None


def _link_unit(dest: llvm.ModuleRef, unit: Unit, forced: dict[str, str], known: set[str],
               definitions: list[tuple[str, set[str]]] | None) -> None:
    src = _module(unit, forced)
    mine = _defined(src) if definitions is not None else set()
    collided = {n for n in mine if n in known}
    if src.triple != dest.triple and _same_target(src.triple, dest.triple):
        src.triple = dest.triple        # rustc says -unknown-, clang -pc-: same target
    try:
        dest.link_in(src)
    except RuntimeError as e:
        detail = " ".join(str(e).split())
        m = _FLAG_CONFLICT.search(detail)
        if m and m.group(1) in _LTO_LAYOUT_FLAGS:
            raise _FlagConflict(unit.display, m.group(1), m.group(3), detail) from None
        raise LinkError(f"{unit.display}: cannot merge into the LTO unit: {detail}") from None
    if definitions is not None:
        if collided:
            # a local function renamed by the linker (name.N) or a discarded duplicate
            # (linkonce_odr): count every new definition, and the duplicates, as this unit's
            now = _defined(dest)
            mine = (mine - collided) | (now - known) | collided
        known |= mine
        definitions.append((unit.display, mine))


# Module flags that only describe how a module was split for ThinLTO: a mix of -flto=thin and
# -flto objects disagrees on them, harmlessly for a full-LTO merge.
_LTO_LAYOUT_FLAGS = ("EnableSplitLTOUnit", "UnifiedLTO")
_FLAG_CONFLICT = re.compile(r"linking module flags '([^']+)': IDs have conflicting values: "
                            r"'([^']*)' from .*, and '([^']*)' from ")


def _defined(module: llvm.ModuleRef) -> set[str]:
    return {f.name for f in module.functions if not f.is_declaration}


def _module(unit: Unit, forced: dict[str, str]) -> llvm.ModuleRef:
    """The unit's module; with ``forced`` flags rewritten (through text) where it has them."""
    mod = unit.take_module()
    todo = {k: v for k, v in forced.items() if k.encode() in unit.data}
    if not todo:
        return mod
    text = str(mod)
    for name, value in todo.items():
        text = re.sub(rf'(!"{re.escape(name)}", )i32 \d+\}}', rf"\g<1>{value}}}", text)
    new = llvm.parse_assembly(text)
    new.name = unit.display
    return new


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
