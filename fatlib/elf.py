"""A small, fast ELF64 reader: section names, global symbols, embedded bitcode, dynamic info.

Only what linking needs: which global symbols an object or shared object defines and references,
whether it carries bitcode (``.llvm.lto`` from ``-ffat-lto-objects``, ``.llvmbc`` from
``-fembed-bitcode`` and rustc's std objects), the derivative manifest and, for shared objects,
their soname. It parses with ``struct`` only: a Rust link probes hundreds of archive members, and
sections are added or removed by llvm-objcopy-22 (gradlink/fatbuild.py).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

from fatlib import FormatError

ELF_MAGIC = b"\x7fELF"

ET_REL, ET_EXEC, ET_DYN = 1, 2, 3
SHT_SYMTAB, SHT_STRTAB, SHT_NOBITS, SHT_DYNAMIC, SHT_DYNSYM, SHT_GROUP = 2, 3, 8, 6, 11, 17
SHN_UNDEF, SHN_ABS, SHN_COMMON = 0, 0xFFF1, 0xFFF2
STB_LOCAL, STB_GLOBAL, STB_WEAK, STB_GNU_UNIQUE = 0, 1, 2, 10
STV_DEFAULT, STV_INTERNAL, STV_HIDDEN, STV_PROTECTED = 0, 1, 2, 3
DT_NEEDED, DT_SONAME = 1, 14

BITCODE_SECTIONS = (".llvm.lto", ".llvmbc")


@dataclass(frozen=True)
class Symbol:
    """A global or weak symbol as the linker sees it."""

    name: str
    defined: bool
    weak: bool = False
    common: bool = False
    hidden: bool = False      # STV_HIDDEN or STV_INTERNAL: never exported from a DSO
    in_comdat: bool = False   # defined in a section of a COMDAT group: duplicates are legal


@dataclass
class ElfFile:
    kind: int                                  # ET_REL, ET_EXEC or ET_DYN
    machine: int
    sections: list[str]
    symbols: list[Symbol]
    bitcode_section: str | None = None         # ".llvm.lto" or ".llvmbc" when present
    bitcode: bytes | None = None
    manifest: bytes | None = None               # the .gradlink.manifest section (fatlib.manifest)
    soname: str | None = None
    needed: list[str] = field(default_factory=list)

    @property
    def is_shared(self) -> bool:
        return self.kind == ET_DYN


MANIFEST_SECTION = ".gradlink.manifest"


def _cstr(table: bytes, off: int) -> str:
    end = table.find(b"\0", off)
    if end < 0:
        raise FormatError("string table entry is not terminated")
    return table[off:end].decode("utf-8", "replace")


def read_elf(data: bytes | memoryview, *, want_bitcode: bool = True) -> ElfFile:
    """Parse an ELF64 little-endian file held in memory. Raises FormatError when it is corrupt."""
    data = bytes(data)
    if len(data) < 64 or data[:4] != ELF_MAGIC:
        raise FormatError("not an ELF file or truncated ELF header")
    if data[4] != 2 or data[5] != 1:
        raise FormatError("only 64-bit little-endian ELF is supported")
    (e_type, e_machine, _v, _entry, _phoff, shoff, _flags, _ehsize, _phentsize, _phnum,
     shentsize, shnum, shstrndx) = struct.unpack_from("<HHIQQQIHHHHHH", data, 16)
    if shoff == 0:
        return ElfFile(e_type, e_machine, [], [])
    if shentsize != 64:
        raise FormatError(f"unexpected section header size {shentsize}")
    if shnum == 0 and shoff + 64 <= len(data):          # extended section count
        shnum = struct.unpack_from("<Q", data, shoff + 32)[0]
    if shoff + shnum * 64 > len(data):
        raise FormatError("truncated: section headers extend past the end of the file")
    headers = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * 64) for i in range(shnum)]
    for h in headers:
        if h[1] != SHT_NOBITS and h[4] + h[5] > len(data):
            raise FormatError("truncated: a section extends past the end of the file")

    def body(i: int) -> bytes:
        h = headers[i]
        return data[h[4]:h[4] + h[5]]

    if shstrndx == 0xFFFF:
        shstrndx = headers[0][7]
    shstr = body(shstrndx) if 0 < shstrndx < shnum else b""
    names = [_cstr(shstr, h[0]) if shstr else "" for h in headers]

    comdat_sections: set[int] = set()
    for h in headers:
        if h[1] == SHT_GROUP:
            words = struct.unpack_from(f"<{h[5] // 4}I", data, h[4])
            if words and words[0] & 1:                  # GRP_COMDAT
                comdat_sections.update(words[1:])

    symtab_type = SHT_DYNSYM if e_type == ET_DYN else SHT_SYMTAB
    symbols: list[Symbol] = []
    for index, h in enumerate(headers):
        if h[1] != symtab_type:
            continue
        if not (0 < h[6] < shnum):
            raise FormatError("symbol table has no string table")
        strtab = body(h[6])
        first_global = h[7] if e_type != ET_DYN else 1
        raw = body(index)
        for st_name, st_info, st_other, st_shndx, _value, _size in struct.iter_unpack(
                "<IBBHQQ", raw[first_global * 24:len(raw) - len(raw) % 24]):
            bind = st_info >> 4
            if bind == STB_LOCAL:
                continue
            name = _cstr(strtab, st_name)
            if not name:
                continue
            vis = st_other & 3
            symbols.append(Symbol(
                name=name, defined=st_shndx != SHN_UNDEF, weak=bind == STB_WEAK,
                common=st_shndx == SHN_COMMON, hidden=vis in (STV_HIDDEN, STV_INTERNAL),
                in_comdat=st_shndx in comdat_sections))
        break

    elf = ElfFile(e_type, e_machine, names, symbols)
    for i, name in enumerate(names):
        if name in BITCODE_SECTIONS and elf.bitcode_section is None:
            elf.bitcode_section = name
            if want_bitcode:
                elf.bitcode = body(i)
        elif name == MANIFEST_SECTION:
            elf.manifest = body(i)
    if e_type == ET_DYN:
        _read_dynamic(data, headers, names, elf)
    return elf


def _read_dynamic(data: bytes, headers: list[tuple[int, ...]], names: list[str], elf: ElfFile) -> None:
    for h in headers:
        if h[1] != SHT_DYNAMIC:
            continue
        if not 0 < h[6] < len(headers):
            raise FormatError("dynamic section has no string table")
        strtab_h = headers[h[6]]
        strtab = data[strtab_h[4]:strtab_h[4] + strtab_h[5]]
        for tag, val in struct.iter_unpack("<qQ", data[h[4]:h[4] + h[5] - h[5] % 16]):
            if tag == 0:
                break
            if tag == DT_SONAME:
                elf.soname = _cstr(strtab, val)
            elif tag == DT_NEEDED:
                elf.needed.append(_cstr(strtab, val))
        return
