"""Vector-normalization case study in JAX (jax.jit, CPU, float64): the same math as
benchmarks/cases/normalize.c (out = in / |in|, objective sum_i w_i out_i, gradient w.r.t. in).
The C program calls its noinline mag(in) inside the loop, once per element: O(n^2) as written,
O(n) once the optimizer hoists the read-only call. Here the norm is computed once, as a JAX user
writes it: O(n) in the source. Usage: jax_normalize.py n=2000 REPS."""

from __future__ import annotations

import jax

jax.config.update("jax_enable_x64", True)
jax.config.update("jax_platforms", "cpu")

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax_cases import measure  # noqa: E402
from readers import args  # noqa: E402
from sizespec import spec  # noqa: E402


def main() -> None:
    text, reps = args()
    n = spec(text, "n", 2000, 1, 10_000_000)
    x0 = 1 + 0.001 * np.arange(n)
    w = jnp.asarray(np.cos(0.1 * np.arange(n)))

    def f(x: jax.Array) -> jax.Array:
        return jnp.dot(w, x / jnp.linalg.norm(x))

    measure(f, x0, reps, list(range(0, n, n // 40 + 1)))


if __name__ == "__main__":
    main()
