"""ADBench BA (bundle adjustment) objective and its sparse Jacobian in PyTorch (eager, CPU,
float64): the same math as benchmarks/adbench/ba.c. Usage: torch_ba.py DATAFILE REPS.

Each observation's 15 inputs (camera 11, point 3, weight) are gathered into a (p, 15) tensor;
the residuals are torch.func.vmap of the one-observation reprojection error (2 values) and
1 - w^2. The Jacobian is the (p, 2, 15) blocks vmap(jacrev(reprojection error)) plus the (p,)
diagonal vmap(grad(weight error)); jacrev (2 cotangents batched by vmap) is about 4x faster
here than jacfwd (15 tangent lanes). Prints `key value` lines: objective, primal_ms (all
residuals), jac_ms and the same value as grad_ms (all blocks; both medians over REPS after one
warm-up call, gathering included, as ba.c packs inside its timed loop) and
jac_check_max_rel_err (the blocks of the first 50 observations against central differences of
the same residual functions; exit status 1 above 1e-5).
"""

from __future__ import annotations

import torch
from ba_data import NCAM, check_jacobian, objective, read_ba, report
from readers import args, median_ms
from torch.func import grad, jacrev, vmap

torch.set_default_dtype(torch.float64)


def rodrigues_rotate(rot: torch.Tensor, X: torch.Tensor) -> torch.Tensor:
    sq = (rot * rot).sum()
    nonzero = sq != 0
    theta = torch.sqrt(torch.where(nonzero, sq, 1.0))  # no NaN derivative in the unused branch
    w = rot * (1.0 / theta)
    c, s = torch.cos(theta), torch.sin(theta)
    rotated = X * c + torch.linalg.cross(w, X) * s + w * ((w * X).sum() * (1 - c))
    return torch.where(nonzero, rotated, X + torch.linalg.cross(rot, X))


def reproj(x: torch.Tensor, feat: torch.Tensor) -> torch.Tensor:
    """Reprojection error (2,) of one observation from its packed inputs: camera, point, w."""
    cam, X, w = x[:NCAM], x[NCAM:NCAM + 3], x[NCAM + 3]
    Xc = rodrigues_rotate(cam[0:3], X - cam[3:6])
    p = Xc[0:2] / Xc[2]
    rsq = (p * p).sum()
    L = 1 + cam[9] * rsq + cam[10] * rsq * rsq
    return w * (cam[6] * (p * L) + cam[7:9] - feat)


def werr(w: torch.Tensor) -> torch.Tensor:
    return 1 - w * w


def main() -> None:
    path, reps = args()
    ba = read_ba(path)
    cams, pts, w, feats = (torch.from_numpy(a) for a in (ba.cams, ba.pts, ba.w, ba.feats))
    cam_idx, pt_idx = torch.from_numpy(ba.cam_idx), torch.from_numpy(ba.pt_idx)
    reproj_all, jac_all, jw_all = vmap(reproj), vmap(jacrev(reproj)), vmap(grad(werr))

    def packed() -> torch.Tensor:
        return torch.cat([cams[cam_idx], pts[pt_idx], w[:, None]], 1)

    def residuals() -> tuple[torch.Tensor, torch.Tensor]:
        return reproj_all(packed(), feats), werr(w)

    def jacobian() -> tuple[torch.Tensor, torch.Tensor]:
        return jac_all(packed(), feats), jw_all(w)

    obj = objective(*(t.numpy() for t in residuals()))
    primal_ms = median_ms(reps, residuals)
    jacobian()  # warm-up
    jac_ms = median_ms(reps, jacobian)
    J, Jw = (t.numpy() for t in jacobian())

    err, checked = check_jacobian(
        lambda q, f: reproj(torch.from_numpy(q), torch.from_numpy(f)).numpy(),
        lambda v: werr(torch.tensor(v)).item(), ba, J, Jw)
    report(ba, obj, primal_ms, jac_ms, err, checked)


if __name__ == "__main__":
    main()
