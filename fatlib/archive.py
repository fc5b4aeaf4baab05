"""Reading and writing ar archives: GNU and BSD name tables, symbol indexes, thin archives.

Plain Python. Reading validates every header: a truncated archive raises FormatError naming
what is cut, it is never half-read.
"""

from __future__ import annotations

import os
import struct
from dataclasses import dataclass
from pathlib import Path

from fatlib import FormatError

AR_MAGIC = b"!<arch>\n"
THIN_MAGIC = b"!<thin>\n"
HEADER_SIZE = 60

GNU_SYMTAB = "/"
GNU_SYMTAB64 = "/SYM64/"
GNU_NAMES = "//"
BSD_SYMTABS = ("__.SYMDEF", "__.SYMDEF SORTED", "__.SYMDEF_64", "__.SYMDEF_64 SORTED")


@dataclass
class Member:
    """One archive member. ``data`` holds its bytes (read from disk for thin archives)."""

    name: str
    offset: int                   # offset of its header in the archive: the armap refers to it
    data: bytes
    path: str | None = None       # the file a thin archive member refers to


@dataclass
class Archive:
    path: str
    members: list[Member]
    index: dict[str, list[int]] | None   # symbol -> member indices, from the archive's armap
    thin: bool = False


def is_archive(head: bytes) -> bool:
    return head.startswith((AR_MAGIC, THIN_MAGIC))


def _field(hdr: bytes, start: int, end: int) -> str:
    return hdr[start:end].decode("ascii", "replace").strip()


def read_archive(path: str | os.PathLike[str], data: bytes | None = None) -> Archive:
    """Read an archive (regular or thin). Raises FormatError when it is truncated or corrupt."""
    path = str(path)
    if data is None:
        data = Path(path).read_bytes()
    thin = data.startswith(THIN_MAGIC)
    if not (thin or data.startswith(AR_MAGIC)):
        raise FormatError("not an ar archive")
    pos = len(AR_MAGIC)
    long_names = b""
    raw_symtab: tuple[str, bytes] | None = None
    members: list[Member] = []
    while pos < len(data):
        if data[pos:pos + 1] == b"\n" and pos + 1 == len(data):    # trailing pad byte
            break
        hdr = data[pos:pos + HEADER_SIZE]
        if len(hdr) < HEADER_SIZE:
            raise FormatError(f"truncated archive: member header at offset {pos} is cut short")
        if hdr[58:60] != b"`\n":
            raise FormatError(f"corrupt archive: bad member header at offset {pos}")
        try:
            size = int(_field(hdr, 48, 58))
        except ValueError:
            raise FormatError(f"corrupt archive: bad member size at offset {pos}") from None
        raw_name = _field(hdr, 0, 16)
        body_start = pos + HEADER_SIZE
        name, name_len = raw_name, 0
        if raw_name.startswith("#1/"):                     # BSD: the name leads the data
            try:
                name_len = int(raw_name[3:])
            except ValueError:
                raise FormatError(f"corrupt archive: bad BSD name length at offset {pos}") from None
            if body_start + name_len > len(data) or name_len > size:
                raise FormatError(f"truncated archive: member name at offset {pos} is cut short")
            name = data[body_start:body_start + name_len].rstrip(b"\0").decode("utf-8", "replace")
        special = name in (GNU_SYMTAB, GNU_SYMTAB64, GNU_NAMES) or name in BSD_SYMTABS
        stored = size if (not thin or special) else 0
        if body_start + stored > len(data):
            shown = name.rstrip("/") or name
            raise FormatError(f"truncated archive: member '{shown}' at offset {pos} needs "
                              f"{size} bytes, {len(data) - body_start} remain")
        body = data[body_start + name_len:body_start + stored]
        if name == GNU_NAMES:
            long_names = body
        elif special:
            raw_symtab = (name, body)
        else:
            if raw_name.startswith("/") and raw_name[1:].isdigit():
                off = int(raw_name[1:])
                end = long_names.find(b"/\n", off)
                if end < 0:
                    end = long_names.find(b"\n", off)
                if off >= len(long_names) or end < 0:
                    raise FormatError(f"corrupt archive: long name offset {off} out of range")
                name = long_names[off:end].decode("utf-8", "replace")
            elif not name_len and raw_name.endswith("/"):
                name = raw_name[:-1]
            member_path = None
            if thin:
                member_path = os.path.join(os.path.dirname(path), name)
                try:
                    body = Path(member_path).read_bytes()
                except OSError as e:
                    raise FormatError(f"thin archive member '{name}' cannot be read: "
                                      f"{e.strerror}") from None
            members.append(Member(name, pos, body, member_path))
        pos = body_start + stored + (stored & 1)
    index = _decode_symtab(raw_symtab, members) if raw_symtab else None
    return Archive(path, members, index, thin)


