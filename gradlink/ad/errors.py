"""What the AD reports when it cannot differentiate: function, instruction and source line."""

from __future__ import annotations

import re


class ADError(Exception):
    """Differentiation is impossible or unsupported here; never produce a wrong derivative."""


class DebugLocations:
    """file:line of !dbg attachments, from the module's debug metadata."""

    _NODE = re.compile(r"^(!\d+) = (?:distinct )?!(\w+)\((.*)\)\s*$", re.M)

    def __init__(self, module_text: str) -> None:
        self.nodes: dict[str, tuple[str, str]] = {
            m.group(1): (m.group(2), m.group(3)) for m in self._NODE.finditer(module_text)}

    def _field(self, body: str, name: str) -> str | None:
        m = re.search(rf"\b{name}: (\"(?:[^\"\\]|\\.)*\"|[^,]+)", body)
        return m.group(1).strip() if m else None

    def where(self, dbg: str | None) -> str | None:
        if dbg is None or dbg not in self.nodes:
            return None
        kind, body = self.nodes[dbg]
        if kind != "DILocation":
            return None
        line = self._field(body, "line")
        scope = self._field(body, "scope")
        filename = None
        seen = set()
        while scope and scope in self.nodes and scope not in seen:
            seen.add(scope)
            skind, sbody = self.nodes[scope]
            if skind == "DIFile":
                filename = (self._field(sbody, "filename") or "").strip('"')
                break
            scope = self._field(sbody, "file") or self._field(sbody, "scope")
        if filename is None:
            return f"line {line}"
        return f"{filename}:{line}"


    def subprogram(self, scope: str | None) -> str | None:
        """The DISubprogram a scope (lexical block, file block) belongs to."""
        seen: set[str] = set()
        while scope and scope in self.nodes and scope not in seen:
            seen.add(scope)
            kind, body = self.nodes[scope]
            if kind == "DISubprogram":
                return scope
            if kind not in ("DILexicalBlock", "DILexicalBlockFile"):
                return None
            scope = self._field(body, "scope")
        return None

    def inlined_site(self, dbg: str, subprogram: str) -> str | None:
        """When the location dbg lies in an inlined copy of the function whose DISubprogram is
        ``subprogram`` (at any depth of inlining), the location of the outermost call site
        (a line of the function holding the instruction); else None."""
        loc: str | None = dbg
        found = False
        seen: set[str] = set()
        while loc is not None and loc in self.nodes and loc not in seen:
            seen.add(loc)
            kind, body = self.nodes[loc]
            if kind != "DILocation":
                return None
            outer = self._field(body, "inlinedAt")
            if outer is None:
                return loc if found else None
            found = found or self.subprogram(self._field(body, "scope")) == subprogram
            loc = outer
        return None


def describe(fn_name: str, instr_text: str, where: str | None, problem: str) -> str:
    loc = f" at {where}" if where else ""
    return (f"cannot differentiate {fn_name.lstrip('@')}{loc}: {problem}\n"
            f">>> instruction: {instr_text.strip()}")
