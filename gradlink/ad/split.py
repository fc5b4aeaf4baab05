"""Split mode: ``__enzyme_augmentfwd`` returns a tape object, ``__enzyme_reverse`` consumes it.

The tape is normally the thread's LIFO stack (gradlink.ad.tape). A tape object captures one
augmented forward's stack: the wrapper swaps in a fresh, empty stack, runs the augmented forward,
moves the filled stack into the object and restores the caller's stack; the reverse wrapper
installs the object's stack, runs the reverse, releases it and restores. Tapes of several
forward passes can therefore be reversed in any order. The object is 32 bytes ({base, top,
capacity, owned}), the value of ``__enzyme_augmentsize``; with ``enzyme_allocated N,
enzyme_tape p`` it lives in the caller's memory, else it is malloc'ed and freed by the reverse.
"""

from __future__ import annotations

TAPE_OBJECT_SIZE = 32
_FIELDS = '{ ptr, i64, i64, i64 }'

DECLS = {
    "@malloc": "declare ptr @malloc(i64)",
    "@free": "declare void @free(ptr)",
}


def _save(prefix: str) -> list[str]:
    return [f'  %{prefix}.base = load ptr, ptr @"gl.tape.base"',
            f'  %{prefix}.top = load i64, ptr @"gl.tape.top"',
            f'  %{prefix}.cap = load i64, ptr @"gl.tape.cap"']


def _restore(prefix: str) -> list[str]:
    return [f'  store ptr %{prefix}.base, ptr @"gl.tape.base"',
            f'  store i64 %{prefix}.top, ptr @"gl.tape.top"',
            f'  store i64 %{prefix}.cap, ptr @"gl.tape.cap"']


def augment_wrapper(name: str, aug: str, ret: str, params: list[str], args: list[str],
                    shape: str = "tape") -> str:
    """name(params..., ptr %mem): run ``aug`` on a fresh stack and return, by ``shape``, the
    tape object (in %mem when it is not null), ``{ptr tape, ret primal}`` ("tape+primal", as
    Enzyme returns it when the call is declared so), or ``{ret primal}`` ("primal": the caller
    gave the tape memory; "primal-scalar" when C's ABI returns that struct as the value)."""
    keep = shape != "tape"
    call = f"  {'%prim = ' if keep else ''}call {ret} {aug}({', '.join(args)})"
    result = {"tape": "ptr", "tape+primal": f"{{ ptr, {ret} }}", "primal": f"{{ {ret} }}",
              "primal+tape": f"{{ {ret}, ptr }}", "primal-scalar": ret}[shape]
    if shape == "tape":
        tail = ["  ret ptr %obj"]
    elif shape == "tape+primal":
        tail = [f"  %r0 = insertvalue {result} poison, ptr %obj, 0",
                f"  %r1 = insertvalue {result} %r0, {ret} %prim, 1", f"  ret {result} %r1"]
    elif shape == "primal+tape":
        tail = [f"  %r0 = insertvalue {result} poison, {ret} %prim, 0",
                f"  %r1 = insertvalue {result} %r0, ptr %obj, 1", f"  ret {result} %r1"]
    elif shape == "primal":
        tail = [f"  %r0 = insertvalue {result} poison, {ret} %prim, 0", f"  ret {result} %r0"]
    else:
        tail = [f"  ret {ret} %prim"]
    return "\n".join([
        f"define internal {result} {name}({', '.join([*params, 'ptr %mem'])}) {{",
        "entry:",
        *_save("old"),
        '  store ptr null, ptr @"gl.tape.base"',
        '  store i64 0, ptr @"gl.tape.top"',
        '  store i64 0, ptr @"gl.tape.cap"',
        call,
        *_save("new"),
        *_restore("old"),
        "  %given = icmp ne ptr %mem, null",
        "  br i1 %given, label %store, label %alloc",
        "alloc:",
        f"  %fresh = call ptr @malloc(i64 {TAPE_OBJECT_SIZE})",
        "  br label %store",
        "store:",
        "  %obj = phi ptr [ %mem, %entry ], [ %fresh, %alloc ]",
        "  %owned = select i1 %given, i64 0, i64 1",
        f"  %f0 = getelementptr {_FIELDS}, ptr %obj, i32 0, i32 0",
        "  store ptr %new.base, ptr %f0",
        f"  %f1 = getelementptr {_FIELDS}, ptr %obj, i32 0, i32 1",
        "  store i64 %new.top, ptr %f1",
        f"  %f2 = getelementptr {_FIELDS}, ptr %obj, i32 0, i32 2",
        "  store i64 %new.cap, ptr %f2",
        f"  %f3 = getelementptr {_FIELDS}, ptr %obj, i32 0, i32 3",
        "  store i64 %owned, ptr %f3",
        *tail,
        "}",
    ]) + "\n"


def reverse_wrapper(name: str, rev: str, ret: str, params: list[str], args: list[str]) -> str:
    """ret name(params..., ptr %obj): run ``rev`` on the tape object's stack, then free it."""
    result = "%res = " if ret != "void" else ""
    return "\n".join([
        f"define internal {ret} {name}({', '.join([*params, 'ptr %obj'])}) {{",
        "entry:",
        *_save("old"),
        f"  %f0 = getelementptr {_FIELDS}, ptr %obj, i32 0, i32 0",
        "  %t.base = load ptr, ptr %f0",
        f"  %f1 = getelementptr {_FIELDS}, ptr %obj, i32 0, i32 1",
        "  %t.top = load i64, ptr %f1",
        f"  %f2 = getelementptr {_FIELDS}, ptr %obj, i32 0, i32 2",
        "  %t.cap = load i64, ptr %f2",
        '  store ptr %t.base, ptr @"gl.tape.base"',
        '  store i64 %t.top, ptr @"gl.tape.top"',
        '  store i64 %t.cap, ptr @"gl.tape.cap"',
        f"  {result}call {ret} {rev}({', '.join(args)})",
        '  %used = load ptr, ptr @"gl.tape.base"',
        "  call void @free(ptr %used)",
        *_restore("old"),
        f"  %f3 = getelementptr {_FIELDS}, ptr %obj, i32 0, i32 3",
        "  %owned = load i64, ptr %f3",
        "  %mine = icmp ne i64 %owned, 0",
        "  br i1 %mine, label %release, label %done",
        "release:",
        "  call void @free(ptr %obj)",
        "  br label %done",
        "done:",
        f"  ret {ret} %res" if ret != "void" else "  ret void",
        "}",
    ]) + "\n"
