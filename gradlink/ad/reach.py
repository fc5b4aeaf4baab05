"""Which function bodies the AD of a module will need that the module does not have.

The link stage asks this before AD: a function a differentiated function may call (directly, or
through its address) must have a body in the module, and a fat object or archive member that
defines it natively can supply one from its embedded bitcode. The walk starts at the functions
named in Enzyme requests and follows every function a reached body names; it does not enter
functions whose derivative is registered (their bodies are not differentiated) nor functions
that never return (panic and abort paths: no derivative runs past them). It
over-approximates (any function named, called or not), which only pulls more bitcode.
"""

from __future__ import annotations

import re

from gradlink.ad.custom import read_registry
from gradlink.ir.parse import attribute_groups, function_texts

_REF = re.compile(r'@("(?:[^"\\]|\\.)*"|[-a-zA-Z$._][-a-zA-Z$._0-9]*)')
_DECLARE = re.compile(r'^declare\b[^@\n]*@("(?:[^"\\]|\\.)*"|[-a-zA-Z$._][-a-zA-Z$._0-9]*)\(', re.M)
_HEADER = re.compile(r'^(?:declare|define)\b[^@\n]*@("(?:[^"\\]|\\.)*"|[-a-zA-Z$._][-a-zA-Z$._0-9]*)\((.*)$',
                     re.M)
_REQUEST = re.compile(r"@\"?__enzyme_(?:autodiff|fwddiff|augmentfwd|reverse|batch)")


def bodies_needed(module_text: str) -> dict[str, str]:
    """External function name (unquoted) -> the defined function whose body names it, for every
    function declared but not defined in the module that a derivative may need."""
    bodies = function_texts(module_text)
    declared = {_bare(m.group(1)) for m in _DECLARE.finditer(module_text)}
    skip = {_bare(n.lstrip("@")) for n in read_registry(module_text).registered()}
    skip |= _no_return(module_text)
    todo: list[tuple[str, str]] = []          # (function, who names it)
    for caller, text in bodies.items():
        for line in text.splitlines():
            if _REQUEST.search(line):
                todo.extend((r, _bare(caller[1:])) for r in _REF.findall(line.split("(", 1)[-1]))
    seen: set[str] = set()
    out: dict[str, str] = {}
    while todo:
        ref, referrer = todo.pop()
        bare = _bare(ref)
        if bare in seen or bare in skip or bare.startswith(("llvm.", "__enzyme_")):
            continue
        seen.add(bare)
        text = bodies.get(f"@{ref}") or bodies.get(f'@"{bare}"')
        if text is None:
            if bare in declared:
                out.setdefault(bare, referrer)
            continue
        todo.extend((r, bare) for r in _REF.findall(text.split("\n", 1)[-1]))
    return out


def _no_return(module_text: str) -> set[str]:
    """Functions that never return (Rust's panics, abort paths): a derivative never runs past
    a call of one, so AD needs no body of theirs, nor of what they call."""
    groups = {g for g, body in attribute_groups(module_text).items()
              if re.search(r"\bnoreturn\b", body)}
    out = set()
    for m in _HEADER.finditer(module_text):
        rest = m.group(2)
        if re.search(r"\)\s[^{]*\bnoreturn\b", rest) or any(
                g in groups for g in re.findall(r"#\d+", rest.split("{")[0])):
            out.add(_bare(m.group(1)))
    return out


def _bare(name: str) -> str:
    return name.strip('"')
