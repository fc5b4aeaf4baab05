"""Build and run a local copy of Enzyme's integration-test programs with ld.gradlink.

The corpus (default /work/enzyme-tests) holds one folder per test family
(ReverseMode, ForwardMode, ForwardModeVector, BatchMode, ...), each with
self-contained C/C++ programs that check their derivatives with test_utils.h's
APPROX_EQ, which prints "Assertion Failed" and aborts on a wrong number. Every
program with a `main` is built with

    clang-22|clang++-22 -O2 -flto -fplugin=$(gradlink clang-plugin) -fuse-ld=gradlink \
        -I<dir> -I<dir>/.. FILE -o EXE -lm

(--no-plugin: without gradlink's clang plugin, which gives clang Enzyme's attributes and keeps
registered functions from being inlined before the link; Enzyme's own tests load Enzyme's)

and run in a scratch directory, then classified:

    PASS         built, and the run exited 0 (and matched the FileCheck lines of a
                 RUN line that pipes the program's output into FileCheck, if any)
    BUILD-ERROR  the build failed: the first `ld.gradlink: error:` line (or the
                 compiler's first error line)
    INTERNAL     the build output has "internal error" or a Python traceback
    CRASH        the run was killed by a signal (other than a failed check)
    WRONG        the run failed a check: APPROX_EQ/TEST_EQ/assert, a non-zero exit,
                 or output that does not match the file's CHECK lines
    TIMEOUT      the build or the run took too long

Without the plugin, Enzyme's attributes (enzyme_inactive, enzyme_shadow,
enzyme_function_like, ...) are dropped by plain clang with a -Wunknown-attributes
warning; a failing program's line names them.

It prints one line per program, `folder: P passed, F failed` per folder and a
final `N passed, M failed` line. The exit status is 0 unless the corpus folder
is missing (2).
"""

from __future__ import annotations

import argparse
import enum
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = Path("/work/enzyme-tests")
C_SUFFIXES = {".c"}
CXX_SUFFIXES = {".cpp", ".cc", ".cxx", ".C"}
MAIN_RE = re.compile(r"\bmain\s*\(")
# Attributes only Enzyme's clang plugin understands; plain clang drops them with a warning.
IGNORED_ATTR_RE = re.compile(r"unknown attribute '(enzyme_\w+)' ignored")
TAIL_CHARS = 2000


class Status(enum.StrEnum):
    """How one program fared."""

    PASS = "PASS"
    BUILD_ERROR = "BUILD-ERROR"
    INTERNAL = "INTERNAL"
    CRASH = "CRASH"
    WRONG = "WRONG"
    TIMEOUT = "TIMEOUT"


@dataclass(frozen=True)
class Program:
    """A test program: its source file and the top-level folder it belongs to."""

    source: Path
    folder: str
    name: str  # folder-relative path, e.g. "ReverseMode/sumtil.c"

    @property
    def is_cxx(self) -> bool:
        return self.source.suffix in CXX_SUFFIXES


@dataclass
class Result:
    """The outcome of building and running one program (written by --json)."""

    program: str
    folder: str
    status: Status
    reason: str
    build_command: list[str] = field(default_factory=list)
    build_seconds: float = 0.0
    run_seconds: float = 0.0
    exit_code: int | None = None
    signal: str | None = None
    ignored_attributes: list[str] = field(default_factory=list)
    output_tail: str = ""

    def to_json(self) -> dict[str, object]:
        data = asdict(self)
        data["status"] = self.status.value
        return data


@dataclass(frozen=True)
class Options:
    """What every build and run shares."""

    cc: str
    cxx: str
    build_timeout: float
    run_timeout: float
    keep: Path | None
    env: dict[str, str]
    plugin: Path | None = None      # gradlink's clang plugin (-fplugin), when used


# ---------------------------------------------------------------- discovery


