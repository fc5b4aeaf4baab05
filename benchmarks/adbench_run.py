"""The ADBench harness: every objective and data size, every tool, side by side in one run.

For each objective (benchmarks/adbench/*.c) and data file: primal time, gradlink's gradient (or
Jacobian) time with AD after optimization (the default) and before it (--gradlink-ad-first),
central finite differences, and the Python frameworks when they are installed
(benchmarks/adbench_py/{torch,jax}_*.py, `pip install -e .[bench]`). Every gradient, C or
framework, is checked against finite differences before its timing is reported, and every
framework's objective against the C program's; a failed check fails the run.
Writes RESULTS.md (and ratios.png when matplotlib is there) into --out.

The case studies (benchmarks/cases/*.c, *.cpp; PyTorch and JAX rewrites benchmarks/adbench_py/)
follow the same program contract with a size spec such as "n=2000" in place of the data file.

    .venv/bin/python benchmarks/adbench_run.py            # everything (make bench)
    .venv/bin/python benchmarks/adbench_run.py --quick    # smallest sizes, gradlink + FD only
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import os
import platform
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = Path(os.environ.get("GRADLINK_ADBENCH_DATA", HERE / "data" / "adbench"))
CFLAGS = ["-O2", "-Xclang", "-disable-llvm-passes", "-fno-math-errno", "-flto"]

# objective -> (source, [(size label, data file relative to DATA, extra args)], quick size count)
OBJECTIVES: dict[str, tuple[str, list[tuple[str, str, list[str]]]]] = {
    "GMM": ("gmm.c", [("1k d2 K5", "gmm/1k/gmm_d2_K5.txt", []),
                      ("1k d10 K5", "gmm/1k/gmm_d10_K5.txt", []),
                      ("1k d10 K25", "gmm/1k/gmm_d10_K25.txt", []),
                      ("1k d20 K50", "gmm/1k/gmm_d20_K50.txt", []),
                      ("1k d64 K10", "gmm/1k/gmm_d64_K10.txt", []),
                      ("10k d2 K200", "gmm/10k/gmm_d2_K200.txt", [])]),
    "LSTM": ("lstm.c", [("l2 c1024", "lstm/lstm_l2_c1024.txt", []),
                        ("l4 c1024", "lstm/lstm_l4_c1024.txt", []),
                        ("l2 c4096", "lstm/lstm_l2_c4096.txt", [])]),
    "BA": ("ba.c", [("n49 m7776", "ba/ba1_n49_m7776_p31843.txt", []),
                    ("n21 m11315", "ba/ba2_n21_m11315_p36455.txt", [])]),
    "Hand simple": ("hand.c", [("t26 c100", "hand/simple/hand1_t26_c100.txt", ["model"])]),
    "Hand complicated": ("hand.c", [("t26 c100", "hand/complicated/hand1_t26_c100.txt", ["model"])]),
}


# One thread for the frameworks, as the C programs use: with its default thread pool PyTorch's
# times swing by 10-100x on a loaded 2-core machine.
FRAMEWORK_ENV = {**os.environ, "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
RATIO_TARGETS = ("GMM", "LSTM", "case normalize", "case rk4")

# case study -> (source in benchmarks/cases, full size spec, quick size spec, why the
# --gradlink-ad-first build is not possible, or None)
CASES: dict[str, tuple[str, str, str, str | None]] = {
    "normalize": ("normalize.c", "n=2000", "n=200", None),
    "relu3": ("relu3.c", "n=100000", "n=1000", None),
    "nbody": ("nbody.cpp", "n=64,steps=10", "n=8,steps=2", None),
    "rk4": ("rk4.c", "steps=1000", "steps=100", None),
    "treelstm": ("treelstm.c", "depth=5", "depth=3", None),
}


@dataclass
class Row:
    objective: str
    size: str
    values: dict[str, float] = field(default_factory=dict)
    first: dict[str, float] = field(default_factory=dict)
    frameworks: dict[str, dict[str, float]] = field(default_factory=dict)

    @property
    def grad_key(self) -> str:
        return "jac_ms" if "jac_ms" in self.values else "grad_ms"

    def framework_ms(self, tool: str) -> float | None:
        """The framework's gradient (or Jacobian) time."""
        vals = self.frameworks.get(tool, {})
        return vals.get(self.grad_key, vals.get("grad_ms"))

    def framework_ratio(self, tool: str) -> float | None:
        """The framework's gradient time over its own primal time."""
        g, p = self.framework_ms(tool), self.frameworks.get(tool, {}).get("primal_ms")
        return g / p if g and p else None


