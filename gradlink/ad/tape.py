"""The tape: a growable, thread-local LIFO byte stack in the generated module itself.

The forward sweep pushes what the reverse sweep needs and cannot recompute (values of loop
iterations, branch decisions); the reverse sweep pops in the opposite order. Because the stack
is shared, nested and recursive derivatives interleave correctly. The buffer grows by doubling
(realloc) and is kept for later calls. Push and pop are small internal functions the post-AD
optimization inlines.
"""

from __future__ import annotations

import re

from gradlink.ir.model import Value
from gradlink.ir.types import I64, PTR, Type, size_of

# The stack's state, thread-local globals of the runtime below: what a split-mode tape object
# saves and restores (gradlink.ad.split)
BASE = Value(PTR, '@"gl.tape.base"')        # ptr: the buffer
TOP = Value(PTR, '@"gl.tape.top"')          # i64: bytes in use
CAP = Value(PTR, '@"gl.tape.cap"')          # i64: bytes allocated
STATE = ((BASE, PTR), (TOP, I64), (CAP, I64))

# Type-based alias metadata of the tape's own memory: its bookkeeping (base, top, capacity)
# and the bytes pushed on it are different types of one TBAA root, so the optimizer knows a
# pushed value does not overwrite the stack top: consecutive pushes share one load of the top
# and of the base instead of reloading them after every store.
_ROOT = '!{!"gradlink tape"}'
_META_TYPE = f'!{{!"gl.tape.meta", {_ROOT}, i64 0}}'
_DATA_TYPE = f'!{{!"gl.tape.data", {_ROOT}, i64 0}}'
META = f", !tbaa !{{{_META_TYPE}, {_META_TYPE}, i64 0}}"
DATA = f", !tbaa !{{{_DATA_TYPE}, {_DATA_TYPE}, i64 0}}"

RUNTIME = '''
@"gl.tape.base" = internal thread_local global ptr null
@"gl.tape.top" = internal thread_local global i64 0
@"gl.tape.cap" = internal thread_local global i64 0

define internal ptr @"gl.tape.reserve"(i64 %n) {
entry:
  %top = load i64, ptr @"gl.tape.top"@META@
  %cap = load i64, ptr @"gl.tape.cap"@META@
  %end = add i64 %top, %n
  %full = icmp ugt i64 %end, %cap
  br i1 %full, label %grow, label %ok, !prof !{!"branch_weights", i32 1, i32 1000}
grow:
  %twice = shl i64 %cap, 1
  %big = call i64 @llvm.umax.i64(i64 %twice, i64 %end)
  %want = call i64 @llvm.umax.i64(i64 %big, i64 65536)
  %old = load ptr, ptr @"gl.tape.base"@META@
  %new = call ptr @realloc(ptr %old, i64 %want)
  %failed = icmp eq ptr %new, null
  br i1 %failed, label %oom, label %grown
oom:
  call void @abort()
  unreachable
grown:
  store ptr %new, ptr @"gl.tape.base"@META@
  store i64 %want, ptr @"gl.tape.cap"@META@
  br label %ok
ok:
  %base = load ptr, ptr @"gl.tape.base"@META@
  %slot = getelementptr i8, ptr %base, i64 %top
  store i64 %end, ptr @"gl.tape.top"@META@
  ret ptr %slot
}

define internal void @"gl.tape.ensure"(i64 %n) alwaysinline {
entry:
  %top = load i64, ptr @"gl.tape.top"@META@
  %cap = load i64, ptr @"gl.tape.cap"@META@
  %end = add i64 %top, %n
  %full = icmp ugt i64 %end, %cap
  br i1 %full, label %grow, label %ok, !prof !{!"branch_weights", i32 1, i32 1000}
grow:
  %slot = call ptr @"gl.tape.reserve"(i64 %n)
  %back = call ptr @"gl.tape.release"(i64 %n)
  br label %ok
ok:
  ret void
}

define internal ptr @"gl.tape.bump"(i64 %n) alwaysinline {
entry:
  %top = load i64, ptr @"gl.tape.top"@META@
  %end = add i64 %top, %n
  store i64 %end, ptr @"gl.tape.top"@META@
  %base = load ptr, ptr @"gl.tape.base"@META@
  %slot = getelementptr i8, ptr %base, i64 %top
  ret ptr %slot
}

define internal ptr @"gl.tape.release"(i64 %n) alwaysinline {
entry:
  %top = load i64, ptr @"gl.tape.top"@META@
  %new = sub i64 %top, %n
  store i64 %new, ptr @"gl.tape.top"@META@
  %base = load ptr, ptr @"gl.tape.base"@META@
  %slot = getelementptr i8, ptr %base, i64 %new
  ret ptr %slot
}
'''

RUNTIME = RUNTIME.replace("@META@", META)

RUNTIME_DECLS = {
    "@realloc": "declare ptr @realloc(ptr, i64)",
    "@abort": "declare void @abort()",
    "@llvm.umax.i64": "declare i64 @llvm.umax.i64(i64, i64)",
}


TANGENT_PREFIX = "gl.ttape"     # the tangent tape of forward-over-reverse (second order)


def runtime(prefix: str = "gl.tape") -> str:
    """The stack runtime; the tangent tape is a second copy under another prefix."""
    return RUNTIME.replace('"gl.tape.', f'"{prefix}.')


def suffix(t: Type) -> str:
    return re.sub(r"[^a-zA-Z0-9]+", "_", str(t)).strip("_")


def push_fn(t: Type, kind: str = "push") -> str:
    return f'@"gl.{kind}.{suffix(t)}"'


def pop_fn(t: Type, kind: str = "pop") -> str:
    return f'@"gl.{kind}.{suffix(t)}"'


def is_push(callee: str) -> bool:
    return callee.startswith(('@"gl.push.', '@"gl.upush.'))


def ensure_fn() -> str:
    """Makes room for the pushes that follow: gl.upush.T then skip the capacity check."""
    return '@"gl.tape.ensure"'


def is_pop(callee: str) -> bool:
    return callee.startswith('@"gl.pop.')


def accessors(t: Type, tangent: bool = False) -> str:
    """Push and pop for one type; unaligned so values of every size share one stack. With
    ``tangent``, the accessors of the tangent tape (gl.tpush.T / gl.tpop.T)."""
    n = size_of(t)
    prefix = TANGENT_PREFIX if tangent else "gl.tape"
    push = push_fn(t, "tpush" if tangent else "push")
    pop = pop_fn(t, "tpop" if tangent else "pop")
    return f'''
define internal void {push}({t} %v) alwaysinline {{
entry:
  %slot = call ptr @"{prefix}.reserve"(i64 {n})
  store {t} %v, ptr %slot, align 1{DATA}
  ret void
}}

{"" if tangent else _unchecked_push(t, n)}
define internal {t} {pop}() alwaysinline {{
entry:
  %slot = call ptr @"{prefix}.release"(i64 {n})
  %v = load {t}, ptr %slot, align 1{DATA}
  ret {t} %v
}}
'''


def _unchecked_push(t: Type, n: int) -> str:
    """gl.upush.T: a push after gl.tape.ensure made room for it."""
    return f'''
define internal void {push_fn(t, "upush")}({t} %v) alwaysinline {{
entry:
  %slot = call ptr @"gl.tape.bump"(i64 {n})
  store {t} %v, ptr %slot, align 1{DATA}
  ret void
}}
'''
