"""Custom derivatives registered with Enzyme's conventions, and wrappers adapting them.

In the program::

    void *__enzyme_register_gradient_NAME[3]   = {fn, augmented_forward, reverse};
    void *__enzyme_register_derivative_NAME[2] = {fn, tangent};
    void *__enzyme_function_like[2]            = {fn, "log1p"};     // reuse a built-in rule
    void *__enzyme_inactivefn[N]               = {fn, ...};         // calls carry no derivative
    void *__enzyme_inactive_global[N]          = {&global, ...};    // memory needing no shadow
    void *__enzyme_allocation_like[4]          = {alloc, (void *)SIZE, "FREE", dealloc};
    void *__enzyme_function_like[2]            = {fn, "free"};      // frees its argument

(allocators: gradlink/analysis/allocators.py.)

The augmented forward takes fn's arguments, each pointer followed by its shadow, and returns the
tape (a pointer) or a struct {tape, primal, shadow} for pointer results; the reverse takes the
same arguments, the differential of an active float result, then the tape, and returns the
adjoints of fn's floating-point arguments (one, a struct of several, or nothing). The tangent
takes each argument followed by its tangent (shadow for pointers) and returns the result's
tangent, or {primal, tangent}. A registration wins over differentiating fn's body, so bodies
with bit tricks, inline assembly or closed-source calls become usable.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from gradlink.ad.errors import ADError
from gradlink.analysis.activity import Arg
from gradlink.analysis.allocators import Allocator, parse_free_args
from gradlink.ir.builder import Builder
from gradlink.ir.model import Param, Value
from gradlink.ir.parse import ParseError, parse_type
from gradlink.ir.printer import define_line, print_blocks
from gradlink.ir.types import VOID, Type

# Enzyme recognizes these keys anywhere in a global's name (C++ static members are mangled).
KEYS = ("register_gradient", "register_derivative", "register_splitderivative", "function_like",
        "inactivefn", "inactivenoblockfn", "inactive_global", "allocation_like",
        "shouldrecompute")
_GLOBAL = re.compile(r'^@("[^"]*__enzyme_(?:' + "|".join(KEYS) + r')[^"]*"|'
                     r'[-a-zA-Z$._0-9]*__enzyme_(?:' + "|".join(KEYS) + r')[-a-zA-Z$._0-9]*) = '
                     r'(.*)$', re.M)
_INIT = re.compile(r'(?:global|constant) (\[\d+ x ptr\]|<?\{[^}]*\}>?) (\[.*\]|<?\{.*\}>?)')
_STRING = re.compile(r'^(@[-a-zA-Z$._0-9"]+) = .*constant \[\d+ x i8\] c"([^"]*)"', re.M)
_SIGNATURE = r'^(?:declare|define)([^@\n]*?)\s@"?{name}"?\('


@dataclass
class Registry:
    gradients: dict[str, tuple[str, str]] = field(default_factory=dict)   # fn -> (aug, rev)
    tangents: dict[str, str] = field(default_factory=dict)                # fn -> tangent
    function_like: dict[str, str] = field(default_factory=dict)           # fn -> rule name
    inactive_functions: set[str] = field(default_factory=set)
    inactive_globals: set[str] = field(default_factory=set)
    allocators: dict[str, Allocator] = field(default_factory=dict)
    frees: set[str] = field(default_factory=set)            # function_like "free"
    holders: set[str] = field(default_factory=set)        # the registration globals themselves
    sources: dict[str, str] = field(default_factory=dict)  # fn -> the global registering it
    # (kind, fn) -> (the global, its entries)
    by_kind: dict[tuple[str, str], tuple[str, tuple[str, ...]]] = field(default_factory=dict)
    # functions with a registration someone wrote (not only a library's precompiled derivative,
    # which is the derivative of the body itself: see PRECOMPILED)
    written: set[str] = field(default_factory=set)

    def registered(self) -> set[str]:
        return set(self.gradients) | set(self.tangents) | set(self.function_like) | \
            self.inactive_functions | set(self.allocators) | self.frees | \
            {a.free for a in self.allocators.values()}


# The link names the registrations of a library's precompiled derivatives
# "__enzyme_register_gradient.f precompiled in libx.a(m.o)" (lto/manifests.py).
PRECOMPILED = " precompiled in "


def read_registry(module_text: str) -> Registry:
    """Every registration global of the module (Enzyme's conventions). One gradlink cannot
    interpret is an error naming it: ignoring it would differentiate the body instead."""
    reg = Registry()
    strings = {m.group(1): m.group(2).replace("\\00", "") for m in _STRING.finditer(module_text)}
    for m in _GLOBAL.finditer(module_text):
        holder, rest = m.group(1).strip('"'), m.group(2)
        kind = next(k for k in KEYS if f"__enzyme_{k}" in holder)
        if rest.startswith("external ") or " external " in rest.split(" global ")[0]:
            continue                     # a declaration: the definition holds the entries
        init = _INIT.search(rest)
        if init is None:
            raise ADError(f"the registration {holder} is not an array of pointers gradlink can "
                          "read (Enzyme's form: void *{holder}[] = {{(void *)fn, ...}})")
        entries = [p.strip() for p in _split_params(init.group(2)[1:-1].strip("{}<> "))
                   if p.strip()]
        # (allocation_like holds an index: "inttoptr (i64 1 to ptr)", compared whole)
        refs = [p.split(maxsplit=1)[-1] if kind == "allocation_like" else p.split()[-1]
                for p in entries]
        reg.holders.add(holder)
        _add(reg, holder, kind, refs, strings, module_text)
        if PRECOMPILED not in holder and refs and kind != "inactive_global":
            reg.written.update(r for r in (refs if kind.startswith("inactive") else refs[:1])
                               if r != "null")
    return reg


def _add(reg: Registry, holder: str, kind: str, refs: list[str], strings: dict[str, str],
         module_text: str) -> None:
    if kind not in ("inactivefn", "inactivenoblockfn", "inactive_global", "shouldrecompute"):
        said = tuple(strings.get(r, r) for r in refs)     # strings by their contents
        if refs and (kind, refs[0]) in reg.by_kind:
            first, first_said = reg.by_kind[kind, refs[0]]
            if first_said == said:
                return                   # the same registration twice (source and manifest)
            raise ADError(f"{refs[0].lstrip('@')} is registered twice, differently: by "
                          f"{first} and by {holder}")
        if refs:
            reg.by_kind[kind, refs[0]] = (holder, said)
            reg.sources.setdefault(refs[0], holder)
    if kind == "register_gradient":
        if len(refs) != 3:
            raise ADError(f"{holder} must hold 3 pointers: function, augmented forward, reverse")
        reg.gradients[refs[0]] = (refs[1], refs[2])
    elif kind == "register_derivative":
        if len(refs) != 2:
            raise ADError(f"{holder} must hold 2 pointers: function, tangent")
        reg.tangents[refs[0]] = refs[1]
    elif kind == "function_like":
        if len(refs) < 2 or refs[1] not in strings:
            raise ADError(f"{holder} must hold a function and the name of a built-in rule")
        if strings[refs[1]] == "free":
            reg.frees.add(refs[0])
        else:
            reg.function_like[refs[0]] = strings[refs[1]]
    elif kind == "allocation_like":
        _add_allocator(reg, holder, refs, strings, module_text)
    elif kind in ("inactivefn", "inactivenoblockfn"):
        reg.inactive_functions.update(r for r in refs if r != "null")
        for r in refs:
            reg.sources.setdefault(r, holder)
    elif kind == "inactive_global":
        reg.inactive_globals.update(r for r in refs if r != "null")
    elif kind == "shouldrecompute":
        pass                  # a hint to recompute instead of caching: gradlink decides itself
    else:
        raise ADError(f"the registration {holder} (__enzyme_{kind}) is not supported by gradlink "
                      "yet; it would be ignored, so the link stops")


def _add_allocator(reg: Registry, holder: str, entries: list[str], strings: dict[str, str],
                   module_text: str) -> None:
    """{alloc, (void *)SIZE, "FREE", dealloc}: SIZE is null (0) or an inttoptr constant."""
    shape = (f"{holder} must hold 4 pointers: the allocating function, the index of its size "
             "argument, a string of the deallocating function's arguments (\"-1\" for the "
             "pointer, or indices of the allocation's arguments, e.g. \"2,-1\"), and the "
             "deallocating function")
    if len(entries) != 4:
        raise ADError(shape)
    fn, size, spec, free = entries
    index = re.fullmatch(r"null|inttoptr \(i\d+ (\d+) to ptr\)", size)
    if not fn.startswith("@") or not free.startswith("@") or index is None or \
            spec not in strings:
        raise ADError(shape)
    try:
        free_args = parse_free_args(strings[spec])
    except ValueError as e:
        raise ADError(f"{holder}: {e}") from None
    (ret, params), (free_ret, free_params) = signature(module_text, fn), signature(module_text, free)
    size_at = int(index.group(1) or 0)
    if not ret.is_ptr or size_at >= len(params) or params[size_at].kind != "int":
        raise ADError(f"{holder}: {fn.lstrip('@')} must return a pointer and take the size as "
                      f"its argument {size_at}, an integer")
    if len(free_params) != len(free_args) or any(k >= len(params) for k in free_args):
        raise ADError(f"{holder}: \"{strings[spec]}\" does not fit {free.lstrip('@')}'s "
                      f"{len(free_params)} and {fn.lstrip('@')}'s {len(params)} arguments")
    reg.allocators[fn] = Allocator((size_at,), free, free_args, builtin=False, free_ret=free_ret)


def signature(module_text: str, name: str) -> tuple[Type, list[Type]]:
    """Return and parameter types of a defined or declared function."""
    bare = re.escape(name.lstrip("@").strip('"'))
    m = re.search(_SIGNATURE.format(name=bare), module_text, re.M)
    if m is None:
        raise ADError(f"{name.lstrip('@')}, named in a derivative registration, is not a function "
                      "of the program")
    try:
        ret = parse_type(_last_type(m.group(1)))
        params = []
        for p in _split_params(_balanced(module_text, m.end())):
            params.append(parse_type(p.split()[0] if not p.startswith(("{", "<", "[")) else p))
    except ParseError as e:
        raise ADError(f"cannot read the signature of {name.lstrip('@')}: {e}") from None
    return ret, params


def _last_type(prefix: str) -> str:
    """The return type ending a function header's prefix ('internal noundef { ptr, double }'):
    its last word, or the bracketed aggregate it ends with."""
    prefix = prefix.rstrip()
    if not prefix.endswith(("}", ">", "]")):
        return prefix.split()[-1]
    depth = 0
    for i in range(len(prefix) - 1, -1, -1):
        depth += (prefix[i] in "}>]") - (prefix[i] in "{<[")
        if depth == 0:
            return prefix[i:]
    return prefix


def _balanced(text: str, start: int) -> str:
    """The text from start up to the parenthesis closing the one before it (parameter lists
    hold attributes with parentheses: captures(none), align(8), ...)."""
    depth = 1
    for i in range(start, len(text)):
        depth += (text[i] == "(") - (text[i] == ")")
        if depth == 0:
            return text[start:i]
    return text[start:]


def _split_params(text: str) -> list[str]:
    return [p for p in split_top_level(text) if p != "..."]


def function_type_fields(fn_type: str) -> dict[str, Any]:
    """An LLVM function type as the manifest records it: 'double (ptr, i32)' ->
    {"ret": "double", "params": ["ptr", "i32"]} (a variadic one ends in "...")."""
    ret, _, rest = " ".join(fn_type.split()).partition(" (")
    return {"ret": ret, "params": split_top_level(rest.rsplit(")", 1)[0])}


def split_top_level(text: str) -> list[str]:
    """Comma-separated items outside brackets: 'ptr, { i32, i8 }, ...' -> 3 items."""
    out, depth, cur = [], 0, ""
    for ch in text:
        depth += ch in "{<[("
        depth -= ch in "}>])"
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def default_activity(params: list[Type], mode: str) -> list[Arg]:
    """The activity a registered (or precompiled) derivative is written for: every pointer
    with a shadow, every floating-point value active, integers constant."""
    active = Arg.OUT if mode == "reverse" else Arg.DUP
    return [Arg.DUP if t.is_ptr else active if t.is_float else Arg.CONST for t in params]


def tape_type(module_text: str, fn: str, aug: str) -> Type | None:
    """What the user's augmented forward hands to its reverse, by Enzyme's conventions: the
    pointer (or scalar) it returns, the first field of a returned {tape, primal[, shadow]}
    struct, or nothing when it returns void (then the reverse takes no tape argument)."""
    aug_ret, _ = signature(module_text, aug)
    if aug_ret.kind == "void":
        return None
    if aug_ret.kind == "struct" and aug_ret.fields:
        return aug_ret.fields[0]
    if aug_ret.kind in ("ptr", "float", "int"):
        return aug_ret
    raise ADError(f"the augmented forward {aug.lstrip('@')} of {fn.lstrip('@')} returns "
                  f"{aug_ret}; expected nothing, a tape (pointer or scalar), or a struct "
                  "{tape, primal}")


def gradient_wrappers(fn: str, aug: str, rev: str, params: list[Type], ret: Type,
                      module_text: str, names: tuple[str, str], rev_ret: Type | None,
                      push: str, pop: str) -> tuple[str, str]:
    """gradlink's augmented/reverse protocol (tape on the thread stack) around the user's pair.

    names: (aug wrapper, rev wrapper). The augmented wrapper pushes the user's tape (when its
    augmented forward returns one); the reverse wrapper pops it and passes it last. ``push`` and
    ``pop`` are the tape functions of the tape's type (see :func:`tape_type`)."""
    aug_ret, aug_params = signature(module_text, aug)
    rev_ret_user, rev_params = signature(module_text, rev)
    tape = tape_type(module_text, fn, aug)
    shadowed = [t for t in params if t.is_ptr]
    want_aug = len(params) + len(shadowed)
    active_ret = ret.is_float
    want_rev = want_aug + (1 if active_ret else 0) + (1 if tape is not None else 0)
    if len(aug_params) != want_aug:
        raise ADError(f"the augmented forward {aug.lstrip('@')} of {fn.lstrip('@')} takes "
                      f"{len(aug_params)} argument(s); expected {want_aug} (each argument, pointers "
                      "followed by their shadow)")
    if len(rev_params) != want_rev or (tape is not None and rev_params[-1] != tape):
        raise ADError(f"the reverse {rev.lstrip('@')} of {fn.lstrip('@')} takes "
                      f"{len(rev_params)} argument(s); expected {want_rev} (the arguments with "
                      "shadows" + (", the differential return" if active_ret else "") +
                      (f", then the tape ({tape}, as the augmented forward returns it)"
                       if tape is not None else "; no tape, as the augmented forward returns "
                       "nothing") + ")")
    floats = [t for t in params if t.is_float]
    if floats and rev_ret_user != rev_ret:
        raise ADError(f"the reverse {rev.lstrip('@')} of {fn.lstrip('@')} returns {rev_ret_user}; "
                      f"expected {rev_ret} (the adjoints of its floating-point arguments)")
    plist = _wrapper_params(params, "s")
    args_primal = [Value(t, f"%a{i}") for i, t in enumerate(params)]
    args_shadow = [Value(p.type, p.name) for p in plist]
    aug_name, rev_name = names
    b = Builder(prefix="w")
    entry = b.block("entry")
    r = b.call(aug, args_shadow, aug_ret, name="%r")
    prim: Value | None = None
    held = r
    if aug_ret.kind != "struct":
        if ret.kind != "void":
            prim = b.call(fn, args_primal, ret, name="%p")
    else:
        assert r is not None
        held = b.extractvalue(r, [0], aug_ret.fields[0], name="%tape")
        if ret.kind != "void":
            prim = b.extractvalue(r, [1], ret, name="%p")
    if tape is not None:
        assert held is not None
        b.call(push, [Value(tape, held.ref)], None)
    b.ret(prim)
    aug_text = print_blocks(define_line(aug_name, ret, plist), [entry])
    dret = [Param(ret, "%dret")] if active_ret else []
    rargs = args_shadow + [Value(p.type, p.name) for p in dret]
    b = Builder(prefix="w")
    entry = b.block("entry")
    if tape is not None:
        rargs.append(b.call_value(pop, [], tape, name="%tape"))
    if rev_ret is None:
        b.call(rev, rargs, rev_ret_user, discard=True)
        b.ret()
    else:
        b.ret(b.call_value(rev, rargs, rev_ret, name="%adj"))
    rev_text = print_blocks(define_line(rev_name, rev_ret, plist + dret), [entry])
    return aug_text + "\n", rev_text + "\n"


