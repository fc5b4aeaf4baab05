"""Custom derivatives registered with Enzyme's conventions, and wrappers adapting them.

In the program::

    void *__enzyme_register_gradient_NAME[3]   = {fn, augmented_forward, reverse};
    void *__enzyme_register_derivative_NAME[2] = {fn, tangent};
    void *__enzyme_function_like[2]            = {fn, "log1p"};     // reuse a built-in rule
    void *__enzyme_inactivefn[N]               = {fn, ...};         // calls carry no derivative
    void *__enzyme_inactive_global[N]          = {&global, ...};    // memory needing no shadow

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

from gradlink.ad.errors import ADError
from gradlink.ir.parse import ParseError, parse_type
from gradlink.ir.types import Type

_ARRAY = re.compile(
    r'^@"?(__enzyme_(?:register_gradient|register_derivative|function_like|inactivefn|'
    r'inactive_global)[A-Za-z0-9_.]*)"? = [^\[]*?global \[\d+ x ptr\] \[(.*)\]', re.M)
_STRING = re.compile(r'^(@[-a-zA-Z$._0-9"]+) = .*constant \[\d+ x i8\] c"([^"]*)"', re.M)
_SIGNATURE = r'^(?:declare|define)[^@\n]*?\s(\S+)\s@"?{name}"?\(([^)]*)\)'


@dataclass
class Registry:
    gradients: dict[str, tuple[str, str]] = field(default_factory=dict)   # fn -> (aug, rev)
    tangents: dict[str, str] = field(default_factory=dict)                # fn -> tangent
    function_like: dict[str, str] = field(default_factory=dict)           # fn -> rule name
    inactive_functions: set[str] = field(default_factory=set)
    inactive_globals: set[str] = field(default_factory=set)
    holders: set[str] = field(default_factory=set)        # the registration globals themselves

    def registered(self) -> set[str]:
        return set(self.gradients) | set(self.tangents) | set(self.function_like) | \
            self.inactive_functions


def read_registry(module_text: str) -> Registry:
    reg = Registry()
    strings = {m.group(1): m.group(2).replace("\\00", "") for m in _STRING.finditer(module_text)}
    for m in _ARRAY.finditer(module_text):
        holder, body = m.group(1), m.group(2)
        reg.holders.add(holder)
        refs = [p.strip().split()[-1] for p in body.split(",") if p.strip()]
        kind = holder[len("__enzyme_"):]
        if kind.startswith("register_gradient"):
            if len(refs) != 3:
                raise ADError(f"{holder} must hold 3 pointers: function, augmented forward, reverse")
            reg.gradients[refs[0]] = (refs[1], refs[2])
        elif kind.startswith("register_derivative"):
            if len(refs) != 2:
                raise ADError(f"{holder} must hold 2 pointers: function, tangent")
            reg.tangents[refs[0]] = refs[1]
        elif kind.startswith("function_like"):
            if len(refs) != 2 or refs[1] not in strings:
                raise ADError(f"{holder} must hold a function and the name of a built-in rule")
            reg.function_like[refs[0]] = strings[refs[1]]
        elif kind.startswith("inactivefn"):
            reg.inactive_functions.update(refs)
        else:
            reg.inactive_globals.update(refs)
    return reg


def signature(module_text: str, name: str) -> tuple[Type, list[Type]]:
    """Return and parameter types of a defined or declared function."""
    bare = re.escape(name.lstrip("@").strip('"'))
    m = re.search(_SIGNATURE.format(name=bare), module_text, re.M)
    if m is None:
        raise ADError(f"{name.lstrip('@')}, named in a derivative registration, is not a function "
                      "of the program")
    try:
        ret = parse_type(m.group(1))
        params = []
        for p in _split_params(m.group(2)):
            params.append(parse_type(p.split()[0] if not p.startswith(("{", "<", "[")) else p))
    except ParseError as e:
        raise ADError(f"cannot read the signature of {name.lstrip('@')}: {e}") from None
    return ret, params


def _split_params(text: str) -> list[str]:
    out, depth, cur = [], 0, ""
    for ch in text:
        depth += ch in "{<["
        depth -= ch in "}>]"
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return [p for p in out if p != "..."]


def gradient_wrappers(fn: str, aug: str, rev: str, params: list[Type], ret: Type,
                      module_text: str, names: tuple[str, str], rev_ret: Type | None,
                      push: str, pop: str) -> tuple[str, str]:
    """gradlink's augmented/reverse protocol (tape on the thread stack) around the user's pair.

    names: (aug wrapper, rev wrapper). The augmented wrapper pushes the user's tape pointer; the
    reverse wrapper pops it and passes it last."""
    aug_ret, aug_params = signature(module_text, aug)
    rev_ret_user, rev_params = signature(module_text, rev)
    shadowed = [t for t in params if t.is_ptr]
    want_aug = len(params) + len(shadowed)
    active_ret = ret.is_float
    want_rev = want_aug + (1 if active_ret else 0) + 1
    if len(aug_params) != want_aug:
        raise ADError(f"the augmented forward {aug.lstrip('@')} of {fn.lstrip('@')} takes "
                      f"{len(aug_params)} argument(s); expected {want_aug} (each argument, pointers "
                      "followed by their shadow)")
    if len(rev_params) != want_rev or not rev_params[-1].is_ptr:
        raise ADError(f"the reverse {rev.lstrip('@')} of {fn.lstrip('@')} takes "
                      f"{len(rev_params)} argument(s); expected {want_rev} (the arguments with "
                      "shadows" + (", the differential return" if active_ret else "") +
                      ", then the tape pointer)")
    floats = [t for t in params if t.is_float]
    if floats and rev_ret_user != rev_ret:
        raise ADError(f"the reverse {rev.lstrip('@')} of {fn.lstrip('@')} returns {rev_ret_user}; "
                      f"expected {rev_ret} (the adjoints of its floating-point arguments)")
    plist, args_primal, args_shadow = [], [], []
    for i, t in enumerate(params):
        plist.append(f"{t} %a{i}")
        args_primal.append(f"{t} %a{i}")
        args_shadow.append(f"{t} %a{i}")
        if t.is_ptr:
            plist.append(f"ptr %s{i}")
            args_shadow.append(f"ptr %s{i}")
    aug_name, rev_name = names
    lines = [f"define internal {ret} {aug_name}({', '.join(plist)}) {{", "entry:",
             f"  %r = call {aug_ret} {aug}({', '.join(args_shadow)})"]
    if aug_ret.is_ptr:
        lines.append("  %tape = bitcast ptr %r to ptr")
        if ret.kind != "void":
            lines.append(f"  %p = call {ret} {fn}({', '.join(args_primal)})")
    else:
        lines.append(f"  %tape = extractvalue {aug_ret} %r, 0")
        if ret.kind != "void":
            lines.append(f"  %p = extractvalue {aug_ret} %r, 1")
    lines.append(f"  call void {push}(ptr %tape)")
    lines.append(f"  ret {ret} %p" if ret.kind != "void" else "  ret void")
    lines.append("}")
    rparams = list(plist) + ([f"{ret} %dret"] if active_ret else [])
    rargs = list(args_shadow) + ([f"{ret} %dret"] if active_ret else []) + ["ptr %tape"]
    rv = str(rev_ret) if rev_ret is not None else "void"
    rlines = [f"define internal {rv} {rev_name}({', '.join(rparams)}) {{", "entry:",
              f"  %tape = call ptr {pop}()"]
    if rev_ret is None:
        rlines += [f"  call {rev_ret_user} {rev}({', '.join(rargs)})", "  ret void", "}"]
    else:
        rlines += [f"  %adj = call {rev_ret} {rev}({', '.join(rargs)})", f"  ret {rev_ret} %adj", "}"]
    return "\n".join(lines) + "\n", "\n".join(rlines) + "\n"


def tangent_wrapper(fn: str, tangent: str, params: list[Type], ret: Type, module_text: str,
                    name: str) -> str:
    """{primal, tangent} = name(args with tangents/shadows) around the user's tangent function."""
    t_ret, t_params = signature(module_text, tangent)
    want = len(params) + sum(1 for t in params if t.is_ptr or t.is_float)
    if len(t_params) != want:
        raise ADError(f"the tangent {tangent.lstrip('@')} of {fn.lstrip('@')} takes "
                      f"{len(t_params)} argument(s); expected {want} (each argument followed by its "
                      "tangent, or its shadow for pointers)")
    plist, primal, targs = [], [], []
    for i, t in enumerate(params):
        plist.append(f"{t} %a{i}")
        primal.append(f"{t} %a{i}")
        targs.append(f"{t} %a{i}")
        if t.is_ptr or t.is_float:
            plist.append(f"{t} %d{i}")
            targs.append(f"{t} %d{i}")
    pair = f"{{ {ret}, {ret} }}"
    lines = [f"define internal {pair} {name}({', '.join(plist)}) {{", "entry:"]
    if t_ret == ret:
        lines += [f"  %p = call {ret} {fn}({', '.join(primal)})",
                  f"  %t = call {ret} {tangent}({', '.join(targs)})"]
    elif t_ret.kind == "struct" and len(t_ret.fields) == 2:
        lines += [f"  %r = call {t_ret} {tangent}({', '.join(targs)})",
                  f"  %p = extractvalue {t_ret} %r, 0", f"  %t = extractvalue {t_ret} %r, 1"]
    else:
        raise ADError(f"the tangent {tangent.lstrip('@')} of {fn.lstrip('@')} returns {t_ret}; "
                      f"expected {ret} or {{ {ret}, {ret} }}")
    lines += [f"  %x = insertvalue {pair} poison, {ret} %p, 0",
              f"  %y = insertvalue {pair} %x, {ret} %t, 1", f"  ret {pair} %y", "}"]
    return "\n".join(lines) + "\n"
