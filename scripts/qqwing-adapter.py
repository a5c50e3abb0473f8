#!/usr/bin/env python3
"""qqwing (Debian: apt-get install qqwing) as a sudolab process back end.

    sudolab bench --solvers 'fast,qqwing=cmd:python3 scripts/qqwing-adapter.py' FILE

Speaks sudolab's line protocol (solvers/sudolab_plugin.h) on standard input and
output, and keeps one qqwing running beside it (`qqwing --solve --csv`, its
output made line-buffered with stdbuf), so a puzzle costs one round trip
through this script and qqwing, not a process start. 9x9 standard puzzles
only. qqwing counts every solution (it has no limit): the count answered is
capped at sudolab's limit, but a puzzle with very many solutions takes as long
as counting them all (sudolab's time budget then ends it). The counters are
qqwing's own guesses and backtracks.
"""
import subprocess
import sys


def start_qqwing():
    qq = subprocess.Popen(
        ["stdbuf", "-oL", "qqwing", "--solve", "--count-solutions", "--csv", "--stats"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    return qq


def ask(qq, puzzle):
    """qqwing's CSV row for one puzzle: solution, count, ..., guesses, backtracks."""
    qq.stdin.write(puzzle + "\n")
    qq.stdin.flush()
    while True:
        line = qq.stdout.readline()
        if not line:
            raise RuntimeError("qqwing exited")
        fields = line.rstrip("\n").split(",")
        if fields[0] != "Solution":  # the header comes before the first row
            return fields


def answer(qq, line):
    words = line.split(" ")
    if words[0] == "hello":
        return "hello 1 sizes=9-9 caps=count counters=guesses,backtracks"
    if words[0] == "ping":
        return "pong"
    if words[0] != "solve" or len(words) != 5:
        return "error unknown request"
    limit, box, variant, puzzle = int(words[1]), words[2], words[3], words[4]
    if box != "3x3" or variant != "standard":
        return "error qqwing solves 9x9 standard puzzles only"
    fields = ask(qq, puzzle)
    count = int(fields[1])
    if limit:
        count = min(count, limit)
    solution = fields[0] if count > 0 and len(fields[0]) == 81 else "-"
    return "%d %s guesses=%s backtracks=%s" % (count, solution, fields[9], fields[10])


def main():
    qq = start_qqwing()
    for line in sys.stdin:
        sys.stdout.write(answer(qq, line.rstrip("\r\n")) + "\n")
        sys.stdout.flush()
    qq.stdin.close()
    qq.wait()


if __name__ == "__main__":
    main()
