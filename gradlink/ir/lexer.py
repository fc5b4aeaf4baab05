"""Tokens of LLVM's textual IR, enough for function bodies as LLVM 22 prints them."""

from __future__ import annotations

import re
from typing import NamedTuple

# the most frequent tokens first (the engine tries the alternatives in order); hex before
# number and word ("0x1F", "s0x..."), string before word (c"...")
_TOKEN = re.compile(r'''
    (?P<space>\s+)
  | (?P<punct>[,()\[\]{}<>=*:|])
  | (?P<local>%(?:"(?:[^"\\]|\\.)*"|[-a-zA-Z$._0-9]+))
  | (?P<global>@(?:"(?:[^"\\]|\\.)*"|[-a-zA-Z$._0-9]+))
  | (?P<string>c?"(?:[^"\\]|\\.)*")
  | (?P<hex>[su]?0x[KLMHR]?[0-9A-Fa-f]+)
  | (?P<number>-?[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?)
  | (?P<word>[a-zA-Z_][a-zA-Z0-9_.]*:?)
  | (?P<meta>!(?:[-a-zA-Z$._0-9]+|"(?:[^"\\]|\\.)*")|!)
  | (?P<attr>\#[0-9]+)
  | (?P<dbgrec>\#dbg_[a-z_]+)
  | (?P<comment>;[^\n]*)
  | (?P<dots>\.\.\.)
''', re.X)


class Tok(NamedTuple):
    kind: str
    text: str
    pos: int


class LexError(ValueError):
    pass


def tokenize(text: str) -> list[Tok]:
    out: list[Tok] = []
    append = out.append
    pos = 0
    for m in _TOKEN.finditer(text):
        start = m.start()
        if start != pos:                 # finditer skipped what no token matches
            break
        kind = m.lastgroup or ""
        if kind != "space" and kind != "comment":
            append(Tok(kind, m.group(), start))
        pos = m.end()
    if pos != len(text):
        raise LexError(f"cannot read IR at: {text[pos:pos + 40]!r}")
    return out
