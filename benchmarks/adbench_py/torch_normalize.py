"""Vector-normalization case study in PyTorch (eager, CPU, float64): the same math as
benchmarks/cases/normalize.c (out = in / |in|, objective sum_i w_i out_i, gradient w.r.t. in).
Usage: torch_normalize.py n=2000 REPS."""

from __future__ import annotations

import numpy as np
import torch
from cases import measure
from readers import args
from sizespec import spec

torch.set_default_dtype(torch.float64)


def main() -> None:
    text, reps = args()
    n = spec(text, "n", 2000, 1, 10_000_000)
    x0 = 1 + 0.001 * np.arange(n)
    w = torch.from_numpy(np.cos(0.1 * np.arange(n)))

    def f(x):
        return (w * (x / torch.sqrt((x * x).sum()))).sum()

    measure(f, x0, reps, list(range(0, n, n // 40 + 1)))


if __name__ == "__main__":
    main()