def discover(corpus: Path, name_filter: str | None) -> list[Program]:
    """Every C/C++ file with a `main` under each top-level folder of the corpus."""
    programs: list[Program] = []
    for folder in sorted(p for p in corpus.iterdir() if p.is_dir() and not p.name.startswith(".")):
        for src in sorted(folder.rglob("*")):
            if src.suffix not in C_SUFFIXES | CXX_SUFFIXES or not src.is_file():
                continue
            name = src.relative_to(corpus).as_posix()
            if name_filter and name_filter not in name:
                continue
            if not MAIN_RE.search(src.read_text(errors="replace")):
                continue
            programs.append(Program(src, folder.name, name))
    return programs


# ---------------------------------------------------------------- FileCheck subset


def check_directives(source: str) -> list[tuple[str, str]]:
    """The CHECK/CHECK-NEXT lines for the prefix of the first RUN line that pipes the
    program's output (lli) into FileCheck; empty when there is none."""
    prefix = None
    for line in source.splitlines():
        if "RUN:" in line and "lli" in line and "FileCheck" in line.split("lli", 1)[1]:
            m = re.search(r"--check-prefix[= ](\S+)", line)
            prefix = m.group(1) if m else "CHECK"
            break
    if prefix is None:
        return []
    pat = re.compile(rf"//\s*{re.escape(prefix)}(-NEXT)?:\s?(.*)$")
    out: list[tuple[str, str]] = []
    for line in source.splitlines():
        m = pat.search(line)
        if m:
            out.append(("NEXT" if m.group(1) else "CHECK", m.group(2).rstrip()))
    return out


def filecheck(directives: list[tuple[str, str]], output: str) -> str | None:
    """Match CHECK (substring on this or a later line) and CHECK-NEXT (substring on
    the next line) in order; return the first directive that fails, or None."""
    lines = output.splitlines()
    pos = -1
    for kind, text in directives:
        if kind == "NEXT":
            pos += 1
            if pos >= len(lines) or text not in lines[pos]:
                got = lines[pos] if pos < len(lines) else "<end of output>"
                return f"CHECK-NEXT: {text!r} not matched (line is {got!r})"
            continue
        for i in range(pos + 1, len(lines)):
            if text in lines[i]:
                pos = i
                break
        else:
            return f"CHECK: {text!r} not found"
    return None


# ---------------------------------------------------------------- build and run


def first_line(text: str, *needles: str) -> str | None:
    for line in text.splitlines():
        if any(n in line for n in needles):
            return line.strip()
    return None


def tail(text: str) -> str:
    return text[-TAIL_CHARS:]


def build_command(prog: Program, exe: Path, opts: Options) -> list[str]:
    compiler = opts.cxx if prog.is_cxx else opts.cc
    d = prog.source.parent
    plugin = [f"-fplugin={opts.plugin}"] if opts.plugin else []
    return [compiler, "-O2", "-flto", *plugin, "-fuse-ld=gradlink", f"-I{d}", f"-I{d.parent}",
            str(prog.source), "-o", str(exe), "-lm"]


def classify_build_failure(output: str) -> tuple[Status, str]:
    if "internal error" in output or "Traceback (most recent call last)" in output:
        line = first_line(output, "internal error", "Error:", "Traceback") or "internal error"
        return Status.INTERNAL, line
    line = (first_line(output, "ld.gradlink: error:")
            or first_line(output, "error:")
            or (output.strip().splitlines() or ["build failed, no output"])[-1])
    return Status.BUILD_ERROR, line


def check_failure(output: str) -> str | None:
    """The line of a failed test_utils check or C assert, if the output has one."""
    return (first_line(output, "Assertion Failed")
            or first_line(output, "Assertion `", "assertion failed", "Assertion failed"))


