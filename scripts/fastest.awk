# The answer of a bench run, per corpus: the fastest back end, and its lead
# over the next one with that lead's 95% interval. Reads runs.csv (columns by
# header name; summary.csv first, for the back ends that do not handle every
# puzzle) and prints one line per corpus, in the order of runs.csv's rows:
#
#   corpus  ranked  fastest  median_ns  next  lead  low  high  pairs  candidates
#
# ranked      the puzzles the ranking is over: those every candidate was timed
#             on (all of them, or the sample of `bench --sample`)
# fastest     the candidate with the lowest geometric-mean time over them, a
#             puzzle it did not finish counting at twice the budget (PAR-2)
# median_ns   its median time over the puzzles it finished
# next        the best-ranked candidate that is not the fastest's own search
#             (below); "-" when there is none
# lead        the geometric mean, over the puzzles both were timed on and
#             finished, of next's time over the fastest's (2 = twice as fast)
# low, high   its 95% paired bootstrap interval: `resamples` resamples of
#             those puzzles with replacement, percentile interval, a fixed
#             seed; "-" under `min_pairs` puzzles
# candidates  the back ends timed on the corpus that handle each of its
#             puzzles (summary.csv's unsupported is 0), or all of those timed
#             on it when none does
#
# A puzzle's time is the median of its timed repeats, its status that of its
# first repeat; finished is a verdict within the budget (not limit, error).
# The next back end skips the fastest's other instruction-set paths
# (NAME_portable, NAME_avx2, NAME_avx512 beside NAME, either way) and the
# back ends named in `dispatchers` (they hand each puzzle to another), so
# that the lead is over another search.
#
# The interval is computed as bench_geomean_interval (bench/bench_stats.h)
# computes the ratio to the baseline, with this script's own generator.
#
# usage: gzip -dcf DIR/runs.csv* | awk -f scripts/fastest.awk -v budget_ns=N
#            [-v dispatchers='auto'] [-v resamples=2000] [-v min_pairs=10]
#            [-v seed=1] DIR/summary.csv -
#   budget_ns  the run's per-puzzle budget (0: none; PAR-2 then counts an
#              unfinished puzzle at twice the longest time of the corpus)
BEGIN {
    FS = ","
    if (resamples == "")
        resamples = 2000
    if (min_pairs == "")
        min_pairs = 10
    if (seed == "")
        seed = 1
    nd = split(dispatchers, dlist, " ")
    for (k = 1; k <= nd; k++)
        dispatcher[dlist[k]] = 1
}

# summary.csv first: the back ends that do not handle every puzzle of a corpus
FNR == 1 && NR > 1 {
    runs = 1
}

!runs && FNR == 1 {
    sub(/\r$/, "")
    for (i = 1; i <= NF; i++)
        scol[$i] = i
    next
}

!runs {
    sub(/\r$/, "")
    if (("unsupported" in scol) && $scol["unsupported"] > 0)
        partial[$scol["corpus"], $scol["solver"]] = 1
    next
}

FNR == 1 {
    sub(/\r$/, "")
    for (i = 1; i <= NF; i++)
        col[$i] = i
    split("corpus index solver repeat status time_ns", need, " ")
    for (k = 1; k <= 6; k++) {
        if (!(need[k] in col)) {
            printf "fastest.awk: no column '%s'\n", need[k] > "/dev/stderr"
            bad = 1
            exit 2
        }
    }
    next
}

{
    sub(/\r$/, "")
    c = $col["corpus"]; s = $col["solver"]; i = $col["index"]; t = $col["time_ns"]
    if (t == "")
        next # not timed (an invalid entry)
    if (!(c in cseen)) {
        cseen[c] = 1
        corpora[++ncorpora] = c
    }
    if (!((c, s) in sseen)) {
        sseen[c, s] = 1
        solvers[c, ++nsolvers[c]] = s
    }
    k = c SUBSEP s SUBSEP i
    if (!(k in nrep)) {
        status[k] = $col["status"]
        if (!((c, i) in pseen)) {
            pseen[c, i] = 1
            puzzles[c, ++npuzzles[c]] = i
        }
    }
    times[k, ++nrep[k]] = t + 0
    if (t + 0 > longest[c])
        longest[c] = t + 0
}

# the median of a key's repeats
function median_of(k,    n, a, j, m, x) {
    n = nrep[k]
    for (j = 1; j <= n; j++)
        a[j] = times[k, j]
    for (j = 2; j <= n; j++) { # insertion sort: a handful of repeats
        x = a[j]
        for (m = j - 1; m >= 1 && a[m] > x; m--)
            a[m + 1] = a[m]
        a[m + 1] = x
    }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}

function finished(k) {
    return status[k] != "limit" && status[k] != "error"
}

