"""Control flow: predecessors, dominators and natural loops of a gradlink.ir Function."""

from __future__ import annotations

from dataclasses import dataclass, field

from gradlink.ir.model import Function


@dataclass
class CFG:
    fn: Function
    succs: dict[str, list[str]] = field(default_factory=dict)
    preds: dict[str, list[str]] = field(default_factory=dict)
    idom: dict[str, str | None] = field(default_factory=dict)
    loops: dict[str, set[str]] = field(default_factory=dict)     # header -> blocks of the loop
    order: list[str] = field(default_factory=list)               # reverse post-order

    def dominates(self, a: str, b: str) -> bool:
        node: str | None = b
        while node is not None:
            if node == a:
                return True
            node = self.idom.get(node)
        return False

    def in_loop(self, block: str) -> bool:
        return any(block in body for body in self.loops.values())

    def loop_depth(self, block: str) -> int:
        return sum(block in body for body in self.loops.values())


def build(fn: Function) -> CFG:
    cfg = CFG(fn)
    for b in fn.blocks:
        term = b.terminator
        succ = list(dict.fromkeys(term.targets))          # unique, in order
        cfg.succs[b.label] = succ
        cfg.preds.setdefault(b.label, [])
        for s in succ:
            cfg.preds.setdefault(s, []).append(b.label)
    cfg.order = _reverse_postorder(fn.blocks[0].label, cfg.succs)
    reachable = set(cfg.order)
    for k in cfg.preds:       # edges from blocks only unwinding reaches (landing pads) do not count
        cfg.preds[k] = [p for p in dict.fromkeys(cfg.preds[k]) if p in reachable]
    cfg.idom = _dominators(cfg.order, cfg.preds)
    cfg.loops = _natural_loops(cfg)
    return cfg


def _reverse_postorder(entry: str, succs: dict[str, list[str]]) -> list[str]:
    seen: set[str] = set()
    post: list[str] = []
    stack: list[tuple[str, int]] = [(entry, 0)]
    seen.add(entry)
    while stack:
        node, i = stack.pop()
        nxt = succs.get(node, [])
        if i < len(nxt):
            stack.append((node, i + 1))
            s = nxt[i]
            if s not in seen:
                seen.add(s)
                stack.append((s, 0))
        else:
            post.append(node)
    return post[::-1]


def _dominators(order: list[str], preds: dict[str, list[str]]) -> dict[str, str | None]:
    """Cooper, Harvey and Kennedy's iterative algorithm over reverse post-order."""
    index = {b: i for i, b in enumerate(order)}
    idom: dict[str, str | None] = {order[0]: order[0]}
    changed = True
    while changed:
        changed = False
        for b in order[1:]:
            ps = [p for p in preds.get(b, []) if p in idom]
            if not ps:
                continue
            new = ps[0]
            for p in ps[1:]:
                a, c = p, new
                while a != c:
                    while index[a] > index[c]:
                        a = idom[a]  # type: ignore[assignment]
                    while index[c] > index[a]:
                        c = idom[c]  # type: ignore[assignment]
                new = a
            if idom.get(b) != new:
                idom[b] = new
                changed = True
    idom[order[0]] = None
    return idom


def _natural_loops(cfg: CFG) -> dict[str, set[str]]:
    loops: dict[str, set[str]] = {}
    for b in cfg.order:
        for s in cfg.succs.get(b, []):
            if cfg.dominates(s, b):                        # back edge b -> s
                body = loops.setdefault(s, {s})
                work = [b]
                while work:
                    n = work.pop()
                    if n not in body:
                        body.add(n)
                        work.extend(cfg.preds.get(n, []))
    return loops


def print_cfg(cfg: CFG) -> str:
    lines = []
    for b in cfg.order:
        depth = cfg.loop_depth(b)
        lines.append(f"{b}: preds=[{', '.join(cfg.preds.get(b, []))}] "
                     f"idom={cfg.idom.get(b) or '-'} loop_depth={depth}"
                     + (" header" if b in cfg.loops else ""))
    return "\n".join(lines)