def _decode_symtab(raw: tuple[str, bytes], members: list[Member]) -> dict[str, list[int]]:
    kind, body = raw
    by_offset = {m.offset: i for i, m in enumerate(members)}
    index: dict[str, list[int]] = {}
    try:
        if kind in (GNU_SYMTAB, GNU_SYMTAB64):
            w = 8 if kind == GNU_SYMTAB64 else 4
            fmt = ">Q" if w == 8 else ">I"
            (count,) = struct.unpack_from(fmt, body, 0)
            offsets = struct.unpack_from(f">{count}{fmt[1]}", body, w)
            names = body[w + count * w:].split(b"\0")
            pairs = zip(names, offsets)
        else:
            (nbytes,) = struct.unpack_from("<I", body, 0)
            entries = struct.unpack_from(f"<{nbytes // 4}I", body, 4)
            (strsize,) = struct.unpack_from("<I", body, 4 + nbytes)
            strs = body[8 + nbytes:8 + nbytes + strsize]
            pairs = zip([strs[entries[i]:strs.find(b"\0", entries[i])]
                         for i in range(0, len(entries), 2)], entries[1::2])
        for name, off in pairs:
            if off not in by_offset:
                raise FormatError(f"truncated or corrupt archive: the symbol index refers to a "
                                  f"member at offset {off}, which is not there")
            index.setdefault(name.decode("utf-8", "replace"), []).append(by_offset[off])
    except struct.error:
        raise FormatError("corrupt archive: symbol table is truncated") from None
    return index


def write_archive(path: str | os.PathLike[str], members: list[tuple[str, bytes]],
                  symbols: list[list[str]]) -> None:
    """Write a GNU archive with a symbol index. ``symbols[i]`` lists what member i defines."""
    names = b""
    name_fields: list[str] = []
    for name, _ in members:
        base = os.path.basename(name)
        if len(base) < 16 and "/" not in base:
            name_fields.append(base + "/")
        else:
            name_fields.append(f"/{len(names)}")
            names += base.encode() + b"/\n"

    def header(name: str, size: int) -> bytes:
        return (f"{name:<16}{0:<12}{0:<6}{0:<6}{644:<8}{size:<10}".encode() + b"`\n")

    def padded(b: bytes) -> bytes:
        return b + (b"\n" if len(b) & 1 else b"")

    all_syms = [(s, i) for i, ss in enumerate(symbols) for s in ss]
    strtab = b"".join(s.encode() + b"\0" for s, _ in all_syms)
    symtab_size = 4 + 4 * len(all_syms) + len(strtab)
    pos = len(AR_MAGIC) + HEADER_SIZE + symtab_size + (symtab_size & 1)
    if names:
        pos += HEADER_SIZE + len(names) + (len(names) & 1)
    offsets = []
    for _, body in members:
        offsets.append(pos)
        pos += HEADER_SIZE + len(body) + (len(body) & 1)
    symtab = struct.pack(f">I{len(all_syms)}I", len(all_syms), *(offsets[i] for _, i in all_syms))
    out = [AR_MAGIC, header(GNU_SYMTAB, symtab_size), padded(symtab + strtab)]
    if names:
        out += [header(GNU_NAMES, len(names)), padded(names)]
    for field_name, (_, body) in zip(name_fields, members):
        out += [header(field_name, len(body)), padded(body)]
    Path(path).write_bytes(b"".join(out))
