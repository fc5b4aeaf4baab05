"""Readers of the ADBench data files for the Python framework benchmarks (numpy).

Same format and the same checks as the C readers in benchmarks/adbench/common.h: whitespace
separated text, integers in a range, finite numbers; a malformed or truncated file ends the
program with a one-line message on stderr and exit status 1. Also the small timing and
output helpers the torch_*/jax_* scripts share.
"""

from __future__ import annotations

import math
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import NoReturn

import numpy as np


class DataError(Exception):
    pass


def die(path: str, msg: str) -> NoReturn:
    print(f"error: {path}: {msg}", file=sys.stderr)
    raise SystemExit(1)


class _Tokens:
    def __init__(self, path: str):
        self.path = path
        try:
            with open(path, "rb") as f:
                self.toks = f.read().split()
        except OSError as e:
            die(path, f"cannot open ({e.strerror})")
        self.pos = 0

    def int(self, lo: int, hi: int) -> int:
        if self.pos >= len(self.toks):
            die(self.path, "malformed or truncated: expected an integer")
        tok = self.toks[self.pos]
        self.pos += 1
        try:
            v = int(tok)
        except ValueError:
            die(self.path, f"malformed: expected an integer, found {tok[:40]!r}")
        if not lo <= v <= hi:
            die(self.path, f"malformed: integer {v} is out of range [{lo}, {hi}]")
        return v

    def doubles(self, n: int) -> np.ndarray:
        if self.pos + n > len(self.toks):
            die(self.path, f"malformed or truncated: expected {n} numbers, "
                           f"found {len(self.toks) - self.pos}")
        chunk = self.toks[self.pos:self.pos + n]
        self.pos += n
        try:
            a = np.array([float(t) for t in chunk], dtype=np.float64)
        except ValueError:
            bad = next(t for t in chunk if not _is_float(t))
            die(self.path, f"malformed: expected a number, found {bad[:40]!r}")
        if not np.all(np.isfinite(a)):
            die(self.path, "malformed: a number is not finite")
        return a

    def double(self) -> float:
        return float(self.doubles(1)[0])


def _is_float(t: bytes) -> bool:
    try:
        float(t)
        return True
    except ValueError:
        return False


@dataclass
class GMMInput:
    d: int
    k: int
    n: int
    alphas: np.ndarray  # (k,)
    means: np.ndarray   # (k, d)
    icf: np.ndarray     # (k, d(d+1)/2): d log-diagonal entries, then the lower triangle by columns
    x: np.ndarray       # (n, d)
    gamma: float
    m: int


def read_gmm(path: str) -> GMMInput:
    t = _Tokens(path)
    d, k, n = t.int(1, 1024), t.int(1, 4096), t.int(1, 10_000_000)
    icf_sz = d * (d + 1) // 2
    alphas = t.doubles(k)
    means = t.doubles(k * d).reshape(k, d)
    icf = t.doubles(k * icf_sz).reshape(k, icf_sz)
    x = t.doubles(n * d).reshape(n, d)
    gamma = t.double()
    m = t.int(0, 1_000_000)
    return GMMInput(d, k, n, alphas, means, icf, x, gamma, m)


@dataclass
class LSTMInput:
    l: int
    c: int
    b: int
    main: np.ndarray   # (2*l*4*b,): per layer 4b weights then 4b biases
    extra: np.ndarray  # (3*b,): input scale, output scale, output bias
    state: np.ndarray  # (2*l*b,): per layer hidden then cell
    seq: np.ndarray    # (c, b)


def read_lstm(path: str) -> LSTMInput:
    t = _Tokens(path)
    l, c, b = t.int(1, 64), t.int(2, 1_000_000), t.int(1, 4096)
    main = t.doubles(2 * l * 4 * b)
    extra = t.doubles(3 * b)
    state = t.doubles(2 * l * b)
    seq = t.doubles(c * b).reshape(c, b)
    return LSTMInput(l, c, b, main, extra, state, seq)


# ---------------------------------------------------------------- shared helpers of the scripts

def args() -> tuple[str, int]:
    if len(sys.argv) < 3:
        print(f"usage: {sys.argv[0]} DATAFILE REPS", file=sys.stderr)
        raise SystemExit(2)
    try:
        reps = int(sys.argv[2])
    except ValueError:
        reps = 1
    return sys.argv[1], max(1, reps)


def median_ms(reps: int, fn: Callable[[], object]) -> float:
    """Median wall time in ms of REPS calls of fn (fn must block until its result is ready)."""
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        ts.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(ts)


def fd_check(f: Callable[[np.ndarray], float], p: np.ndarray, grad: np.ndarray,
             idxs: list[int]) -> float:
    """Max relative error, as in the C programs, of grad against central differences of f on the
    entries idxs of the flat parameter vector p (h = 1e-6 max(|p_i|, 1))."""
    maxerr = 0.0
    for i in idxs:
        v = p[i]
        h = 1e-6 * max(abs(v), 1.0)
        q = p.copy()
        q[i] = v + h
        fp = f(q)
        q[i] = v - h
        fm = f(q)
        fd = (fp - fm) / (2 * h)
        err = abs(fd - grad[i]) / max(abs(fd), 1.0)
        if not math.isfinite(err):
            return math.inf
        maxerr = max(maxerr, err)
    return maxerr


def check_indices(blocks: list[int], limit: int = 16) -> list[int]:
    """A spread sample of flat indices covering each block (first and last entry of each) and a
    strided sample of the whole vector."""
    n = sum(blocks)
    idxs = set(range(0, n, n // limit + 1))
    start = 0
    for size in blocks:
        if size:
            idxs.update((start, start + size - 1))
        start += size
    return sorted(idxs)


def report(objective: float, primal_ms: float, grad_ms: float, nparams: int, err: float,
           checked: int) -> None:
    print(f"objective {objective:.17g}")
    print(f"parameters {nparams}")
    print(f"primal_ms {primal_ms:.6g}")
    print(f"grad_ms {grad_ms:.6g}")
    print(f"grad_check_max_rel_err {err:.3g}")
    print(f"grad_checked {checked}")
    sys.stdout.flush()
