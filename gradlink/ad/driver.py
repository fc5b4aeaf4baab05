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
    """Module text with every __enzyme_autodiff call replaced by a call of its derivative and
    the derivatives (plus the tape runtime) appended. Raises ADError naming what is not
    differentiable."""
    return Differentiator(module_text).run()
