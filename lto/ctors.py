"""Static constructors and destructors in ``.init_array``/``.fini_array``.

llvmlite's TargetMachine leaves LLVM's TargetOptions.UseInitArray at false, so code generation
would put ``llvm.global_ctors`` into ``.ctors``, which crtbegin and lld ignore on modern
Linux: C++ static constructors (iostream's among them) would silently never run. Before code
generation the two lists are therefore rewritten into constant pointer arrays placed in the
sections clang itself emits: ``.init_array`` for the default priority 65535, and
``.init_array.NNNNN`` (which lld sorts by priority) otherwise. Entries of one priority keep
their order. The arrays are internal and unused, but code generation emits every global and lld
keeps init/fini arrays as roots.
"""

from __future__ import annotations

import re

import llvmlite.binding as llvm

from lto.diag import LinkError

_LIST = re.compile(
    r'^@llvm\.global_(ctors|dtors) = appending global \[\d+ x [^\]]*\] (\[.*\]|zeroinitializer)'
    r'(?:, section "[^"]*")?$', re.M)
_ENTRY = re.compile(r'\{ i32 (-?\d+), ptr ([^,]+), ptr ([^}]+?) \}')


def _has_global(module: llvm.ModuleRef, name: str) -> bool:
    try:
        module.get_global_variable(name)
    except NameError:
        return False
    return True


def lower_to_init_array(module: llvm.ModuleRef) -> llvm.ModuleRef:
    if not (_has_global(module, "llvm.global_ctors") or _has_global(module, "llvm.global_dtors")):
        return module
    text = str(module)
    new_text = _LIST.sub(_replacement, text)
    if "@llvm.global_ctors =" in new_text or "@llvm.global_dtors =" in new_text:
        raise LinkError("internal error: unrecognised form of llvm.global_ctors/dtors")
    try:
        new = llvm.parse_assembly(new_text)
        new.verify()
    except RuntimeError as e:
        raise LinkError(f"internal error lowering static constructors: {' '.join(str(e).split())}") from None
    new.name = module.name
    return new


def _replacement(m: re.Match[str]) -> str:
    kind = "init" if m.group(1) == "ctors" else "fini"
    by_priority: dict[int, list[str]] = {}
    for prio, fn, _key in _ENTRY.findall(m.group(2)):
        if fn.strip() != "null":
            by_priority.setdefault(int(prio), []).append(fn.strip())
    lines = []
    for prio, fns in sorted(by_priority.items()):
        section = f".{kind}_array" if prio == 65535 else f".{kind}_array.{prio:05d}"
        elems = ", ".join(f"ptr {fn}" for fn in fns)
        lines.append(f'@"__gradlink.{kind}_array.{prio}" = internal constant [{len(fns)} x ptr] '
                     f'[{elems}], section "{section}", align 8')
    return "\n".join(lines)
