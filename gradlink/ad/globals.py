"""Shadows of global variables (Enzyme gives a global written with active data a shadow).

A global variable that differentiated code stores active values into (directly, through a
pointer into it, or by passing it to a differentiated callee with active data) gets a shadow:
an internal global of the same size, ``@"gl.shadow.NAME"``, zeroed before each top-level
derivative runs (the global's value on entry does not depend on the inputs), holding its
adjoint (reverse mode) or tangent (forward mode) meanwhile. Which globals need one is found by
the activity analysis of any function the link differentiates, a callee's included; the round
then starts over with the larger set, so every derivative agrees on which globals have
shadows (a load before the call that writes the global must already count as active).

A global the program gives a shadow of its own (Enzyme's ``!enzyme_shadow !{ptr @s}`` metadata,
which gradlink's clang plugin writes for ``__attribute__((enzyme_shadow(s)))``) is shadowed from
the start, active even when only read, and its shadow is the program's: ``@"gl.shadow.NAME"``
is an alias of it, never zeroed by gradlink (the program seeds tangents in it and reads
adjoints from it).
"""

from __future__ import annotations

import re

from gradlink.ad.errors import ADError
from gradlink.analysis.typeinfo import size_of
from gradlink.ir.builder import Builder
from gradlink.ir.model import Param, Value
from gradlink.ir.parse import map_constant
from gradlink.ir.printer import (
    define_line,
    element_address,
    global_ref,
    global_variable,
    print_blocks,
    zero_global,
)
from gradlink.ir.types import I1, I8, I64, PTR, Type

_GLOBAL_REF = re.compile(r'@"[^"]*"|@[-a-zA-Z$._0-9]+')
_SHADOW_MD = re.compile(r'^(@"[^"]*"|@[-a-zA-Z$._0-9]+) = [^\n]*!enzyme_shadow (!\d+)', re.M)
_MD_PTR = r'^{md} = (?:distinct )?!\{{ptr (@"[^"]*"|@[-a-zA-Z$._0-9]+)\}}'


class GlobalShadowsNeeded(Exception):
    """Raised by a synthesis that found globals needing shadows they do not have yet."""

    def __init__(self, names: set[str]) -> None:
        super().__init__(", ".join(sorted(names)))
        self.names = frozenset(names)


def space_of(context: str, width: int) -> str:
    """The set of shadows a derivative uses: a context's (``c3``), or the default one of its
    width ("" for one lane, ``w2`` for two)."""
    return context or (f"w{width}" if width > 1 else "")


def shadow_name(g: str, space: str = "", lane: int = 0) -> str:
    base = g.lstrip("@").strip(chr(34))
    return global_ref(f"gl.shadow.{space}.{lane}.{base}" if space else f"gl.shadow.{base}")


def shadow_ref(ref: str, shadowed: frozenset[str], space: str = "", lane: int = 0) -> str:
    """The shadow of a global or of a constant expression into one: the same expression on
    the shadow globals (of one space and lane)."""
    return _GLOBAL_REF.sub(lambda m: shadow_name(m.group(0), space, lane)
                           if m.group(0) in shadowed else m.group(0), ref)


def referenced_globals(ref: str) -> list[str]:
    """The globals a constant expression names."""
    return _GLOBAL_REF.findall(ref)


def declared_shadows(module_text: str) -> dict[str, str]:
    """Globals whose shadow the program declares (``!enzyme_shadow``), with that shadow."""
    out: dict[str, str] = {}
    for m in _SHADOW_MD.finditer(module_text):
        node = re.search(_MD_PTR.format(md=re.escape(m.group(2))), module_text, re.M)
        if node is None:
            raise ADError(f"the !enzyme_shadow metadata of {m.group(1).lstrip('@')} must be "
                          "a tuple holding the shadow global: !{ptr @shadow}")
        out[m.group(1)] = node.group(1)
    return out