def classify_run(proc: subprocess.CompletedProcess[str], source: str) -> tuple[Status, str, str | None]:
    output = proc.stdout + proc.stderr
    sig = None
    if proc.returncode < 0:
        try:
            sig = signal.Signals(-proc.returncode).name
        except ValueError:
            sig = f"signal {-proc.returncode}"
    failed_check = check_failure(output)
    if failed_check:
        return Status.WRONG, failed_check, sig
    if sig:
        last = (output.strip().splitlines() or [""])[-1]
        return Status.CRASH, f"killed by {sig}" + (f": {last.strip()}" if last else ""), sig
    if proc.returncode != 0:
        last = (output.strip().splitlines() or [""])[-1]
        return Status.WRONG, f"exit {proc.returncode}" + (f": {last.strip()}" if last else ""), None
    mismatch = filecheck(check_directives(source), proc.stdout)
    if mismatch:
        return Status.WRONG, mismatch, None
    return Status.PASS, "", None


def run_one(prog: Program, opts: Options) -> Result:
    """Build and run one program in a scratch directory."""
    work = Path(tempfile.mkdtemp(prefix="enzyme-conf-"))
    try:
        return build_and_run(prog, opts, work)
    finally:
        if opts.keep:
            dest = opts.keep / prog.name.replace("/", "__")
            shutil.rmtree(dest, ignore_errors=True)
            shutil.copytree(work, dest)
        shutil.rmtree(work, ignore_errors=True)


