#!/usr/bin/env python3
import csv, sys, statistics as st
from collections import defaultdict
# Usage: python3 repeats.py DIR/runs.csv (one bench run at a time). Per corpus
# and back end: the median and the mean over the puzzles
# of (a) each puzzle's median over its repeats (what the bench reports, but
# counting runs stopped by the budget at their time), (b) its first run only
# (sat_assume keeps what CaDiCaL learned, so its repeats re-solve a puzzle it
# has seen).
rows = defaultdict(lambda: defaultdict(dict))
status = defaultdict(lambda: defaultdict(int))
for f in sys.argv[1:]:
    for r in csv.DictReader(open(f)):
        t = r['time_ns']
        if r['status'] not in ('unique',):
            status[r['corpus']][r['solver']] += 1
        rows[(r['corpus'])][r['solver']].setdefault(int(r['index']), {})[int(r['repeat'])] = int(t) if t else None
for corpus, solvers in rows.items():
    print(corpus)
    for s, puzzles in solvers.items():
        med = [st.median([v for v in reps.values() if v is not None]) for reps in puzzles.values()]
        first = [reps[1] for reps in puzzles.values() if reps.get(1) is not None]
        print("  %-11s n=%3d  median-of-repeats: median %9.3f ms mean %9.3f ms (%8.1f/s) | first run: median %9.3f ms mean %9.3f ms (%8.1f/s)%s" % (
            s, len(puzzles), st.median(med)/1e6, st.mean(med)/1e6, 1e9/st.mean(med),
            st.median(first)/1e6, st.mean(first)/1e6, 1e9/st.mean(first),
            "  not unique: %d rows" % status[corpus][s] if status[corpus][s] else ""))
