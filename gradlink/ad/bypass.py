"""Registrations the compiler may have bypassed by inlining before the link.

A derivative registration (``__enzyme_register_gradient_*``, ``__enzyme_function_like``,
``__enzyme_inactivefn``, ...) names a function R. gradlink finds calls of R when it
differentiates; but the compile before the link (``clang -O2 -flto``) may already have inlined R
into its callers, and an inlined copy is ordinary code: differentiating it would use R's body
instead of the registered derivative, a silently wrong gradient (Enzyme's LTO plugin has the
same hole). Inlining before the link stays within one translation unit, and never touches a
function marked ``noinline`` or ``optnone``, so only R's translation-unit mates are at risk:

- with debug info, the risk is known exactly: an inlined copy of R keeps R's DISubprogram in
  the ``inlinedAt`` chain of its instructions' locations, so a differentiated function with
  such an instruction is refused, naming the line;
- without it, every function defined in R's translation unit may hold a copy, and one that
  would be differentiated is refused, with the ways out (``noinline`` on R, ``-g``, another
  file).

The link stage computes the :class:`Hazards` from the merged module before it protects the
registered functions from inlining at link time, and keeps the translation-unit mates from
being inlined at link time too, so the AD sees them as the functions they were.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from gradlink.ad.custom import read_registry
from gradlink.ad.errors import ADError, DebugLocations
from gradlink.ir.model import Function
from gradlink.ir.parse import attribute_groups
from gradlink.ir.printer import global_ref

_DEFINE = re.compile(r'^define\b([^@\n]*)(@"[^"]+"|@[-a-zA-Z$._0-9]+)\((.*)$', re.M)
_NO_INLINE = re.compile(r"\b(?:noinline|optnone)\b")


@dataclass(frozen=True)
class Hazard:
    """A registered function the compiler was free to inline before the link."""

    function: str                    # @R
    registration: str                # the global that registers it, e.g. __enzyme_function_like
    unit: str                        # the translation unit (object or archive member) defining R
    mates: frozenset[str]            # without debug info: the functions defined beside R
    debug: bool                      # R has a DISubprogram: inlined copies can be found exactly


@dataclass
class Hazards:
    items: list[Hazard] = field(default_factory=list)

    def unsure(self) -> set[str]:
        """Functions that may hold an inlined copy nobody can see (no debug info): they must
        stay separate functions through the link's own inlining, so the AD can refuse them."""
        out: set[str] = set()
        for h in self.items:
            if not h.debug:
                out |= h.mates
        return out


def hazards(module_text: str, units: list[tuple[str, set[str]]]) -> Hazards:
    """The registered functions of the merged module (before the link marks them noinline) that
    its translation units' compiles could have inlined, with their units."""
    reg = read_registry(module_text)
    if not reg.registered() & reg.written:
        return Hazards()
    groups = attribute_groups(module_text)
    headers = {m.group(2): m.group(1) + m.group(3) for m in _DEFINE.finditer(module_text)}
    out = Hazards()
    for fn in sorted(reg.registered() & reg.written):   # a precompiled derivative is the body's
        header = headers.get(fn)
        if header is None:               # no body here: nothing of it could be inlined
            continue
        attrs = header + " " + " ".join(groups.get(g, "") for g in re.findall(r"#\d+", header))
        if _NO_INLINE.search(attrs):
            continue
        unit, mates = next(((u, names) for u, names in units if _bare(fn) in names),
                           ("the LTO unit", set()))
        out.items.append(Hazard(fn, reg.sources.get(fn, "a registration"), unit,
                                frozenset(global_ref(n) for n in mates if n != _bare(fn)),
                                "!dbg" in header))
    return out


class BypassCheck:
    """Refuses to differentiate a function that holds, or may hold, an inlined copy of a
    registered function (see the module docstring)."""

    def __init__(self, hazards: Hazards, locations: DebugLocations,
                 registered_dbg: dict[str, str | None]) -> None:
        self.hazards = hazards
        self.locations = locations
        # @R -> its DISubprogram id in the module being differentiated
        self.subprograms = {h.function: registered_dbg.get(h.function) for h in hazards.items
                            if h.debug}

    def check(self, fn: Function) -> None:
        for h in self.hazards.items:
            if h.function == fn.name:
                continue
            if h.debug:
                where = self._inlined_at(fn, self.subprograms.get(h.function))
                if where is not None:
                    raise ADError(
                        f"cannot differentiate {_bare(fn.name)}: the compiler inlined "
                        f"{_bare(h.function)} into it{where} before the link, so its registration "
                        f"({h.registration}) would be bypassed; declare "
                        f"{_bare(h.function)} __attribute__((noinline)) (#[inline(never)] in Rust)")
            elif fn.name in h.mates:
                what = "is registered as an allocator" if "allocation_like" in h.registration \
                    else "has a registered derivative"
                raise ADError(
                    f"cannot differentiate {_bare(fn.name)}: {_bare(h.function)} {what} "
                    f"({h.registration}) and is defined, without noinline, in the same "
                    f"translation unit ({h.unit}), which was compiled with optimization: the "
                    f"compiler may have inlined it into {_bare(fn.name)} before the link, "
                    "bypassing the registration, and without debug info gradlink cannot tell. "
                    f"Declare {_bare(h.function)} __attribute__((noinline)) (#[inline(never)] in "
                    f"Rust), compile {h.unit} with -g so gradlink can tell, or define "
                    f"{_bare(h.function)} in another file")

    def _inlined_at(self, fn: Function, subprogram: str | None) -> str | None:
        """' at file:line' (or '') of the call site where an inlined copy of the function with
        that DISubprogram sits in fn; None when there is none."""
        if subprogram is None:
            return None
        seen: set[str] = set()
        for ins in fn.instructions():
            if ins.dbg is None or ins.dbg in seen:
                continue
            seen.add(ins.dbg)
            site = self.locations.inlined_site(ins.dbg, subprogram)
            if site is not None:
                where = self.locations.where(site)
                return f" at {where}" if where else ""
        return None


def _bare(name: str) -> str:
    return name.lstrip("@").strip('"')
