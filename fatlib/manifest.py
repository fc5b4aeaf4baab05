"""The derivative manifest: what a library tells gradlink about differentiating its functions.

It lives in an ELF section named ``.gradlink.manifest`` (no SHF_ALLOC: it is not loaded at run
time) of a fat library's objects, and of a shared object built from them. Linkers concatenate
same-named sections, so the section is a sequence of chunks, each self-delimiting::

    magic  b"GLMF"
    u32    format version (little endian; this reader knows 1)
    u32    length of the payload in bytes
    bytes  payload: UTF-8 JSON {"entries": [ENTRY, ...]}

An ENTRY is an object with a "kind" and the names of ELF symbols (docs/fat-libraries.md lists
every field):

- ``gradient``: "function", "augmented", "reverse" (Enzyme's custom reverse convention), with
  "signatures" giving each symbol's LLVM type (``{"ret": "double", "params": ["ptr", "i32"]}``)
- ``derivative``: "function", "tangent" (custom forward), "signatures"
- ``function_like``: "function", "like" (a built-in rule, e.g. "log1p", or "free": a function
  freeing its first argument)
- ``allocation_like``: "function" (returns fresh memory), "size_argument" (the index of its
  byte-count argument), "deallocator" (the function freeing it), "deallocator_arguments" (per
  argument of the deallocator: -1 for the pointer, k for the allocation's argument k),
  "signatures"
- ``inactive``: "function";  ``inactive_global``: "global"
- ``precompiled``: "function", "mode" ("reverse" | "forward"), "activity" (one of const, dup,
  dupnoneed, out per parameter), the derivative symbols with the conventions of a custom
  derivative ("augmented" and "reverse", or "tangent"; gradlink/precompile.py), "signatures"

Unknown kinds and fields are errors of a reader that does not know them (a newer format would
say so by its version), never ignored.
"""

from __future__ import annotations

import json
import struct
from dataclasses import dataclass, field
from typing import Any

from fatlib import FormatError

SECTION = ".gradlink.manifest"
MAGIC = b"GLMF"
VERSION = 1

KINDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # kind: (required fields, optional fields)
    "gradient": (("function", "augmented", "reverse"), ("signatures", "tape")),
    "derivative": (("function", "tangent"), ("signatures",)),
    "function_like": (("function", "like"), ()),
    "allocation_like": (("function", "size_argument", "deallocator", "deallocator_arguments"),
                        ("signatures",)),
    "inactive": (("function",), ()),
    "inactive_global": (("global",), ()),
    "precompiled": (("function", "mode", "activity"), ("augmented", "reverse", "tangent",
                                                       "signatures")),
}
MODES = ("reverse", "forward")
ACTIVITIES = ("const", "dup", "dupnoneed", "out")


@dataclass
class Manifest:
    entries: list[dict[str, Any]] = field(default_factory=list)
    source: str = ""                     # where it was read from, for messages

    def functions(self) -> set[str]:
        return {e["function"] for e in self.entries if "function" in e}


def validate_entry(e: Any, where: str) -> dict[str, Any]:
    """One entry, checked; FormatError naming ``where`` and what is wrong otherwise."""
    if not isinstance(e, dict) or not isinstance(e.get("kind"), str):
        raise FormatError(f"{where}: a manifest entry must be an object with a 'kind'")
    kind = e["kind"]
    if kind not in KINDS:
        raise FormatError(f"{where}: unknown manifest entry kind '{kind}' (known: "
                          f"{', '.join(KINDS)})")
    required, optional = KINDS[kind]
    for f in required:
        if f in ("size_argument", "deallocator_arguments"):
            continue                                   # numbers: checked below
        if not isinstance(e.get(f), (str, list)) or not e.get(f):
            raise FormatError(f"{where}: a '{kind}' entry needs '{f}'")
    extra = set(e) - set(required) - set(optional) - {"kind"}
    if extra:
        raise FormatError(f"{where}: unknown field(s) {', '.join(sorted(extra))} in a '{kind}' "
                          "entry")
    if kind == "precompiled":
        if e["mode"] not in MODES:
            raise FormatError(f"{where}: mode '{e['mode']}' of {e['function']} is not one of "
                              f"{', '.join(MODES)}")
        need = ("augmented", "reverse") if e["mode"] == "reverse" else ("tangent",)
        for f in need:
            if not isinstance(e.get(f), str) or not e[f]:
                raise FormatError(f"{where}: the precompiled {e['mode']} derivative of "
                                  f"{e['function']} needs '{f}'")
        acts = e["activity"]
        if not isinstance(acts, list) or any(a not in ACTIVITIES for a in acts):
            raise FormatError(f"{where}: the activity of {e['function']} must be a list of "
                              f"{', '.join(ACTIVITIES)}")
    if kind == "allocation_like":
        size, args = e.get("size_argument"), e.get("deallocator_arguments")
        if not isinstance(size, int) or isinstance(size, bool) or size < 0:
            raise FormatError(f"{where}: the 'size_argument' of allocator {e['function']} must "
                              "be the index of its byte-count argument (0, 1, ...)")
        if not isinstance(args, list) or not args or any(
                not isinstance(k, int) or isinstance(k, bool) or k < -1 for k in args):
            raise FormatError(f"{where}: the 'deallocator_arguments' of allocator "
                              f"{e['function']} must list, per argument of {e['deallocator']}, "
                              "-1 for the pointer or the index of an argument of the allocation")
    sigs = e.get("signatures", {})
    if not isinstance(sigs, dict) or any(
            not isinstance(s, dict) or not isinstance(s.get("ret"), str)
            or not isinstance(s.get("params"), list) for s in sigs.values()):
        raise FormatError(f"{where}: 'signatures' must map symbols to {{ret, params}}")
    return e


def encode(entries: list[dict[str, Any]]) -> bytes:
    """One chunk holding ``entries`` (validated)."""
    for e in entries:
        validate_entry(e, "manifest")
    payload = json.dumps({"entries": entries}, sort_keys=True,
                         separators=(",", ":")).encode()
    return MAGIC + struct.pack("<II", VERSION, len(payload)) + payload


def decode(data: bytes, source: str) -> Manifest:
    """Every chunk of a section's contents; a corrupt or newer manifest is a FormatError."""
    out = Manifest(source=source)
    pos = 0
    while pos < len(data):
        if data[pos] == 0:                # alignment padding between concatenated chunks
            pos += 1
            continue
        if data[pos:pos + 4] != MAGIC or pos + 12 > len(data):
            raise FormatError(f"{source}: corrupt derivative manifest (no chunk header at "
                              f"offset {pos})")
        version, length = struct.unpack_from("<II", data, pos + 4)
        if version > VERSION:
            raise FormatError(f"{source}: derivative manifest version {version} is newer than "
                              f"this gradlink reads ({VERSION}); update gradlink")
        body = data[pos + 12:pos + 12 + length]
        if len(body) != length:
            raise FormatError(f"{source}: corrupt derivative manifest (truncated chunk)")
        try:
            doc = json.loads(body)
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            raise FormatError(f"{source}: corrupt derivative manifest: {e}") from None
        if not isinstance(doc, dict) or not isinstance(doc.get("entries"), list):
            raise FormatError(f"{source}: corrupt derivative manifest (no entry list)")
        out.entries.extend(validate_entry(e, source) for e in doc["entries"])
        pos += 12 + length
    return out
