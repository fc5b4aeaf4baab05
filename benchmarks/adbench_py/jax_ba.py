"""ADBench BA (bundle adjustment) objective and its sparse Jacobian in JAX (jax.jit, CPU,
float64): the same math as benchmarks/adbench/ba.c. Usage: jax_ba.py DATAFILE REPS.

Each observation's 15 inputs (camera 11, point 3, weight) are gathered into a (p, 15) array;
the residuals are jit(vmap) of the one-observation reprojection error (2 values) and 1 - w^2.
The Jacobian is the (p, 2, 15) blocks vmap(jacrev(reprojection error)) plus the (p,) diagonal
vmap(grad(weight error)), in one jitted function; jacrev (2 cotangents) is about 3x faster
here than jacfwd (15 tangents). Prints `key value` lines: objective, primal_ms (all
residuals), jac_ms and the same value as grad_ms (all blocks; both medians over REPS, the
first, compiling call excluded, block_until_ready on every result, gathering included, as ba.c
packs inside its timed loop) and jac_check_max_rel_err (the blocks of the first 50
observations against central differences of the same residual functions; exit status 1 above
1e-5).
"""

from __future__ import annotations

import jax

jax.config.update("jax_enable_x64", True)
jax.config.update("jax_platforms", "cpu")

import jax.numpy as jnp  # noqa: E402
from ba_data import NCAM, check_jacobian, objective, read_ba, report  # noqa: E402
from readers import args, median_ms  # noqa: E402


def rodrigues_rotate(rot: jax.Array, X: jax.Array) -> jax.Array:
    sq = (rot * rot).sum()
    nonzero = sq != 0
    theta = jnp.sqrt(jnp.where(nonzero, sq, 1.0))  # no NaN derivative in the unused branch
    w = rot * (1.0 / theta)
    c, s = jnp.cos(theta), jnp.sin(theta)
    rotated = X * c + jnp.cross(w, X) * s + w * ((w * X).sum() * (1 - c))
    return jnp.where(nonzero, rotated, X + jnp.cross(rot, X))


def reproj(x: jax.Array, feat: jax.Array) -> jax.Array:
    """Reprojection error (2,) of one observation from its packed inputs: camera, point, w."""
    cam, X, w = x[:NCAM], x[NCAM:NCAM + 3], x[NCAM + 3]
    Xc = rodrigues_rotate(cam[0:3], X - cam[3:6])
    p = Xc[0:2] / Xc[2]
    rsq = (p * p).sum()
    L = 1 + cam[9] * rsq + cam[10] * rsq * rsq
    return w * (cam[6] * (p * L) + cam[7:9] - feat)


def werr(w: jax.Array) -> jax.Array:
    return 1 - w * w


def packed(cams: jax.Array, pts: jax.Array, w: jax.Array, cam_idx: jax.Array,
           pt_idx: jax.Array) -> jax.Array:
    return jnp.concatenate([cams[cam_idx], pts[pt_idx], w[:, None]], 1)


@jax.jit
def residuals(cams: jax.Array, pts: jax.Array, w: jax.Array, feats: jax.Array,
              cam_idx: jax.Array, pt_idx: jax.Array) -> tuple[jax.Array, jax.Array]:
    return jax.vmap(reproj)(packed(cams, pts, w, cam_idx, pt_idx), feats), werr(w)


@jax.jit
def jacobian(cams: jax.Array, pts: jax.Array, w: jax.Array, feats: jax.Array,
             cam_idx: jax.Array, pt_idx: jax.Array) -> tuple[jax.Array, jax.Array]:
    X = packed(cams, pts, w, cam_idx, pt_idx)
    return jax.vmap(jax.jacrev(reproj))(X, feats), jax.vmap(jax.grad(werr))(w)


def main() -> None:
    path, reps = args()
    ba = read_ba(path)
    data = [jnp.asarray(a) for a in (ba.cams, ba.pts, ba.w, ba.feats, ba.cam_idx, ba.pt_idx)]

    obj = objective(*jax.device_get(residuals(*data)))  # compiles; not timed
    primal_ms = median_ms(reps, lambda: jax.block_until_ready(residuals(*data)))
    J, Jw = jax.device_get(jacobian(*data))              # compiles; not timed
    jac_ms = median_ms(reps, lambda: jax.block_until_ready(jacobian(*data)))

    reproj1, werr1 = jax.jit(reproj), jax.jit(werr)
    err, checked = check_jacobian(lambda q, f: jax.device_get(reproj1(q, f)),
                                  lambda v: float(werr1(v)), ba, J, Jw)
    report(ba, obj, primal_ms, jac_ms, err, checked)


if __name__ == "__main__":
    main()
