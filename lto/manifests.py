"""Derivative manifests of the link's native inputs become registrations in the LTO unit.

A fat library's objects (and a shared object built from them) carry a ``.gradlink.manifest``
section (fatlib/manifest.py, docs/fat-libraries.md): custom derivatives, inactive functions and
globals of the library's functions. Before AD, every manifest of a loaded object, pulled archive
member or shared object is turned into the registration globals Enzyme's C API would have put
in the source (``__enzyme_register_gradient...`` named after the library), with declarations of
the derivative symbols from their recorded signatures, and linked into the LTO unit: the AD then
has one notion of a custom derivative, wherever it came from. A consumer writes no registration
for a library function. An entry naming a symbol the library does not define, or a signature
that differs from the function's declaration in the program, stops the link naming the library,
its member and the function.
"""

from __future__ import annotations

import re
from typing import Any

import llvmlite.binding as llvm

from fatlib import FormatError
from fatlib.manifest import Manifest, decode
from gradlink.ad.custom import PRECOMPILED, default_activity, function_type_fields
from gradlink.ir.parse import ParseError, parse_type
from gradlink.ir.printer import global_ref
from lto.diag import LinkError, Log
from lto.resolve import Resolution

_HOLDER = {"gradient": ("register_gradient", ("function", "augmented", "reverse")),
           "derivative": ("register_derivative", ("function", "tangent")),
           "inactive": ("inactivefn", ("function",)),
           "inactive_global": ("inactive_global", ("global",))}


def collect(res: Resolution) -> list[tuple[Manifest, set[str]]]:
    """Each input's manifest with the symbols that input defines."""
    out = []
    sources = [(u.display, u.elf) for u in res.native + res.bitcode if u.elf is not None]
    sources += [(so.path, so.elf) for so in res.shared]
    for display, elf in sources:
        if elf.manifest is None:
            continue
        try:
            manifest = decode(elf.manifest, display)
        except FormatError as e:
            raise LinkError(str(e)) from None
        out.append((manifest, {s.name for s in elf.symbols if s.defined}))
    return out


def registrations(module: llvm.ModuleRef, res: Resolution, log: Log,
                  injected: set[tuple[str, int]], symbols: set[str]) -> llvm.ModuleRef | None:
    """A module of registration globals and declarations for every manifest entry whose function
    the LTO unit names and that is not in ``injected`` (source, entry number; updated); None
    when there is none. ``symbols`` gets the derivative symbols they name (the link must
    resolve them: precompiled ones live in members nothing else names)."""
    types = {f.name: _function_type(f) for f in module.functions}
    lines: list[str] = []
    declared: set[str] = set(types)
    for manifest, defined in collect(res):
        for n, e in enumerate(manifest.entries):
            target = e.get("function") or e.get("global")
            if (manifest.source, n) in injected or \
                    (target not in types and not _has_global(module, str(target))):
                continue                       # done, or the program does not use it
            injected.add((manifest.source, n))
            lines += _entry(e, n, manifest.source, defined, types, declared)
            symbols.update(e[f] for f in ("augmented", "reverse", "tangent", "deallocator")
                           if f in e)
            log.note(f"{manifest.source}: {e['kind']} entry for '{target}'")
    return _module(lines, module)


def registration_module(module: llvm.ModuleRef, entries: list[dict[str, Any]], source: str
                        ) -> llvm.ModuleRef | None:
    """Registration globals for manifest entries of a library being built (its --derivatives
    file): the library's precompiled derivatives must use them as a consumer's link would."""
    types = {f.name: _function_type(f) for f in module.functions}
    defined = {f.name for f in module.functions if not f.is_declaration}
    lines: list[str] = []
    for n, e in enumerate(entries):
        if e["kind"] != "precompiled":
            lines += _entry(e, n, source, defined, types, set())
    return _module(lines, module)


def _module(lines: list[str], like: llvm.ModuleRef) -> llvm.ModuleRef | None:
    """The registration lines as a module for ``like`` (each declaration once); None when
    there are none."""
    if not lines:
        return None
    try:
        mod = llvm.parse_assembly("\n".join(dict.fromkeys(lines)) + "\n")
    except RuntimeError as err:
        raise LinkError("internal error: the manifest registrations do not parse: "
                        + " ".join(str(err).split())[:400]) from None
    mod.triple, mod.data_layout = like.triple, like.data_layout
    return mod


