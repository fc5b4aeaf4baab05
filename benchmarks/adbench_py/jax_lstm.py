"""ADBench LSTM objective in JAX (jax.jit, CPU, float64): the same math as
benchmarks/adbench/lstm.c, the time loop as lax.scan. Usage: jax_lstm.py DATAFILE REPS. Prints
`key value` lines: objective, primal_ms (jit(objective)), grad_ms (jit(grad(objective)) w.r.t.
the main and extra parameters; median over REPS, the first, compiling call excluded,
block_until_ready on every result) and grad_check_max_rel_err (against central differences of
this objective on a sample of entries)."""

from __future__ import annotations

import jax

jax.config.update("jax_enable_x64", True)
jax.config.update("jax_platforms", "cpu")

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax.scipy.special import logsumexp  # noqa: E402
from readers import args, check_indices, fd_check, median_ms, read_lstm, report  # noqa: E402


def make_objective(l: int, c: int, b: int):
    def objective(main, extra, state0, seq):
        # main: per layer 4b weights then 4b biases (forget, input, output, change gates)
        w = main.reshape(l, 2, 4, b)
        in_scale, out_scale, out_bias = extra.reshape(3, b)
        st0 = state0.reshape(l, 2, b)

        def step(state, xs):
            x, gold = xs
            hidden = [state[i, 0] for i in range(l)]
            cell = [state[i, 1] for i in range(l)]
            xp = x * in_scale
            for i in range(l):
                wt, bs = w[i, 0], w[i, 1]
                forget = jax.nn.sigmoid(xp * wt[0] + bs[0])
                ingate = jax.nn.sigmoid(hidden[i] * wt[1] + bs[1])
                outgate = jax.nn.sigmoid(xp * wt[2] + bs[2])
                change = jnp.tanh(hidden[i] * wt[3] + bs[3])
                cell[i] = cell[i] * forget + ingate * change
                hidden[i] = outgate * jnp.tanh(cell[i])
                xp = hidden[i]
            pred = xp * out_scale + out_bias
            lse = logsumexp(pred)
            new_state = jnp.stack([jnp.stack([hidden[i], cell[i]]) for i in range(l)])
            return new_state, (gold * (pred - lse)).sum()

        _, terms = jax.lax.scan(step, st0, (seq[:-1], seq[1:]))
        return -terms.sum() / ((c - 1) * b)

    return objective


def main() -> None:
    path, reps = args()
    d = read_lstm(path)
    f = make_objective(d.l, d.c, d.b)
    state, seq = jnp.asarray(d.state), jnp.asarray(d.seq)
    params = [jnp.asarray(d.main), jnp.asarray(d.extra)]
    primal = jax.jit(f)
    grad = jax.jit(jax.grad(f, argnums=(0, 1)))

    obj = float(primal(*params, state, seq).block_until_ready())  # compiles; not timed
    primal_ms = median_ms(reps, lambda: primal(*params, state, seq).block_until_ready())
    jax.block_until_ready(grad(*params, state, seq))             # compiles; not timed
    grad_ms = median_ms(reps, lambda: jax.block_until_ready(grad(*params, state, seq)))
    flat = np.concatenate([np.asarray(t).ravel() for t in grad(*params, state, seq)])

    nm = d.main.size
    p0 = np.concatenate([d.main, d.extra])

    def f_flat(p: np.ndarray) -> float:
        return float(primal(jnp.asarray(p[:nm]), jnp.asarray(p[nm:]), state, seq))

    idxs = check_indices([nm, d.extra.size], limit=8)
    err = fd_check(f_flat, p0, flat, idxs)
    report(obj, primal_ms, grad_ms, p0.size, err, len(idxs))


if __name__ == "__main__":
    main()
