#!/usr/bin/env python3
"""A process back end for the tests: speaks sudolab's line protocol
(solvers/sudolab_plugin.h) and solves any size and the diagonal variant with a
small fewest-candidates backtracking search, counting up to the limit.

Options make it misbehave on one puzzle (given as its line, '.' for blanks),
for the tests of what sudolab must survive:
  --crash-on P     abort (SIGABRT)        --hang-on P     never answer
  --garbage-on P   answer nonsense        --wrong-on P    a wrong solution
  --error-on P     answer `error ...`     --count-only    a solution only at limit 1
  --exit-after N   exit after N puzzles (the process "crashes" between puzzles)
"""
import os
import sys
import time

SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def units(n, br, bc, diagonal):
    rows = [[r * n + c for c in range(n)] for r in range(n)]
    cols = [[r * n + c for r in range(n)] for c in range(n)]
    boxes = [[(r0 + r) * n + c0 + c for r in range(br) for c in range(bc)]
             for r0 in range(0, n, br) for c0 in range(0, n, bc)]
    result = rows + cols + boxes
    if diagonal:
        result += [[i * n + i for i in range(n)], [i * n + n - 1 - i for i in range(n)]]
    return result


def solve(cells, n, cell_units, nunits, limit, stats):
    """Counts solutions up to limit (0 = all); returns (count, first)."""
    full = (1 << n) - 1
    used = [0] * nunits
    grid = list(cells)
    for i, v in enumerate(grid):
        for u in cell_units[i]:
            used[u] |= (1 << (v - 1)) if v else 0
    found = [0, None]

    def search():
        stats["nodes"] += 1
        best, best_mask, best_count = -1, 0, n + 1
        for i, v in enumerate(grid):
            if v:
                continue
            mask = full
            for u in cell_units[i]:
                mask &= ~used[u]
            count = bin(mask).count("1")
            if count < best_count:
                best, best_mask, best_count = i, mask, count
                if count <= 1:
                    break
        if best < 0:
            found[0] += 1
            if found[1] is None:
                found[1] = list(grid)
            return limit != 0 and found[0] >= limit
        if best_count > 1:
            stats["guesses"] += best_count - 1
        for value in range(1, n + 1):
            bit = 1 << (value - 1)
            if best_mask & bit:
                grid[best] = value
                for u in cell_units[best]:
                    used[u] |= bit
                stop = search()
                for u in cell_units[best]:
                    used[u] &= ~bit
                grid[best] = 0
                if stop:
                    return True
        return False

    search()
    return found[0], found[1]


def answer(line, opts):
    words = line.split(" ")
    if words[0] == "hello":
        return "hello 1 sizes=1-25 caps=count,diagonal counters=guesses,nodes"
    if words[0] == "ping":
        return "pong"
    if words[0] != "solve" or len(words) != 5:
        return "error unknown request"
    limit, box, variant, puzzle = int(words[1]), words[2], words[3], words[4]
    if puzzle == opts.get("--crash-on"):
        os.abort()
    if puzzle == opts.get("--hang-on"):
        time.sleep(3600)
    if puzzle == opts.get("--garbage-on"):
        return "the answer is forty-two"
    if puzzle == opts.get("--error-on"):
        return "error refused on purpose"
    br, bc = (int(x) for x in box.split("x"))
    n = br * bc
    cells = [SYMBOLS.index(ch) + 1 if ch != "." else 0 for ch in puzzle]
    unit_list = units(n, br, bc, variant == "diagonal")
    cell_units = [[] for _ in range(n * n)]
    for k, unit in enumerate(unit_list):
        for i in unit:
            cell_units[i].append(k)
    stats = {"nodes": 0, "guesses": 0}
    count, first = solve(cells, n, cell_units, len(unit_list), limit, stats)
    text = "-"
    if first is not None and (limit == 1 or "--count-only" not in opts):
        if puzzle == opts.get("--wrong-on"):
            first[0], first[1] = first[1], first[0]
        text = "".join(SYMBOLS[v - 1] for v in first)
    return "%d %s guesses=%d nodes=%d" % (count, text, stats["guesses"], stats["nodes"])


def main():
    opts, args = {}, sys.argv[1:]
    while args:
        key = args.pop(0)
        opts[key] = args.pop(0) if args and not args[0].startswith("--") else ""
    solved = 0
    for line in sys.stdin:
        line = line.rstrip("\n")
        if line.startswith("solve ") and "--exit-after" in opts:
            if solved >= int(opts["--exit-after"]):
                sys.exit(3)
            solved += 1
        sys.stdout.write(answer(line, opts) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
