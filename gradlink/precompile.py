"""Derivatives compiled when a fat library is built (``gradlink fat build --export-derivatives``).

For each exported function ``f`` the library's bitcode is merged, a small module of Enzyme
requests is added (``__enzyme_augmentfwd``/``__enzyme_reverse`` for the reverse mode,
``__enzyme_fwddiff`` with ``enzyme_primal_return`` for the forward mode), and the link's own AD
stage synthesizes them after the pre-AD optimization, as ``ld.gradlink`` would. The result is
one native object defining, with Enzyme's custom-derivative conventions (gradlink/ad/custom.py):

    gradlink_aug_f(args with shadows)                 -> {tape, primal} (or the tape: void f)
    gradlink_rev_f(args with shadows[, dret], tape)   -> adjoints of f's float arguments
    gradlink_fwd_f(args with tangents)                -> {primal, tangent} (or nothing: void f)

Every pointer argument is duplicated (a shadow follows it), every floating-point argument is
active, integers are constant: the most active use, so a consumer's call of ``f`` with fewer
active arguments is served too (a pointer without a shadow at the call is an error there). The
manifest records them as ``precompiled`` entries and a consumer's link turns those into
registrations, so the library's bitcode is not needed (a stripped library works).

The object holds private copies of the library code the derivatives run (inlined or called),
but shares the library's state: every writable global the library exports is only referenced
(``available_externally`` during optimization). A derivative that would need a copy of a
library's static (file-local) writable variable is refused, since the copy would diverge.
"""

from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import llvmlite.binding as llvm

from gradlink.ad.custom import default_activity, function_type_fields
from gradlink.ad.driver import is_registration
from gradlink.ir.parse import ParseError, parse_type
from gradlink.ir.printer import global_ref
from gradlink.ir.types import Type
from lto import manifests, merge, tools
from lto.diag import LinkError, Log
from lto.inputs import Unit
from lto.pipeline import differentiate, protect_registrations

MODES = ("reverse", "forward")
LOCAL_LINKAGES = (llvm.Linkage.internal, llvm.Linkage.private)     # file-local definitions
PREFIX = {"augmented": "gradlink_aug_", "reverse": "gradlink_rev_", "tangent": "gradlink_fwd_"}


class PrecompileError(Exception):
    """Why a derivative cannot be exported; names the function."""


@dataclass(frozen=True)
class Export:
    function: str
    modes: tuple[str, ...]


def parse_specs(specs: list[str]) -> list[Export]:
    """``energy:reverse,forward`` (``energy`` alone: both modes); several specs, or several
    functions separated by ``;`` in one."""
    out: dict[str, list[str]] = {}
    for spec in specs:
        for part in filter(None, (p.strip() for p in spec.split(";"))):
            name, _, modes = part.partition(":")
            chosen = [m.strip() for m in modes.split(",") if m.strip()] if modes else list(MODES)
            bad = [m for m in chosen if m not in MODES]
            if not name or bad:
                raise PrecompileError(f"--export-derivatives '{part}': expected FUNCTION or "
                                      "FUNCTION:MODES with MODES from reverse, forward")
            mine = out.setdefault(name.strip(), [])
            mine += [m for m in chosen if m not in mine]
    return [Export(f, tuple(m)) for f, m in out.items()]


def symbols(e: Export) -> dict[str, str]:
    """The derivative symbols of an export, by manifest field."""
    fields = (["augmented", "reverse"] if "reverse" in e.modes else []) + \
        (["tangent"] if "forward" in e.modes else [])
    return {k: PREFIX[k] + e.function for k in fields}


