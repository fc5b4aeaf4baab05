"""The target machine for the LTO unit: triple from the module, CPU from -plugin-opt=mcpu."""

from __future__ import annotations

import llvmlite.binding as llvm

from lto.diag import LinkError

_initialized = False


def init_llvm() -> None:
    global _initialized
    if not _initialized:
        llvm.initialize_native_target()
        llvm.initialize_native_asmprinter()
        llvm.initialize_native_asmparser()
        _initialized = True


def target_machine(module: llvm.ModuleRef, opt_level: int, pic: bool,
                   cpu: str | None = None) -> llvm.TargetMachine:
    """A TargetMachine for the module's triple with the small code model (llvmlite's default is
    the JIT's large one), PIC for -shared/-pie outputs."""
    init_llvm()
    triple = module.triple or llvm.get_process_triple()
    try:
        target = llvm.Target.from_triple(triple)
    except RuntimeError as e:
        raise LinkError(f"no target for triple '{triple}': {e}") from None
    return target.create_target_machine(cpu=cpu or "", opt=min(opt_level, 3),
                                        reloc="pic" if pic else "static", codemodel="small")
