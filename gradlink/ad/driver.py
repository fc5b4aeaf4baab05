"""The AD stage of a link: differentiate every request in a module's text."""

from __future__ import annotations

from gradlink.ad.api import Differentiator, has_requests
from gradlink.ad.errors import ADError

__all__ = ["ADError", "differentiate", "has_requests"]


def differentiate(module_text: str) -> str:
    """Module text with every __enzyme_autodiff call replaced by a call of its derivative and
    the derivatives (plus the tape runtime) appended. Raises ADError naming what is not
    differentiable."""
    return Differentiator(module_text).run()