# the search a back end runs: NAME for NAME_<path> when NAME ran too
function family(c, s,    base) {
    base = s
    if (sub(/_(portable|avx2|avx512)$/, "", base) && (c, base) in sseen)
        return base
    return s
}

# Park and Miller's minimal standard generator: exact in doubles, so every
# awk draws the same numbers
function draw(n) {
    rng = (16807 * rng) % 2147483647
    return int((rng - 1) / 2147483646 * n) + 1
}

function sort_values(a, n,    gap, j, m, x) { # Shell sort, ascending
    for (gap = int(n / 2); gap > 0; gap = int(gap / 2))
        for (j = gap + 1; j <= n; j++) {
            x = a[j]
            for (m = j - gap; m >= 1 && a[m] > x; m -= gap)
                a[m + gap] = a[m]
            a[m + gap] = x
        }
}

# the q-quantile of sorted a[1..n], interpolating between the closest ranks
# (R's type 7, as bench_quantile)
function quantile(a, n, q,    h, lo) {
    h = (n - 1) * q
    lo = int(h)
    return lo + 1 >= n ? a[n] : a[lo + 1] + (h - lo) * (a[lo + 2] - a[lo + 1])
}

function floor1(v) { return v > 1 ? v : 1 } # 0 ns is below the clock, not free

END {
    if (bad)
        exit 2
    for (ci = 1; ci <= ncorpora; ci++) {
        c = corpora[ci]
        penalty = budget_ns > 0 ? 2 * budget_ns : 2 * longest[c]
        # candidates: the back ends that handle every puzzle, when some do
        whole = 0
        for (j = 1; j <= nsolvers[c]; j++)
            whole += !((c, solvers[c, j]) in partial)
        n = 0
        for (j = 1; j <= nsolvers[c]; j++)
            if (!whole || !((c, solvers[c, j]) in partial))
                solvers[c, ++n] = solvers[c, j]
        nsolvers[c] = n
        # the puzzles every candidate was timed on
        nranked = 0
        for (p = 1; p <= npuzzles[c]; p++) {
            i = puzzles[c, p]
            all = 1
            for (j = 1; j <= nsolvers[c] && all; j++)
                all = (c SUBSEP solvers[c, j] SUBSEP i) in nrep
            if (all)
                ranked[++nranked] = i
        }
        best = ""; second = ""
        delete score
        for (j = 1; j <= nsolvers[c]; j++) {
            s = solvers[c, j]
            sum = 0
            for (p = 1; p <= nranked; p++) {
                k = c SUBSEP s SUBSEP ranked[p]
                sum += log(finished(k) ? floor1(median_of(k)) : penalty)
            }
            score[s] = nranked ? sum / nranked : 0
            if (best == "" || score[s] < score[best])
                best = s
        }
        # the next: the best-ranked of another search, not a dispatcher
        for (j = 1; j <= nsolvers[c]; j++) {
            s = solvers[c, j]
            if (s == best || s in dispatcher || family(c, s) == family(c, best))
                continue
            if (second == "" || score[s] < score[second])
                second = s
        }
        # the fastest's median over what it finished
        n = 0
        delete a
        for (p = 1; p <= npuzzles[c]; p++) {
            k = c SUBSEP best SUBSEP puzzles[c, p]
            if ((k in nrep) && finished(k))
                a[++n] = median_of(k)
        }
        sort_values(a, n)
        med = n == 0 ? "-" : (n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2)
        lead = "-"; low = "-"; high = "-"; pairs = 0
        if (second != "") {
            delete l
            total = 0
            for (p = 1; p <= npuzzles[c]; p++) {
                kb = c SUBSEP best SUBSEP puzzles[c, p]
                ks = c SUBSEP second SUBSEP puzzles[c, p]
                if ((kb in nrep) && (ks in nrep) && finished(kb) && finished(ks)) {
                    l[++pairs] = log(floor1(median_of(ks)) / floor1(median_of(kb)))
                    total += l[pairs]
                }
            }
            if (pairs > 0)
                lead = exp(total / pairs)
            if (pairs >= min_pairs) {
                rng = seed % 2147483646 + 1
                delete rep
                for (b = 1; b <= resamples; b++) {
                    total = 0
                    for (d = 1; d <= pairs; d++)
                        total += l[draw(pairs)]
                    rep[b] = total / pairs
                }
                sort_values(rep, resamples)
                low = exp(quantile(rep, resamples, 0.025))
                high = exp(quantile(rep, resamples, 0.975))
            }
        }
        printf "%s %d %s %s %s %s %s %s %d %d\n", c, nranked, best, med, (second == "" ? "-" : second), \
            lead, low, high, pairs, nsolvers[c]
    }
}
