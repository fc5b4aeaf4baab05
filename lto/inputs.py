"""Find and load the link's inputs in command-line order: files, -l libraries, archives, scripts.

Every input becomes one of: an object Unit (native ELF or bitcode), an Archive of Units, a Shared
object, or a Group (from --start-group/--end-group or a linker script's GROUP). Loading reads
headers only; bitcode is parsed when its symbols are first asked for.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import llvmlite.binding as llvm

from fatlib import FormatError
from fatlib.archive import read_archive
from fatlib.bitcode import read_symbols as read_bitcode_symbols
from fatlib.elf import ET_DYN, ET_REL, ElfFile, Symbol, read_elf
from fatlib.probe import Kind, classify, unwrap_bitcode
from lto.diag import LinkError
from lto.linkerscript import parse_inputs
from lto.options import InputSpec, LinkOptions
from lto.symbols import module_symbols, parse_module


@dataclass(eq=False)
class Unit:
    """One object that can enter the link: a file, or a member of an archive."""

    display: str                     # "a.o" or "libx.a(b.o)", as ld names it
    data: bytes
    bitcode: bool
    elf: ElfFile | None = None
    _module: llvm.ModuleRef | None = None
    _symbols: list[Symbol] | None = None

    @property
    def module(self) -> llvm.ModuleRef:
        if self._module is None:
            self._module = parse_module(self.data, self.display)
        return self._module

    def take_module(self) -> llvm.ModuleRef:
        """Hand the parsed module over to the merger (which consumes it)."""
        mod = self.module
        self._module = None
        return mod

    @property
    def symbols(self) -> list[Symbol]:
        if self._symbols is None:
            if self.bitcode:
                self._symbols = _bitcode_symbols(self)
            else:
                assert self.elf is not None
                self._symbols = self.elf.symbols
        return self._symbols

    @property
    def fat(self) -> bool:
        """A native object that also carries bitcode (.llvm.lto or .llvmbc)."""
        return self.elf is not None and self.elf.bitcode_section is not None

    def use_bitcode(self) -> None:
        """A fat object's embedded bitcode replaces its native code in the link (member
        granularity: never both)."""
        assert self.elf is not None and self.elf.bitcode is not None
        self.data = unwrap_bitcode(self.elf.bitcode)
        self.bitcode = True
        self._symbols = None
        self._module = None


def _bitcode_symbols(unit: Unit) -> list[Symbol]:
    """From the bitcode's own linker symbol table when it has one (no parsing); else from LLVM,
    which also reports a corrupt file properly."""
    try:
        syms = read_bitcode_symbols(unit.data)
    except FormatError:
        syms = None
    return syms if syms is not None else module_symbols(unit.module)


@dataclass(eq=False)
class ArchiveInput:
    path: str
    units: list[Unit]
    armap: dict[str, list[int]] | None
    whole: bool
    _index: dict[str, list[int]] | None = None

    @property
    def has_bitcode(self) -> bool:
        return any(u.bitcode for u in self.units)

    def member_definitions(self) -> list[list[str]]:
        """For each member, the symbols the index says it defines."""
        per_member: list[list[str]] = [[] for _ in self.units]
        for name, members in self.index().items():
            for i in members:
                per_member[i].append(name)
        return per_member

    def index(self) -> dict[str, list[int]]:
        """Which members define which symbols. Native members may use the archive's own symbol
        index; bitcode members always answer from their bitcode (GNU ar without the LTO plugin
        writes no entries for them)."""
        if self._index is None:
            index: dict[str, list[int]] = {}
            use_armap = self.armap is not None
            if use_armap:
                assert self.armap is not None
                for name, members in self.armap.items():
                    native = [i for i in members if not self.units[i].bitcode]
                    if native:
                        index[name] = native
            for i, unit in enumerate(self.units):
                if unit.bitcode or not use_armap:
                    for sym in unit.symbols:
                        if sym.defined and not sym.common:
                            index.setdefault(sym.name, []).append(i)
            for members in index.values():
                members.sort()
            self._index = index
        return self._index


@dataclass(eq=False)
class SharedInput:
    path: str
    elf: ElfFile
    as_needed: bool


@dataclass(eq=False)
class Group:
    members: list[Input]


Input = Unit | ArchiveInput | SharedInput | Group


@dataclass
class Loaded:
    """A command-line input and what it loaded to (scripts load to several inputs)."""

    spec: InputSpec
    path: str
    inputs: list[Input]
    script: bool = False


@dataclass
class InputSet:
    loaded: list[Loaded] = field(default_factory=list)

    def sequence(self) -> list[Input]:
        """The inputs in resolution order, with command-line groups made Group objects."""
        out: list[Input] = []
        current: Group | None = None
        current_id: int | None = None
        for ld in self.loaded:
            gid = ld.spec.group
            if gid is None:
                current = current_id = None
                out.extend(ld.inputs)
                continue
            if gid != current_id:
                current, current_id = Group([]), gid
                out.append(current)
            assert current is not None
            current.members.extend(ld.inputs)
        return out


def find_library(name: str, lib_paths: list[str], static: bool) -> str | None:
    """ld's -l search: per directory, libNAME.so (unless -Bstatic) then libNAME.a; -l:FILE."""
    if name.startswith(":"):
        candidates = [name[1:]]
    elif static:
        candidates = [f"lib{name}.a"]
    else:
        candidates = [f"lib{name}.so", f"lib{name}.a"]
    for d in lib_paths:
        for c in candidates:
            p = os.path.join(d, c)
            if os.path.isfile(p):
                return p
    return None


