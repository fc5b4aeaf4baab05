"""Recursive tree-model case study in PyTorch (eager, CPU, float64, batch size 1): the same
math as benchmarks/cases/treelstm.c (complete binary tree over leaf embeddings of dimension 16,
h = tanh(W_l h_left + W_r h_right + b), loss = sum of the root's h; gradient w.r.t. W_l, W_r,
b), evaluated by a recursive Python function. Usage: torch_treelstm.py depth=5 REPS."""

from __future__ import annotations

import numpy as np
import torch
from cases import measure
from readers import args
from sizespec import spec

torch.set_default_dtype(torch.float64)
D = 16


def make(emb: torch.Tensor, depth: int):
    def node(Wl, Wr, b, d, first):
        if d == 0:
            return emb[first]
        hl = node(Wl, Wr, b, d - 1, first)
        hr = node(Wl, Wr, b, d - 1, first + (1 << (d - 1)))
        return torch.tanh(Wl @ hl + Wr @ hr + b)

    def f(p):
        Wl = p[:D * D].reshape(D, D)
        Wr = p[D * D:2 * D * D].reshape(D, D)
        b = p[2 * D * D:]
        return node(Wl, Wr, b, depth, 0).sum()

    return f


def main() -> None:
    text, reps = args()
    depth = spec(text, "depth", 5, 0, 20)
    leaves, np_ = 1 << depth, 2 * D * D + D
    emb = torch.from_numpy(np.sin(0.7 * np.arange(leaves * D) + 0.3).reshape(leaves, D))
    p0 = 0.25 * np.cos(1.3 * np.arange(np_))
    f = make(emb, depth)
    measure(f, p0, reps, list(range(0, np_, np_ // 60 + 1)))


if __name__ == "__main__":
    main()
