"""Which bitcode definitions must stay external after LTO, and which may be internalized.

A definition stays external when anything outside the LTO unit can name it: a native object or
shared library (defining or referencing it), ``-u``, the entry point, or the dynamic symbol table
of the output (every default-visibility symbol of a ``-shared`` output or with ``--export-dynamic``,
narrowed by version scripts; ``--dynamic-list`` and ``--export-dynamic-symbol`` add more).
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass, field
from pathlib import Path

from fatlib.elf import Symbol
from lto.diag import LinkError
from lto.options import LinkOptions

_TOKEN = re.compile(r'/\*.*?\*/|#[^\n]*|//[^\n]*|"[^"]*"|[{};:]|[^\s{};:"]+', re.S)


@dataclass
class VersionScript:
    globals: list[str] = field(default_factory=list)
    locals: list[str] = field(default_factory=list)
    opaque: bool = False      # extern "C++"/"Rust" blocks name demangled symbols: export all

    def exports(self, name: str) -> bool:
        """As lld decides: an exact name beats a wildcard, global beats local among equals."""
        if self.opaque or name in self.globals:
            return True
        if name in self.locals:
            return False
        if _matches(name, self.globals):
            return True
        return not _matches(name, self.locals)

    def merge(self, other: VersionScript) -> None:
        """Several --version-script files act as one script."""
        self.globals += other.globals
        self.locals += other.locals
        self.opaque |= other.opaque


def _matches(name: str, patterns: list[str]) -> bool:
    return any(p == name or (any(c in p for c in "*?[") and fnmatch.fnmatchcase(name, p))
               for p in patterns)


def parse_version_script(path: str) -> VersionScript:
    try:
        text = Path(path).read_text()
    except OSError as e:
        raise LinkError(f"cannot open version script {path}: {e.strerror}") from None
    vs = VersionScript()
    section = vs.globals
    depth = 0
    for tok in _TOKEN.findall(text):
        if tok.startswith(("/*", "#", "//")) or tok in (";", ":"):
            continue
        if tok == "{":
            depth += 1
        elif tok == "}":
            depth -= 1
            section = vs.globals
        elif tok == "global":
            section = vs.globals
        elif tok == "local":
            section = vs.locals
        elif tok == "extern":
            vs.opaque = True
        elif depth > 0 and not tok.startswith('"'):
            section.append(tok)
    return vs


def parse_dynamic_list(path: str) -> list[str]:
    return parse_version_script(path).globals


def external_names(opts: LinkOptions, visible_outside: set[str],
                   bitcode_defs: dict[str, Symbol]) -> set[str]:
    """The bitcode-defined names that must keep external linkage."""
    keep = visible_outside & bitcode_defs.keys()
    keep.update(n for n in opts.undefined if n in bitcode_defs)
    entry = opts.entry or "_start"
    if entry in bitcode_defs:
        keep.add(entry)
    patterns = list(opts.export_symbols)
    for path in opts.dynamic_lists:
        patterns.extend(parse_dynamic_list(path))
    script = VersionScript()
    for p in opts.version_scripts:
        script.merge(parse_version_script(p))
    restricted = bool(opts.version_scripts)
    dynamic = opts.shared or opts.export_dynamic
    for name, sym in bitcode_defs.items():
        if name in keep:
            continue
        if patterns and _matches(name, patterns):
            keep.add(name)
        elif dynamic and not sym.hidden and (not restricted or script.exports(name)):
            keep.add(name)
    return keep
