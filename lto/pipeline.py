"""One link, stage by stage (docs/architecture.md draws the same picture)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import llvmlite.binding as llvm

from fatlib.elf import Symbol
from gradlink.ad import driver as ad
from lto import codegen, ctors, exports, fatpull, manifests, merge, native, optimize, pic, target, tools
from lto.diag import LinkError, Log, warn
from lto.inputs import load_inputs
from lto.options import LinkOptions
from lto.resolve import Resolution, Resolver


def check_output_path(path: str) -> None:
    """Fail before any work when the output cannot be written, as ld does."""
    p = Path(path)
    if p.is_dir():
        raise LinkError(f"cannot open output file {path}: Is a directory")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise LinkError(f"cannot open output file {path}: No such file or directory")
    if not os.access(parent, os.W_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise LinkError(f"cannot open output file {path}: Permission denied")


def link(opts: LinkOptions) -> int:
    log = Log(opts.verbose)
    check_output_path(opts.output)
    with log.stage("inputs"):
        inputs = load_inputs(opts)
    with log.stage("resolve"):
        resolver = Resolver(log)
        resolver.require(opts.undefined + ([opts.entry] if opts.entry else []))
        res = resolver.run(inputs.sequence())
    log.note(f"LTO unit: {len(res.bitcode)} bitcode module(s); "
             f"{len(res.native)} native object(s), {len(res.shared)} shared object(s)")
    for unit in res.bitcode:
        log.note(f"  bitcode {unit.display}")

    with tempfile.TemporaryDirectory(prefix="gradlink-") as tmp:
        lto_object = None
        if res.bitcode and not opts.relocatable:
            lto_object = os.path.join(tmp, "gradlink-lto.o")
            more = lambda names: _resolve_more(resolver, inputs.sequence(), names)
            Path(lto_object).write_bytes(_lto(opts, res, log, tmp, more))
        elif res.bitcode:
            raise LinkError("-r (relocatable output) with bitcode inputs is not supported")
        with log.stage("native link"):
            args = native.native_args(opts, inputs, lto_object, tmp)
            log.note("native link: " + " ".join([native.find_lld(), *args]))
            code = native.run_native(args, lto_object)
    log.note(f"total: {(sum(log.times.values())) * 1000:.1f} ms")
    return code


def _resolve_more(resolver: Resolver, sequence: list[Any], names: set[str]) -> None:
    """Symbols the manifests' registrations reference (precompiled derivatives, in a member
    nothing named before): resolved like -u, so their members load and what those members
    reference stays external."""
    resolver.require(sorted(names))
    resolver.run(sequence)


def _keep(opts: LinkOptions, res: Resolution, log: Log) -> set[str]:
    """The bitcode definitions that must stay external (once the LTO unit's members are known:
    after the fat pull)."""
    bitcode_defs: dict[str, Symbol] = {}
    for unit in res.bitcode:
        for sym in unit.symbols:
            if sym.defined:
                bitcode_defs.setdefault(sym.name, sym)
    keep = exports.external_names(opts, res.visible_outside, bitcode_defs)
    log.note(f"keeping {len(keep)} external definition(s) of {len(bitcode_defs)}")
    return keep


def _lto(opts: LinkOptions, res: Resolution, log: Log, tmpdir: str,
         resolve_more: Callable[[set[str]], None]) -> bytes:
    definitions: list[tuple[str, set[str]]] | None = None
    if any(ad.mentions_registrations(u.data) for u in res.bitcode) or \
            any(u.fat and ad.mentions_registrations(u.data) for u in res.native):
        definitions = []               # which unit defined what: see gradlink/ad/bypass.py
    with log.stage("merge"):
        module = merge.merge(res.bitcode, definitions)
        codegen.verify(module, "merged module")
    save = _saver(opts.save_temps)
    save("merged.bc", module)
    if opts.shared:
        module = pic.drop_dso_local(module)
    pic_output = opts.shared or opts.pie
    backend = opts.backend or ("tools" if tools.available() else "llvmlite")
    wants_ad = any(ad.has_requests(f.name) for f in module.functions if f.is_declaration)
    hazards = ad.Hazards()
    holders: set[str] = set()
    if wants_ad:
        for hook in FPOPT_HOOKS:
            if any(hook in f.name and not f.is_declaration for f in module.functions):
                warn(f"{hook} is defined: Enzyme's floating-point profiling hooks (FPOpt) are "
                     "not implemented by gradlink, which never calls it")
        # the libraries' derivative manifests first: a function with a registered derivative
        # needs no body, so its fat member stays native
        injected: set[tuple[str, int]] = set()
        symbols: set[str] = set()
        if _inject_manifests(module, res, log, injected, symbols) and definitions is None:
            definitions = []
        if any(u.fat for u in res.native):
            with log.stage("fat objects"):
                pulled = fatpull.pull_fat_bitcode(module, res, log, definitions)
            if pulled:
                _inject_manifests(module, res, log, injected, symbols)
                codegen.verify(module, "merged module")
                if opts.shared:
                    module = pic.drop_dso_local(module)
        if symbols:
            resolve_more(symbols)
        holders, hazards = protect_registrations(module, definitions or [])
    keep = _keep(opts, res, log) | holders
    if backend == "tools":
        bitcode = module.as_bitcode()
        passes = tools.lto_passes(opts.opt_level)
        if wants_ad:
            with log.stage("pre-AD simplification (opt-22)" if not opts.ad_first else "naming (opt-22)"):
                pre = tools.optimize(bitcode, keep, tools.AD_FIRST if opts.ad_first else tools.PRE_AD,
                                     opts.mcpu, tmpdir, log, stem="pre-ad")
            module = differentiate(llvm.parse_bitcode(Path(pre).read_bytes()), log, save,
                                    hazards)
            bitcode = module.as_bitcode()
        with log.stage(f"optimize O{opts.opt_level} (opt-22)"):
            optimized = tools.optimize(bitcode, keep, passes, opts.mcpu, tmpdir, log)
        if opts.save_temps:
            save("optimized.ll", llvm.parse_bitcode(Path(optimized).read_bytes()))
        with log.stage("codegen (llc-22)"):
            obj = tools.codegen(optimized, opts.opt_level, pic_output, opts.mcpu, tmpdir, log)
    else:
        tm = target.target_machine(module, opts.opt_level, pic_output, opts.mcpu)
        with log.stage("internalize"):
            merge.internalize(module, keep, optimize.pass_builder(tm, opts.opt_level))
        if wants_ad:
            optimize.name_values(module, tm)
            module = differentiate(module, log, save, hazards)
        with log.stage(f"optimize O{opts.opt_level} (llvmlite)"):
            optimize.optimize(module, tm, opts.opt_level)
            codegen.verify(module, "optimized module")
        save("optimized.ll", module)
        with log.stage("codegen (llvmlite)"):
            module = ctors.lower_to_init_array(module)
            obj = codegen.emit_object(module, tm)
    save("lto.o", obj)
    return obj


def _inject_manifests(module: llvm.ModuleRef, res: Resolution, log: Log,
                      injected: set[tuple[str, int]], symbols: set[str]) -> bool:
    extra = manifests.registrations(module, res, log, injected, symbols)
    if extra is None:
        return False
    module.link_in(extra)
    return True


def protect_registrations(module: llvm.ModuleRef, definitions: list[tuple[str, set[str]]]
                           ) -> tuple[set[str], ad.Hazards]:
    """Derivative registrations (__enzyme_register_gradient_f, ...) must survive the pre-AD
    pipeline, and their functions must not be inlined into callers, or the registered
    derivative would be bypassed. The compile before the link may have inlined them already:
    the hazards say where (gradlink/ad/bypass.py), and the functions that may hold such a copy
    unseen stay out of the link's inlining too, so the AD can refuse them by name. Returns the
    globals to keep (registrations, and activity markers the program defines) and the
    hazards."""
    holders = {g.name for g in module.global_variables if ad.is_registration(g.name)
               and not g.is_declaration}
    # activity markers a program defines itself (int enzyme_dup;): internalized, globalopt
    # would fold their loads to 0 and the AD could not tell them from arguments
    markers = {g.name for g in module.global_variables if g.name.startswith("enzyme_")
               and not g.is_declaration}
    if not holders:
        return markers, ad.Hazards()
    text = str(module)
    try:
        registered = ad.registered_functions(text)
        hazards = ad.hazards(text, definitions)
    except ad.ADError as e:
        raise LinkError(str(e)) from None
    for name in registered | hazards.unsure():
        try:
            module.get_function(name.lstrip("@").strip('"')).add_function_attribute("noinline")
        except NameError:
            pass
    return holders | markers, hazards


# functions Enzyme's FPOpt builds call from derivatives when the program defines them
FPOPT_HOOKS = ("enzymeLogGrad", "enzymeLogValue", "enzymeLogError")


def differentiate(module: llvm.ModuleRef, log: Log, save,  # type: ignore[no-untyped-def]
                   hazards: ad.Hazards) -> llvm.ModuleRef:
    """The AD stage: every __enzyme_autodiff request becomes a call of a synthesized derivative."""
    with log.stage("AD"):
        try:
            text = ad.differentiate(str(module), hazards)
        except ad.ADError as e:
            raise LinkError(str(e)) from None
        try:
            new = llvm.parse_assembly(text)
            new.verify()
        except RuntimeError as e:
            save("ad-invalid.ll", text)
            raise LinkError("internal error: the differentiated module is invalid: "
                            + " ".join(str(e).split())[:1500]) from None
    save("ad.ll", new)
    return new


def _saver(folder: str | None):  # type: ignore[no-untyped-def]
    def save(name: str, what: llvm.ModuleRef | bytes | str) -> None:
        if folder is None:
            return
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, name)
        if isinstance(what, bytes):
            Path(path).write_bytes(what)
        elif isinstance(what, str):
            Path(path).write_text(what)
        elif name.endswith(".bc"):
            Path(path).write_bytes(what.as_bitcode())
        else:
            Path(path).write_text(str(what))
    return save


def remove_output(path: str) -> None:
    """No partial output: a failed link leaves no file behind, even one from an earlier link."""
    try:
        if os.path.isfile(path) or os.path.islink(path):
            os.unlink(path)
    except OSError:
        pass

