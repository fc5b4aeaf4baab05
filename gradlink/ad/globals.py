"""Shadows of global variables (Enzyme gives a global written with active data a shadow).

A global variable that differentiated code stores active values into (directly, through a
pointer into it, or by passing it to a differentiated callee with active data) gets a shadow:
an internal global of the same size, ``@"gl.shadow.NAME"``, zeroed before each top-level
derivative runs (the global's value on entry does not depend on the inputs), holding its
adjoint (reverse mode) or tangent (forward mode) meanwhile. Which globals need one is found by
the activity analysis of any function the link differentiates, a callee's included; the round
then starts over with the larger set, so every derivative agrees on which globals have
shadows (a load before the call that writes the global must already count as active).

A global the program gives a shadow of its own (Enzyme's ``!enzyme_shadow !{ptr @s}`` metadata,
which gradlink's clang plugin writes for ``__attribute__((enzyme_shadow(s)))``) is shadowed from
the start, active even when only read, and its shadow is the program's: ``@"gl.shadow.NAME"``
is an alias of it, never zeroed by gradlink (the program seeds tangents in it and reads
adjoints from it).
"""

from __future__ import annotations

import re

from gradlink.ad.errors import ADError
from gradlink.analysis.typeinfo import size_of
from gradlink.ir.printer import global_ref, zero_global
from gradlink.ir.types import Type

_GLOBAL_REF = re.compile(r'@"[^"]*"|@[-a-zA-Z$._0-9]+')
_SHADOW_MD = re.compile(r'^(@"[^"]*"|@[-a-zA-Z$._0-9]+) = [^\n]*!enzyme_shadow (!\d+)', re.M)
_MD_PTR = r'^{md} = (?:distinct )?!\{{ptr (@"[^"]*"|@[-a-zA-Z$._0-9]+)\}}'


class GlobalShadowsNeeded(Exception):
    """Raised by a synthesis that found globals needing shadows they do not have yet."""

    def __init__(self, names: set[str]) -> None:
        super().__init__(", ".join(sorted(names)))
        self.names = frozenset(names)


def shadow_name(g: str) -> str:
    return global_ref(f"gl.shadow.{g.lstrip('@').strip(chr(34))}")


def shadow_ref(ref: str, shadowed: frozenset[str]) -> str:
    """The shadow of a global or of a constant expression into one: the same expression on
    the shadow globals."""
    return _GLOBAL_REF.sub(lambda m: shadow_name(m.group(0)) if m.group(0) in shadowed
                           else m.group(0), ref)


def declared_shadows(module_text: str) -> dict[str, str]:
    """Globals whose shadow the program declares (``!enzyme_shadow``), with that shadow."""
    out: dict[str, str] = {}
    for m in _SHADOW_MD.finditer(module_text):
        node = re.search(_MD_PTR.format(md=re.escape(m.group(2))), module_text, re.M)
        if node is None:
            raise ADError(f"the !enzyme_shadow metadata of {m.group(1).lstrip('@')} must be "
                          "a tuple holding the shadow global: !{ptr @shadow}")
        out[m.group(1)] = node.group(1)
    return out


def check_declared(declared: dict[str, str], types: dict[str, Type],
                   structs: dict[str, Type]) -> None:
    """A declared shadow is a writable global at least as large as its global."""
    for g, s in declared.items():
        if g not in types:
            raise ADError(f"{g.lstrip('@')} has a declared shadow ({s.lstrip('@')}) but is not a "
                          "global variable gradlink can give a shadow (a constant, a thread-"
                          "local, or registered inactive)")
        if s not in types:
            raise ADError(f"the shadow {s.lstrip('@')} declared for {g.lstrip('@')} is not a "
                          "writable global variable")
        if size_of(types[s], structs) < size_of(types[g], structs):
            raise ADError(f"the shadow {s.lstrip('@')} declared for {g.lstrip('@')} is smaller "
                          "than the global")


def definitions(shadowed: frozenset[str], types: dict[str, Type],
                structs: dict[str, Type], declared: dict[str, str]) -> dict[str, str]:
    """The shadow globals, by name: zeroed internal globals, or aliases of declared shadows."""
    return {shadow_name(g): f"{shadow_name(g)} = internal alias {types[declared[g]]}, "
                            f"ptr {declared[g]}\n" if g in declared else
            zero_global(shadow_name(g), max(size_of(types[g], structs), 1))
            for g in sorted(shadowed)}
