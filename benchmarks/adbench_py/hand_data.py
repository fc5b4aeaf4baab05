"""Readers of the ADBench hand model directory and hand data files for torch_hand.py and
jax_hand.py (numpy), with the pieces both scripts share: the arguments, the pose parameter
layout, the objective sum, the finite-difference check of the Jacobian and the report.

Same formats and checks as read_model and read_data in benchmarks/adbench/hand.c:
MODELDIR/bones.txt (name:parent:16 base-relative:16 inverse base-absolute entries, row-major),
vertices.txt (x:y:z:5 unused:count:bone:weight...), triangles.txt (a:b:c); the data file is
`N 26`, N lines `correspondence x y z`, in the complicated variant N lines `u v`, then the 26
pose parameters (the variant is told by the count of numbers after the points). A malformed or
truncated file ends the program with a one-line message on stderr and exit status 1.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from readers import _Tokens, die

NTHETA = 26
MAXB = 64


@dataclass
class HandModel:
    parents: list[int]        # (nb,): parent bone, -1 for a root; parents[b] < b
    base_rel: np.ndarray      # (nb, 4, 4)
    inv_base_abs: np.ndarray  # (nb, 4, 4)
    base_pos: np.ndarray      # (nv, 3)
    weights: np.ndarray       # (nb, nv): skinning weight of bone b on vertex v
    tris: np.ndarray          # (nt, 3): vertex indices


@dataclass
class HandData:
    corr: np.ndarray          # (N,): model vertex (simple) or triangle (complicated)
    points: np.ndarray        # (N, 3)
    us: np.ndarray | None     # (N, 2): u, v on the triangle (complicated variant only)
    theta: np.ndarray         # (26,)

    @property
    def complicated(self) -> bool:
        return self.us is not None


def hand_args() -> tuple[str, int, str]:
    """DATAFILE REPS MODELDIR, as hand.c takes them (exit status 2 on bad usage)."""
    if len(sys.argv) != 4:
        print(f"error: usage: {sys.argv[0]} DATAFILE REPS MODELDIR", file=sys.stderr)
        raise SystemExit(2)
    try:
        reps = int(sys.argv[2])
    except ValueError:
        reps = 0
    if not 1 <= reps <= 1_000_000:
        print(f"error: REPS must be a positive integer, got '{sys.argv[2]}'", file=sys.stderr)
        raise SystemExit(2)
    return sys.argv[1], reps, sys.argv[3]


def _lines(path: str) -> list[list[bytes]]:
    """The non-blank lines of a model file, split at ':'."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        die(path, f"cannot open ({e.strerror})")
    return [line.split(b":") for line in (s.rstrip(b"\r") for s in raw.split(b"\n")) if line]


def _num(path: str, s: bytes, what: str) -> float:
    try:
        v = float(s)
    except ValueError:
        v = math.nan
    if not math.isfinite(v):
        die(path, f"malformed number '{s[:40].decode('latin-1')}' in {what}")
    return v


def _int(path: str, s: bytes, what: str, lo: int, hi: int) -> int:
    try:
        v = int(s)
    except ValueError:
        v = lo - 1
    if not lo <= v <= hi:
        die(path, f"malformed or out-of-range integer '{s[:40].decode('latin-1')}' in {what}")
    return v


def read_model(mdir: str) -> HandModel:
    path = f"{mdir}/bones.txt"
    parents: list[int] = []
    rel, inv = [], []
    for f in _lines(path):
        if len(parents) == MAXB:
            die(path, "too many bones")
        if len(f) != 34:
            die(path, "a bone line needs 34 fields (name:parent:16:16)")
        parents.append(_int(path, f[1], "bone parent", -1, len(parents) - 1))
        rel.append([_num(path, s, "base relative") for s in f[2:18]])
        inv.append([_num(path, s, "inverse base absolute") for s in f[18:34]])
    nb = len(parents)
    # the pose parameter layout assumes wrist + 5 fingers x 4 bones (+ forearm)
    if nb < 22:
        die(path, "expected at least 22 bones (wrist, 5 fingers of 4, forearm)")
    if any(parents[1 + 4 * fi + j] != 4 * fi + j for fi in range(5) for j in range(1, 4)):
        die(path, "unexpected bone hierarchy")

    path = f"{mdir}/vertices.txt"
    pos, weights = [], []
    for f in _lines(path):
        if len(f) < 9:
            die(path, "a vertex line needs x:y:z:5 unused:count:...")
        pos.append([_num(path, s, "vertex position") for s in f[:3]])
        cnt = _int(path, f[8], "vertex weight count", 0, nb)
        if len(f) != 9 + 2 * cnt:
            die(path, "vertex weight count does not match its bone:weight pairs")
        w = np.zeros(nb)
        for j in range(cnt):
            w[_int(path, f[9 + 2 * j], "vertex bone", 0, nb - 1)] = \
                _num(path, f[10 + 2 * j], "vertex weight")
        weights.append(w)
    if not pos:
        die(path, "no vertices")
    nv = len(pos)

    path = f"{mdir}/triangles.txt"
    tris = []
    for f in _lines(path):
        if len(f) != 3:
            die(path, "a triangle line needs 3 vertex indices")
        tris.append([_int(path, s, "triangle vertex", 0, nv - 1) for s in f])
    return HandModel(parents, np.array(rel).reshape(nb, 4, 4), np.array(inv).reshape(nb, 4, 4),
                     np.array(pos), np.array(weights).T.copy(),
                     np.array(tris, dtype=np.int64).reshape(-1, 3))