def build(src: Path, out: Path, ad_first: bool, env: dict[str, str], march: str) -> None:
    obj = out.with_suffix(".o")
    cc = "clang++-22" if src.suffix in (".cpp", ".cc") else "clang-22"
    subprocess.run([cc, f"-march={march}", *CFLAGS, "-c", str(src), "-o", str(obj)], check=True,
                   env=env)
    cmd = [cc, "-O2", f"-march={march}", "-flto", "-fuse-ld=gradlink", str(obj), "-lm", "-o", str(out)]
    if ad_first:
        cmd.insert(4, "-Wl,--gradlink-ad-first")
    p = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if p.returncode:
        raise SystemExit(f"link of {src.name} failed:\n{p.stderr}")


def run(exe: Path, data: Path | str, reps: int, extra: list[str]) -> dict[str, float]:
    args = [str(exe), str(data), str(reps)]
    args += [str(DATA / "hand" / "model") if a == "model" else a for a in extra]
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode:
        raise SystemExit(f"{exe.name} {Path(data).name} failed ({p.returncode}):\n{p.stderr}")
    return parse_values(p.stdout)


def parse_values(text: str) -> dict[str, float]:
    """The `key value` lines every benchmark program prints."""
    out: dict[str, float] = {}
    for line in text.splitlines():
        k, _, v = line.partition(" ")
        try:
            out[k] = float(v)
        except ValueError:
            pass
    return out


def frameworks(objective: str, data: Path | str, reps: int,
               extra: list[str] | None = None) -> dict[str, dict[str, float]]:
    """PyTorch eager and JAX (jit) runs of the same objective, when installed. A script that
    fails (its own finite-difference check included) fails the run."""
    results: dict[str, dict[str, float]] = {}
    stem = objective.split()[-1].lower() if objective.startswith("case ") else objective.split()[0].lower()
    args = [str(DATA / "hand" / "model") if a == "model" else a for a in extra or []]
    for tool, module in (("PyTorch", "torch"), ("JAX", "jax")):
        script = HERE / "adbench_py" / f"{module}_{stem}.py"
        if not script.exists() or importlib.util.find_spec(module) is None:
            continue
        p = subprocess.run([sys.executable, str(script), str(data), str(reps), *args],
                           capture_output=True, text=True, env=FRAMEWORK_ENV)
        if p.returncode:
            raise SystemExit(f"{script.name} {Path(str(data)).name} failed ({p.returncode}):\n{p.stderr}")
        results[tool] = parse_values(p.stdout)
    return results


def check_frameworks(row: Row) -> None:
    """The frameworks compute the same objective as the C program, and their gradients agree
    with their own central differences."""
    obj = row.values.get("objective")
    for tool, vals in row.frameworks.items():
        other = vals.get("objective")
        if other is not None and obj is not None and abs(other - obj) > 1e-9 * max(abs(obj), 1e-300):
            raise SystemExit(f"{row.objective} {row.size}: {tool} objective {other!r} differs "
                             f"from C {obj!r}")
        err = vals.get("grad_check_max_rel_err", vals.get("jac_check_max_rel_err", math.inf))
        if not err < 1e-4:
            raise SystemExit(f"{row.objective} {row.size}: {tool} gradient disagrees with finite "
                             f"differences (max relative error {err})")


def machine() -> str:
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    clang = subprocess.run(["clang-22", "--version"], capture_output=True, text=True).stdout.splitlines()
    return (f"{platform.system()} {platform.release()}, {os.cpu_count()} cores, {cpu or 'unknown CPU'}; "
            f"{clang[0] if clang else 'clang-22'}; Python {platform.python_version()}")


def fmt(v: float | None) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "n/a"
    return f"{v:.3g}"


