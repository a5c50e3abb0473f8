#!/usr/bin/env python3
"""Writes 36x36 and 49x49 instances in Lewis's format, the way his generator
makes them: a full grid, then a given proportion of its cells kept (chosen
uniformly, the rest blank, -1). Seeded, so the files are remade exactly:

    python3 make-instances.py [--seed 31] [--per-fill 3] [--out .]

The full grid is the pattern grid of order b (value (b*(r%b) + r//b + c) mod n)
relabelled and shuffled by the moves that keep a grid valid (values, rows in a
band, bands, columns in a stack, stacks, transpose), one draw per instance.
That is not a uniform draw of full grids (no one samples those at this size),
so the instances are easy for propagation at high fill like Lewis's, but are
not his files. One file per order, instances named inst<n>x<n>_<fill>_<k>.txt
after Lloyd & Amos's set, each after a '# name' line (common/corpus.h)."""

import argparse
import lzma
import os
import random


def full_grid(b, rng):
    n = b * b

    def order_of_groups():
        groups = list(range(b))
        rng.shuffle(groups)
        out = []
        for g in groups:
            inner = list(range(b))
            rng.shuffle(inner)
            out.extend(g * b + i for i in inner)
        return out

    rows, cols = order_of_groups(), order_of_groups()
    values = list(range(1, n + 1))
    rng.shuffle(values)
    grid = [[values[(b * (r % b) + r // b + c) % n] for c in cols] for r in rows]
    if rng.random() < 0.5:
        grid = [list(col) for col in zip(*grid)]
    return grid


def check(grid, b):
    n = b * b
    want = set(range(1, n + 1))
    for i in range(n):
        assert set(grid[i]) == want
        assert {grid[r][i] for r in range(n)} == want
        r0, c0 = (i // b) * b, (i % b) * b
        assert {grid[r0 + k // b][c0 + k % b] for k in range(n)} == want


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--per-fill", type=int, default=3)
    ap.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)))
    a = ap.parse_args()
    for b in (6, 7):
        n = b * b
        rng = random.Random(a.seed * 100 + b)
        lines = [f"# {n}x{n} instances: make-instances.py --seed {a.seed} --per-fill {a.per_fill}"]
        for fill in range(0, 101, 10):
            for k in range(a.per_fill):
                grid = full_grid(b, rng)
                check(grid, b)
                cells = [(r, c) for r in range(n) for c in range(n)]
                keep = set(rng.sample(cells, round(fill / 100 * n * n)))
                lines.append(f"# inst{n}x{n}_{fill}_{k}.txt")
                lines.append(str(b))
                lines.append("1")
                for r in range(n):
                    lines.append("\t".join(str(grid[r][c]) if (r, c) in keep else "-1"
                                           for c in range(n)))
        path = os.path.join(a.out, f"inst{n}x{n}.txt.xz")
        with lzma.open(path, "wt", preset=9) as f:
            f.write("\n".join(lines) + "\n")
        print(path)


if __name__ == "__main__":
    main()
