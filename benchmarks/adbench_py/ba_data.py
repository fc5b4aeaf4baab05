"""Reader of the ADBench BA (bundle adjustment) data files for torch_ba.py and jax_ba.py (numpy),
with the pieces both scripts share: the objective sum, the finite-difference check of the
Jacobian blocks and the report.

The file is `n m p`, then ONE camera (11), ONE point (3), ONE weight and ONE feature (2), and
nothing else; they are replicated n, m, p and p times, and observation i uses camera i mod n
and point i mod m, exactly as read_ba in benchmarks/adbench/ba.c. A malformed or truncated
file ends the program with a one-line message on stderr and exit status 1.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from readers import _Tokens, die, fd_check

NCAM = 11
NBLK = NCAM + 3 + 1  # inputs of one observation's block: camera, point, weight


@dataclass
class BAInput:
    n: int
    m: int
    p: int
    cams: np.ndarray     # (n, 11): Rodrigues rotation 3, center 3, focal, principal point 2, k1 k2
    pts: np.ndarray      # (m, 3)
    w: np.ndarray        # (p,)
    feats: np.ndarray    # (p, 2)
    cam_idx: np.ndarray  # (p,): i mod n
    pt_idx: np.ndarray   # (p,): i mod m


def read_ba(path: str) -> BAInput:
    t = _Tokens(path)
    n, m, p = t.int(1, 100_000_000), t.int(1, 100_000_000), t.int(1, 100_000_000)
    cam, pt, w, feat = t.doubles(NCAM), t.doubles(3), t.double(), t.doubles(2)
    if t.pos != len(t.toks):
        die(path, "malformed: unexpected data after the feature")
    obs = np.arange(p)
    return BAInput(n, m, p, np.tile(cam, (n, 1)), np.tile(pt, (m, 1)), np.full(p, w),
                   np.tile(feat, (p, 1)), obs % n, obs % m)


def objective(reproj: np.ndarray, werr: np.ndarray) -> float:
    """Sum of squares of all reprojection errors, then all weight errors, added one by one in
    ba.c's order (cumsum is sequential, unlike the pairwise np.sum)."""
    return float(np.cumsum(np.concatenate([reproj.ravel(), werr]) ** 2)[-1])


def check_jacobian(reproj: Callable[[np.ndarray, np.ndarray], np.ndarray],
                   werr: Callable[[float], float], ba: BAInput, J: np.ndarray, Jw: np.ndarray,
                   count: int = 50) -> tuple[float, int]:
    """Max relative error of the blocks J (p, 2, 15) and Jw (p,) of the first min(p, count)
    observations against central differences of reproj (15 packed inputs, feature -> 2 errors)
    and werr; returns it and the number of entries checked."""
    maxerr, checked = 0.0, 0
    for i in range(min(ba.p, count)):
        x = np.concatenate([ba.cams[ba.cam_idx[i]], ba.pts[ba.pt_idx[i]], ba.w[i:i + 1]])
        for r in range(2):
            maxerr = max(maxerr, fd_check(lambda q, i=i, r=r: float(reproj(q, ba.feats[i])[r]),
                                          x, J[i, r], list(range(NBLK))))
        maxerr = max(maxerr, fd_check(lambda q: werr(float(q[0])), ba.w[i:i + 1], Jw[i:i + 1], [0]))
        checked += 2 * NBLK + 1
    return maxerr, checked


def report(ba: BAInput, obj: float, primal_ms: float, jac_ms: float, err: float,
           checked: int) -> None:
    """The `key value` lines; grad_ms repeats jac_ms for the harness. Exit status 1 when the
    check fails."""
    print(f"objective {obj:.17g}")
    print(f"parameters {ba.n * NCAM + ba.m * 3 + ba.p}")
    print(f"primal_ms {primal_ms:.6g}")
    print(f"jac_ms {jac_ms:.6g}")
    print(f"grad_ms {jac_ms:.6g}")
    print(f"jac_check_max_rel_err {err:.3g}")
    print(f"jac_checked {checked}")
    sys.stdout.flush()
    if not err <= 1e-5:
        print(f"error: Jacobian check failed: max relative error {err:.3g} > 1e-05", file=sys.stderr)
        raise SystemExit(1)
