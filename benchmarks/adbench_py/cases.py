"""Shared pieces of the PyTorch scripts: timings() (primal and gradient times) for the gradient
scripts; measure() (timings, the finite-difference check, the report) for the rewrites of the case
studies (benchmarks/cases/*.c, *.cpp). The size-spec argument is
parsed by sizespec.spec, shared with the JAX rewrites."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import torch
from readers import fd_check, median_ms, report


def timings(f: Callable[..., torch.Tensor], params: list[torch.Tensor], reps: int
            ) -> tuple[float, float, float, np.ndarray]:
    """f(*params) (a scalar) and its primal and gradient times (median of reps, after a
    warm-up); returns (objective, primal ms, gradient ms, the gradient flattened)."""
    with torch.no_grad():
        obj = f(*params).item()
        primal_ms = median_ms(reps, lambda: f(*params))

    def grad() -> tuple[torch.Tensor, ...]:
        return torch.autograd.grad(f(*params), params)

    grad()  # warm-up
    grad_ms = median_ms(reps, grad)
    flat = torch.cat([t.reshape(-1) for t in grad()]).numpy()
    return obj, primal_ms, grad_ms, flat


def measure(f: Callable[[torch.Tensor], torch.Tensor], x0: np.ndarray, reps: int,
            idxs: list[int]) -> float:
    """Time f (a scalar function of one tensor shaped like x0) and its gradient, check the
    gradient against central differences at the flat indices idxs, print the report; returns
    the check's maximum relative error."""
    x = torch.from_numpy(x0.copy()).requires_grad_(True)
    obj, primal_ms, grad_ms, g = timings(f, [x], reps)

    def f_flat(p: np.ndarray) -> float:
        with torch.no_grad():
            return f(torch.from_numpy(p.reshape(x0.shape))).item()

    err = fd_check(f_flat, x0.reshape(-1).copy(), g, idxs)
    report(obj, primal_ms, grad_ms, x0.size, err, len(idxs))
    return err
