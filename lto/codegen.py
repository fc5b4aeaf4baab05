"""Native code generation of the optimized LTO unit."""

from __future__ import annotations

import llvmlite.binding as llvm

from lto.diag import LinkError


def emit_object(module: llvm.ModuleRef, tm: llvm.TargetMachine) -> bytes:
    try:
        return bytes(tm.emit_object(module))
    except RuntimeError as e:
        raise LinkError(f"code generation failed: {' '.join(str(e).split())}") from None


def verify(module: llvm.ModuleRef, what: str) -> None:
    """LLVM aborts the process on some invalid IR: verify before running passes on it."""
    try:
        module.verify()
    except RuntimeError as e:
        raise LinkError(f"{what}: invalid IR: {' '.join(str(e).split())[:2000]}") from None