def write_results(rows: list[Row], out: Path, quick: bool, elapsed: float, march: str) -> None:
    lines = ["# gradlink benchmark results", "",
             f"Machine: {machine()}.", f"Mode: {'quick (smallest sizes; gradlink and finite differences)' if quick else 'full'}; "
             f"run took {elapsed:.0f} s. Times are medians (ms); ratio = gradient / primal (each "
             f"tool's own primal for PyTorch and JAX). "
             f"C and C++ built with -O2 -march={march}.", "",
             "| objective | size | primal ms | gradlink grad ms | ratio | AD-first grad ms | ratio | "
             "after/first | FD ms | FD ratio | PyTorch grad ms | ratio | JAX grad ms | ratio | "
             "vs PyTorch | vs JAX | FD check |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    speedups = []
    for r in rows:
        p = r.values.get("primal_ms")
        g = r.values.get(r.grad_key)
        gf = r.first.get(r.grad_key)
        fd = r.values.get("fd_ms")
        pt, jx = r.framework_ms("PyTorch"), r.framework_ms("JAX")
        if g and gf:
            speedups.append(gf / g)
        lines.append(
            f"| {r.objective} | {r.size} | {fmt(p)} | {fmt(g)} | {fmt(g / p if g and p else None)} | "
            f"{fmt(gf)} | {fmt(gf / p if gf and p else None)} | {fmt(gf / g if g and gf else None)} | "
            f"{fmt(fd)} | {fmt(fd / p if fd and p else None)} | {fmt(pt)} | "
            f"{fmt(r.framework_ratio('PyTorch'))} | {fmt(jx)} | {fmt(r.framework_ratio('JAX'))} | "
            f"{fmt(pt / g if pt and g else None)} | {fmt(jx / g if jx and g else None)} | "
            f"{r.values.get('check_max_rel_err', float('nan')):.1e} |")
    lines.append("")
    if speedups:
        geo = math.exp(sum(math.log(s) for s in speedups) / len(speedups))
        lines.append(f"Geometric-mean speedup of AD after optimization over AD first: {geo:.2f}x "
                     f"(target 4x: {'met' if geo >= 4 else 'MISSED'}).")
    lines.append("")
    lines.append("Target: gradient/primal ratio at most 3 for GMM, LSTM, vector normalization and the "
                 "ODE (RK4):")
    for r in rows:
        if r.objective in RATIO_TARGETS:
            p, g = r.values.get("primal_ms"), r.values.get(r.grad_key)
            if p and g:
                ratio = g / p
                lines.append(f"- {r.objective} {r.size}: {ratio:.2f} ({'met' if ratio <= 3 else 'MISSED'})")
    lines.append("")
    lines.append("Target: gradlink at least 10x faster than PyTorch eager on every case study "
                 "(batch size 1):")
    for r in rows:
        pt, g = r.framework_ms("PyTorch"), r.values.get(r.grad_key)
        if pt and g and r.objective.startswith("case "):
            lines.append(f"- {r.objective} {r.size}: {pt / g:.3g}x "
                         f"({'met' if pt / g >= 10 else 'MISSED'})")
    lines.append("")
    lines.append("The ADBench objectives' PyTorch and JAX versions are vectorized over data points, "
                 "components and observations (whole-array operations, Jacobians by vmap): the "
                 "'vs PyTorch' and 'vs JAX' columns compare against that, not batch size 1.")
    lines.append("")
    lines.append("PyTorch runs eagerly with one thread (OMP_NUM_THREADS=1), as the C programs do; "
                 "JAX runs jit-compiled (compile time excluded).")
    lines.append("FD ms is one full central-difference gradient: measured on the checked entries and "
                 "scaled to all parameters when only a sample is checked. PyTorch/JAX columns are n/a "
                 "where the framework or its implementation of the objective is not installed.")
    out.mkdir(parents=True, exist_ok=True)
    (out / "RESULTS.md").write_text("\n".join(lines) + "\n")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        labels = [f"{r.objective}\n{r.size}" for r in rows]
        series = {
            "gradlink (AD after optimization)":
                [(r.values.get(r.grad_key) or 0) / (r.values.get("primal_ms") or 1) for r in rows],
            "AD first": [(r.first.get(r.grad_key) or 0) / (r.values.get("primal_ms") or 1) for r in rows],
            "PyTorch": [r.framework_ratio("PyTorch") or 0 for r in rows],
            "JAX": [r.framework_ratio("JAX") or 0 for r in rows],
        }
        fig, ax = plt.subplots(figsize=(max(6, len(rows) * 1.2), 4))
        xs = range(len(rows))
        width = 0.8 / len(series)
        for k, (label, ratios) in enumerate(series.items()):
            ax.bar([x - 0.4 + (k + 0.5) * width for x in xs], ratios, width, label=label)
        ax.set_xticks(list(xs), labels, fontsize=7)
        ax.set_yscale("log")
        ax.set_ylabel("gradient time / primal time")
        ax.legend()
        fig.tight_layout()
        fig.savefig(out / "ratios.png", dpi=120)
    except ImportError:
        pass


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="smallest size of each objective; no frameworks")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--march", default="native",
                    help="the C programs' -march (default native: XLA and PyTorch's kernels use the "
                         "host's vector instructions too; x86-64 for portable numbers)")
    ap.add_argument("--out", default=str(HERE / "results"))
    args = ap.parse_args()
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"
    t0 = time.perf_counter()
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="gradlink-adbench-") as tmp:
        for name, (src_name, sizes) in OBJECTIVES.items():
            src = HERE / "adbench" / src_name
            if not src.exists():
                print(f"{name}: {src_name} not written yet, skipped")
                continue
            exe = Path(tmp) / f"{src.stem}.after"
            exe_first = Path(tmp) / f"{src.stem}.first"
            if not exe.exists():
                build(src, exe, False, env, args.march)
                build(src, exe_first, True, env, args.march)
            for label, rel, extra in sizes[:1] if args.quick else sizes:
                data = DATA / rel
                if not data.exists():
                    print(f"{name} {label}: {data} missing, skipped")
                    continue
                row = Row(name, label, run(exe, data, args.reps, extra))
                err = row.values.get("check_max_rel_err", float("inf"))
                if not err < 1e-4:
                    raise SystemExit(f"{name} {label}: gradient disagrees with finite differences "
                                     f"(max relative error {err})")
                if not args.quick:
                    row.first = run(exe_first, data, args.reps, extra)
                    row.frameworks = frameworks(name, data, args.reps, extra)
                    check_frameworks(row)
                rows.append(row)
                print(f"{name} {label}: primal {fmt(row.values.get('primal_ms'))} ms, "
                      f"gradient {fmt(row.values.get(row.grad_key))} ms, "
                      f"check {row.values.get('check_max_rel_err', float('nan')):.1e}")
        for name, (src_name, full, quick_spec, no_ad_first) in CASES.items():
            src = HERE / "cases" / src_name
            exe, exe_first = Path(tmp) / f"case_{src.stem}.after", Path(tmp) / f"case_{src.stem}.first"
            build(src, exe, False, env, args.march)
            spec = quick_spec if args.quick else full
            row = Row(f"case {name}", spec, run(exe, spec, args.reps, []))
            err = row.values.get("check_max_rel_err", float("inf"))
            if not err < 1e-4:
                raise SystemExit(f"case {name} {spec}: gradient disagrees with finite differences "
                                 f"(max relative error {err})")
            if not args.quick:
                if no_ad_first:
                    print(f"case {name}: no AD-first column: {no_ad_first}")
                else:
                    build(src, exe_first, True, env, args.march)
                    row.first = run(exe_first, spec, args.reps, [])
                row.frameworks = frameworks(row.objective, spec, args.reps)
                check_frameworks(row)
            rows.append(row)
            print(f"case {name} {spec}: primal {fmt(row.values.get('primal_ms'))} ms, "
                  f"gradient {fmt(row.values.get(row.grad_key))} ms, "
                  f"check {row.values.get('check_max_rel_err', float('nan')):.1e}")
    write_results(rows, Path(args.out), args.quick, time.perf_counter() - t0, args.march)
    print(f"wrote {Path(args.out) / 'RESULTS.md'}")


if __name__ == "__main__":
    main()
