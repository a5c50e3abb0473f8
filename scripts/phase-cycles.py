#!/usr/bin/env python3
"""acs against Lloyd & Amos's sudoku_acs at equal work: both limited by cycles.

    scripts/phase-cycles.py --sizes 25x25 --fills 30,35,40,45 --sample 5 --runs 2 \\
        --cycles-25 500 --out results/phase-transition-cycles

A cycle is one iteration of the colony: every ant (10) builds one assignment,
then the global pheromone update. Success within a number of cycles does not
depend on the machine's speed or load, so it tests whether the two programs run
the same algorithm; a time limit (scripts/phase-transition.sh) tests that and
speed together.

Their program has no cycle limit of its own: this needs a build of it with a
`--cycles N` option that ends the search after N cycles and prints `cycles K`
(the cycles it ran) after its result, made outside this tree
(docs/phase-transition.md says how); its path is --peer or SUDOKU_ACS_CYCLES.
`acs` runs through `sudolab solve` with --budget-steps N x 10 x cells (its
steps are ant steps, ants x cells a cycle) and no time limit.

Per instance and run, the peer and acs run one after the other (interleaved),
so load hits both alike; each run records success, the cycles it used and the
time by its own clock. Writes in --out: runs.csv (a row per run), table.md (per
size and fill: both success rates, the difference in points, the median cycles
of the solved runs; then the same success rates at a quarter and a half of the
limit, read from the cycles the solved runs used; --table names it) and env.txt
(machine, builds, load before and after).

By time (--seconds, --seconds-9/16/25: each program's own clock) --solvers may
name more of our back ends: per instance and run the peer, then each of them
in turn (complete ones on the first run only), so that every back end meets the
same load. That run also writes instances.csv and protocol.txt as
scripts/phase-transition.sh does, whose --tables-only then makes its table.md
and plots from them:

    scripts/phase-cycles.py --sizes 16x16 --sample 5 --seconds-16 20 \
        --solvers acs,sat,wide,auto --table acs-peer.md --out DIR
    scripts/phase-transition.sh --tables-only --out DIR
"""
import argparse
import csv
import lzma
import os
import platform
import re
import resource
import statistics
import subprocess
import sys
import time

# sudolab's symbols for the values 1..N and the peer's, per N
OUR_SYMBOLS = "123456789ABCDEFGHIJKLMNOP"
THEIR_SYMBOLS = {9: "123456789", 16: "0123456789abcdef", 25: "abcdefghijklmnopqrstuvwxy"}
ANTS = 10


def parse_args():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--data", default=os.path.join(root, "datasets/lewis/general"))
    p.add_argument("--sizes", default="9x9,16x16,25x25")
    p.add_argument("--fills", default="", help="fills in percent, e.g. 40,45 (default all)")
    p.add_argument("--sample", type=int, default=5, help="first N instances per cell")
    p.add_argument("--runs", type=int, default=2, help="runs per instance of each program")
    p.add_argument("--cycles-9", type=int, default=200)
    p.add_argument("--cycles-16", type=int, default=200)
    p.add_argument("--cycles-25", type=int, default=500)
    p.add_argument("--first", type=int, default=0,
                   help="skip the first K instances of each cell (a further sample)")
    p.add_argument("--seconds", type=float, default=0,
                   help="limit both by this many seconds instead of cycles (their own clocks)")
    for n in (9, 16, 25):
        p.add_argument("--seconds-%d" % n, type=float, default=0,
                       help="the time limit of %dx%d, in place of --seconds" % (n, n))
    p.add_argument("--solvers", default="acs",
                   help="with a time limit: our back ends, each run after the peer on every "
                   "instance (complete ones once, incomplete ones --runs times); e.g. "
                   "acs,wide,auto,sat (default acs)")
    p.add_argument("--append", action="store_true", help="add to runs.csv instead of replacing it")
    p.add_argument("--no-peer", action="store_true",
                   help="with a time limit and --append: run --solvers alone, without the "
                   "peer, replacing their earlier rows of the same instances (rerun one "
                   "back end into an earlier run)")
    p.add_argument("--seed", type=int, default=1, help="acs's first seed")
    p.add_argument("--sudolab", default=os.environ.get("SUDOLAB_BIN", ""))
    p.add_argument("--peer", default=os.environ.get(
        "SUDOKU_ACS_CYCLES", os.path.expanduser("~/.cache/sudoku_acs_cycles/sudokusolver")))
    p.add_argument("--out", default=os.path.join(root, "results/phase-transition-cycles"))
    p.add_argument("--tables-only", action="store_true", help="rebuild table.md from runs.csv")
    p.add_argument("--table", default="table.md",
                   help="the name of the table of acs against the peer in --out (another "
                   "than table.md leaves that name to phase-transition.sh --tables-only)")
    a = p.parse_args()
    if not a.sudolab:
        for b in ("build-release/sudolab", "build/sudolab"):
            if os.access(os.path.join(root, b), os.X_OK):
                a.sudolab = os.path.join(root, b)
                break
    return a


