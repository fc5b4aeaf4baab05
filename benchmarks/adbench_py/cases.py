"""Shared pieces of the PyTorch rewrites of the case studies (benchmarks/cases/*.c, *.cpp):
measure(): timing, the finite-difference check and the report. The size-spec argument is
parsed by sizespec.spec, shared with the JAX rewrites."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import torch

from readers import fd_check, median_ms, report


def measure(f: Callable[[torch.Tensor], torch.Tensor], x0: np.ndarray, reps: int,
            idxs: list[int]) -> float:
    """Time f (a scalar function of one tensor shaped like x0) and its gradient, check the
    gradient against central differences at the flat indices idxs, print the report; returns
    the check's maximum relative error."""
    x = torch.from_numpy(x0.copy()).requires_grad_(True)
    with torch.no_grad():
        obj = f(x).item()
        primal_ms = median_ms(reps, lambda: f(x))

    def grad() -> torch.Tensor:
        return torch.autograd.grad(f(x), [x])[0]

    grad()  # warm-up
    grad_ms = median_ms(reps, grad)
    g = grad().reshape(-1).numpy()

    def f_flat(p: np.ndarray) -> float:
        with torch.no_grad():
            return f(torch.from_numpy(p.reshape(x0.shape))).item()

    err = fd_check(f_flat, x0.reshape(-1).copy(), g, idxs)
    report(obj, primal_ms, grad_ms, x0.size, err, len(idxs))
    return err
