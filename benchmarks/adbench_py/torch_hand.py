"""ADBench hand tracking Jacobian in PyTorch (eager, CPU, float64): the same math as
benchmarks/adbench/hand.c, simple and complicated variant (told from the data file). Usage:
torch_hand.py DATAFILE REPS MODELDIR. Prints `key value` lines: objective (sum of squared
residuals), primal_ms, jac_ms = grad_ms (median over REPS, after one warm-up call; the dense
3N x 26 Jacobian, plus hand.c's two compressed d/du, d/dv columns first in the complicated
variant, residuals included) and jac_check_max_rel_err (every column against central
differences of these residuals).

The Jacobian is torch.func.jacfwd: 26 (28) forward tangents batched by vmap. jacrev needs one
cotangent per residual (3N) and measured 3x (N=100) to 400x (N=3200) slower.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import torch
from hand_data import (
    HandData,
    HandModel,
    check_jacobian,
    hand_args,
    inputs,
    objective,
    pose_index,
    read_data,
    read_model,
    report,
)
from readers import median_ms

torch.set_default_dtype(torch.float64)


def euler_xzy(a: torch.Tensor) -> torch.Tensor:
    """(nb, 3) angles (x, z, y) -> (nb, 3, 3) rotations Rz * Ry * Rx."""
    cx, sx = torch.cos(a[:, 0]), torch.sin(a[:, 0])
    cz, sz = torch.cos(a[:, 1]), torch.sin(a[:, 1])
    cy, sy = torch.cos(a[:, 2]), torch.sin(a[:, 2])
    return torch.stack([cz * cy, -sz * cx + cz * sy * sx, sz * sx + cz * sy * cx,
                        sz * cy, cz * cx + sz * sy * sx, -cz * sx + sz * sy * cx,
                        -sy, cy * sx, cy * cx], 1).reshape(-1, 3, 3)


def angle_axis(aa: torch.Tensor) -> torch.Tensor:
    """Rotation matrix of the angle-axis vector aa (identity below an angle of 1e-4)."""
    n2 = (aa * aa).sum()
    small = torch.sqrt(n2.detach()) < 1e-4
    n = torch.sqrt(torch.where(small, 1.0, n2))  # no 0/0 in the unused branch's derivative
    x, y, z = aa[0] / n, aa[1] / n, aa[2] / n
    s, c = torch.sin(n), torch.cos(n)
    R = torch.stack([x * x + (1 - x * x) * c, x * y * (1 - c) - z * s, x * z * (1 - c) + y * s,
                     x * y * (1 - c) + z * s, y * y + (1 - y * y) * c, y * z * (1 - c) - x * s,
                     x * z * (1 - c) - y * s, z * y * (1 - c) + x * s, z * z + (1 - z * z) * c])
    return torch.where(small, torch.eye(3), R.reshape(3, 3))


def make_residuals(m: HandModel, d: HandData) -> Callable[[torch.Tensor], torch.Tensor]:
    """The residuals (3N,) as a function of inputs(d): theta, or (u shift, v shift, theta)."""
    base_rel, inv_base_abs = torch.from_numpy(m.base_rel), torch.from_numpy(m.inv_base_abs)
    pos1 = torch.from_numpy(np.hstack([m.base_pos, np.ones((len(m.base_pos), 1))]))  # (nv, 4)
    weights_t = torch.from_numpy(m.weights.T.copy())                                 # (nv, nb)
    idx = torch.from_numpy(pose_index(len(m.parents)))
    points, nb = torch.from_numpy(d.points), len(m.parents)
    if d.complicated:
        tri = torch.from_numpy(m.tris[d.corr])                                      # (N, 3)
        us = torch.from_numpy(d.us)
    else:
        corr = torch.from_numpy(d.corr)

    def skinned_vertices(theta: torch.Tensor) -> torch.Tensor:
        R = euler_xzy(torch.cat([theta, theta.new_zeros(1)])[idx])
        rel = torch.cat([base_rel[:, :, :3] @ R, base_rel[:, :, 3:]], 2)            # (nb, 4, 4)
        absolute: list[torch.Tensor] = []
        for b, p in enumerate(m.parents):
            absolute.append(rel[b] if p < 0 else absolute[p] @ rel[b])
        skin = (torch.stack(absolute) @ inv_base_abs)[:, :3, :].reshape(nb, 12)
        blended = (weights_t @ skin).reshape(-1, 3, 4)  # per vertex: sum_b w_bv * skin_b
        pos = (blended @ pos1[:, :, None])[:, :, 0]     # (nv, 3)
        return pos @ angle_axis(theta[:3]).T + theta[3:6]

    def residuals(x: torch.Tensor) -> torch.Tensor:
        if not d.complicated:
            return (points - skinned_vertices(x)[corr]).reshape(-1)
        pos = skinned_vertices(x[2:])
        u, v = us[:, :1] + x[0], us[:, 1:] + x[1]
        model = u * pos[tri[:, 0]] + v * pos[tri[:, 1]] + (1 - u - v) * pos[tri[:, 2]]
        return (points - model).reshape(-1)

    return residuals


def main() -> None:
    path, reps, mdir = hand_args()
    m = read_model(mdir)
    d = read_data(path, m)
    f = make_residuals(m, d)
    x0 = inputs(d)
    x = torch.from_numpy(x0)

    with torch.no_grad():
        obj = objective(f(x).numpy())
        primal_ms = median_ms(reps, lambda: f(x))
    jac = torch.func.jacfwd(f)
    jac(x)  # warm-up
    jac_ms = median_ms(reps, lambda: jac(x))
    J = jac(x).numpy()

    def f_np(q: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            return f(torch.from_numpy(q)).numpy()

    err = check_jacobian(f_np, x0, J)
    report(obj, primal_ms, jac_ms, err, x0.size)


if __name__ == "__main__":
    main()
