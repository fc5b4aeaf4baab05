"""ADBench hand tracking Jacobian in JAX (jax.jit, CPU, float64): the same math as
benchmarks/adbench/hand.c, simple and complicated variant (told from the data file). Usage:
jax_hand.py DATAFILE REPS MODELDIR. Prints `key value` lines: objective (sum of squared
residuals), primal_ms (jit(residuals)), jac_ms = grad_ms (jit(jacfwd(residuals)): the dense
3N x 26 Jacobian, plus hand.c's two compressed d/du, d/dv columns first in the complicated
variant, residuals included; median over REPS, the first, compiling call excluded,
block_until_ready on every result) and jac_check_max_rel_err (every column against central
differences of these residuals).

jacfwd pushes 26 (28) tangents; jacrev pulls one cotangent per residual (3N) and measured 15x
(N=100) to 2800x (N=3200) slower.
"""

from __future__ import annotations

from collections.abc import Callable

import jax

jax.config.update("jax_enable_x64", True)
jax.config.update("jax_platforms", "cpu")

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from hand_data import (  # noqa: E402
    HandData,
    HandModel,
    check_jacobian,
    hand_args,
    inputs,
    objective,
    pose_index,
    read_data,
    read_model,
    report,
)
from readers import median_ms  # noqa: E402


def euler_xzy(a: jax.Array) -> jax.Array:
    """(nb, 3) angles (x, z, y) -> (nb, 3, 3) rotations Rz * Ry * Rx."""
    cx, sx = jnp.cos(a[:, 0]), jnp.sin(a[:, 0])
    cz, sz = jnp.cos(a[:, 1]), jnp.sin(a[:, 1])
    cy, sy = jnp.cos(a[:, 2]), jnp.sin(a[:, 2])
    return jnp.stack([cz * cy, -sz * cx + cz * sy * sx, sz * sx + cz * sy * cx,
                      sz * cy, cz * cx + sz * sy * sx, -cz * sx + sz * sy * cx,
                      -sy, cy * sx, cy * cx], 1).reshape(-1, 3, 3)


def angle_axis(aa: jax.Array) -> jax.Array:
    """Rotation matrix of the angle-axis vector aa (identity below an angle of 1e-4)."""
    n2 = (aa * aa).sum()
    small = jnp.sqrt(jax.lax.stop_gradient(n2)) < 1e-4
    n = jnp.sqrt(jnp.where(small, 1.0, n2))  # no 0/0 in the unused branch's derivative
    x, y, z = aa[0] / n, aa[1] / n, aa[2] / n
    s, c = jnp.sin(n), jnp.cos(n)
    R = jnp.stack([x * x + (1 - x * x) * c, x * y * (1 - c) - z * s, x * z * (1 - c) + y * s,
                   x * y * (1 - c) + z * s, y * y + (1 - y * y) * c, y * z * (1 - c) - x * s,
                   x * z * (1 - c) - y * s, z * y * (1 - c) + x * s, z * z + (1 - z * z) * c])
    return jnp.where(small, jnp.eye(3), R.reshape(3, 3))


def make_residuals(m: HandModel, d: HandData) -> Callable[[jax.Array], jax.Array]:
    """The residuals (3N,) as a function of inputs(d): theta, or (u shift, v shift, theta)."""
    base_rel, inv_base_abs = jnp.asarray(m.base_rel), jnp.asarray(m.inv_base_abs)
    pos1 = jnp.asarray(np.hstack([m.base_pos, np.ones((len(m.base_pos), 1))]))  # (nv, 4)
    weights_t = jnp.asarray(m.weights.T)                                      # (nv, nb)
    idx = pose_index(len(m.parents))
    points, nb = jnp.asarray(d.points), len(m.parents)
    if d.complicated:
        tri = m.tris[d.corr]                                                  # (N, 3)
        us = jnp.asarray(d.us)

    def skinned_vertices(theta: jax.Array) -> jax.Array:
        R = euler_xzy(jnp.concatenate([theta, jnp.zeros(1)])[idx])
        rel = jnp.concatenate([base_rel[:, :, :3] @ R, base_rel[:, :, 3:]], 2)  # (nb, 4, 4)
        absolute: list[jax.Array] = []
        for b, p in enumerate(m.parents):
            absolute.append(rel[b] if p < 0 else absolute[p] @ rel[b])
        skin = (jnp.stack(absolute) @ inv_base_abs)[:, :3, :].reshape(nb, 12)
        blended = (weights_t @ skin).reshape(-1, 3, 4)  # per vertex: sum_b w_bv * skin_b
        pos = (blended @ pos1[:, :, None])[:, :, 0]     # (nv, 3)
        return pos @ angle_axis(theta[:3]).T + theta[3:6]

    def residuals(x: jax.Array) -> jax.Array:
        if not d.complicated:
            return (points - skinned_vertices(x)[d.corr]).reshape(-1)
        pos = skinned_vertices(x[2:])
        u, v = us[:, :1] + x[0], us[:, 1:] + x[1]
        model = u * pos[tri[:, 0]] + v * pos[tri[:, 1]] + (1 - u - v) * pos[tri[:, 2]]
        return (points - model).reshape(-1)

    return residuals


def main() -> None:
    path, reps, mdir = hand_args()
    m = read_model(mdir)
    d = read_data(path, m)
    f = make_residuals(m, d)
    x0 = inputs(d)
    x = jnp.asarray(x0)
    primal = jax.jit(f)
    jac = jax.jit(jax.jacfwd(f))

    obj = objective(np.asarray(primal(x)))  # compiles; not timed
    primal_ms = median_ms(reps, lambda: primal(x).block_until_ready())
    jac(x).block_until_ready()              # compiles; not timed
    jac_ms = median_ms(reps, lambda: jac(x).block_until_ready())
    J = np.asarray(jac(x))

    err = check_jacobian(lambda q: np.asarray(primal(jnp.asarray(q))), x0, J)
    report(obj, primal_ms, jac_ms, err, x0.size)


if __name__ == "__main__":
    main()
