"""ADBench GMM objective in JAX (jax.jit, CPU, float64): the same math as
benchmarks/adbench/gmm.c. Usage: jax_gmm.py DATAFILE REPS. Prints `key value` lines:
objective, primal_ms (jit(objective)), grad_ms (jit(grad(objective)) w.r.t. alphas, means and
icf; median over REPS, the first, compiling call excluded, block_until_ready on every result)
and grad_check_max_rel_err (against central differences of this objective on a sample of
entries)."""

from __future__ import annotations

import math

import jax

jax.config.update("jax_enable_x64", True)
jax.config.update("jax_platforms", "cpu")

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax.scipy.special import logsumexp  # noqa: E402
from readers import args, check_indices, fd_check, median_ms, read_gmm, report  # noqa: E402


def log_gamma_distrib(a: float, p: int) -> float:
    out = 0.25 * p * (p - 1) * math.log(math.pi)
    for j in range(1, p + 1):
        out += math.lgamma(a + 0.5 * (1 - j))
    return out


def make_objective(d: int, k: int, n: int, gamma: float, m: int):
    # lower triangle, column by column, after the d log-diagonal entries
    rows, cols = [], []
    for col in range(d):
        for row in range(col + 1, d):
            rows.append(row)
            cols.append(col)
    rows_a, cols_a = np.array(rows, dtype=np.int32), np.array(cols, dtype=np.int32)
    nn_ = d + m + 1
    c = nn_ * d * (math.log(gamma) - 0.5 * math.log(2.0)) - log_gamma_distrib(0.5 * nn_, d)
    constant = -n * d * 0.5 * math.log(2 * math.pi)

    def objective(alphas, means, icf, x):
        q = icf[:, :d]                                   # (k, d)
        lt = icf[:, d:]                                  # (k, d(d-1)/2)
        sum_q = q.sum(1)
        L = jnp.zeros((k, d, d), icf.dtype).at[:, rows_a, cols_a].set(lt)
        xc = x[:, None, :] - means[None, :, :]           # (n, k, d)
        qx = jnp.exp(q)[None] * xc + jnp.einsum("kij,nkj->nki", L, xc)
        sq = (qx * qx).sum(2)                            # (n, k)
        main_term = alphas[None, :] + sum_q[None, :] - 0.5 * sq
        slse = logsumexp(main_term, axis=1).sum()
        lse_alphas = logsumexp(alphas)
        frob = jnp.exp(2 * q).sum(1) + (lt * lt).sum(1)
        prior = (0.5 * gamma * gamma * frob - m * sum_q).sum()
        return constant + slse - n * lse_alphas + prior - k * c

    return objective


def main() -> None:
    path, reps = args()
    g = read_gmm(path)
    f = make_objective(g.d, g.k, g.n, g.gamma, g.m)
    x = jnp.asarray(g.x)
    params = [jnp.asarray(a) for a in (g.alphas, g.means, g.icf)]
    primal = jax.jit(f)
    grad = jax.jit(jax.grad(f, argnums=(0, 1, 2)))

    obj = float(primal(*params, x).block_until_ready())  # compiles; not timed
    primal_ms = median_ms(reps, lambda: primal(*params, x).block_until_ready())
    jax.block_until_ready(grad(*params, x))             # compiles; not timed
    grad_ms = median_ms(reps, lambda: jax.block_until_ready(grad(*params, x)))
    flat = np.concatenate([np.asarray(t).ravel() for t in grad(*params, x)])

    sizes = [g.k, g.k * g.d, g.icf.size]
    p0 = np.concatenate([g.alphas, g.means.ravel(), g.icf.ravel()])

    def f_flat(p: np.ndarray) -> float:
        a, mu, ic = np.split(p, [sizes[0], sizes[0] + sizes[1]])
        return float(primal(jnp.asarray(a), jnp.asarray(mu.reshape(g.k, g.d)),
                            jnp.asarray(ic.reshape(g.icf.shape)), x))

    idxs = check_indices(sizes)
    err = fd_check(f_flat, p0, flat, idxs)
    report(obj, primal_ms, grad_ms, p0.size, err, len(idxs))


if __name__ == "__main__":
    main()
