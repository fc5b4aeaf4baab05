"""Recursive tree-model case study in JAX (jax.jit, CPU, float64, batch size 1): the same math
as benchmarks/cases/treelstm.c (complete binary tree over leaf embeddings of dimension 16,
h = tanh(W_l h_left + W_r h_right + b), loss = sum of the root's h; gradient w.r.t. W_l, W_r,
b), evaluated by a recursive Python function that tracing under jit unrolls into one program
of 2^depth - 1 node computations. Usage: jax_treelstm.py depth=5 REPS."""

from __future__ import annotations

import jax

jax.config.update("jax_enable_x64", True)
jax.config.update("jax_platforms", "cpu")

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax_cases import measure  # noqa: E402
from readers import args  # noqa: E402
from sizespec import spec  # noqa: E402

D = 16


def make(emb: jax.Array, depth: int):
    def node(Wl: jax.Array, Wr: jax.Array, b: jax.Array, d: int, first: int) -> jax.Array:
        if d == 0:
            return emb[first]
        hl = node(Wl, Wr, b, d - 1, first)
        hr = node(Wl, Wr, b, d - 1, first + (1 << (d - 1)))
        return jnp.tanh(Wl @ hl + Wr @ hr + b)

    def f(p: jax.Array) -> jax.Array:
        Wl = p[:D * D].reshape(D, D)
        Wr = p[D * D:2 * D * D].reshape(D, D)
        b = p[2 * D * D:]
        return node(Wl, Wr, b, depth, 0).sum()

    return f


def main() -> None:
    text, reps = args()
    depth = spec(text, "depth", 5, 0, 20)
    leaves, np_ = 1 << depth, 2 * D * D + D
    emb = jnp.asarray(np.sin(0.7 * np.arange(leaves * D) + 0.3).reshape(leaves, D))
    p0 = 0.25 * np.cos(1.3 * np.arange(np_))
    measure(make(emb, depth), p0, reps, list(range(0, np_, np_ // 60 + 1)))


if __name__ == "__main__":
    main()
