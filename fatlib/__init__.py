"""Containers: ELF objects and shared objects, ar archives, embedded bitcode, fat libraries.

Depends on nothing else of gradlink's.
"""

from __future__ import annotations


class FormatError(Exception):
    """A file is not what its magic says: truncated or corrupt. The message names the problem."""
