"""The linker symbol table that LLVM writes into bitcode files (the "irsymtab").

Since LLVM 5, bitcode written for LTO carries, besides the module, a SYMTAB block (a binary
table of the symbols a linker needs) and a STRTAB block (the names). Reading them takes a few
microseconds and no LLVM: linkers (lld, gold's plugin) resolve symbols from it without
parsing modules, and so does ld.gradlink, which parses only the bitcode it links.

The file is an LLVM bitstream; only its top level is walked: top-level blocks are skipped by
their length, and the SYMTAB/STRTAB blocks each hold one abbreviated record with a blob.
The table layout is ``llvm::irsymtab::storage``, format version 3 (LLVM 22).
Returns None when a file has no table or another format version: the caller then asks LLVM.
"""

from __future__ import annotations

import struct

from fatlib import FormatError
from fatlib.elf import Symbol

BITCODE_MAGIC = b"BC\xc0\xde"
STRTAB_BLOCK_ID = 23
SYMTAB_BLOCK_ID = 25
SYMTAB_VERSION = 3                # what LLVM 22 writes; others fall back to LLVM

# storage::Symbol::FlagBits
FB_VISIBILITY_MASK = 3
FB_UNDEFINED = 1 << 3
FB_WEAK = 1 << 4
FB_COMMON = 1 << 5
FB_GLOBAL = 1 << 10
FB_FORMAT_SPECIFIC = 1 << 11
VISIBILITY_HIDDEN = 1
NO_COMDAT = 0xFFFFFFFF
_HEADER = struct.Struct("<I" + "II" * 9)      # Version, then 9 Str/Range pairs
_SYMBOL = struct.Struct("<IIIIII")             # Name, IRName, ComdatIndex, Flags


class _Bits:
    """A little-endian bit cursor over bytes, as LLVM's BitstreamCursor reads them."""

    def __init__(self, data: bytes, pos: int = 0) -> None:
        self.data = data
        self.pos = pos                # in bits
        self.end = len(data) * 8

    def read(self, width: int) -> int:
        if width == 0:
            return 0
        if self.pos + width > self.end:
            raise FormatError("bitcode ends in the middle of a record")
        start, shift = divmod(self.pos, 8)
        nbytes = (shift + width + 7) // 8
        value = int.from_bytes(self.data[start:start + nbytes], "little") >> shift
        self.pos += width
        return value & ((1 << width) - 1)

    def vbr(self, width: int) -> int:
        hi = 1 << (width - 1)
        value, shift = 0, 0
        while True:
            piece = self.read(width)
            value |= (piece & (hi - 1)) << shift
            if not piece & hi:
                return value
            shift += width - 1
            if shift > 64:
                raise FormatError("bitcode VBR value is too long")

    def align32(self) -> None:
        self.pos = (self.pos + 31) // 32 * 32


def _block_blob(data: bytes, start_bit: int, abbrev_width: int) -> bytes | None:
    """The blob of the first record of a block whose records each define or use one abbrev."""
    bits = _Bits(data, start_bit)
    abbrevs: list[list[tuple[str, int]]] = []
    while True:
        code = bits.read(abbrev_width)
        if code == 0:                                     # END_BLOCK
            return None
        if code == 2:                                     # DEFINE_ABBREV
            ops: list[tuple[str, int]] = []
            for _ in range(bits.vbr(5)):
                if bits.read(1):
                    ops.append(("literal", bits.vbr(8)))
                else:
                    enc = bits.read(3)
                    if enc in (1, 2):
                        ops.append(("fixed" if enc == 1 else "vbr", bits.vbr(5)))
                    else:
                        ops.append(({3: "array", 4: "char6", 5: "blob"}.get(enc, "?"), 0))
            abbrevs.append(ops)
        elif code == 3:                                   # UNABBREV_RECORD: no blob here
            bits.vbr(6)
            for _ in range(bits.vbr(6)):
                bits.vbr(6)
        elif code >= 4 and code - 4 < len(abbrevs):
            for kind, width in abbrevs[code - 4]:
                if kind == "literal":
                    continue
                if kind == "fixed":
                    bits.read(width)
                elif kind == "vbr":
                    bits.vbr(width)
                elif kind == "blob":
                    size = bits.vbr(6)
                    bits.align32()
                    first = bits.pos // 8
                    if first + size > len(data):
                        raise FormatError("bitcode blob extends past the end of the file")
                    return data[first:first + size]
                else:
                    return None                           # arrays/char6: not a symtab record
        else:
            return None


