"""The AD stage of a link: differentiate every request in a module's text."""

from __future__ import annotations

from gradlink.ad.api import Differentiator, has_requests
from gradlink.ad.bypass import Hazards, hazards
from gradlink.ad.custom import KEYS, read_registry
from gradlink.ad.errors import ADError

__all__ = ["ADError", "Hazards", "REGISTRATION_PREFIXES", "differentiate", "has_requests",
           "hazards", "is_registration", "mentions_registrations", "registered_functions"]

REGISTRATION_PREFIXES = tuple(f"__enzyme_{k}" for k in KEYS)


def is_registration(name: str) -> bool:
    """A registration global: Enzyme looks for its keys anywhere in the name (mangled C++)."""
    return any(p in name for p in REGISTRATION_PREFIXES)


def mentions_registrations(data: bytes) -> bool:
    """Whether an input may hold a registration (its symbol names are in the bitcode)."""
    return any(p.encode() in data for p in REGISTRATION_PREFIXES)


def registered_functions(module_text: str) -> set[str]:
    """Functions named by derivative registrations (they must stay calls, not be inlined)."""
    return read_registry(module_text).registered()


def differentiate(module_text: str, hazards: Hazards | None = None) -> str:
    """Module text with every Enzyme request replaced by a call of its derivative and the
    derivatives (plus the tape runtime) appended. Raises ADError naming what is not
    differentiable.

    Requests whose function itself asks for derivatives (second order: __enzyme_fwddiff of a
    function calling __enzyme_autodiff, or the reverse) wait for a later round, when the inner
    request has become an ordinary call of a derivative. ``hazards``: registered functions the
    compile before the link may have inlined (gradlink/ad/bypass.py); a function that holds or
    may hold such a copy is not differentiated."""
    for _ in range(8):
        d = Differentiator(module_text, hazards)
        module_text = d.run()
        if not d.deferred:
            return module_text
        if not d.derivatives and not d.split_wrappers:
            raise ADError("derivative requests depend on each other in a cycle (a function "
                          "differentiating itself)")
    raise ADError("derivatives nested more than 8 levels deep")
