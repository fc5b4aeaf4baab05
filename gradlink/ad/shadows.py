"""Shadow pointers, shared by forward and reverse synthesis.

A pointer into active memory has a shadow pointing to the same place in the shadow memory
(tangents in forward mode, adjoints in reverse mode). Derived pointers get their shadow by the
same operation applied to the operands' shadows; new memory gets zeroed shadow memory.
"""

from __future__ import annotations

from collections.abc import Callable

from gradlink.ad.builder import Builder
from gradlink.analysis.activity import ALLOCATORS
from gradlink.ir.model import Instr, Value
from gradlink.ir.types import I64

DECLARATIONS = {
    "@calloc": "declare ptr @calloc(i64, i64)",
    "@llvm.memset.p0.i64": "declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)",
    "@malloc_usable_size": "declare i64 @malloc_usable_size(ptr)",
    "@llvm.umin.i64": "declare i64 @llvm.umin.i64(i64, i64)",
    "@llvm.memcpy.p0.p0.i64": "declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)",
}


def _declare(b: Builder, *names: str) -> None:
    for n in names:
        b.declarations.setdefault(n, DECLARATIONS[n])


def emit_shadow(b: Builder, ins: Instr, sh: str, shadow_of: Callable[[Value], str]) -> bool:
    """Emit ``sh``, the shadow of the pointer ``ins`` defines; ``shadow_of`` gives operands'
    shadows. Returns False for instructions that need mode-specific handling (phi, realloc)
    or cannot have a shadow."""
    op = ins.opcode
    if op == "getelementptr":
        flags = " ".join(f for f in ins.flags if f in ("inbounds", "nuw", "nusw"))
        idx = "".join(f", {v}" for v in ins.operands[1:])
        b.emit(f"{sh} = getelementptr {flags} {ins.alloc_type}, ptr {shadow_of(ins.operands[0])}{idx}")
    elif op in ("bitcast", "addrspacecast", "freeze"):
        b.emit(f"{sh} = {op} ptr {shadow_of(ins.operands[0])}"
               + (f" to {ins.type}" if op != "freeze" else ""))
    elif op == "select":
        c, x, y = ins.operands
        b.emit(f"{sh} = select {c}, ptr {shadow_of(x)}, ptr {shadow_of(y)}")
    elif op == "load":
        b.emit(f"{sh} = load ptr, ptr {shadow_of(ins.operands[0])}")
    elif op == "alloca":
        count = f", {ins.operands[0]}" if ins.operands else ""
        b.emit(f"{sh} = alloca {ins.alloc_type}{count}")
        size = alloca_size(b, ins)
        _declare(b, "@llvm.memset.p0.i64")
        b.emit(f"call void @llvm.memset.p0.i64(ptr {sh}, i8 0, i64 {size}, i1 false)")
    elif op in ("call", "invoke") and ins.callee in ALLOCATORS:
        _declare(b, "@calloc")
        if ins.callee == "@calloc":
            b.emit(f"{sh} = call ptr @calloc({ins.operands[0]}, {ins.operands[1]})")
        else:
            b.emit(f"{sh} = call ptr @calloc(i64 1, {ins.operands[0]})")
    else:
        return False
    return True


def alloca_size(b: Builder, ins: Instr) -> str:
    """The byte size of what an alloca allocates (element size times the count operand)."""
    size = f"ptrtoint (ptr getelementptr ({ins.alloc_type}, ptr null, i32 1) to i64)"
    if ins.operands:                               # alloca T, N: N elements
        n = ins.operands[0]
        n64 = b.cast("sext", n, I64) if n.type != I64 else n
        size = b.binop("mul", Value(I64, size), n64).ref
    return size


def emit_heap_alloca(b: Builder, ins: Instr, name: str, zeroed: bool) -> None:
    """``name``: what the alloca ins allocates, on the heap instead (zeroed for a shadow)."""
    size = alloca_size(b, ins)
    if zeroed:
        _declare(b, "@calloc")
        b.emit(f"{name} = call ptr @calloc(i64 1, i64 {size})")
    else:
        b.declarations.setdefault("@malloc", "declare ptr @malloc(i64)")
        b.emit(f"{name} = call ptr @malloc(i64 {size})")


def emit_realloc_shadow(b: Builder, ins: Instr, sh: str, old_sh: str, used: str,
                        kept: str) -> None:
    """realloc's shadow: fresh zeroed memory with the old shadow's bytes copied in (``kept``
    of them), so the grown part holds zeros, not garbage. The old shadow is left alone: the
    caller frees it (forward mode) or keeps it for the reverse sweep."""
    size = ins.operands[1]
    _declare(b, "@calloc", "@malloc_usable_size", "@llvm.umin.i64", "@llvm.memcpy.p0.p0.i64")
    b.emit(f"{used} = call i64 @malloc_usable_size(ptr {old_sh})")
    b.emit(f"{sh} = call ptr @calloc(i64 1, {size})")
    b.emit(f"{kept} = call i64 @llvm.umin.i64(i64 {used}, {size})")
    b.emit(f"call void @llvm.memcpy.p0.p0.i64(ptr {sh}, ptr {old_sh}, i64 {kept}, i1 false)")
