"""Vector-normalization case study in PyTorch (eager, CPU, float64): the same math as
benchmarks/cases/normalize.c (out = in / |in|, objective sum_i w_i out_i, gradient w.r.t. in).
Usage: torch_normalize.py n=2000 REPS."""

from __future__ import annotations

import numpy as np
import torch

from cases import spec
from readers import args, fd_check, median_ms, report

torch.set_default_dtype(torch.float64)


def main() -> None:
    text, reps = args()
    n = spec(text, "n", 2000, 1, 10_000_000)
    x0 = 1 + 0.001 * np.arange(n)
    w = torch.from_numpy(np.cos(0.1 * np.arange(n)))

    def f(x):
        return (w * (x / torch.sqrt((x * x).sum()))).sum()

    x = torch.from_numpy(x0.copy()).requires_grad_(True)
    with torch.no_grad():
        obj = f(x).item()
        primal_ms = median_ms(reps, lambda: f(x))

    def grad():
        return torch.autograd.grad(f(x), [x])[0]

    grad()  # warm-up
    grad_ms = median_ms(reps, grad)
    g = grad().numpy()

    def f_flat(p: np.ndarray) -> float:
        with torch.no_grad():
            return f(torch.from_numpy(p)).item()

    idxs = list(range(0, n, n // 40 + 1))
    err = fd_check(f_flat, x0.copy(), g, idxs)
    report(obj, primal_ms, grad_ms, n, err, len(idxs))


if __name__ == "__main__":
    main()