def compile_derivatives(units: list[Unit], exports: list[Export],
                        registrations: list[dict[str, Any]] | None = None, source: str = "",
                        verbose: bool = False) -> tuple[bytes, list[dict[str, Any]]]:
    """The native object of the exports' derivatives and its ``precompiled`` manifest entries.
    ``registrations``: manifest entries of the library that its bitcode does not hold (its
    --derivatives file, named ``source``); the derivatives use them, as a consumer's link
    would."""
    log = Log(verbose)
    try:
        definitions: list[tuple[str, set[str]]] = []
        module = merge.merge(units, definitions)
        module = llvm.parse_assembly(_without_constructors(str(module)))
        extra_regs = manifests.registration_module(module, registrations or [], source)
        if extra_regs is not None:
            module.link_in(extra_regs)
        types = {f.name: f for f in module.functions}
        entries, requests = [], []
        for e in exports:
            fn = types.get(e.function)
            if fn is None or fn.is_declaration:
                raise PrecompileError(f"--export-derivatives: the library defines no function "
                                      f"'{e.function}'")
            if fn.linkage in LOCAL_LINKAGES:
                raise PrecompileError(f"--export-derivatives: '{e.function}' is static (file "
                                      "local); only functions the library exports can be")
            ret, params = _signature(fn)
            text, entry = _requests(e, ret, params)
            requests.append(text)
            entries += entry
        try:
            extra = llvm.parse_assembly(_REQUEST_HEADER + "\n".join(requests))
        except RuntimeError as err:
            raise PrecompileError("internal error: the derivative requests do not parse: "
                                  + " ".join(str(err).split())[:600]) from None
        extra.triple, extra.data_layout = module.triple, module.data_layout
        module.link_in(extra)
        _share_writable_globals(module)
        holders, hazards = protect_registrations(module, definitions)
        exported = {s for e in exports for s in symbols(e).values()}
        with tempfile.TemporaryDirectory(prefix="gradlink-precompile-") as tmp:
            pre = tools.optimize(module.as_bitcode(), exported | holders, tools.PRE_AD, None, tmp,
                                 log, stem="pre-ad")
            done = differentiate(llvm.parse_bitcode(Path(pre).read_bytes()), log,
                                 lambda *_: None, hazards)
            optimized = tools.optimize(done.as_bitcode(), exported, tools.lto_passes(2), None,
                                       tmp, log)
            _check_no_private_state(llvm.parse_bitcode(Path(optimized).read_bytes()), exports)
            obj = tools.codegen(optimized, 2, True, None, tmp, log)
    except LinkError as err:
        raise PrecompileError(str(err)) from None
    return obj, entries


_REQUEST_HEADER = """
@enzyme_dup = external global i32
@enzyme_const = external global i32
@enzyme_primal_return = external global i32
"""


def _requests(e: Export, ret: Type, params: list[Type]) -> tuple[str, list[dict[str, Any]]]:
    """The wrapper functions (IR text) asking for the export's derivatives, and their manifest
    entries."""
    f = e.function
    for i, t in enumerate(params):
        if not (t.is_ptr or t.kind == "int" or (t.is_float and t.kind == "float")):
            raise PrecompileError(f"--export-derivatives: argument {i + 1} of {f} has type {t}; "
                                  "precompiled derivatives take pointers, integers and scalar "
                                  "floating-point values")
    if ret.kind not in ("void", "int", "float"):
        raise PrecompileError(f"--export-derivatives: {f} returns {ret}; precompiled "
                              "derivatives of functions returning nothing, an integer or a "
                              "floating-point value are supported")
    names = symbols(e)
    ref = global_ref(f)
    text: list[str] = []
    entries: list[dict[str, Any]] = []
    loads = ["  %dup = load i32, ptr @enzyme_dup", "  %const = load i32, ptr @enzyme_const"]
    text.append(f"declare {ret} {ref}({', '.join(str(t) for t in params)})")
    if "reverse" in e.modes:
        plist, args = [], []
        for i, t in enumerate(params):
            plist.append(f"{t} %a{i}")
            if t.is_ptr:
                plist.append(f"ptr %s{i}")
                args += ["i32 %dup", f"ptr %a{i}", f"ptr %s{i}"]
            elif t.kind == "int":
                args += ["i32 %const", f"{t} %a{i}"]
            else:
                args.append(f"{t} %a{i}")                       # active: its adjoint returns
        floats = [t for t in params if t.is_float]
        adj = "void" if not floats else str(floats[0]) if len(floats) == 1 else \
            "{ " + ", ".join(str(t) for t in floats) + " }"
        aug_ret = "ptr" if ret.kind == "void" else f"{{ ptr, {ret} }}"
        aug, rev = global_ref(names["augmented"]), global_ref(names["reverse"])
        dret = [f"{ret} %dret"] if ret.is_float else []
        text += [
            f'declare {aug_ret} @"__enzyme_augmentfwd.{f}"(ptr, ...)',
            f'declare {adj} @"__enzyme_reverse.{f}"(ptr, ...)',
            f"define {aug_ret} {aug}({', '.join(plist)}) {{", "entry:", *loads,
            f'  %r = call {aug_ret} (ptr, ...) @"__enzyme_augmentfwd.{f}"(ptr {ref}, '
            f"{', '.join(args)})", f"  ret {aug_ret} %r", "}",
            f"define {adj} {rev}({', '.join([*plist, *dret, 'ptr %tape'])}) {{", "entry:",
            *loads,
            f"  {'%r = ' if adj != 'void' else ''}call {adj} (ptr, ...) "
            f'@"__enzyme_reverse.{f}"(ptr {ref}, {", ".join([*args, *dret, "ptr %tape"])})',
            f"  ret {adj}{' %r' if adj != 'void' else ''}", "}"]
        with_shadows = [p for t in params for p in ([str(t), "ptr"] if t.is_ptr else [str(t)])]
        entries.append({"kind": "precompiled", "function": f, "mode": "reverse",
                        "activity": default_activity(params, "reverse"),
                        "augmented": names["augmented"], "reverse": names["reverse"],
                        "signatures": {
                            f: _sig(ret, [str(t) for t in params]),
                            names["augmented"]: _sig(aug_ret, with_shadows),
                            names["reverse"]: _sig(adj, [*with_shadows,
                                                         *([str(ret)] if ret.is_float else []),
                                                         "ptr"])}})
    if "forward" in e.modes:
        if ret.kind == "int":
            raise PrecompileError(f"--export-derivatives {f}:forward: {f} returns an integer; "
                                  "its forward derivative is exported for functions returning "
                                  "a floating-point value or nothing")
        plist, args = [], []
        for i, t in enumerate(params):
            plist.append(f"{t} %a{i}")
            if t.kind == "int":
                args += ["i32 %const", f"{t} %a{i}"]
                continue
            plist.append(f"{t} %d{i}")
            args += (["i32 %dup"] if t.is_ptr else []) + [f"{t} %a{i}", f"{t} %d{i}"]
        pair = "void" if ret.kind == "void" else f"{{ {ret}, {ret} }}"
        primal = ["i32 %primal"] if ret.kind != "void" else []
        tangent = global_ref(names["tangent"])
        text += [
            f'declare {pair} @"__enzyme_fwddiff.{f}"(ptr, ...)',
            f"define {pair} {tangent}({', '.join(plist)}) {{", "entry:", *loads,
            "  %primal = load i32, ptr @enzyme_primal_return",
            f"  {'%r = ' if pair != 'void' else ''}call {pair} (ptr, ...) "
            f'@"__enzyme_fwddiff.{f}"(ptr {ref}, {", ".join([*primal, *args])})',
            f"  ret {pair}{' %r' if pair != 'void' else ''}", "}"]
        with_tangents = [p for t in params
                         for p in ([str(t)] if t.kind == "int" else [str(t), str(t)])]
        entries.append({"kind": "precompiled", "function": f, "mode": "forward",
                        "activity": default_activity(params, "forward"),
                        "tangent": names["tangent"],
                        "signatures": {f: _sig(ret, [str(t) for t in params]),
                                       names["tangent"]: _sig(pair, with_tangents)}})
    return "\n".join(text) + "\n", entries