def _wrapper_params(params: list[Type], shadow: str) -> list[Param]:
    """%a0, %a1, ...: the arguments, each pointer followed by its shadow (%s0 or %d0 ...)."""
    out = []
    for i, t in enumerate(params):
        out.append(Param(t, f"%a{i}"))
        if t.is_ptr:
            out.append(Param(t, f"%{shadow}{i}"))
    return out


def tangent_wrapper(fn: str, tangent: str, params: list[Type], ret: Type, module_text: str,
                    name: str, kinds: list[Arg]) -> str:
    """The forward derivative of a call of fn with per-argument activities ``kinds`` (dup or
    const), around the user's tangent function, which takes each argument followed by its
    tangent (its shadow, for pointers), as Enzyme's registered derivatives do: a constant
    float's tangent is 0, a constant pointer has no shadow to give. Returns {primal, tangent},
    or nothing for a function returning nothing."""
    t_ret, t_params = signature(module_text, tangent)
    want = len(params) + sum(1 for t in params if t.is_ptr or t.is_float)
    if len(t_params) != want:
        raise ADError(f"the tangent {tangent.lstrip('@')} of {fn.lstrip('@')} takes "
                      f"{len(t_params)} argument(s); expected {want} (each argument followed by its "
                      "tangent, or its shadow for pointers)")
    plist: list[Param] = []
    primal: list[Value] = []
    targs: list[Value] = []
    for i, t in enumerate(params):
        plist.append(Param(t, f"%a{i}"))
        primal.append(Value(t, f"%a{i}"))
        targs.append(Value(t, f"%a{i}"))
        if not (t.is_ptr or t.is_float):
            continue
        if kinds[i].has_shadow:
            plist.append(Param(t, f"%d{i}"))
            targs.append(Value(t, f"%d{i}"))
        elif t.is_float:
            targs.append(Value(t, "0.0" if t.kind == "float" else "zeroinitializer"))
        else:
            raise ADError(f"the registered tangent {tangent.lstrip('@')} of {fn.lstrip('@')} "
                          f"needs a shadow for argument {i + 1}, a pointer to memory that is "
                          "not active at this call")
    b = Builder(prefix="w")
    entry = b.block("entry")
    if ret.kind == "void":
        if t_ret.kind != "void":
            raise ADError(f"the tangent {tangent.lstrip('@')} of {fn.lstrip('@')} returns "
                          f"{t_ret}; expected nothing, as {fn.lstrip('@')} returns nothing")
        b.call(tangent, targs, None)
        b.ret()
        return print_blocks(define_line(name, VOID, plist), [entry]) + "\n"
    pair = Type("struct", fields=(ret, ret))
    if t_ret == ret:
        pv = b.call_value(fn, primal, ret, name="%p")
        tv = b.call_value(tangent, targs, ret, name="%t")
    elif t_ret.kind == "struct" and len(t_ret.fields) == 2:
        r = b.call_value(tangent, targs, t_ret, name="%r")
        pv = b.extractvalue(r, [0], ret, name="%p")
        tv = b.extractvalue(r, [1], ret, name="%t")
    else:
        raise ADError(f"the tangent {tangent.lstrip('@')} of {fn.lstrip('@')} returns {t_ret}; "
                      f"expected {ret} or {{ {ret}, {ret} }}")
    x = b.insertvalue(Value(pair, "poison"), pv, [0], name="%x")
    b.ret(b.insertvalue(x, tv, [1], name="%y"))
    return print_blocks(define_line(name, pair, plist), [entry]) + "\n"
