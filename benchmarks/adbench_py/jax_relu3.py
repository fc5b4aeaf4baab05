"""relu3 case study in JAX (jax.jit, CPU, float64): the same math as benchmarks/cases/relu3.c
(sum_i (x_i > 0 ? x_i^3 : 0), gradient w.r.t. x). Usage: jax_relu3.py n=100000 REPS."""

from __future__ import annotations

import jax

jax.config.update("jax_enable_x64", True)
jax.config.update("jax_platforms", "cpu")

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax_cases import measure  # noqa: E402
from readers import args  # noqa: E402
from sizespec import spec  # noqa: E402


def f(x: jax.Array) -> jax.Array:
    return jnp.where(x > 0, x ** 3, 0.0).sum()


def main() -> None:
    text, reps = args()
    n = spec(text, "n", 100000, 1, 100_000_000)
    x0 = np.sin(np.arange(n) * 0.37)
    measure(f, x0, reps, list(range(0, n, n // 40 + 1)))


if __name__ == "__main__":
    main()