def _top_level_blobs(data: bytes) -> dict[int, bytes]:
    """Blobs of the top-level SYMTAB and STRTAB blocks, by block id."""
    bits = _Bits(data, 32)
    found: dict[int, bytes] = {}
    while bits.pos + 32 <= bits.end:
        abbrev = bits.read(2)
        if abbrev != 1:                                   # only ENTER_SUBBLOCK at top level
            break
        block_id = bits.vbr(8)
        width = bits.vbr(4)
        bits.align32()
        nwords = bits.read(32)
        body = bits.pos
        if block_id in (STRTAB_BLOCK_ID, SYMTAB_BLOCK_ID) and block_id not in found:
            blob = _block_blob(data, body, width)
            if blob is not None:
                found[block_id] = blob
        bits.pos = body + nwords * 32
        if bits.pos > bits.end:
            raise FormatError("bitcode block extends past the end of the file")
    return found


def read_producer(data: bytes) -> str | None:
    """Who wrote the bitcode, from the irsymtab header: e.g. "LLVM22.1.0" (LLVM checks it
    before trusting the table); None without a table we can read."""
    if not data.startswith(BITCODE_MAGIC):
        return None
    try:
        blobs = _top_level_blobs(data)
    except FormatError:
        return None
    symtab, strtab = blobs.get(SYMTAB_BLOCK_ID), blobs.get(STRTAB_BLOCK_ID)
    if symtab is None or strtab is None or len(symtab) < _HEADER.size:
        return None
    header = _HEADER.unpack_from(symtab, 0)
    off, size = header[1], header[2]
    if off + size > len(strtab):
        return None
    return strtab[off:off + size].decode("utf-8", "replace")


def read_symbols(data: bytes) -> list[Symbol] | None:
    """Global symbols from the bitcode's irsymtab; None if it has none we can read.

    Raises FormatError when the bitstream's top level is truncated or corrupt."""
    if not data.startswith(BITCODE_MAGIC):
        return None
    blobs = _top_level_blobs(data)
    symtab, strtab = blobs.get(SYMTAB_BLOCK_ID), blobs.get(STRTAB_BLOCK_ID)
    if symtab is None or strtab is None or len(symtab) < _HEADER.size:
        return None
    header = _HEADER.unpack_from(symtab, 0)
    if header[0] != SYMTAB_VERSION:
        return None
    sym_off, sym_count = header[7], header[8]
    if sym_off + sym_count * _SYMBOL.size > len(symtab):
        raise FormatError("bitcode symbol table is truncated")
    out: list[Symbol] = []
    for name_off, name_size, _iro, _irs, comdat, flags in _SYMBOL.iter_unpack(
            symtab[sym_off:sym_off + sym_count * _SYMBOL.size]):
        if not flags & FB_GLOBAL or flags & FB_FORMAT_SPECIFIC:
            continue
        if name_off + name_size > len(strtab):
            raise FormatError("bitcode symbol name is outside the string table")
        name = strtab[name_off:name_off + name_size].decode("utf-8", "replace")
        hidden = (flags & FB_VISIBILITY_MASK) == VISIBILITY_HIDDEN
        if flags & FB_UNDEFINED:
            out.append(Symbol(name, defined=False, weak=bool(flags & FB_WEAK), hidden=hidden))
        else:
            out.append(Symbol(name, defined=True, weak=bool(flags & FB_WEAK),
                              common=bool(flags & FB_COMMON),
                              hidden=hidden,
                              in_comdat=comdat != NO_COMDAT))
    return out
