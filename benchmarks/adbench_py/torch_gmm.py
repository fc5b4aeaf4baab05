"""ADBench GMM objective in PyTorch (eager, CPU, float64): the same math as
benchmarks/adbench/gmm.c. Usage: torch_gmm.py DATAFILE REPS. Prints `key value` lines:
objective, primal_ms, grad_ms (median over REPS, after one warm-up call; the gradient w.r.t.
alphas, means and icf, forward pass included) and grad_check_max_rel_err (against central
differences of this objective on a sample of entries)."""

from __future__ import annotations

import math

import numpy as np
import torch
from cases import timings
from readers import args, check_indices, fd_check, read_gmm, report

torch.set_default_dtype(torch.float64)


def log_gamma_distrib(a: float, p: int) -> float:
    out = 0.25 * p * (p - 1) * math.log(math.pi)
    for j in range(1, p + 1):
        out += math.lgamma(a + 0.5 * (1 - j))
    return out


def make_objective(d: int, k: int, n: int, x: torch.Tensor, gamma: float, m: int):
    # lower triangle, column by column, after the d log-diagonal entries
    rows, cols = [], []
    for col in range(d):
        for row in range(col + 1, d):
            rows.append(row)
            cols.append(col)
    rows_t, cols_t = torch.tensor(rows, dtype=torch.long), torch.tensor(cols, dtype=torch.long)
    nn_ = d + m + 1
    c = nn_ * d * (math.log(gamma) - 0.5 * math.log(2.0)) - log_gamma_distrib(0.5 * nn_, d)
    constant = -n * d * 0.5 * math.log(2 * math.pi)

    def objective(alphas: torch.Tensor, means: torch.Tensor, icf: torch.Tensor) -> torch.Tensor:
        q = icf[:, :d]                                   # (k, d)
        lt = icf[:, d:]                                  # (k, d(d-1)/2)
        sum_q = q.sum(1)                                 # (k,)
        L = torch.zeros(k, d, d, dtype=icf.dtype)
        L = L.index_put((torch.arange(k)[:, None], rows_t[None, :], cols_t[None, :]), lt)
        xc = x[:, None, :] - means[None, :, :]           # (n, k, d)
        qx = torch.exp(q)[None] * xc + torch.einsum("kij,nkj->nki", L, xc)
        sq = (qx * qx).sum(2)                            # (n, k)
        main_term = alphas[None, :] + sum_q[None, :] - 0.5 * sq
        slse = torch.logsumexp(main_term, 1).sum()
        lse_alphas = torch.logsumexp(alphas, 0)
        frob = torch.exp(2 * q).sum(1) + (lt * lt).sum(1)
        prior = (0.5 * gamma * gamma * frob - m * sum_q).sum()
        return constant + slse - n * lse_alphas + prior - k * c

    return objective


def main() -> None:
    path, reps = args()
    g = read_gmm(path)
    x = torch.from_numpy(g.x)
    f = make_objective(g.d, g.k, g.n, x, g.gamma, g.m)
    params = [torch.from_numpy(a.copy()).requires_grad_(True) for a in (g.alphas, g.means, g.icf)]

    obj, primal_ms, grad_ms, flat = timings(f, params, reps)

    sizes = [g.k, g.k * g.d, g.icf.size]
    p0 = np.concatenate([g.alphas, g.means.ravel(), g.icf.ravel()])

    def f_flat(p: np.ndarray) -> float:
        a, mu, ic = np.split(p, [sizes[0], sizes[0] + sizes[1]])
        with torch.no_grad():
            return f(torch.from_numpy(a), torch.from_numpy(mu.reshape(g.k, g.d)),
                     torch.from_numpy(ic.reshape(g.icf.shape))).item()

    idxs = check_indices(sizes)
    err = fd_check(f_flat, p0, flat, idxs)
    report(obj, primal_ms, grad_ms, p0.size, err, len(idxs))


if __name__ == "__main__":
    main()
