"""Link-time benchmark: a generated C program of N compilation units (default 200), linked with
`clang-22 -flto -fuse-ld=gradlink` and with `clang-22 -flto -fuse-ld=lld`, alternating, in one
run. Prints each linker's median wall time and their ratio. Target: gradlink / lld <= 1.5.

    .venv/bin/python benchmarks/link_time.py [--units 200] [--runs 7] [--opt 2]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

CC = "clang-22"


def unit_source(i: int, n: int) -> str:
    """A unit with a few numeric kernels, a static helper, data, and calls into its neighbour."""
    nxt = (i + 1) % n
    return f"""
#include <math.h>
#include <string.h>
double kernel_{nxt}(const double *x, int len);
static double table_{i}[16] = {{ {", ".join(f"{(i * 16 + k) % 97 / 7.0:.4f}" for k in range(16))} }};
static double helper_{i}(double v) {{ return v * v + {i % 13}.0 * sin(v); }}
double reduce_{i}(const double *x, int len) {{
    double s = 0;
    for (int k = 0; k < len; k++) s += helper_{i}(x[k]) * table_{i}[k & 15];
    return s;
}}
void scale_{i}(double *x, int len, double f) {{
    for (int k = 0; k < len; k++) x[k] = x[k] * f + table_{i}[(k + {i}) & 15];
}}
double kernel_{i}(const double *x, int len) {{
    double buf[64];
    int m = len < 64 ? len : 64;
    memcpy(buf, x, sizeof(double) * m);
    scale_{i}(buf, m, {1 + i % 5}.0);
    double r = reduce_{i}(buf, m);
    return {'r' if i == n - 1 else f'r + 0.5 * sqrt(fabs(kernel_{nxt}(buf, m / 2 + 1)))' if i % 7 else 'r'};
}}
double entry_{i}(const double *x, int len) {{
    double acc = 0;
    for (int rep = 0; rep < 3; rep++) acc += kernel_{i}(x, len - rep) * cos(acc);
    return acc;
}}
"""


def main_source(n: int) -> str:
    """main calls every unit's entry point through a table, so no unit is dead code."""
    decls = "".join(f"double entry_{i}(const double *, int);\n" for i in range(n))
    table = ", ".join(f"entry_{i}" for i in range(n))
    return f"""
#include <stdio.h>
{decls}
static double (*const entries[])(const double *, int) = {{ {table} }};
int main(void) {{
    double x[64], total = 0;
    for (int k = 0; k < 64; k++) x[k] = k * 0.01;
    for (int i = 0; i < {n}; i++) total += entries[i](x, 64);
    printf("%.6f\\n", total);
    return 0;
}}
"""


def compile_all(src: Path, n: int, opt: str) -> list[Path]:
    files = []
    for i in range(n):
        p = src / f"unit{i:03d}.c"
        p.write_text(unit_source(i, n))
        files.append(p)
    (src / "main.c").write_text(main_source(n))
    files.append(src / "main.c")

    def cc(p: Path) -> Path:
        out = p.with_suffix(".o")
        subprocess.run([CC, f"-O{opt}", "-flto", "-c", str(p), "-o", str(out)], check=True)
        return out

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        return list(pool.map(cc, files))


def time_link(objs: list[Path], out: Path, linker: str, opt: str, env: dict[str, str]) -> float:
    cmd = [CC, f"-O{opt}", "-flto", f"-fuse-ld={linker}", *map(str, objs), "-lm", "-o", str(out)]
    t0 = time.perf_counter()
    p = subprocess.run(cmd, env=env, capture_output=True, text=True)
    dt = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit(f"{linker} link failed:\n{p.stderr}")
    return dt


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--units", type=int, default=200)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--opt", default="2")
    args = ap.parse_args()
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"
    with tempfile.TemporaryDirectory(prefix="gradlink-bench-") as tmp:
        d = Path(tmp)
        t0 = time.perf_counter()
        objs = compile_all(d, args.units, args.opt)
        print(f"compiled {len(objs)} units in {time.perf_counter() - t0:.1f} s")
        times: dict[str, list[float]] = {"gradlink": [], "lld": []}
        for run in range(args.runs + 1):           # run 0 warms the page cache, not counted
            for linker in ("gradlink", "lld"):
                dt = time_link(objs, d / f"prog.{linker}", linker, args.opt, env)
                if run:
                    times[linker].append(dt)
        outs = {k: subprocess.run([str(d / f"prog.{k}")], capture_output=True, text=True).stdout
                for k in times}
        if outs["gradlink"] != outs["lld"]:
            sys.exit(f"outputs differ: gradlink {outs['gradlink']!r} vs lld {outs['lld']!r}")
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"units: {args.units}, runs: {args.runs}, -O{args.opt}, output {outs['lld'].strip()}")
    for k, v in med.items():
        print(f"{k:9s} median {v * 1000:8.1f} ms   (min {min(times[k]) * 1000:.1f}, "
              f"max {max(times[k]) * 1000:.1f})")
    ratio = med["gradlink"] / med["lld"]
    print(f"ratio gradlink/lld: {ratio:.2f}  (target <= 1.5: {'met' if ratio <= 1.5 else 'MISSED'})")


if __name__ == "__main__":
    main()
