"""ADBench LSTM objective in PyTorch (eager, CPU, float64): the same math as
benchmarks/adbench/lstm.c. Usage: torch_lstm.py DATAFILE REPS. Prints `key value` lines:
objective, primal_ms, grad_ms (median over REPS, after one warm-up call; the gradient w.r.t.
the main and extra parameters, forward pass included) and grad_check_max_rel_err (against
central differences of this objective on a sample of entries)."""

from __future__ import annotations

import numpy as np
import torch
from cases import timings
from readers import args, check_indices, fd_check, read_lstm, report

torch.set_default_dtype(torch.float64)


def make_objective(l: int, c: int, b: int, state0: torch.Tensor, seq: torch.Tensor):
    def objective(main: torch.Tensor, extra: torch.Tensor) -> torch.Tensor:
        # main: per layer 4b weights then 4b biases (forget, input, output, change gates)
        w = main.reshape(l, 2, 4, b)
        in_scale, out_scale, out_bias = extra.reshape(3, b)
        st = state0.reshape(l, 2, b)
        hidden = [st[i, 0] for i in range(l)]  # the state is copied: state0 is never written
        cell = [st[i, 1] for i in range(l)]
        total = main.new_zeros(())
        for t in range(c - 1):
            xp = seq[t] * in_scale
            for i in range(l):
                wt, bs = w[i, 0], w[i, 1]
                forget = torch.sigmoid(xp * wt[0] + bs[0])
                ingate = torch.sigmoid(hidden[i] * wt[1] + bs[1])
                outgate = torch.sigmoid(xp * wt[2] + bs[2])
                change = torch.tanh(hidden[i] * wt[3] + bs[3])
                cell[i] = cell[i] * forget + ingate * change
                hidden[i] = outgate * torch.tanh(cell[i])
                xp = hidden[i]
            pred = xp * out_scale + out_bias
            lse = torch.logsumexp(pred, 0)
            total = total + (seq[t + 1] * (pred - lse)).sum()
        return -total / ((c - 1) * b)

    return objective


def main() -> None:
    path, reps = args()
    d = read_lstm(path)
    f = make_objective(d.l, d.c, d.b, torch.from_numpy(d.state), torch.from_numpy(d.seq))
    params = [torch.from_numpy(a.copy()).requires_grad_(True) for a in (d.main, d.extra)]

    obj, primal_ms, grad_ms, flat = timings(f, params, reps)

    nm = d.main.size
    p0 = np.concatenate([d.main, d.extra])

    def f_flat(p: np.ndarray) -> float:
        with torch.no_grad():
            return f(torch.from_numpy(p[:nm]), torch.from_numpy(p[nm:])).item()

    idxs = check_indices([nm, d.extra.size], limit=8)
    err = fd_check(f_flat, p0, flat, idxs)
    report(obj, primal_ms, grad_ms, p0.size, err, len(idxs))


if __name__ == "__main__":
    main()
