"""Shadows of global variables (Enzyme gives a global written with active data a shadow).

A global variable that differentiated code stores active values into (directly, through a
pointer into it, or by passing it to a differentiated callee with active data) gets a shadow:
an internal global of the same size, ``@"gl.shadow.NAME"``, zeroed before each top-level
derivative runs (the global's value on entry does not depend on the inputs), holding its
adjoint (reverse mode) or tangent (forward mode) meanwhile. Which globals need one is found by
the activity analysis of any function the link differentiates, a callee's included; the round
then starts over with the larger set, so every derivative agrees on which globals have
shadows (a load before the call that writes the global must already count as active).
"""

from __future__ import annotations

import re

from gradlink.analysis.typeinfo import size_of
from gradlink.ir.printer import global_ref, zero_global
from gradlink.ir.types import Type

_GLOBAL_REF = re.compile(r'@"[^"]*"|@[-a-zA-Z$._0-9]+')


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


def definitions(shadowed: frozenset[str], types: dict[str, Type],
                structs: dict[str, Type]) -> dict[str, str]:
    """The shadow globals, by name."""
    return {shadow_name(g): zero_global(shadow_name(g), max(size_of(types[g], structs), 1))
            for g in sorted(shadowed)}
