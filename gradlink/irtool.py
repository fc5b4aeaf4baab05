"""`gradlink ir`: read a module with gradlink's IR reader and print the analyses."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import llvmlite.binding as llvm

from gradlink.ad import rules
from gradlink.ad.errors import ADError
from gradlink.analysis import activity, cfg, typeinfo
from gradlink.analysis.activity import Arg
from gradlink.ir.model import Function
from gradlink.ir.parse import ParseError, function_texts, parse_function, struct_types


def _module_text(path: str) -> str:
    data = Path(path).read_bytes()
    try:
        if data[:4] == b"BC\xc0\xde":
            mod = llvm.parse_bitcode(data)
        else:
            mod = llvm.parse_assembly(data.decode("utf-8", "replace"))
    except RuntimeError as e:
        raise ValueError(f"{path}: invalid IR: {' '.join(str(e).split())}") from None
    return str(mod)


def run_ad(path: str, functions: tuple[str, ...]) -> str:
    """The module after the AD stage (or only the named functions), as text."""
    from gradlink.ad import driver
    text = _module_text(path)
    try:
        out = driver.differentiate(text)
    except ADError as e:
        raise ValueError(str(e)) from None
    try:
        llvm.parse_assembly(out).verify()
    except RuntimeError as e:
        raise ValueError("internal error: the differentiated module is invalid: "
                         + " ".join(str(e).split())[:1500]) from None
    if not functions:
        return out
    fns = {k.lstrip("@").strip('"'): v for k, v in function_texts(out).items()}
    parts = []
    for f in functions:
        name = f.lstrip("@").strip('"')
        if name not in fns:
            raise ValueError(f"{path}: no function {f.lstrip('@')} after differentiation "
                             f"(there are: {', '.join(sorted(fns))[:800]})")
        parts.append(fns[name])
    return "\n".join(parts)


def run_ir(path: str, functions: tuple[str, ...], print_cfg: bool, print_types: bool,
           print_activity: bool, arg_kinds: str | None) -> Iterator[str]:
    text = _module_text(path)
    structs = struct_types(text)
    fns = function_texts(text)
    wanted = ["@" + f.lstrip("@") for f in functions] or list(fns)
    for name in wanted:
        if name not in fns:
            raise ValueError(f"{path}: no function {name.lstrip('@')} defined")
        try:
            fn = parse_function(fns[name])
        except ParseError as e:
            raise ValueError(f"{name.lstrip('@')}: {e}") from None
        if not (print_cfg or print_types or print_activity):
            yield f"{name}: {len(fn.params)} parameter(s), {len(fn.blocks)} block(s), " \
                  f"{sum(len(b.instrs) for b in fn.blocks)} instruction(s)"
        if print_cfg:
            yield f"cfg {name}"
            yield cfg.print_cfg(cfg.build(fn))
        if print_types:
            yield typeinfo.print_types(typeinfo.TypeAnalysis(fn, structs))
        if print_activity:
            kinds = _kinds(fn, arg_kinds)
            try:
                act = activity.analyze(fn, kinds, fn.ret.is_float, rules.BUILTIN)
            except ADError as e:
                raise ValueError(str(e)) from None
            yield activity.print_activity(fn, act)


def _kinds(fn: Function, arg_kinds: str | None) -> dict[str, Arg]:
    if arg_kinds is None:
        return {p.name: (Arg.OUT if p.type.is_float else Arg.DUP if p.type.is_ptr else Arg.CONST)
                for p in fn.params}
    given = [k.strip() for k in arg_kinds.split(",")]
    if len(given) != len(fn.params) or any(k not in {a.value for a in Arg}
                                           for k in given):
        raise ValueError(f"--args needs {len(fn.params)} of dup, dupnoneed, const, out")
    return {p.name: Arg(k) for p, k in zip(fn.params, given)}
