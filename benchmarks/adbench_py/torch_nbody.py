"""N-body case study in PyTorch (eager, CPU, float64): the same math as benchmarks/cases/nbody.cpp
(softened gravity, kick-drift-kick leapfrog, dt = 0.01; objective the final total energy,
gradient w.r.t. the initial positions). Usage: torch_nbody.py n=64,steps=10 REPS."""

from __future__ import annotations

import math

import numpy as np
import torch
from cases import measure
from readers import args
from sizespec import spec

torch.set_default_dtype(torch.float64)
DT, EPS2 = 0.01, 0.01


def make(vel0: torch.Tensor, mass: torch.Tensor, n: int, steps: int):
    off = ~torch.eye(n, dtype=torch.bool)
    iu = torch.triu_indices(n, n, 1)

    def acc(pos):
        d = pos[None, :, :] - pos[:, None, :]              # d[i, j] = pos[j] - pos[i]
        r2 = (d * d).sum(2) + EPS2
        w = torch.where(off, mass[None, :] / (r2 * torch.sqrt(r2)), torch.zeros(()))
        return (d * w[:, :, None]).sum(1)

    def simulate(pos0):
        pos, vel = pos0, vel0
        for _ in range(steps):
            vel = vel + acc(pos) * (0.5 * DT)
            pos = pos + vel * DT
            vel = vel + acc(pos) * (0.5 * DT)
        kin = 0.5 * (mass * (vel * vel).sum(1)).sum()
        d = pos[None, :, :] - pos[:, None, :]
        r = torch.sqrt((d * d).sum(2) + EPS2)[iu[0], iu[1]]
        pot = (mass[iu[0]] * mass[iu[1]] / r).sum()
        return kin - pot

    return simulate


def main() -> None:
    text, reps = args()
    n, steps = spec(text, "n", 64, 2, 256), spec(text, "steps", 10, 0, 1_000_000)
    i = np.arange(n)[:, None]
    c = np.arange(3)[None, :]
    pos0 = np.sin(1.7 * i + 2.1 * c + 0.5)
    vel0 = torch.from_numpy(0.1 * np.cos(0.9 * i + 1.3 * c))
    mass = torch.from_numpy((1.0 + 0.5 * np.sin(0.3 * np.arange(n))) / n)
    f = make(vel0, mass, n, steps)
    err = measure(f, pos0, reps, list(range(0, 3 * n, 3 * n // 40 + 1)))
    if not math.isfinite(err):
        raise SystemExit(1)


if __name__ == "__main__":
    main()
