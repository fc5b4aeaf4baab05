"""Optimization of the LTO unit with LLVM's standard pipelines."""

from __future__ import annotations

import llvmlite.binding as llvm


def pass_builder(tm: llvm.TargetMachine, opt_level: int) -> llvm.PassBuilder:
    pto = llvm.create_pipeline_tuning_options(speed_level=opt_level)
    vectorize = opt_level >= 2
    pto.loop_vectorization = vectorize
    pto.slp_vectorization = vectorize
    pto.loop_unrolling = opt_level >= 2
    return llvm.create_pass_builder(tm, pto)


def optimize(module: llvm.ModuleRef, tm: llvm.TargetMachine, opt_level: int) -> None:
    """Run the default module pipeline of the given level (O0 runs nothing but verification)."""
    if opt_level <= 0:
        return
    pb = pass_builder(tm, opt_level)
    pb.getModulePassManager().run(module, pb)


def name_values(module: llvm.ModuleRef, tm: llvm.TargetMachine) -> None:
    """Give every unnamed value and block a name (the AD reads and splices function text)."""
    pb = pass_builder(tm, 0)
    fpm = llvm.create_new_function_pass_manager()
    fpm.add_instruction_namer_pass()
    for fn in module.functions:
        if not fn.is_declaration:
            fpm.run(fn, pb)
