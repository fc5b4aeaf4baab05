"""Symbol resolution and archive member selection, as GNU ld does it.

Inputs are visited in command-line order. Objects are always loaded. An archive contributes the
members that define a symbol undefined at that moment, rescanned until nothing more is pulled;
inside a group the group's archives are rescanned until a whole pass pulls nothing. Weak
undefined references do not pull members. ``--whole-archive`` loads every member.

The result says which bitcode units form the LTO unit and which symbol names the rest of the
link can see (native objects, shared libraries, -u, the entry point): those must stay external.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from fatlib.elf import Symbol
from lto.diag import LinkError, Log
from lto.inputs import ArchiveInput, Group, Input, SharedInput, Unit


@dataclass
class Definition:
    owner: str
    weak: bool
    shared: bool = False


@dataclass
class Resolution:
    bitcode: list[Unit] = field(default_factory=list)        # in link order
    native: list[Unit] = field(default_factory=list)
    shared: list[SharedInput] = field(default_factory=list)
    defined: dict[str, Definition] = field(default_factory=dict)
    undefined: set[str] = field(default_factory=set)         # strong references not yet defined
    visible_outside: set[str] = field(default_factory=set)   # named by native objects or DSOs
    pulled: dict[str, str] = field(default_factory=dict)     # member display -> symbol that pulled it
    duplicates: list[tuple[str, str, str]] = field(default_factory=list)


class Resolver:
    def __init__(self, log: Log) -> None:
        self.r = Resolution()
        self.log = log
        self._loaded: set[int] = set()

    def require(self, names: list[str]) -> None:
        """-u and the entry point: undefined from the start, and visible outside."""
        for n in names:
            self.r.visible_outside.add(n)
            if n not in self.r.defined:
                self.r.undefined.add(n)

    def run(self, sequence: list[Input]) -> Resolution:
        for inp in sequence:
            self._visit(inp)
        if self.r.duplicates:
            raise LinkError("\n".join(
                f"duplicate symbol: {name}\n>>> defined in {a}\n>>> defined in {b}"
                for name, a, b in self.r.duplicates))
        return self.r

    def _visit(self, inp: Input) -> bool:
        """Process one input; returns True when it loaded anything new."""
        if isinstance(inp, Unit):
            return self._add_unit(inp, reason=None)
        if isinstance(inp, SharedInput):
            if id(inp) not in self._loaded:
                self._loaded.add(id(inp))
                self._add_shared(inp)
                return True
            return False
        if isinstance(inp, ArchiveInput):
            return self._scan_archive(inp)
        return self._scan_group(inp)

    def _scan_group(self, group: Group) -> bool:
        any_new = False
        while True:
            new = False
            for member in group.members:
                new |= self._visit(member)
            any_new |= new
            if not new:
                return any_new

    def _scan_archive(self, ar: ArchiveInput) -> bool:
        if ar.whole:
            new = False
            for unit in ar.units:
                new |= self._add_unit(unit, reason="--whole-archive")
            return new
        defines = ar.member_definitions()
        any_new = False
        while True:
            # Walk the members in archive order, as ld walks the archive's symbol index.
            new = False
            for unit, names in zip(ar.units, defines):
                if id(unit) in self._loaded:
                    continue
                wanted = next((n for n in names if n in self.r.undefined), None)
                if wanted is not None:
                    new |= self._add_unit(unit, reason=wanted)
            any_new |= new
            if not new:
                return any_new

    def _add_unit(self, unit: Unit, reason: str | None) -> bool:
        if id(unit) in self._loaded:
            return False
        self._loaded.add(id(unit))
        if reason is not None:
            self.r.pulled[unit.display] = reason
            self.log.note(f"pulled {unit.display}" + (
                f" for '{reason}'" if reason != "--whole-archive" else " (--whole-archive)"))
        (self.r.bitcode if unit.bitcode else self.r.native).append(unit)
        for sym in unit.symbols:
            if not unit.bitcode:
                self.r.visible_outside.add(sym.name)
            if sym.defined:
                self._define(sym, unit.display)
            elif sym.name not in self.r.defined and not sym.weak:
                self.r.undefined.add(sym.name)
        return True

    def _add_shared(self, so: SharedInput) -> None:
        self.r.shared.append(so)
        for sym in so.elf.symbols:
            self.r.visible_outside.add(sym.name)
            if sym.defined and sym.name not in self.r.defined:
                self.r.defined[sym.name] = Definition(so.path, weak=True, shared=True)
                self.r.undefined.discard(sym.name)

    def _define(self, sym: Symbol, owner: str) -> None:
        weak = sym.weak or sym.common or sym.in_comdat
        old = self.r.defined.get(sym.name)
        if old is None or old.shared or (old.weak and not weak):
            self.r.defined[sym.name] = Definition(owner, weak)
        elif not old.weak and not weak and old.owner != owner:
            self.r.duplicates.append((sym.name, old.owner, owner))
        self.r.undefined.discard(sym.name)