def build_and_run(prog: Program, opts: Options, work: Path) -> Result:
    exe = work / "a.out"
    cmd = build_command(prog, exe, opts)
    res = Result(prog.name, prog.folder, Status.PASS, "", build_command=cmd)
    t0 = time.monotonic()
    try:
        b = subprocess.run(cmd, cwd=work, env=opts.env, capture_output=True, text=True,
                           errors="replace", timeout=opts.build_timeout)
    except subprocess.TimeoutExpired:
        res.status, res.reason = Status.TIMEOUT, f"build took more than {opts.build_timeout:g} s"
        res.build_seconds = time.monotonic() - t0
        return res
    res.build_seconds = time.monotonic() - t0
    build_out = b.stdout + b.stderr
    res.ignored_attributes = sorted(set(IGNORED_ATTR_RE.findall(build_out)))
    if b.returncode != 0 or not exe.exists():
        res.status, res.reason = classify_build_failure(build_out)
        res.exit_code, res.output_tail = b.returncode, tail(build_out)
        return res
    t0 = time.monotonic()
    try:
        r = subprocess.run([str(exe)], cwd=work, env=opts.env, capture_output=True, text=True,
                           errors="replace", timeout=opts.run_timeout, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        res.status, res.reason = Status.TIMEOUT, f"run took more than {opts.run_timeout:g} s"
        res.run_seconds = time.monotonic() - t0
        return res
    res.run_seconds = time.monotonic() - t0
    source = prog.source.read_text(errors="replace")
    res.status, res.reason, res.signal = classify_run(r, source)
    res.exit_code, res.output_tail = r.returncode, tail(r.stdout + r.stderr)
    return res


# ---------------------------------------------------------------- driver


def environment() -> dict[str, str]:
    """The caller's environment, with the repository's venv on PATH when ld.gradlink
    is not found otherwise."""
    env = dict(os.environ)
    venv_bin = ROOT / ".venv" / "bin"
    if shutil.which("ld.gradlink", path=env.get("PATH")) is None and (venv_bin / "ld.gradlink").exists():
        env["PATH"] = f"{venv_bin}{os.pathsep}{env.get('PATH', '')}"
    return env


def line_for(res: Result, width: int) -> str:
    reason = res.reason if len(res.reason) <= 200 else res.reason[:197] + "..."
    if res.ignored_attributes and res.status is not Status.PASS:
        reason += f" [clang ignored attribute {', '.join(res.ignored_attributes)}]"
    return f"{res.program:<{width}}  {res.status.value:<11}  {reason}".rstrip()


def run_all(programs: list[Program], opts: Options, jobs: int) -> list[Result]:
    """Run every program, `jobs` at a time, printing each line in corpus order as soon
    as it and every program before it are done."""
    width = max((len(p.name) for p in programs), default=0)
    results: list[Result | None] = [None] * len(programs)
    lock = threading.Lock()
    next_to_print = 0

    def one(i: int) -> None:
        nonlocal next_to_print
        res = run_one(programs[i], opts)
        with lock:
            results[i] = res
            while next_to_print < len(results) and results[next_to_print] is not None:
                print(line_for(results[next_to_print], width), flush=True)  # type: ignore[arg-type]
                next_to_print += 1

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        list(pool.map(one, range(len(programs))))
    return [r for r in results if r is not None]


def summarize(results: list[Result]) -> tuple[int, int]:
    print()
    folders = sorted({r.folder for r in results})
    for folder in folders:
        rs = [r for r in results if r.folder == folder]
        ok = sum(r.status is Status.PASS for r in rs)
        print(f"{folder}: {ok} passed, {len(rs) - ok} failed")
    by_status: dict[str, int] = {}
    for r in results:
        by_status[r.status.value] = by_status.get(r.status.value, 0) + 1
    print("by status: " + ", ".join(f"{k} {v}" for k, v in sorted(by_status.items())))
    passed = sum(r.status is Status.PASS for r in results)
    failed = len(results) - passed
    print(f"{passed} passed, {failed} failed")
    return passed, failed


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", nargs="?", type=Path, default=DEFAULT_CORPUS,
                    help=f"the corpus, one subfolder per test family (default {DEFAULT_CORPUS})")
    ap.add_argument("-j", "--jobs", type=int, default=2, help="programs built and run at once (default 2)")
    ap.add_argument("--filter", metavar="SUBSTR", help="only programs whose folder/file path contains SUBSTR")
    ap.add_argument("--json", metavar="FILE", type=Path, help="write the per-program results to FILE")
    ap.add_argument("--build-timeout", type=float, default=120.0, help="seconds per build (default 120)")
    ap.add_argument("--run-timeout", type=float, default=30.0, help="seconds per run (default 30)")
    ap.add_argument("--cc", default="clang-22", help="C compiler driver (default clang-22)")
    ap.add_argument("--cxx", default="clang++-22", help="C++ compiler driver (default clang++-22)")
    ap.add_argument("--keep", metavar="DIR", type=Path,
                    help="keep each program's scratch directory (executable, files it wrote) under DIR")
    ap.add_argument("--no-plugin", action="store_true",
                    help="compile without gradlink's clang plugin (by default every program is "
                         "compiled with -fplugin=$(gradlink clang-plugin), as Enzyme's own tests "
                         "load Enzyme's clang plugin)")
    ap.add_argument("--debug", action="store_true",
                    help="set GRADLINK_DEBUG=1, so internal errors carry a Python traceback")
    return ap.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    corpus: Path = args.folder
    if not corpus.is_dir():
        print(f"enzyme_conformance: error: no corpus folder {corpus}", file=sys.stderr)
        return 2
    env = environment()
    if args.debug:
        env["GRADLINK_DEBUG"] = "1"
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
    plugin = None
    if not args.no_plugin:
        gradlink = shutil.which("gradlink", path=env.get("PATH")) or "gradlink"
        got = subprocess.run([gradlink, "clang-plugin"],
                             capture_output=True, text=True, env=env, check=False)
        if got.returncode != 0:
            print(f"enzyme_conformance: error: gradlink clang-plugin: {got.stderr.strip()}",
                  file=sys.stderr)
            return 2
        plugin = Path(got.stdout.strip())
        print(f"compiling with gradlink's clang plugin: -fplugin={plugin}")
    opts = Options(args.cc, args.cxx, args.build_timeout, args.run_timeout, args.keep, env,
                   plugin)
    programs = discover(corpus, args.filter)
    if not programs:
        print(f"no test programs under {corpus}" + (f" matching {args.filter!r}" if args.filter else ""))
    results = run_all(programs, opts, args.jobs)
    summarize(results)
    if args.json:
        args.json.write_text(json.dumps([r.to_json() for r in results], indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