def instances(path, sample):
    """(name, values) of the first `sample` instances of one SIZE_FFF.xz file."""
    opener = lzma.open if path.endswith(".xz") else open
    with opener(path, "rt", encoding="ascii") as f:
        text = f.read()
    out = []
    for block in re.split(r"^# ", text, flags=re.M)[1:]:
        name, _, body = block.partition("\n")
        words = body.split()
        order = int(words[0])
        out.append((name.strip(), [int(w) for w in words[2:2 + order ** 4]]))
    return out


def cells(args, fills):
    """(size, fill, file) of every size x fill the run takes, in order."""
    for size in args.sizes.split(","):
        for fill in range(0, 101, 5):
            file = os.path.join(args.data, "%s_%03d.xz" % (size, fill))
            if (not fills or fill in fills) and os.path.exists(file):
                yield size, fill, file


def chosen(args, file):
    """The instances of one cell that the run takes (--first, --sample)."""
    picked = instances(file, 0)[args.first:]
    return picked[:args.sample] if args.sample else picked


def child_cpu():
    """User and system seconds of the children waited for so far."""
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def seconds(args, n):
    """The time limit of an NxN grid (0: limited by cycles)."""
    return getattr(args, "seconds_%d" % n) or args.seconds


def run_peer(args, n, values):
    given = "".join("." if v < 0 else THEIR_SYMBOLS[n][v - 1] for v in values)
    limit = getattr(args, "cycles_%d" % n)
    secs = seconds(args, n)
    if secs:
        # their clock is read every 100 cycles: a run may go past the limit, and
        # counts as solved only when its own time is within it
        cmd = ["--timeout", str(int(secs + 0.999))]
    else:
        cmd = ["--cycles", str(limit), "--timeout", "100000"]
    cpu, wall = child_cpu(), time.monotonic()
    run = subprocess.run(["nice", args.peer, "--puzzle", given, "--verbose"] + cmd,
                         stdout=subprocess.PIPE, text=True, check=False)
    cpu, wall = child_cpu() - cpu, time.monotonic() - wall
    out = run.stdout
    m = re.search(r"^cycles (\d+)", out, re.M)
    if not m:
        sys.exit("phase-cycles.py: %s printed no `cycles` line: is it the build with --cycles?"
                 % args.peer)
    t = re.search(r"(?:solved|failed) in(?: time)? ([0-9.e+-]+)", out)
    own = float(t.group(1)) if t else 0.0
    solved = "Solution:" in out and (not secs or own <= secs)
    return solved, int(m.group(1)), own, cpu, wall


