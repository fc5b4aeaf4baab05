"""Shadow pointers, shared by forward and reverse synthesis.

A pointer into active memory has a shadow pointing to the same place in the shadow memory
(tangents in forward mode, adjoints in reverse mode). Derived pointers get their shadow by the
same operation applied to the operands' shadows; new memory gets zeroed shadow memory.
"""

from __future__ import annotations

from collections.abc import Callable

from gradlink.analysis.allocators import Allocator
from gradlink.ir.builder import Builder, size_of_const
from gradlink.ir.model import Instr, Value
from gradlink.ir.types import I1, I8, I64, PTR


def emit_shadow(b: Builder, ins: Instr, sh: str, shadow_of: Callable[[Value], str],
                allocator: Allocator | None = None) -> bool:
    """Emit ``sh``, the shadow of the pointer ``ins`` defines; ``shadow_of`` gives operands'
    shadows, ``allocator`` says what ins calls when it allocates. Returns False for
    instructions that need mode-specific handling (phi, realloc) or cannot have a shadow."""
    op = ins.opcode

    def shadow(v: Value) -> Value:
        return Value(PTR, shadow_of(v))

    if op == "getelementptr":
        flags = tuple(f for f in ins.flags if f in ("inbounds", "nuw", "nusw"))
        b.insert(Instr("getelementptr", sh, PTR, [shadow(ins.operands[0]), *ins.operands[1:]],
                       flags=flags, alloc_type=ins.alloc_type))
    elif op in ("bitcast", "addrspacecast", "freeze"):
        b.insert(Instr(op, sh, ins.type if op != "freeze" else PTR, [shadow(ins.operands[0])]))
    elif op == "select":
        c, x, y = ins.operands
        b.select(c, shadow(x), shadow(y), name=sh)
    elif op == "load":
        b.load(PTR, shadow(ins.operands[0]), name=sh)
    elif op == "alloca":
        b.insert(Instr("alloca", sh, PTR, list(ins.operands[:1]), alloc_type=ins.alloc_type))
        size = alloca_size(b, ins)
        b.libcall("@llvm.memset.p0.i64", [Value(PTR, sh), Value(I8, "0"), size,
                                          Value(I1, "false")])
    elif op in ("call", "invoke") and allocator is not None and allocator.builtin:
        if ins.callee == "@calloc":
            b.libcall("@calloc", ins.operands[:2], result=sh)
        else:
            b.libcall("@calloc", [Value(I64, "1"), ins.operands[0]], result=sh)
    elif op in ("call", "invoke") and allocator is not None:
        # the program's own allocator makes the shadow too (its memory may be special: a
        # pool, device memory), and the shadow is zeroed
        b.call(ins.callee, list(ins.operands), PTR, name=sh)
        size = ins.operands[allocator.size[0]]
        if size.type != I64:
            size = b.cast("zext", size, I64)
        b.libcall("@llvm.memset.p0.i64", [Value(PTR, sh), Value(I8, "0"), size,
                                          Value(I1, "false")])
    else:
        return False
    return True


def emit_free(b: Builder, allocator: Allocator, ptr: Value, args: list[Value]) -> None:
    """Free ``ptr``, memory ``allocator`` made (or its shadow) when called with ``args``."""
    if allocator.builtin:
        b.libcall("@free", [ptr])
        return
    b.call(allocator.free, [ptr if k == -1 else args[k] for k in allocator.free_args],
           allocator.free_ret, discard=True)


def alloca_size(b: Builder, ins: Instr) -> Value:
    """The byte size of what an alloca allocates (element size times the count operand)."""
    assert ins.alloc_type is not None
    size = size_of_const(ins.alloc_type)
    if ins.operands:                               # alloca T, N: N elements
        n = ins.operands[0]
        n64 = b.cast("sext", n, I64) if n.type != I64 else n
        size = b.binop("mul", size, n64)
    return size


def emit_heap_alloca(b: Builder, ins: Instr, name: str, zeroed: bool) -> None:
    """``name``: what the alloca ins allocates, on the heap instead (zeroed for a shadow)."""
    size = alloca_size(b, ins)
    if zeroed:
        b.libcall("@calloc", [Value(I64, "1"), size], result=name)
    else:
        b.libcall("@malloc", [size], result=name)


def emit_realloc_shadow(b: Builder, ins: Instr, sh: str, old_sh: str, used: str,
                        kept: str) -> None:
    """realloc's shadow: fresh zeroed memory with the old shadow's bytes copied in (``kept``
    of them), so the grown part holds zeros, not garbage. The old shadow is left alone: the
    caller frees it (forward mode) or keeps it for the reverse sweep."""
    size = ins.operands[1]
    old = Value(PTR, old_sh)
    b.declare_library("@calloc", "@malloc_usable_size", "@llvm.umin.i64",
                      "@llvm.memcpy.p0.p0.i64")
    n = b.libcall("@malloc_usable_size", [old], result=used)
    assert n is not None
    b.libcall("@calloc", [Value(I64, "1"), size], result=sh)
    k = b.libcall("@llvm.umin.i64", [n, size], result=kept)
    assert k is not None
    b.libcall("@llvm.memcpy.p0.p0.i64", [Value(PTR, sh), old, k, Value(I1, "false")])
