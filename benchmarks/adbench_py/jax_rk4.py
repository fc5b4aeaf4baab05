"""RK4 case study in JAX (jax.jit, CPU, float64): the same math as benchmarks/cases/rk4.c
(damped pendulum y'' = -k sin(y) - 0.1 y', h = 0.01; objective y(T)^2 + y'(T), gradient w.r.t.
(y0, y0', k)). The state is a 2-vector and the steps a jax.lax.fori_loop, as a JAX user writes
a long time loop (a Python loop would unroll all steps into the compiled program).
Usage: jax_rk4.py steps=1000 REPS."""

from __future__ import annotations

import jax

jax.config.update("jax_enable_x64", True)
jax.config.update("jax_platforms", "cpu")

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax_cases import measure  # noqa: E402
from readers import args  # noqa: E402
from sizespec import spec  # noqa: E402

H = 0.01


def make(steps: int):
    def f(p: jax.Array) -> jax.Array:
        k = p[2]

        def rhs(y: jax.Array) -> jax.Array:
            return jnp.stack([y[1], -k * jnp.sin(y[0]) - 0.1 * y[1]])

        def step(_: int, y: jax.Array) -> jax.Array:
            a = rhs(y)
            b = rhs(y + 0.5 * H * a)
            c = rhs(y + 0.5 * H * b)
            d = rhs(y + H * c)
            return y + H / 6 * (a + 2 * b + 2 * c + d)

        y = jax.lax.fori_loop(0, steps, step, p[:2])
        return y[0] * y[0] + y[1]

    return f


def main() -> None:
    text, reps = args()
    steps = spec(text, "steps", 1000, 1, 100_000_000)
    measure(make(steps), np.array([1.0, 0.0, 2.0]), reps, [0, 1, 2])


if __name__ == "__main__":
    main()
