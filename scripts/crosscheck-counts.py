#!/usr/bin/env python3
"""Re-derives the counts of the cross-check corpora with a counter that shares
nothing with sudolab: plain Python, its own reader, rules and search.

  crosscheck-counts.py FILE...            check every "puzzle:count" line
  crosscheck-counts.py --empty RxC [--diagonal]   count every complete grid

A corpus line is `puzzle:count  # comment`, count 0, 1, "2+" or "invalid"
(tests/data/crosscheck.txt). crosscheck_diagonal.txt is read under the
diagonal rule (both main diagonals hold every symbol once), and its comments'
"standard rules: C" is checked under the plain rules. Each disagreement is
printed as file:line: reason; the exit status is 1 when there was one, 0 when
every count was re-derived.
"""
import sys

SHAPES = {16: (2, 2), 36: (2, 3), 64: (2, 4), 81: (3, 3), 144: (3, 4),
          256: (4, 4), 625: (5, 5)}


def value_of(ch):
    if ch in '.0':
        return 0
    if ch.isdigit():
        return ord(ch) - ord('0')
    if 'A' <= ch <= 'Z':
        return ord(ch) - ord('A') + 10
    raise ValueError(f'symbol {ch!r}')


def units(n, box_rows, box_cols, diagonal):
    """Every unit as a list of cell indices."""
    out = [[r * n + c for c in range(n)] for r in range(n)]
    out += [[r * n + c for r in range(n)] for c in range(n)]
    for br in range(0, n, box_rows):
        for bc in range(0, n, box_cols):
            out.append([(br + i) * n + bc + j
                        for i in range(box_rows) for j in range(box_cols)])
    if diagonal:
        out.append([i * n + i for i in range(n)])
        out.append([i * n + n - 1 - i for i in range(n)])
    return out


def count(cells, box_rows, box_cols, diagonal, limit):
    """Solutions of the grid, up to limit (0: all); None when clues break a rule."""
    n = box_rows * box_cols
    us = units(n, box_rows, box_cols, diagonal)
    peers = [set() for _ in range(n * n)]
    for u in us:
        for a in u:
            peers[a].update(b for b in u if b != a)
    grid = list(cells)
    for u in us:
        seen = [v for v in (grid[c] for c in u) if v]
        if len(seen) != len(set(seen)):
            return None
    full = (1 << (n + 1)) - 2  # bits 1..n

    def candidates(c):
        used = 0
        for p in peers[c]:
            used |= 1 << grid[p]
        return full & ~used

    found = 0

    def search():
        nonlocal found
        best, best_mask, best_len = -1, 0, n + 1
        for c in range(n * n):  # the empty cell with the fewest candidates
            if grid[c]:
                continue
            m = candidates(c)
            k = bin(m).count('1')
            if k < best_len:
                best, best_mask, best_len = c, m, k
                if k <= 1:
                    break
        if best < 0:
            found += 1
            return limit and found >= limit
        for v in range(1, n + 1):
            if best_mask >> v & 1:
                grid[best] = v
                stop = search()
                grid[best] = 0
                if stop:
                    return True
        return False

    search()
    return found


def label(k):
    return 'invalid' if k is None else '2+' if k >= 2 else str(k)


def check_file(path):
    diagonal = 'diagonal' in path.rsplit('/', 1)[-1]
    bad = 0
    with open(path, encoding='utf-8') as f:
        for lineno, line in enumerate(f, 1):
            text, _, comment = line.partition('#')
            text = text.strip()
            if not text:
                continue
            puzzle, _, want = text.partition(':')
            where = f'{path}:{lineno}'
            if len(puzzle) not in SHAPES:
                print(f'{where}: {len(puzzle)} symbols is no grid size')
                bad += 1
                continue
            box_rows, box_cols = SHAPES[len(puzzle)]
            cells = [value_of(ch) for ch in puzzle]
            checks = [(diagonal, want.strip())]
            if diagonal and 'standard rules:' in comment:
                checks.append((False, comment.split('standard rules:')[1].split()[0]))
            for diag, expected in checks:
                got = label(count(cells, box_rows, box_cols, diag, 2))
                if got != expected:
                    rules = 'diagonal' if diag else 'standard'
                    print(f'{where}: {expected} written, {got} counted ({rules} rules)')
                    bad += 1
    return bad


def main(argv):
    if len(argv) >= 2 and argv[0] == '--empty':
        box_rows, box_cols = (int(x) for x in argv[1].split('x'))
        diagonal = argv[2:] == ['--diagonal']
        print(count([0] * (box_rows * box_cols) ** 2, box_rows, box_cols, diagonal, 0))
        return 0
    if not argv or argv[0].startswith('-'):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    bad = sum(check_file(p) for p in argv)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