def _sig(ret: Type | str, params: list[str]) -> dict[str, Any]:
    return {"ret": str(ret), "params": params}


def _signature(fn: llvm.ValueRef) -> tuple[Type, list[Type]]:
    sig = function_type_fields(str(fn.global_value_type))
    if sig["params"][-1:] == ["..."]:
        raise PrecompileError(f"--export-derivatives: {fn.name} is variadic")
    try:
        return parse_type(sig["ret"]), [parse_type(p) for p in sig["params"]]
    except ParseError as e:
        raise PrecompileError(f"cannot read the signature of {fn.name}: {e}") from None


def _without_constructors(text: str) -> str:
    """The library's own objects run its constructors; the derivatives' object must not run
    them again."""
    return re.sub(r"^@llvm\.global_[cd]tors = .*$", "", text, flags=re.M)


def _share_writable_globals(module: llvm.ModuleRef) -> None:
    """Writable globals the library exports stay the library's: the derivatives' object refers
    to them (available_externally: visible to the optimizer, never emitted)."""
    for g in module.global_variables:
        if g.is_declaration or g.linkage in LOCAL_LINKAGES or g.name.startswith("llvm."):
            continue
        if is_registration(g.name) or g.name.startswith("enzyme_"):
            continue                  # the library's registrations and markers: read by the AD
        if not _is_constant(g):
            g.linkage = llvm.Linkage.available_externally


def _is_constant(g: llvm.ValueRef) -> bool:
    head = str(g).split("=", 1)[-1].split("[", 1)[0].split("{", 1)[0]
    return re.search(r"\bconstant\b", head) is not None


def _check_no_private_state(module: llvm.ModuleRef, exports: list[Export]) -> None:
    for g in module.global_variables:
        if g.is_declaration or g.linkage not in LOCAL_LINKAGES or _is_constant(g):
            continue
        if g.name.startswith(("gl.", "llvm.")):
            continue                      # gradlink's own tape state, per object by design
        names = ", ".join(e.function for e in exports)
        raise PrecompileError(
            f"--export-derivatives {names}: the derivatives use '{g.name}', a writable variable "
            "private to the library (static); a precompiled copy would not share its value. "
            "Give it external linkage, or export these functions without precompiled "
            "derivatives (consumers then differentiate the bitcode)")