def run_ours(args, solver, n, values, seed):
    """One run of our back end `solver` (acs by cycles, any by time)."""
    puzzle = "".join("." if v < 0 else OUR_SYMBOLS[v - 1] for v in values)
    limit = getattr(args, "cycles_%d" % n)
    secs = seconds(args, n)
    if secs:
        budget = ["--budget-ms", str(int(secs * 1000))]
    else:
        budget = ["--budget-steps", str(limit * ANTS * n * n), "--budget-ms", "0"]
    cpu, wall = child_cpu(), time.monotonic()
    run = subprocess.run(["nice", args.sudolab, "solve", "--solver", solver, "--limit", "1"]
                         + budget + ["--seed", str(seed), "--csv", puzzle],
                         stdout=subprocess.PIPE, text=True, check=False)
    cpu, wall = child_cpu() - cpu, time.monotonic() - wall
    rows = list(csv.DictReader(run.stdout.splitlines()))
    if len(rows) != 1:
        sys.exit("phase-cycles.py: unexpected output of sudolab solve: %r" % run.stdout[:200])
    row = rows[0]
    steps = int(row["steps"] or 0)
    # acs: the cycle the last step was in; a grid solved by propagation alone
    # counts one, as the peer counts it (other back ends' steps are theirs)
    cycles = max(1, -(-steps // (ANTS * n * n))) if solver == "acs" else steps
    return row["status"] == "solved", cycles, int(row["time_ns"]) / 1e9, cpu, wall


def named(argv):
    """The arguments without this machine's paths: an absolute path and the
    option before it (--sudolab PATH) are left out."""
    kept = []
    for a in argv:
        if a.startswith("/"):
            if kept and kept[-1].startswith("--"):
                kept.pop()
            continue
        kept.append(a)
    return kept


def loadavg():
    try:
        with open("/proc/loadavg", encoding="ascii") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "unknown"


def tables(args):
    with open(os.path.join(args.out, "runs.csv"), encoding="ascii") as f:
        rows = list(csv.DictReader(f))
    cells = {}
    for r in rows:
        cells.setdefault((int(r["size"]), int(r["fill"]), r["limit"]), []).append(r)
    lines = ["# acs against sudoku_acs at equal work", "",
             "Success rate (%) of the runs within the limit; diff: acs minus the peer, in "
             "points; se: its standard error, the runs paired by instance (0.0 where every "
             "instance's runs agree). Under a cycle limit: the rates at 1/4 and 1/2 of it, read from the "
             "cycles each solved run used, and the median cycles of the solved runs. Under "
             "a time limit: the mean time of the solved runs by each program's own clock, "
             "and the ratio peer/acs of the CPU seconds (user + system of the process, its "
             "start and reading included) summed over the runs both solved (a run of one "
             "is paired with the same run of the other on the same instance). CPU ms per "
             "cycle: CPU time over cycles run, every run; on a loaded machine CPU time "
             "stays close to the work done where wall time does not.", ""]
    worst = 0.0
    for n, limit in sorted({(k[0], k[2]) for k in cells}, key=lambda x: (x[0], x[1])):
        timed = limit.endswith("s")
        lines += ["## %dx%d, %s" % (n, n, "%s each" % limit if timed else "%s cycles" % limit),
                  ""]
        if timed:
            lines += ["| fill | runs | acs | sudoku_acs | diff | se | acs mean s | peer mean s | "
                      "CPU peer/acs (both solved) |",
                      "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        else:
            lines += ["| fill | runs | acs | sudoku_acs | diff | se | acs @1/4 | peer @1/4 | "
                      "acs @1/2 | peer @1/2 | acs cycles | peer cycles | acs CPU ms/cycle | "
                      "peer CPU ms/cycle |",
                      "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for fill in sorted(f for m, f, l in cells if m == n and l == limit):
            rs = cells[(n, fill, limit)]

            def rate(prog, upto=None):
                mine = [r for r in rs if r["program"] == prog]
                ok = [r for r in mine if r["solved"] == "1"
                      and (upto is None or int(r["cycles"]) <= upto)]
                return 100.0 * len(ok) / len(mine) if mine else float("nan")

            def med(prog):
                c = [int(r["cycles"]) for r in rs if r["program"] == prog and r["solved"] == "1"]
                return "%g" % statistics.median(c) if c else "-"

            def per_cycle(prog):
                mine = [r for r in rs if r["program"] == prog and r.get("cpu_s")]
                cyc = sum(int(r["cycles"]) for r in mine)
                return "%.2f" % (1000 * sum(float(r["cpu_s"]) for r in mine) / cyc) \
                    if mine and cyc else "-"

            def mean_s(prog):
                t = [float(r["own_s"]) for r in rs if r["program"] == prog and r["solved"] == "1"]
                return "%.3g" % statistics.mean(t) if t else "-"

            def paired_se():
                # the standard error of diff, the runs paired by instance
                # (instances differ more than the programs do)
                by = {}
                for r in rs:
                    if r["program"] in ("acs", "sudoku_acs"):
                        by.setdefault(r["instance"], {}).setdefault(r["program"], []).append(
                            int(r["solved"]))
                d = [100.0 * (statistics.mean(v["acs"]) - statistics.mean(v["sudoku_acs"]))
                     for v in by.values() if len(v) == 2]
                return "%.1f" % (statistics.stdev(d) / len(d) ** 0.5) if len(d) > 1 else "-"

            a, p = rate("acs"), rate("sudoku_acs")
            worst = max(worst, abs(a - p))
            runs = len([r for r in rs if r["program"] == "acs"])
            head = "| %d%% | %d | %.0f | %.0f | %+.0f | %s |" % (fill, runs, a, p, a - p,
                                                             paired_se())
            if timed:
                got = {}
                for r in rs:
                    if r["solved"] == "1":
                        got.setdefault((r["instance"], r["run"]), {})[r["program"]] = \
                            float(r.get("cpu_s") or 0)
                both = [v for v in got.values() if "acs" in v and "sudoku_acs" in v]
                ratio = (sum(v["sudoku_acs"] for v in both) / sum(v["acs"] for v in both)
                         if both and sum(v["acs"] for v in both) > 0 else None)
                lines.append(head + " %s | %s | %s |" % (
                    mean_s("acs"), mean_s("sudoku_acs"),
                    "%.2f (%d)" % (ratio, len(both)) if ratio else "-"))
            else:
                lim = int(limit)
                lines.append(head + " %.0f | %.0f | %.0f | %.0f | %s | %s | %s | %s |" % (
                    rate("acs", lim // 4), rate("sudoku_acs", lim // 4),
                    rate("acs", lim // 2), rate("sudoku_acs", lim // 2), med("acs"),
                    med("sudoku_acs"), per_cycle("acs"), per_cycle("sudoku_acs")))
        lines.append("")
    lines.append("Largest difference: %.0f points." % worst)
    with open(os.path.join(args.out, args.table), "w", encoding="ascii") as f:
        f.write("\n".join(lines) + "\n")
    timed = [r for r in rows if r["limit"].endswith("s")]
    if timed:
        instances_csv(args, timed)


def instances_csv(args, rows):
    """The timed runs as scripts/phase-transition.sh's instances.csv (a row per
    run), so that its tables and plots (--tables-only) take them: the peer's
    time is its round trip, as sudolab times a cmd: back end, and its own
    clock goes in own_ns; ours is sudolab's time of the solve."""
    with open(os.path.join(args.out, "instances.csv"), "w", encoding="ascii",
              newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["size", "fill", "instance", "solver", "run", "status", "time_ns",
                    "own_ns"])
        for r in rows:
            peer = r["program"] == "sudoku_acs"
            ok = r["solved"] == "1"
            spent = float(r.get("wall_s") or r["own_s"]) if peer else float(r["own_s"])
            w.writerow(["%sx%s" % (r["size"], r["size"]), r["fill"], r["instance"],
                        r["program"], r["run"], "solved" if ok else "limit",
                        "%.0f" % (spent * 1e9),
                        "%.0f" % (float(r["own_s"]) * 1e9) if peer and ok else ""])


def main():
    args = parse_args()
    if args.tables_only:
        tables(args)
        return 0
    if not args.sudolab or not os.access(args.sudolab, os.X_OK):
        sys.exit("phase-cycles.py: no sudolab binary (build first or set SUDOLAB_BIN)")
    if not args.no_peer and not os.access(args.peer, os.X_OK):
        sys.exit("phase-cycles.py: %s is not an executable (the peer built with --cycles; "
                 "see docs/phase-transition.md)" % args.peer)
    os.makedirs(args.out, exist_ok=True)
    fills = {int(f) for f in args.fills.split(",") if f}
    start_load = loadavg()
    started = time.time()
    path = os.path.join(args.out, "runs.csv")
    fresh = not (args.append and os.path.exists(path))
    columns = ["size", "fill", "instance", "run", "program", "limit", "solved", "cycles",
               "own_s", "cpu_s", "wall_s"]
    if not fresh:
        # an earlier part's columns (older runs.csv have no wall_s)
        with open(path, encoding="ascii") as f:
            columns = next(csv.reader(f))
    ours = [s for s in args.solvers.split(",") if s]
    timed = any(seconds(args, int(z.split("x")[0])) for z in args.sizes.split(","))
    if not timed and ours != ["acs"]:
        sys.exit("phase-cycles.py: a cycle limit compares acs alone (--solvers acs)")
    if args.no_peer and (not timed or fresh):
        sys.exit("phase-cycles.py: --no-peer reruns back ends into an earlier timed run: "
                 "it needs a time limit, --append and an existing runs.csv")
    listing = subprocess.run([args.sudolab, "list", "--csv"], stdout=subprocess.PIPE,
                             text=True, check=False).stdout
    # the capabilities: one quoted field of comma-separated names in `list
    # --csv` (fields of their own in older builds)
    listed = [r for r in csv.reader(listing.splitlines()[1:]) if r]
    incomplete = {r[0] for r in listed if any("incomplete" in f.split(",") for f in r)}
    unknown = set(ours) - {r[0] for r in listed}
    if unknown:
        sys.exit("phase-cycles.py: no back end %s in %s" % (",".join(sorted(unknown)),
                                                           args.sudolab))
    if args.no_peer:
        # the rerun replaces these back ends' rows of the instances it runs
        again = {(int(size.split("x")[0]), name)
                 for size, fill, file in cells(args, fills)
                 for name, _ in chosen(args, file)}
        with open(path, encoding="ascii") as f:
            kept = [r for r in csv.DictReader(f)
                    if not (r["program"] in ours and (int(r["size"]), r["instance"]) in again)]
        with open(path, "w", encoding="ascii", newline="") as f:
            w = csv.DictWriter(f, columns, extrasaction="ignore")
            w.writeheader()
            w.writerows(kept)
    with open(path, "w" if fresh else "a", encoding="ascii", newline="") as f:
        w = csv.DictWriter(f, columns, extrasaction="ignore")
        if fresh:
            w.writeheader()

        def put(program, run, result):
            ok, cyc, sec, cpu, wall = result
            w.writerow({"size": n, "fill": fill, "instance": name, "run": run,
                        "program": program, "limit": limit, "solved": int(ok), "cycles": cyc,
                        "own_s": sec, "cpu_s": "%.4f" % cpu, "wall_s": "%.4f" % wall})

        for size, fill, file in cells(args, fills):
            n = int(size.split("x")[0])
            secs = seconds(args, n)
            limit = "%gs" % secs if secs else getattr(args, "cycles_%d" % n)
            for k, (name, values) in enumerate(chosen(args, file), start=args.first):
                # per instance and run the peer, then each of ours in turn
                for run in range(args.runs):
                    if not args.no_peer:
                        put("sudoku_acs", run, run_peer(args, n, values))
                    seed = args.seed + 1000 * k + run
                    for solver in ours:
                        if run == 0 or solver in incomplete:
                            put(solver, run, run_ours(args, solver, n, values, seed))
                    f.flush()
            print("phase-cycles.py: %s %d%% done" % (size, fill), file=sys.stderr)
    end_load = loadavg()
    sha = subprocess.run(["git", "-C", os.path.dirname(os.path.abspath(__file__)), "rev-parse",
                          "--short", "HEAD"], stdout=subprocess.PIPE, text=True,
                         check=False).stdout.strip()
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as c:
            for line in c:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    with open(os.path.join(args.out, "env.txt"), "a" if not fresh else "w",
              encoding="ascii") as e:
        if args.no_peer:
            e.write("--- a rerun of %s alone, replacing its rows of these instances ---\n"
                    % ", ".join(ours))
        elif not fresh:
            e.write("--- a further part, appended to runs.csv ---\n")
        e.write("machine: %s %s, %d CPUs, %s\n" % (platform.system(), platform.machine(),
                                                   os.cpu_count() or 0, cpu))
        e.write("sudolab: revision %s\n" % sha)
        e.write("peer: %s\n" % ("not run" if args.no_peer else
                                 "sudoku_acs 5181658 with a --cycles option added outside "
                                 "this tree"))
        e.write("command: scripts/phase-cycles.py %s\n" % " ".join(named(sys.argv[1:])))
        e.write("sample: %d instances per cell from instance %d, %d runs each, %s\n"
                % (args.sample, args.first, args.runs,
                   "time limits 9x9=%g 16x16=%g 25x25=%g s (own clocks); back ends %s"
                   % (seconds(args, 9), seconds(args, 16), seconds(args, 25), args.solvers)
                   if any(seconds(args, m) for m in (9, 16, 25)) else
                   "cycles 9x9=%d 16x16=%d 25x25=%d" % (args.cycles_9, args.cycles_16,
                                                        args.cycles_25)))
        e.write("load average: %s at the start, %s at the end; %.0f s wall\n"
                % (start_load, end_load, time.time() - started))
    if any(seconds(args, m) for m in (9, 16, 25)):
        # the protocol lines scripts/phase-transition.sh --tables-only puts in
        # table.md, a set per part
        with open(os.path.join(args.out, "protocol.txt"), "w" if fresh else "a",
                  encoding="ascii") as p:
            if args.no_peer:
                p.write("%s, %s rerun alone, without the peer, its earlier rows replaced "
                        "(scripts/phase-cycles.py --no-peer)\n" % (args.sizes, ", ".join(ours)))
            else:
                p.write("%s, interleaved per instance and run: sudoku_acs, then %s (scripts/"
                        "phase-cycles.py)\n" % (args.sizes, ", ".join(ours)))
            p.write("sample: %d instances per size x fill from instance %d\n"
                    % (args.sample, args.first))
            again = ", ".join(s for s in ours if s in incomplete) or "none"
            p.write("runs: %d per instance of %s; the others once\n"
                    % (args.runs, again if args.no_peer else "sudoku_acs and of " + again))
            p.write("timeouts_s: %s\n" % " ".join(
                "%sx%s=%g" % (m, m, seconds(args, m)) for m in (9, 16, 25)
                if "%dx%d" % (m, m) in args.sizes.split(",")))
    tables(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
