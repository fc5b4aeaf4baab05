"""Which function bodies the AD of a module will need that the module does not have.

The link stage asks this before AD: a function a differentiated function may call (directly, or
through its address) must have a body in the module, and a fat object or archive member that
defines it natively can supply one from its embedded bitcode. The walk starts at the functions
named in Enzyme requests and follows every function a reached body names; it does not enter
functions whose derivative is registered for the request's mode (a registered gradient serves
reverse mode, a registered tangent forward mode: their bodies are not differentiated) nor allocators and
deallocators registered as such (allocation_like, function_like "free"), nor functions
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
_REQUEST = re.compile(r"@\"?__enzyme_(autodiff|fwddiff|augmentfwd|reverse|batch)")


def bodies_needed(module_text: str) -> dict[str, str]:
    """External function name (unquoted) -> the defined function whose body names it, for every
    function declared but not defined in the module that a derivative may need."""
    bodies = function_texts(module_text)
    declared = {_bare(m.group(1)) for m in _DECLARE.finditer(module_text)}
    reg = read_registry(module_text)
    both = {_bare(n.lstrip("@")) for n in set(reg.function_like) | reg.inactive_functions
            | set(reg.allocators) | reg.frees | {a.free for a in reg.allocators.values()}}
    both |= _no_return(module_text)
    skip = {"reverse": both | {_bare(n.lstrip("@")) for n in reg.gradients},
            "forward": both | {_bare(n.lstrip("@")) for n in reg.tangents}}
    todo: list[tuple[str, str, str]] = []          # (function, who names it, mode)
    for caller, text in bodies.items():
        for line in text.splitlines():
            m = _REQUEST.search(line)
            if m:
                mode = "forward" if m.group(1) == "fwddiff" else "reverse"
                todo.extend((r, _bare(caller[1:]), mode)
                            for r in _REF.findall(line.split("(", 1)[-1]))
    seen: set[tuple[str, str]] = set()
    out: dict[str, str] = {}
    while todo:
        ref, referrer, mode = todo.pop()
        bare = _bare(ref)
        if (bare, mode) in seen or bare in skip[mode] or bare.startswith(("llvm.", "__enzyme_")):
            continue
        seen.add((bare, mode))
        found = bodies.get(f"@{ref}") or bodies.get(f'@"{bare}"')
        if found is None:
            if bare in declared:
                out.setdefault(bare, referrer)
            continue
        todo.extend((r, bare, mode) for r in _REF.findall(found.split("\n", 1)[-1]))
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
