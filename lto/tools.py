"""The optimization and code-generation backend on Debian's LLVM 22 tools (opt-22, llc-22).

llvmlite's bundled LLVM is built with assertions enabled and exposes only the per-module default
pipeline: measured on the 200-unit link benchmark, its ``default<O2>`` takes about 1.5x the time
of ``opt-22`` running the same pipeline, and the LTO pipeline (``lto<O2>``, what lld runs on a
merged module whose parts were already optimized before the link) is unavailable. This backend
hands the merged, verified module to ``opt-22 -passes='internalize,lto<On>'`` and the result to
``llc-22``, configured as lld configures its LTO code generator (function and data sections, PIC
for -shared/-pie). The llvmlite backend (``--gradlink-backend=llvmlite``) remains for machines
without the tools.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from lto.diag import PROG, LinkError, Log

_CANDIDATES = {
    "opt": ("opt-22", "/usr/lib/llvm-22/bin/opt"),
    "llc": ("llc-22", "/usr/lib/llvm-22/bin/llc"),
    "objcopy": ("llvm-objcopy-22", "/usr/lib/llvm-22/bin/llvm-objcopy"),
    "clang": ("clang-22", "/usr/lib/llvm-22/bin/clang"),
}


def find_tool(name: str) -> str | None:
    for cand in _CANDIDATES[name]:
        path = shutil.which(cand) if not os.path.isabs(cand) else (cand if os.path.exists(cand) else None)
        if path:
            return path
    return None


def available() -> bool:
    return find_tool("opt") is not None and find_tool("llc") is not None


def _run(cmd: list[str], what: str, log: Log) -> None:
    log.note(f"{what}: {' '.join(cmd)}")
    try:
        p = subprocess.run(cmd, capture_output=True, text=True)
    except OSError as e:
        raise LinkError(f"cannot run {cmd[0]}: {e.strerror}") from None
    if p.returncode != 0:
        detail = "\n".join(f"  {line}" for line in p.stderr.strip().splitlines()[:40])
        raise LinkError(f"{what} failed ({os.path.basename(cmd[0])} exit {p.returncode}):\n{detail}")
    for line in p.stderr.splitlines():
        if line.strip():
            print(f"{PROG}: {os.path.basename(cmd[0])}: {line}", file=sys.stderr)


# Before AD: inline and simplify (instcombine without the fixpoint verification opt-22 enables
# for explicitly named passes: LLVM's own pipelines run it that way, some inputs need it) (SROA, GVN, LICM hoists loop invariants so their derivatives
# are hoisted too), without vectorizing or unrolling; name every value for the IR reader.
PRE_AD = ("internalize,ipsccp,globalopt,globaldce,cgscc(inline,function-attrs,function(sroa,"
          "early-cse<memssa>,simplifycfg,instcombine<no-verify-fixpoint>,loop(loop-rotate),"
          "loop-mssa(licm),gvn,sccp,instcombine<no-verify-fixpoint>,simplifycfg,adce)),globaldce,"
          "function(instnamer)")
# --gradlink-ad-first: differentiate the IR as the compiler left it, with only its stack slots
# promoted to registers (mem2reg changes no asymptotics; objects built with
# -Xclang -disable-llvm-passes then reach AD unoptimized).
AD_FIRST = "internalize,globaldce,function(mem2reg,instnamer)"


def lto_passes(opt_level: int) -> str:
    level = min(max(opt_level, 0), 3)
    return f"internalize,lto<O{level}>" if level > 0 else "internalize,globaldce"


def optimize(bitcode: bytes, keep: set[str], passes: str, cpu: str | None, tmpdir: str,
             log: Log, stem: str = "optimized") -> str:
    """Run an opt-22 pipeline (internalize keeps only ``keep`` external); returns the bitcode path."""
    src = os.path.join(tmpdir, f"{stem}.in.bc")
    out = os.path.join(tmpdir, f"{stem}.bc")
    keep_file = os.path.join(tmpdir, "keep.txt")
    Path(src).write_bytes(bitcode)
    Path(keep_file).write_text("".join(f"{name}\n" for name in sorted(keep)))
    cmd = [find_tool("opt") or "opt-22", f"-passes={passes}",
           f"-internalize-public-api-file={keep_file}", src, "-o", out]
    if cpu:
        cmd.insert(1, f"-mcpu={cpu}")
    _run(cmd, "optimization", log)
    return out


def codegen(bitcode_path: str, opt_level: int, pic: bool, cpu: str | None, tmpdir: str,
            log: Log) -> bytes:
    out = os.path.join(tmpdir, "lto-codegen.o")
    level = min(max(opt_level, 0), 3)
    cmd = [find_tool("llc") or "llc-22", f"-O{level}", "-filetype=obj", "-code-model=small",
           f"-relocation-model={'pic' if pic else 'static'}", "-function-sections",
           "-data-sections", bitcode_path, "-o", out]
    if cpu:
        cmd.insert(1, f"-mcpu={cpu}")
    _run(cmd, "code generation", log)
    return Path(out).read_bytes()
