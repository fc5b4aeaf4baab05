"""Shared timing, gradient check and report of the JAX rewrites of the case studies
(benchmarks/cases/*.c, *.cpp); the JAX counterpart of cases.py's measure(). The scripts enable
float64 and the CPU platform (jax.config) before importing this module."""

from __future__ import annotations

import time
from collections.abc import Callable

import jax
import jax.numpy as jnp
import numpy as np
from readers import fd_check, median_ms, report


def measure(f: Callable[[jax.Array], jax.Array], x0: np.ndarray, reps: int,
            idxs: list[int]) -> float:
    """Time jax.jit(f) and jax.jit(jax.grad(f)) (f a scalar function of one array shaped like
    x0; median over reps, the first, compiling call excluded and reported as primal_compile_ms
    and grad_compile_ms), check the gradient against central differences at the flat indices
    idxs, print the report; returns the check's maximum relative error."""
    x = jnp.asarray(x0)
    primal = jax.jit(f)
    grad = jax.jit(jax.grad(f))

    t0 = time.perf_counter()
    obj = float(primal(x).block_until_ready())
    primal_compile_ms = (time.perf_counter() - t0) * 1e3
    primal_ms = median_ms(reps, lambda: primal(x).block_until_ready())

    t0 = time.perf_counter()
    g = np.asarray(grad(x).block_until_ready()).reshape(-1)
    grad_compile_ms = (time.perf_counter() - t0) * 1e3
    grad_ms = median_ms(reps, lambda: grad(x).block_until_ready())

    def f_flat(p: np.ndarray) -> float:
        return float(primal(jnp.asarray(p.reshape(x0.shape))))

    err = fd_check(f_flat, x0.reshape(-1).copy(), g, idxs)
    report(obj, primal_ms, grad_ms, x0.size, err, len(idxs))
    print(f"primal_compile_ms {primal_compile_ms:.6g}")
    print(f"grad_compile_ms {grad_compile_ms:.6g}")
    return err
