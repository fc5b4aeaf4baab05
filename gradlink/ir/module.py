"""A module being changed, printed once at the end.

The module is kept as LLVM printed it, split into its function definitions and the text
between them (globals, declarations, metadata). A change replaces a function by a parsed
``Function`` (printed from the model, debug information included: gradlink.ir.printer),
rewrites top-level lines outside functions, or adds new entities after the module's own;
``print`` writes the result.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from gradlink.ir.model import Function
from gradlink.ir.parse import split_module
from gradlink.ir.printer import print_function


class ModuleEdit:
    def __init__(self, text: str) -> None:
        self.text = text
        self._pieces = split_module(text)
        self._replaced: dict[str, Function] = {}
        self._outside: list[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]]] = []
        self._added: list[str] = []

    def replace(self, fn: Function) -> None:
        """fn (changed) in place of the module's definition of the same name."""
        self._replaced[fn.name] = fn

    def rewrite_outside_functions(self, pattern: re.Pattern[str],
                                  repl: str | Callable[[re.Match[str]], str]) -> None:
        """Substitute ``pattern`` in the top-level text (not in function bodies)."""
        self._outside.append((pattern, repl))

    def add(self, text: str) -> None:
        """New top-level text (definitions, declarations, globals) after the module's own."""
        self._added.append(text)

    def print(self) -> str:
        parts = []
        for name, text in self._pieces:
            if name is None:
                for pattern, repl in self._outside:
                    text = pattern.sub(repl, text)
                parts.append(text)
            elif name in self._replaced:
                parts.append(print_function(self._replaced[name]))
            else:
                parts.append(text)
        return "".join(parts) + "".join(self._added)