def read_data(path: str, m: HandModel) -> HandData:
    t = _Tokens(path)
    n = t.int(1, 10_000_000)
    if t.int(0, 1_000_000) != NTHETA:
        die(path, "n_theta must be 26")
    corr = np.empty(n, dtype=np.int64)
    points = np.empty((n, 3))
    for i in range(n):
        corr[i] = t.int(0, 1 << 30)
        points[i] = t.doubles(3)
    rest = t.doubles(len(t.toks) - t.pos)
    if rest.size == NTHETA:
        us = None
    elif rest.size == 2 * n + NTHETA:
        us = rest[:2 * n].reshape(n, 2)
    else:
        die(path, "truncated: expected the 26 pose parameters" if rest.size < NTHETA else
            "expected 26 pose parameters, or N lines of u v then 26 pose parameters")
    lim = len(m.tris) if us is not None else len(m.base_pos)
    if np.any(corr >= lim):
        die(path, "correspondence is not a model triangle" if us is not None
            else "correspondence is not a model vertex")
    return HandData(corr, points, us, rest[-NTHETA:].copy())


def pose_index(n_bones: int) -> np.ndarray:
    """(n_bones, 3) indices into theta extended by one zero (index 26) giving each bone's euler
    angles (x, z, y), as in hand.c: per finger f, bone 2+4f gets x and z, bones 3+4f and 4+4f
    get x, every other bone stays at rest."""
    idx = np.full((n_bones, 3), NTHETA, dtype=np.int64)
    for f in range(5):
        b, k = 2 + 4 * f, 6 + 4 * f
        idx[b, 0], idx[b, 1], idx[b + 1, 0], idx[b + 2, 0] = k, k + 1, k + 2, k + 3
    return idx


def inputs(d: HandData) -> np.ndarray:
    """The Jacobian's columns: theta, and in the complicated variant first two shifts added to
    every point's u and v (zero here). Each residual depends only on its own point's u, v, so
    these two columns are hand.c's compressed d/du, d/dv columns."""
    return np.concatenate([np.zeros(2), d.theta]) if d.complicated else d.theta.copy()


def objective(err: np.ndarray) -> float:
    """Sum of squares of the residuals, added one by one in hand.c's order (cumsum is
    sequential, unlike the pairwise np.sum)."""
    return float(np.cumsum(err.ravel() ** 2)[-1])


def check_jacobian(f: Callable[[np.ndarray], np.ndarray], x: np.ndarray,
                   J: np.ndarray) -> float:
    """Max relative error |fd - J| / max(|fd|, 1) of every column of J (3N, len(x)) against
    central differences of the residuals f at x (h = 1e-6 max(|x_k|, 1))."""
    maxerr = 0.0
    for k in range(x.size):
        h = 1e-6 * max(abs(x[k]), 1.0)
        q = x.copy()
        q[k] = x[k] + h
        fp = f(q)
        q[k] = x[k] - h
        fd = (fp - f(q)) / (2 * h)
        err = float(np.max(np.abs(fd - J[:, k]) / np.maximum(np.abs(fd), 1.0)))
        if not math.isfinite(err):
            return math.inf
        maxerr = max(maxerr, err)
    return maxerr


def report(obj: float, primal_ms: float, jac_ms: float, err: float, columns: int) -> None:
    """The `key value` lines; grad_ms repeats jac_ms for the harness. Exit status 1 when the
    check fails."""
    print(f"objective {obj:.17g}")
    print(f"primal_ms {primal_ms:.6g}")
    print(f"jac_ms {jac_ms:.6g}")
    print(f"grad_ms {jac_ms:.6g}")
    print(f"jac_check_max_rel_err {err:.3g}")
    print(f"jac_checked_columns {columns}")
    sys.stdout.flush()
    if not err <= 1e-5:
        print(f"error: Jacobian check failed: max relative error {err:.3g} > 1e-05",
              file=sys.stderr)
        raise SystemExit(1)