def check_declared(declared: dict[str, str], types: dict[str, Type],
                   structs: dict[str, Type]) -> None:
    """A declared shadow is a writable global at least as large as its global."""
    for g, s in declared.items():
        if g not in types:
            raise ADError(f"{g.lstrip('@')} has a declared shadow ({s.lstrip('@')}) but is not a "
                          "global variable gradlink can give a shadow (a constant, a thread-"
                          "local, or registered inactive)")
        if s not in types:
            raise ADError(f"the shadow {s.lstrip('@')} declared for {g.lstrip('@')} is not a "
                          "writable global variable")
        if size_of(types[s], structs) < size_of(types[g], structs):
            raise ADError(f"the shadow {s.lstrip('@')} declared for {g.lstrip('@')} is smaller "
                          "than the global")


class ShadowLayout:
    """The shadow globals of a round: for each shadowed global, one per space and lane, its
    initial value that of the global with floating point zeroed and each pointer to a global
    pointing to that global's shadow (in the same space and lane; integers kept), so a
    descriptor's shadow holds the same sizes and the address of the data's shadow."""

    def __init__(self, shadowed: frozenset[str], types: dict[str, Type],
                 structs: dict[str, Type], declared: dict[str, str],
                 initializers: dict[str, tuple[Type, str]]) -> None:
        self.shadowed, self.types, self.structs = shadowed, types, structs
        self.declared, self.initializers = declared, initializers
        # the heap-shadow helpers resets and derivative calls used, and their declarations
        self.helpers: dict[str, str] = {}
        self.helper_declarations: dict[str, str] = {}

    def size(self, g: str) -> int:
        return max(size_of(self.types[g], self.structs), 1)

    def initializer(self, g: str, space: str = "", lane: int = 0
                    ) -> tuple[Type, str, list[tuple[Type, str, tuple[int, ...]]]] | None:
        """The shadow's initial value (type, constant, and the elements not zero, with their
        places), or None when it is all zero bytes."""
        if g not in self.initializers:
            return None
        kept: list[tuple[Type, str, tuple[int, ...]]] = []

        def leaf(t: Type, text: str, path: tuple[int, ...]) -> str:
            if t.is_float:
                return "zeroinitializer"
            out = shadow_ref(text, self.shadowed, space, lane) if t.is_ptr else text
            if out not in ("null", "0", "false", "zeroinitializer"):
                kept.append((t, out, path))
            return out

        t, text = self.initializers[g]
        init = map_constant(t, text, leaf)
        return (t, init, kept) if kept else None

    def definitions(self, spaces: dict[str, int]) -> dict[str, str]:
        """The shadow globals, by name, for each space (with its number of lanes); a declared
        shadow is an alias of the program's."""
        out: dict[str, str] = {}
        for g in sorted(self.shadowed):
            for space, width in sorted(spaces.items()):
                for lane in range(width):
                    name = shadow_name(g, space, lane)
                    if not space and g in self.declared:
                        s = self.declared[g]
                        out[name] = f"{name} = internal alias {self.types[s]}, ptr {s}\n"
                        continue
                    init = self.initializer(g, space, lane)
                    out[name] = zero_global(name, self.size(g)) if init is None else \
                        global_variable(name, init[0], init[1])
        return out

    def reset(self, b: Builder, g: str, space: str = "", lane: int = 0,
              managed: bool = False) -> None:
        """Instructions giving a shadow its initial value again: zero, then the integers and
        pointers of the initializer stored back (stores, so that a derivative of code doing
        this stores their shadows too). In the shadow of a global the program manages, the
        pointers to heap memory gradlink gave it (heap_shadows) stay, their memory zeroed."""
        dst = Value(PTR, shadow_name(g, space, lane))
        heap = [Value(PTR, element_address(self.types[g], dst.ref, path))
                for path in self.heap_pointers(g)] if managed else []
        kept = [b.load(PTR, field) for field in heap]
        b.libcall("@llvm.memset.p0.i64", [dst, Value(I8, "0"), Value(I64, str(self.size(g))),
                                          Value(I1, "false")])
        init = self.initializer(g, space, lane)
        if init is not None:
            for t, text, path in init[2]:
                b.store(Value(t, text), Value(PTR, element_address(init[0], dst.ref, path)))
        for field, block in zip(heap, kept):
            b.store(block, field)
            b.call(self._helper(zero=True), [field], None)

    def heap_pointers(self, g: str) -> list[tuple[int, ...]]:
        """The places of the pointers in g that its initializer leaves null: a program sets
        them at run time, to heap memory (or to nothing)."""
        init = self.initializer(g)
        static = {path for t, _, path in init[2] if t.is_ptr} if init is not None else set()
        return [p for p in _pointer_places(self.types[g], self.structs) if p not in static]

    def heap_shadows(self, b: Builder, g: str, space: str = "", lane: int = 0) -> None:
        """Before a derivative: each such pointer of a global the program manages, when set
        and its shadow not yet, gets a zeroed shadow block of the same size (a global given
        aligned_alloc memory outside differentiated code, as flang's ALLOCATE does); it must
        point to the start of a block from malloc, calloc, realloc or an aligned allocator."""
        dst = shadow_name(g, space, lane)
        for path in self.heap_pointers(g):
            b.call(self._helper(zero=False),
                   [Value(PTR, element_address(self.types[g], g, path)),
                    Value(PTR, element_address(self.types[g], dst, path))], None)

    def _helper(self, zero: bool) -> str:
        """``gl.shadow.heap(primal place, shadow place)``: a zeroed block as large as the
        primal's when the primal is set and the shadow not; ``gl.shadow.heap.zero(shadow
        place)``: the shadow's block zeroed. Defined once per round (self.helpers)."""
        name = global_ref("gl.shadow.heap.zero" if zero else "gl.shadow.heap")
        if name not in self.helpers:
            h = Builder(prefix="hp")
            entry = h.block("entry")
            if zero:
                params = [Param(PTR, "%shadow")]
                s = h.load(PTR, Value(PTR, "%shadow"))
            else:
                params = [Param(PTR, "%primal"), Param(PTR, "%shadow")]
                p = h.load(PTR, Value(PTR, "%primal"))
                s = h.load(PTR, Value(PTR, "%shadow"))
            blocks = [entry]
            go = h.icmp("ne", s, Value(PTR, "null")) if zero else h.binop(
                "and", h.icmp("ne", p, Value(PTR, "null")), h.icmp("eq", s, Value(PTR, "null")))
            h.cond_br(go, "work", "done")
            blocks.append(h.block("work"))
            if zero:
                n = h.libcall("@malloc_usable_size", [s])
                assert n is not None
                h.libcall("@llvm.memset.p0.i64", [s, Value(I8, "0"), n, Value(I1, "false")])
            else:
                n = h.libcall("@malloc_usable_size", [p])
                assert n is not None
                block = h.libcall("@calloc", [Value(I64, "1"), n])
                assert block is not None
                h.store(block, Value(PTR, "%shadow"))
            h.br("done")
            blocks.append(h.block("done"))
            h.ret(None)
            self.helpers[name] = print_blocks(define_line(name, None, params, "nounwind"),
                                              blocks) + "\n"
            self.helper_declarations.update(h.declarations)
        return name


def _pointer_places(t: Type, structs: dict[str, Type], path: tuple[int, ...] = (),
                    depth: int = 0) -> list[tuple[int, ...]]:
    """Where pointers are in a value of type t (arrays of more than 64 elements not looked
    into)."""
    if t.kind == "named":
        t = structs.get(t.name, t)
    if t.kind == "ptr":
        return [path]
    if depth > 6:
        return []
    if t.kind == "struct":
        return [p for k, f in enumerate(t.fields)
                for p in _pointer_places(f, structs, (*path, k), depth + 1)]
    if t.kind == "array" and t.elem is not None and t.count <= 64:
        inner = _pointer_places(t.elem, structs, (), depth + 1)
        return [(*path, k, *p) for k in range(t.count) for p in inner]
    return []
