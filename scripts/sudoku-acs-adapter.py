#!/usr/bin/env python3
"""Lloyd & Amos's sudoku_acs program as a sudolab process back end.

    sudolab bench --limit 1 --budget-ms 5000 \
        --solvers 'acs,sudoku_acs=cmd:python3 scripts/sudoku-acs-adapter.py --timeout 7' FILE

Speaks sudolab's line protocol (solvers/sudolab_plugin.h) on standard input
and output and runs their program once per puzzle (it reads one puzzle per
process), as `sudokusolver --puzzle P --verbose --timeout T [--alg A]`, then
hands back the solution it prints. sudolab verifies that solution like any
other back end's.

Their program is built outside this tree (docs/phase-transition.md says how);
the binary is SUDOKU_ACS (environment) or --bin PATH, default
~/.cache/sudoku_acs/sudokusolver.

Their ACS is incomplete: it finds a solution or gives up at its timeout, and
the protocol has no answer for "gave up" (COUNT 0 claims there is no
solution). So give it a --timeout above sudolab's --budget-ms: sudolab then
kills the run at its own budget (status `limit`, as for its own incomplete back
ends), and the program's own timeout, if ever reached, is answered as an error,
never as "no solution". A puzzle's time is the round trip, so it includes
starting their program and Python's subprocess call (milliseconds on a loaded
machine; the fill-100 instances, solved by propagation alone, show it). With
--log FILE each solved puzzle also appends "PUZZLE<TAB>SECONDS" to FILE: the
time their program prints, its own clock around its search (the board's
initial propagation and the process start are outside it). Their program handles 9x9, 16x16 and 25x25
standard grids (symbols 1-9, 0-f, a-y); other shapes are answered with an
error. It counts no solutions (limit 1 only) and reports no counters.
"""
import argparse
import os
import subprocess
import sys

# Their --puzzle symbols for the values 1..N, per N.
THEIR_SYMBOLS = {9: "123456789", 16: "0123456789abcdef", 25: "abcdefghijklmnopqrstuvwxy"}
# sudolab's symbols for the values 1..N.
OUR_SYMBOLS = "123456789ABCDEFGHIJKLMNOP"


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--bin", default=os.environ.get("SUDOKU_ACS",
                   os.path.expanduser("~/.cache/sudoku_acs/sudokusolver")))
    p.add_argument("--timeout", type=int, default=10,
                   help="their --timeout, whole seconds (set it above sudolab's budget)")
    p.add_argument("--alg", type=int, default=0, help="their --alg: 0 ACS, 1 backtracking")
    p.add_argument("--log", help="append PUZZLE<TAB>their own seconds per solved puzzle")
    return p.parse_args()


def solve(args, box, variant, puzzle):
    """The answer line for one `solve` request."""
    rows, _, cols = box.partition("x")
    if variant != "standard" or rows != cols or int(rows) * int(cols) not in THEIR_SYMBOLS:
        return "error sudoku_acs solves 9x9, 16x16 and 25x25 standard grids only"
    n = int(rows) * int(cols)
    theirs = THEIR_SYMBOLS[n]
    try:
        given = "".join("." if c == "." else theirs[OUR_SYMBOLS.index(c)] for c in puzzle)
    except (ValueError, IndexError):
        return "error a symbol out of range for %dx%d" % (n, n)
    run = subprocess.run([args.bin, "--puzzle", given, "--verbose", "--timeout",
                          str(args.timeout), "--alg", str(args.alg)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, check=False)
    out = run.stdout
    if "Solution:" not in out:
        why = out.strip().splitlines()[:1] or run.stderr.strip().splitlines()[:1] or ["no output"]
        return "error sudoku_acs found no solution within its own timeout (%s)" % why[0]
    # the grid is printed as numbers 1..N between box rules ('|', '---+---')
    body = out.split("Solution:", 1)[1].split("solved in", 1)[0]
    values = [int(w) for w in body.replace("|", " ").split() if w.isdigit()]
    if len(values) != n * n or not all(1 <= v <= n for v in values):
        return "error unreadable solution from sudoku_acs"
    solution = "".join(OUR_SYMBOLS[v - 1] for v in values)
    if args.log:
        own = out.split("solved in", 1)[1].split()[0] if "solved in" in out else ""
        with open(args.log, "a", encoding="ascii") as log:
            log.write("%s\t%s\n" % (puzzle, own))
    return "1 " + solution


def answer(args, line):
    words = line.split(" ")
    if words[0] == "hello":
        return "hello 1 sizes=9-25"
    if words[0] == "ping":
        return "pong"
    if words[0] != "solve" or len(words) != 5:
        return "error unknown request"
    if words[1] != "1":
        return "error sudoku_acs finds one solution: run it with --limit 1"
    return solve(args, words[2], words[3], words[4])


def main():
    args = parse_args()
    if not os.access(args.bin, os.X_OK):
        sys.stderr.write("sudoku-acs-adapter: %s is not an executable (set SUDOKU_ACS)\n" % args.bin)
        return 2
    for line in sys.stdin:
        sys.stdout.write(answer(args, line.rstrip("\r\n")) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