def load_inputs(opts: LinkOptions) -> InputSet:
    result = InputSet()
    for spec in opts.inputs:
        if spec.is_lib:
            path = find_library(spec.name, opts.lib_paths, spec.static)
            if path is None:
                raise LinkError(f"unable to find library -l{spec.name}")
        else:
            path = spec.name
        inputs, script = _load_path(path, spec, opts, depth=0)
        result.loaded.append(Loaded(spec, path, inputs, script))
    return result


def _read(path: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except IsADirectoryError:
        raise LinkError(f"cannot open {path}: Is a directory") from None
    except OSError as e:
        raise LinkError(f"cannot open {path}: {e.strerror}") from None


def _load_path(path: str, spec: InputSpec, opts: LinkOptions, depth: int) -> tuple[list[Input], bool]:
    data = _read(path)
    kind = classify(data[:512])
    try:
        if kind is Kind.BITCODE:
            return [Unit(path, unwrap_bitcode(data), bitcode=True)], False
        if kind is Kind.ELF:
            elf = read_elf(data)
            if elf.kind == ET_DYN:
                return [SharedInput(path, elf, spec.as_needed)], False
            if elf.kind != ET_REL:
                raise LinkError(f"{path}: not a relocatable object or shared object")
            return [_object(Unit(path, data, bitcode=False, elf=elf), opts)], False
        if kind in (Kind.ARCHIVE, Kind.THIN_ARCHIVE):
            return [_load_archive(path, data, spec.whole_archive, opts)], False
    except FormatError as e:
        raise LinkError(f"{path}: {e}") from None
    if kind is Kind.SCRIPT and depth < 8:
        return _load_script(path, data, spec, opts, depth), True
    raise LinkError(f"{path}: unknown file type")


def _object(unit: Unit, opts: LinkOptions) -> Unit:
    """--fat-lto-objects (lld's option): every fat object enters the link as its bitcode."""
    if opts.fat_lto_objects and unit.fat and unit.elf is not None and unit.elf.bitcode:
        unit.use_bitcode()
    return unit


def _load_archive(path: str, data: bytes, whole: bool, opts: LinkOptions) -> ArchiveInput:
    ar = read_archive(path, data)
    units: list[Unit] = []
    keep: dict[int, int] = {}
    for i, m in enumerate(ar.members):
        display = f"{path}({m.name})"
        kind = classify(m.data[:512])
        if kind is Kind.BITCODE:
            keep[i] = len(units)
            units.append(Unit(display, unwrap_bitcode(m.data), bitcode=True))
        elif kind is Kind.ELF:
            try:
                elf = read_elf(m.data)
            except FormatError as e:
                raise FormatError(f"member {m.name}: {e}") from None
            if elf.kind == ET_REL:
                keep[i] = len(units)
                units.append(_object(Unit(display, m.data, bitcode=False, elf=elf), opts))
        # anything else (lib.rmeta in rlibs, text files) is skipped, as ld skips it
    armap = None
    if ar.index is not None:
        armap = {s: [keep[i] for i in idx if i in keep] for s, idx in ar.index.items()}
    return ArchiveInput(path, units, armap, whole)


def _script_file(name: str, script: str, lib_paths: list[str]) -> str:
    """A file named in a linker script: as given, next to the script, or on the -L path."""
    if os.path.isabs(name) or os.path.exists(name):
        return name
    for d in [os.path.dirname(script), *lib_paths]:
        cand = os.path.join(d, name)
        if os.path.exists(cand):
            return cand
    return name


def _load_script(path: str, data: bytes, spec: InputSpec, opts: LinkOptions,
                 depth: int) -> list[Input]:
    text = data.decode("utf-8", "replace")
    found: list[Input] = []
    grouped: list[Input] = []
    for si in parse_inputs(text, path):
        if si.is_lib:
            target = find_library(si.name, opts.lib_paths, spec.static)
            if target is None:
                raise LinkError(f"{path}: unable to find library -l{si.name}")
        else:
            target = _script_file(si.name, path, opts.lib_paths)
        sub = InputSpec(target, False, spec.static, spec.whole_archive, si.as_needed or spec.as_needed,
                        spec.group, spec.item)
        inputs, _ = _load_path(target, sub, opts, depth + 1)
        (grouped if si.group else found).extend(inputs)
    if grouped:
        found.append(Group(grouped))
    return found
