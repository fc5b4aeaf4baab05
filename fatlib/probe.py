"""Classify a file or archive member by its contents, as a linker does."""

from __future__ import annotations

import enum
import struct

from fatlib.archive import AR_MAGIC, THIN_MAGIC
from fatlib.elf import ELF_MAGIC

BITCODE_MAGIC = b"BC\xc0\xde"
BITCODE_WRAPPER_MAGIC = b"\xde\xc0\x17\x0b"


class Kind(enum.Enum):
    BITCODE = "bitcode"              # raw LLVM bitcode (clang/flang -flto, rustc linker-plugin-lto)
    ELF = "elf"                      # ELF relocatable or shared object; see fatlib.elf for details
    ARCHIVE = "archive"
    THIN_ARCHIVE = "thin archive"
    SCRIPT = "linker script"         # text, e.g. Debian's libc.so
    OTHER = "other"                  # not an object: rlib metadata, README, ...


def classify(head: bytes) -> Kind:
    """Classify by the first bytes (at least 8 are needed for archives)."""
    if head.startswith((BITCODE_MAGIC, BITCODE_WRAPPER_MAGIC)):
        return Kind.BITCODE
    if head.startswith(ELF_MAGIC):
        return Kind.ELF
    if head.startswith(AR_MAGIC):
        return Kind.ARCHIVE
    if head.startswith(THIN_MAGIC):
        return Kind.THIN_ARCHIVE
    if _looks_like_script(head):
        return Kind.SCRIPT
    return Kind.OTHER


def unwrap_bitcode(data: bytes) -> bytes:
    """Strip the Darwin-style bitcode wrapper header if present."""
    if data.startswith(BITCODE_WRAPPER_MAGIC) and len(data) >= 20:
        _magic, _version, offset, size, _cpu = struct.unpack_from("<5I", data, 0)
        return data[offset:offset + size]
    return data


def _looks_like_script(head: bytes) -> bool:
    try:
        text = head[:512].decode("ascii")
    except UnicodeDecodeError:
        return False
    words = ("GROUP", "INPUT", "OUTPUT_FORMAT", "SEARCH_DIR", "/*", "AS_NEEDED", "ENTRY", "SECTIONS")
    return any(w in text for w in words)
