"""Functions that allocate and free memory, as the analyses and the synthesis see them.

A call of an allocator returns fresh memory; when active data is stored into it, it gets a
shadow: fresh zeroed memory of the same size, freed when the reverse sweep reaches the
allocation (forward mode: when the program frees the memory). Built in: the C and C++ heap
(malloc, calloc, operator new), whose shadows are calloc'ed and freed with free, and aligned
memory (aligned_alloc, memalign, posix_memalign as gradlink/ad/lowering.py rewrites it), whose
shadows the same function allocates with the same alignment, zeroed and freed with free. A program or
a library declares its own with Enzyme's registration

    void *__enzyme_allocation_like[4] = {(void *)alloc, (void *)SIZE, (void *)"FREE", (void *)dealloc};

SIZE: the index of alloc's argument holding the byte count; FREE: dealloc's arguments, comma
separated, each -1 for the allocated pointer or the index of one of alloc's arguments
("2,-1": dealloc(arg2 of the allocation, the pointer)). Their shadows are allocated by alloc
itself (with the same arguments), zeroed, and freed with dealloc. ``__enzyme_function_like =
{fn, "free"}`` declares a function that frees its first argument.
"""

from __future__ import annotations

from dataclasses import dataclass

from gradlink.ir.types import VOID, Type


@dataclass(frozen=True)
class Allocator:
    size: tuple[int, ...]               # arguments whose product is the byte count
    free: str = "@free"                 # the function freeing the memory (and its shadow)
    free_args: tuple[int, ...] = (-1,)  # its arguments: -1 the pointer, k the allocation's k-th
    builtin: bool = True                # shadow calloc'ed and freed with free
    free_ret: Type = VOID               # what free returns (ignored)

    @property
    def pointer_position(self) -> int | None:
        """Where the pointer goes among free's arguments (None: free does not take it)."""
        return self.free_args.index(-1) if -1 in self.free_args else None


_MALLOC = Allocator((0,))
# aligned memory: the shadow is made by the same function (same alignment), zeroed, freed
_ALIGNED = Allocator((1,), builtin=False)
# posix_memalign, as the AD rewrites it (gradlink/ad/lowering.py): (alignment, size) -> pointer
POSIX_MEMALIGN = '@"gl.posix_memalign"'
BUILTIN_ALLOCATORS: dict[str, Allocator] = {
    "@malloc": _MALLOC, "@calloc": Allocator((0, 1)),
    "@_Znwm": _MALLOC, "@_Znam": _MALLOC,                                   # operator new
    "@_ZnwmRKSt9nothrow_t": _MALLOC, "@_ZnamRKSt9nothrow_t": _MALLOC,
    "@aligned_alloc": _ALIGNED, "@memalign": _ALIGNED, POSIX_MEMALIGN: _ALIGNED,
}
REALLOCATORS = frozenset({"@realloc"})
# function -> the position of the pointer it frees
BUILTIN_DEALLOCATORS: dict[str, int] = {
    "@free": 0, "@_ZdlPv": 0, "@_ZdlPvm": 0, "@_ZdaPv": 0, "@_ZdaPvm": 0}


def parse_free_args(spec: str) -> tuple[int, ...]:
    """Enzyme's deallocation index string: "2,-1" -> (2, -1). Raises ValueError."""
    items = [s.strip() for s in spec.split(",")]
    if not spec.strip() or any(not s.lstrip("-").isdigit() for s in items):
        raise ValueError(f"the deallocator's arguments '{spec}' are not a list of indices such as "
                         "\"-1\" or \"2,-1\"")
    out = tuple(int(s) for s in items)
    if any(k < -1 for k in out):
        raise ValueError(f"the deallocator's arguments '{spec}': each is -1 (the pointer) or the "
                         "index of an argument of the allocation")
    return out