def _entry(e: dict[str, Any], n: int, source: str, defined: set[str], types: dict[str, str],
           declared: set[str]) -> list[str]:
    kind = e["kind"]
    if kind == "precompiled":
        # compiled when the library was built, with the conventions of a custom derivative
        # (gradlink/precompile.py): the symbols live in a sibling member or the same .so
        _check_activity(e, source, types)
        kind = "gradient" if e["mode"] == "reverse" else "derivative"
        defined = defined | {e[f] for f in ("augmented", "reverse", "tangent") if f in e}
    if kind == "function_like":
        like = e["like"]
        sname = f'@"gl.manifest.like.{n}.{_plain(source)}"'
        ret, _, params = (types.get(e["function"]) or "void (").partition(" (")
        return [f"declare {ret} {global_ref(e['function'])}({params}",
                f'{sname} = private unnamed_addr constant [{len(like) + 1} x i8] c"{like}\\00"',
                f'@"__enzyme_function_like.{e["function"]} from {_quoted(source)}" = hidden global '
                f'[2 x ptr] [ptr {global_ref(e["function"])}, ptr {sname}]']
    if kind == "allocation_like":
        return _allocator(e, n, source, defined, types)
    key, fields = _HOLDER[kind]
    names = [e[f] for f in fields]
    sigs = e.get("signatures", {})
    out = []
    derivs = names[1:] if kind in ("gradient", "derivative") else []
    for sym in derivs:
        if sym not in defined:
            raise LinkError(f"{source}: the manifest names '{sym}' (for {names[0]}), which "
                            f"{source} does not define")
    for sym in derivs:
        if sym not in declared:
            sig = sigs.get(sym)
            if sig is None:
                raise LinkError(f"{source}: the manifest gives no signature for '{sym}' (for "
                                f"{names[0]})")
            out.append(f"declare {sig['ret']} {global_ref(sym)}({', '.join(sig['params'])})")
            declared.add(sym)
    fn_sig = sigs.get(names[0])
    have = types.get(names[0])
    if fn_sig is not None and have is not None and \
            have != f"{fn_sig['ret']} ({', '.join(fn_sig['params'])})":
        raise LinkError(f"{source}: the manifest's signature of {names[0]} "
                        f"({fn_sig['ret']} ({', '.join(fn_sig['params'])})) does not match the "
                        f"program's ({have})")
    target = names[0]
    if kind == "inactive_global":
        out.append(f"{global_ref(target)} = external global i8")
    elif have is not None:
        ret, _, params = have.partition(" (")
        out.append(f"declare {ret} {global_ref(target)}({params}")
    refs = ", ".join(f"ptr {global_ref(s)}" for s in names)
    origin = PRECOMPILED if e["kind"] == "precompiled" else " from "
    out.append(f'@"__enzyme_{key}.{names[0]}{origin}{_quoted(source)}" = hidden global '
               f"[{len(names)} x ptr] [{refs}]")
    return out


def _allocator(e: dict[str, Any], n: int, source: str, defined: set[str],
               types: dict[str, str]) -> list[str]:
    """__enzyme_allocation_like = {fn, (void *)size_argument, "deallocator_arguments",
    deallocator}, with declarations of both functions (the program may not name the
    deallocator: the derivative frees shadows with it)."""
    fn, free = e["function"], e["deallocator"]
    if free not in defined:
        raise LinkError(f"{source}: the manifest names '{free}' (the deallocator of {fn}), which "
                        f"{source} does not define")
    out = []
    for sym in (fn, free):
        have, sig = types.get(sym), e.get("signatures", {}).get(sym)
        recorded = f"{sig['ret']} ({', '.join(sig['params'])})" if sig is not None else None
        if have is not None and recorded is not None and have != recorded:
            raise LinkError(f"{source}: the manifest's signature of {sym} ({recorded}) does not "
                            f"match the program's ({have})")
        spelled = have or recorded
        if spelled is None:
            raise LinkError(f"{source}: the manifest gives no signature for '{sym}' (for {fn})")
        ret, _, params = spelled.partition(" (")
        out.append(f"declare {ret} {global_ref(sym)}({params}")
    spec = ",".join(str(k) for k in e["deallocator_arguments"])
    sname = f'@"gl.manifest.free.{n}.{_plain(source)}"'
    size = "null" if e["size_argument"] == 0 else f"inttoptr (i64 {e['size_argument']} to ptr)"
    out += [f'{sname} = private unnamed_addr constant [{len(spec) + 1} x i8] c"{spec}\\00"',
            f'@"__enzyme_allocation_like.{fn} from {_quoted(source)}" = hidden global [4 x ptr] '
            f"[ptr {global_ref(fn)}, ptr {size}, ptr {sname}, ptr {global_ref(free)}]"]
    return out


def _check_activity(e: dict[str, Any], source: str, types: dict[str, str]) -> None:
    """This gradlink uses precompiled derivatives of the activity it builds: pointers with
    shadows, active floating-point values, constant integers."""
    fn_type = types.get(e["function"])
    sig = e.get("signatures", {}).get(e["function"]) or (
        function_type_fields(fn_type) if fn_type is not None else None)
    if sig is None:
        return
    try:
        params = [parse_type(p) for p in sig["params"] if p != "..."]
    except ParseError:
        return                            # the signature check below names the mismatch
    want = default_activity(params, e["mode"])
    if list(e["activity"]) != want:
        raise LinkError(f"{source}: the precompiled {e['mode']} derivative of {e['function']} "
                        f"has activity ({', '.join(e['activity'])}); this gradlink uses "
                        f"({', '.join(want)}) only")


def _function_type(f: llvm.ValueRef) -> str:
    return " ".join(str(f.global_value_type).split())


def _has_global(module: llvm.ModuleRef, name: str) -> bool:
    try:
        module.get_global_variable(name)
        return True
    except NameError:
        return False


def _quoted(source: str) -> str:
    """The source's name inside a quoted LLVM identifier (errors name the holder global)."""
    return re.sub(r'["\\]', "_", source)


def _plain(source: str) -> str:
    return re.sub(r"[^-a-zA-Z0-9$._]", "_", source)
