"""The AD stage of a link: differentiate every request in a module's text."""

from __future__ import annotations

from gradlink.ad.api import Differentiator, has_requests
from gradlink.ad.custom import read_registry
from gradlink.ad.errors import ADError

__all__ = ["ADError", "REGISTRATION_PREFIXES", "differentiate", "has_requests",
           "registered_functions"]

REGISTRATION_PREFIXES = ("__enzyme_register_gradient", "__enzyme_register_derivative",
                         "__enzyme_function_like", "__enzyme_inactivefn", "__enzyme_inactive_global")


def registered_functions(module_text: str) -> set[str]:
    """Functions named by derivative registrations (they must stay calls, not be inlined)."""
    return read_registry(module_text).registered()


def differentiate(module_text: str) -> str:
    """Module text with every Enzyme request replaced by a call of its derivative and the
    derivatives (plus the tape runtime) appended. Raises ADError naming what is not
    differentiable.

    Requests whose function itself asks for derivatives (second order: __enzyme_fwddiff of a
    function calling __enzyme_autodiff, or the reverse) wait for a later round, when the inner
    request has become an ordinary call of a derivative."""
    for _ in range(8):
        d = Differentiator(module_text)
        module_text = d.run()
        if not d.deferred:
            return module_text
        if not d.derivatives and not d.split_wrappers:
            raise ADError("derivative requests depend on each other in a cycle (a function "
                          "differentiating itself)")
    raise ADError("derivatives nested more than 8 levels deep")
