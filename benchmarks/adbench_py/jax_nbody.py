"""N-body case study in JAX (jax.jit, CPU, float64): the same math as benchmarks/cases/nbody.cpp
(softened gravity, kick-drift-kick leapfrog, dt = 0.01; objective the final total energy,
gradient w.r.t. the initial positions). The all-pairs accelerations are (n, n, 3) array
operations; the time steps a jax.lax.fori_loop, as a JAX user writes a loop whose trip count
may be large (a Python loop would unroll every step into the compiled program).
Usage: jax_nbody.py n=64,steps=10 REPS."""

from __future__ import annotations

import math

import jax

jax.config.update("jax_enable_x64", True)
jax.config.update("jax_platforms", "cpu")

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax_cases import measure  # noqa: E402
from readers import args  # noqa: E402
from sizespec import spec  # noqa: E402

DT, EPS2 = 0.01, 0.01


def make(vel0: jax.Array, mass: jax.Array, n: int, steps: int):
    off = ~np.eye(n, dtype=bool)
    iu, ju = np.triu_indices(n, 1)

    def acc(pos: jax.Array) -> jax.Array:
        d = pos[None, :, :] - pos[:, None, :]              # d[i, j] = pos[j] - pos[i]
        r2 = (d * d).sum(2) + EPS2
        w = jnp.where(off, mass[None, :] / (r2 * jnp.sqrt(r2)), 0.0)
        return (d * w[:, :, None]).sum(1)

    def step(_: int, state: tuple[jax.Array, jax.Array]) -> tuple[jax.Array, jax.Array]:
        pos, vel = state
        vel = vel + acc(pos) * (0.5 * DT)
        pos = pos + vel * DT
        vel = vel + acc(pos) * (0.5 * DT)
        return pos, vel

    def simulate(pos0: jax.Array) -> jax.Array:
        pos, vel = jax.lax.fori_loop(0, steps, step, (pos0, vel0))
        kin = 0.5 * (mass * (vel * vel).sum(1)).sum()
        d = pos[ju] - pos[iu]
        pot = (mass[iu] * mass[ju] / jnp.sqrt((d * d).sum(1) + EPS2)).sum()
        return kin - pot

    return simulate


def main() -> None:
    text, reps = args()
    n, steps = spec(text, "n", 64, 2, 256), spec(text, "steps", 10, 0, 1_000_000)
    i = np.arange(n)[:, None]
    c = np.arange(3)[None, :]
    pos0 = np.sin(1.7 * i + 2.1 * c + 0.5)
    vel0 = jnp.asarray(0.1 * np.cos(0.9 * i + 1.3 * c))
    mass = jnp.asarray((1.0 + 0.5 * np.sin(0.3 * np.arange(n))) / n)
    err = measure(make(vel0, mass, n, steps), pos0, reps, list(range(0, 3 * n, 3 * n // 40 + 1)))
    if not math.isfinite(err):
        raise SystemExit(1)


if __name__ == "__main__":
    main()
