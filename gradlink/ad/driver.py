"""The AD stage of a link: differentiate every request in a module's text."""

from __future__ import annotations

import hashlib
import os
import pickle
from pathlib import Path

from gradlink.ad import assembly
from gradlink.ad.api import Differentiator, has_requests
from gradlink.ad.bypass import Hazards, hazards
from gradlink.ad.custom import KEYS, read_registry
from gradlink.ad.errors import ADError
from gradlink.ad.globals import GlobalShadowsNeeded, declared_shadows

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
    may hold such a copy is not differentiated.

    With GRADLINK_AD_RECORD=DIR in the environment, each call's input and its result (or error)
    are also written to DIR, for scripts/ad_replay.py: a refactoring of the AD compiler replays
    them and must give the same text."""
    folder = os.environ.get("GRADLINK_AD_RECORD")
    if not folder:
        return _differentiate(module_text, hazards)
    try:
        result, error = _differentiate(module_text, hazards), None
    except ADError as e:
        result, error = None, str(e)
    key = hashlib.sha1(module_text.encode()).hexdigest()[:20]
    Path(folder).mkdir(parents=True, exist_ok=True)
    with open(Path(folder) / f"{key}.pkl", "wb") as f:
        pickle.dump({"input": module_text, "hazards": hazards, "output": result,
                     "error": error}, f)
    if error is not None:
        raise ADError(error)
    assert result is not None
    return result


def _differentiate(module_text: str, hazards: Hazards | None) -> str:
    # global variables with shadows (ad/globals.py): those the program gives one from the start
    shadowed: frozenset[str] = frozenset(declared_shadows(module_text))
    queried: frozenset[str] = frozenset()     # by the program (ad/contexts.py), in any round
    for _ in range(8):
        while True:
            d = Differentiator(module_text, hazards, shadowed, queried)
            try:
                text = d.run()
                break
            except GlobalShadowsNeeded as e:     # found while differentiating: start over
                assert not e.names <= shadowed
                shadowed |= e.names
        module_text = text
        shadowed, queried = d.derivs.global_shadows, frozenset(d.info.queried_shadows)
        if not d.deferred:
            return assembly.lower_markers(module_text)
        if not d.derivatives and not d.split_wrappers:
            raise ADError("derivative requests depend on each other in a cycle (a function "
                          "differentiating itself)")
    raise ADError("derivatives nested more than 8 levels deep")
