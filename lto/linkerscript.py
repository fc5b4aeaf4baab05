"""The part of GNU linker scripts that names inputs: GROUP, INPUT and AS_NEEDED.

Debian's libc.so and libm.so are such scripts. Other commands (OUTPUT_FORMAT, SEARCH_DIR, ...)
do not change which files are linked and are left to the native linker.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lto.diag import LinkError

_TOKEN = re.compile(r'/\*.*?\*/|"[^"]*"|[(),]|[^\s(),"]+', re.S)


@dataclass
class ScriptInput:
    name: str          # a path, or a library name when is_lib
    is_lib: bool
    as_needed: bool
    group: bool        # inside GROUP(...): searched repeatedly like --start-group


def parse_inputs(text: str, path: str) -> list[ScriptInput]:
    tokens = [t for t in _TOKEN.findall(text) if not t.startswith("/*")]
    out: list[ScriptInput] = []
    i = 0
    while i < len(tokens):
        word = tokens[i]
        if word in ("GROUP", "INPUT") and i + 1 < len(tokens) and tokens[i + 1] == "(":
            i = _parse_list(tokens, i + 2, path, out, as_needed=False, group=word == "GROUP")
        elif i + 1 < len(tokens) and tokens[i + 1] == "(":
            i = _skip_parens(tokens, i + 1, path)          # OUTPUT_FORMAT(...), SEARCH_DIR(...)
        else:
            i += 1
    return out


def _parse_list(tokens: list[str], i: int, path: str, out: list[ScriptInput], *,
                as_needed: bool, group: bool) -> int:
    while i < len(tokens):
        t = tokens[i]
        if t == ")":
            return i + 1
        if t == ",":
            i += 1
        elif t == "AS_NEEDED" and i + 1 < len(tokens) and tokens[i + 1] == "(":
            i = _parse_list(tokens, i + 2, path, out, as_needed=True, group=group)
        else:
            name = t.strip('"')
            if name.startswith("-l"):
                out.append(ScriptInput(name[2:], True, as_needed, group))
            else:
                out.append(ScriptInput(name, False, as_needed, group))
            i += 1
    raise LinkError(f"{path}: unterminated list in linker script")


def _skip_parens(tokens: list[str], i: int, path: str) -> int:
    depth = 0
    while i < len(tokens):
        if tokens[i] == "(":
            depth += 1
        elif tokens[i] == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise LinkError(f"{path}: unbalanced parentheses in linker script")
