"""relu3 case study in PyTorch (eager, CPU, float64): the same math as benchmarks/cases/relu3.c
(sum_i (x_i > 0 ? x_i^3 : 0), gradient w.r.t. x). Usage: torch_relu3.py n=100000 REPS."""

from __future__ import annotations

import numpy as np
import torch
from cases import measure
from readers import args
from sizespec import spec

torch.set_default_dtype(torch.float64)


def f(x):
    return torch.where(x > 0, x * x * x, torch.zeros(())).sum()


def main() -> None:
    text, reps = args()
    n = spec(text, "n", 100000, 1, 100_000_000)
    x0 = np.sin(np.arange(n) * 0.37)
    measure(f, x0, reps, list(range(0, n, n // 40 + 1)))


if __name__ == "__main__":
    main()
