"""Forward and reverse mode must agree on random programs (tests/progen.py): the dot-product
test <u, J v> = <J^T u, v> to rounding, and both with central finite differences. CI runs a
fixed set of seeds (100 functions); `make fuzz N=...` runs more and keeps what fails."""

from __future__ import annotations

import math
from pathlib import Path

import progen
import pytest
from toolchain import compile_c, link, sh

FUNCTIONS_PER_PROGRAM = 10
# 10 programs x 10 functions, and seeds where `make fuzz` once found a bug: 911 (a vector
# rule's zero adjoint times a poison lane), 1004 (a pointer phi merging memory without a shadow)
SEEDS = list(range(1, 11)) + [911, 1004]


def check_program(seed: int, folder: Path) -> list[str]:
    """Build and run one program; returns a description of every disagreement."""
    src, names = progen.program(seed, FUNCTIONS_PER_PROGRAM)
    c = folder / f"prog{seed}.c"
    c.write_text(src)
    obj = compile_c(c, folder / f"prog{seed}.o", "-O2", "-flto")
    res = link([obj, "-lm"], folder / f"prog{seed}")
    if res.returncode != 0:
        return [f"seed {seed}: link failed:\n{res.stderr}"]
    run = sh([folder / f"prog{seed}"])
    if run.returncode != 0:
        return [f"seed {seed}: program failed ({run.returncode}):\n{run.stderr}"]
    problems = []
    lines = run.stdout.splitlines()
    if len(lines) != len(names):
        problems.append(f"seed {seed}: {len(lines)} results for {len(names)} functions")
    for line in lines:
        name, fwd, rev, fd = line.split()
        a, b, c_ = float(fwd), float(rev), float(fd)
        scale = max(1.0, abs(a), abs(b))
        if not math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9 * scale):
            problems.append(f"{name}: forward {a!r} != reverse {b!r}")
        elif not math.isclose(a, c_, rel_tol=1e-4, abs_tol=1e-5 * scale):
            problems.append(f"{name}: derivative {a!r} != finite differences {c_!r}")
    return problems


@pytest.mark.parametrize("seed", SEEDS)
def test_random_programs(tmp_path: Path, seed: int) -> None:
    problems = check_program(seed, tmp_path)
    assert not problems, "\n".join(problems) + f"\n(source: {tmp_path / f'prog{seed}.c'})"
