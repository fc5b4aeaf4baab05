"""Tokens of LLVM's textual IR, enough for function bodies as LLVM 22 prints them."""

from __future__ import annotations

import re
from dataclasses import dataclass

_TOKEN = re.compile(r'''
    (?P<space>\s+)
  | (?P<comment>;[^\n]*)
  | (?P<local>%(?:"(?:[^"\\]|\\.)*"|[-a-zA-Z$._0-9]+))
  | (?P<global>@(?:"(?:[^"\\]|\\.)*"|[-a-zA-Z$._0-9]+))
  | (?P<meta>!(?:[-a-zA-Z$._0-9]+|"(?:[^"\\]|\\.)*")|!)
  | (?P<attr>\#[0-9]+)
  | (?P<dbgrec>\#dbg_[a-z_]+)
  | (?P<string>c?"(?:[^"\\]|\\.)*")
  | (?P<hex>[su]?0x[KLMHR]?[0-9A-Fa-f]+)
  | (?P<number>-?[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?)
  | (?P<word>[a-zA-Z_][a-zA-Z0-9_.]*:?)
  | (?P<dots>\.\.\.)
  | (?P<punct>[,()\[\]{}<>=*:|])
''', re.X)


@dataclass(frozen=True)
class Tok:
    kind: str
    text: str
    pos: int


class LexError(ValueError):
    pass


def tokenize(text: str) -> list[Tok]:
    out: list[Tok] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            raise LexError(f"cannot read IR at: {text[pos:pos + 40]!r}")
        kind = m.lastgroup or ""
        if kind not in ("space", "comment"):
            out.append(Tok(kind, m.group(), pos))
        pos = m.end()
    return out
