"""RK4 case study in PyTorch (eager, CPU, float64, scalar tensors): the same math as
benchmarks/cases/rk4.c (damped pendulum y'' = -k sin(y) - 0.1 y', h = 0.01; objective
y(T)^2 + y'(T), gradient w.r.t. (y0, y0', k)). Usage: torch_rk4.py steps=1000 REPS."""

from __future__ import annotations

import numpy as np
import torch
from cases import measure
from readers import args
from sizespec import spec

torch.set_default_dtype(torch.float64)


def make(steps: int):
    h = 0.01

    def rhs(y0, y1, k):
        return y1, -k * torch.sin(y0) - 0.1 * y1

    def f(p):
        y0, y1, k = p[0], p[1], p[2]
        for _ in range(steps):
            a0, a1 = rhs(y0, y1, k)
            b0, b1 = rhs(y0 + 0.5 * h * a0, y1 + 0.5 * h * a1, k)
            c0, c1 = rhs(y0 + 0.5 * h * b0, y1 + 0.5 * h * b1, k)
            d0, d1 = rhs(y0 + h * c0, y1 + h * c1, k)
            y0 = y0 + h / 6 * (a0 + 2 * b0 + 2 * c0 + d0)
            y1 = y1 + h / 6 * (a1 + 2 * b1 + 2 * c1 + d1)
        return y0 * y0 + y1

    return f


def main() -> None:
    text, reps = args()
    steps = spec(text, "steps", 1000, 1, 100_000_000)
    f = make(steps)
    p0 = np.array([1.0, 0.0, 2.0])
    measure(f, p0, reps, [0, 1, 2])


if __name__ == "__main__":
    main()
