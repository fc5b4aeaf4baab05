"""`gradlink inspect`: what a file is to ld.gradlink, in a few readable lines."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from fatlib import FormatError
from fatlib.archive import read_archive
from fatlib.elf import Symbol, read_elf
from fatlib.probe import Kind, classify, unwrap_bitcode


def describe(path: str, list_symbols: bool = False) -> Iterator[str]:
    data = Path(path).read_bytes()
    kind = classify(data[:512])
    try:
        if kind in (Kind.ARCHIVE, Kind.THIN_ARCHIVE):
            ar = read_archive(path, data)
            indexed = "with a symbol index" if ar.index is not None else "without a symbol index"
            yield f"{path}: {kind.value}, {len(ar.members)} members, {indexed}"
            for m in ar.members:
                for line in _object(m.name, m.data, list_symbols):
                    yield "  " + line
        elif kind is Kind.SCRIPT:
            yield f"{path}: linker script"
            yield from ("  " + ln for ln in data.decode("utf-8", "replace").splitlines() if ln.strip())
        else:
            yield from _object(path, data, list_symbols)
    except FormatError as e:
        raise ValueError(f"{path}: {e}") from None


def _object(name: str, data: bytes, list_symbols: bool) -> Iterator[str]:
    kind = classify(data[:512])
    syms: list[Symbol] = []
    if kind is Kind.BITCODE:
        from lto.diag import LinkError
        from lto.symbols import module_symbols, parse_module
        try:
            mod = parse_module(unwrap_bitcode(data), name)
        except LinkError as e:
            raise ValueError(str(e)) from None
        syms = module_symbols(mod)
        yield f"{name}: LLVM bitcode, triple {mod.triple or '?'}, {_counts(syms)}"
    elif kind is Kind.ELF:
        elf = read_elf(data, want_bitcode=False)
        syms = elf.symbols
        what = {1: "ELF relocatable object", 2: "ELF executable", 3: "ELF shared object"}.get(
            elf.kind, f"ELF type {elf.kind}")
        if elf.bitcode_section:
            what = f"fat {what} (bitcode in {elf.bitcode_section})"
        extra = f", soname {elf.soname}" if elf.soname else ""
        yield f"{name}: {what}{extra}, {_counts(syms)}"
    else:
        yield f"{name}: {kind.value} (not linked)"
    if list_symbols:
        for s in sorted(syms, key=lambda s: (not s.defined, s.name)):
            flags = ("defined" if s.defined else "undefined") + (" weak" if s.weak else "") + (
                " common" if s.common else "") + (" hidden" if s.hidden else "")
            yield f"    {s.name}  [{flags}]"


def _counts(syms: list[Symbol]) -> str:
    d = sum(1 for s in syms if s.defined)
    return f"{d} defined, {len(syms) - d} undefined global symbols"
