#!/bin/sh
# The easy-hard-easy experiment of Lewis (2007) and Lloyd & Amos (2019) side
# by side: sudolab's back ends and Lloyd & Amos's own program on Lewis's
# instances (100 per size x fill: 9x9, 16x16, 25x25 at fills 0%, 5%, ...,
# 100%), success rate and time against fill. docs/phase-transition.md
# explains the protocol and how to read the results.
#
# usage: scripts/phase-transition.sh [options]
#   --data DIR        the instances, one file per size x fill named
#                     SIZE_FFF[.xz] (default datasets/lewis/general)
#   --sizes LIST      default 9x9,16x16,25x25
#   --fills LIST      fills in percent, e.g. 40,45,50 (default: every file found)
#   --sample N        the first N instances of each size x fill (default 5;
#                     0 = all 100, the paper's set)
#   --runs K          runs per instance of the stochastic back ends: our
#                     incomplete ones (bench --seeds K) and the peer (default 2)
#   --timeout-9 S, --timeout-16 S, --timeout-25 S
#                     seconds per run (default 5, 5, 10; the paper's: 5, 20, 120)
#   --solvers LIST    our back ends (default acs,anneal,naive,mrv,dlx,sat,wide,auto;
#                     those this build lacks are left out, with a message)
#   --jobs N          bench threads (default 1)
#   --no-peer         leave Lloyd & Amos's program out
#   --out DIR         default results/phase-transition
#   --part NAME       write the bench runs into DIR/SIZE.NAME instead of
#                     DIR/SIZE, leaving the other parts there: the tables take
#                     every part (run the exact back ends and the stochastic
#                     ones apart, say)
#   --tables-only     run nothing: rebuild the tables and plots from the
#                     runs already in DIR (after an interrupted run, say)
# Environment: SUDOLAB_BIN (default build-release/sudolab, else build/sudolab),
# SUDOKU_ACS (their program, default ~/.cache/sudoku_acs/sudokusolver; the
# peer is skipped with a message when it is not there).
#
# Writes DIR/SIZE/ (one `sudolab bench` run per size and part, the peer as a
# cmd: back end: runs.csv, summary.csv, env.txt, peer-times.tsv), and from
# them DIR/instances.csv (a row per run), DIR/cells.csv (per size, fill and
# solver: runs, solved, success rate, median and p90 time), DIR/table.md and
# DIR/phase-SIZE-success.png/.svg, DIR/phase-SIZE-time.png/.svg.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
sdir=$root/scripts
data=$root/datasets/lewis/general
sizes=9x9,16x16,25x25
fills=""
sample=5
runs=2
t9=5
t16=5
t25=10
solvers=acs,anneal,naive,mrv,dlx,sat,wide,auto
jobs=1
peer=1
tables_only=0
part=""
out=$root/results/phase-transition
while [ $# -gt 0 ]; do
    case $1 in
        --data) data=$2; shift 2 ;;
        --sizes) sizes=$2; shift 2 ;;
        --fills) fills=$2; shift 2 ;;
        --sample) sample=$2; shift 2 ;;
        --runs) runs=$2; shift 2 ;;
        --timeout-9) t9=$2; shift 2 ;;
        --timeout-16) t16=$2; shift 2 ;;
        --timeout-25) t25=$2; shift 2 ;;
        --solvers) solvers=$2; shift 2 ;;
        --jobs) jobs=$2; shift 2 ;;
        --no-peer) peer=0; shift ;;
        --out) out=$2; shift 2 ;;
        --tables-only) tables_only=1; shift ;;
        --part) part=.$2; shift 2 ;;
        -h|--help) sed -n '2,/^set -eu$/p' "$0" | sed '$d'; exit 0 ;;
        *) echo "phase-transition.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
for v in "$sample" "$runs" "$t9" "$t16" "$t25" "$jobs"; do
    case $v in ''|*[!0-9]*) echo "phase-transition.sh: $v is not a whole number" >&2; exit 2 ;; esac
done
[ "$runs" -ge 1 ] || { echo "phase-transition.sh: --runs must be 1 or more" >&2; exit 2; }
bin=${SUDOLAB_BIN:-}
if [ -z "$bin" ]; then
    bin=$root/build-release/sudolab
    [ -x "$bin" ] || bin=$root/build/sudolab
fi
[ -x "$bin" ] || { echo "phase-transition.sh: $bin not found (build first or set SUDOLAB_BIN)" >&2; exit 2; }
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
for tool in gnuplot xz awk; do
    command -v $tool > /dev/null || { echo "phase-transition.sh: $tool is not installed" >&2; exit 2; }
done
[ -d "$data" ] || { echo "phase-transition.sh: no instances in $data (--data DIR)" >&2; exit 2; }
data=$(cd "$data" && pwd)
peer_bin=${SUDOKU_ACS:-$HOME/.cache/sudoku_acs/sudokusolver}
if [ "$peer" = 1 ] && ! [ -x "$peer_bin" ]; then
    echo "phase-transition.sh: Lloyd & Amos's program is not at $peer_bin (set SUDOKU_ACS;" \
        "docs/phase-transition.md says how to build it): running without it" >&2
    peer=0
fi
if [ "$peer" = 1 ] && ! command -v python3 > /dev/null; then
    echo "phase-transition.sh: python3 is not installed: running without the peer" >&2
    peer=0
fi

# our back ends that this build has, in the order given
built=$("$bin" list --csv | awk -F, 'NR > 1 {print $1}')
ours=""
for s in $(echo "$solvers" | tr ',' ' '); do
    if printf '%s\n' "$built" | grep -qx -- "$s"; then
        ours="$ours${ours:+,}$s"
    else
        echo "phase-transition.sh: $s is not in this build: left out" >&2
    fi
done
[ -n "$ours" ] || [ "$peer" = 1 ] || { echo "phase-transition.sh: no back end to run" >&2; exit 2; }
# K runs of an incomplete back end per instance: bench --seeds K where the
# bench has it
seeds_opt=""
if [ "$runs" -gt 1 ]; then
    if "$bin" bench --help 2>&1 | grep -q -- '--seeds'; then
        seeds_opt="--seeds $runs"
    else
        echo "phase-transition.sh: this sudolab has no bench --seeds: our back ends run once per instance" >&2
    fi
fi

mkdir -p "$out"
out=$(cd "$out" && pwd)
# bench runs from the top of the tree with paths relative to it, so that
# env.txt and the cmd: specs it records name no folder of this machine; the
# peer's binary reaches the adapter through SUDOKU_ACS
cd "$root"
rel() { case $1 in "$root"/*) printf '%s\n' "${1#"$root"/}" ;; *) printf '%s\n' "$1" ;; esac; }
rout=$(rel "$out")
bin=$(rel "$bin")
case $bin in */*) ;; *) bin=./$bin ;; esac
export SUDOKU_ACS="$peer_bin"
# one protocol file per part (protocol.txt, protocol.NAME.txt)
[ "$tables_only" = 1 ] || cat > "$out/protocol$part.txt" <<EOT
part: $([ -n "$part" ] && echo "${part#.} (the runs in SIZE$part/)" || echo "the runs in SIZE/")
sample: $sample instances per size x fill (0 = all)
runs: $runs per instance of each stochastic back end
timeouts_s: 9x9=$t9 16x16=$t16 25x25=$t25
solvers: $ours
peer: $([ "$peer" = 1 ] && echo "sudoku_acs, $(printf '%s' "$peer_bin" | sed "s|^$HOME/|~/|")" || echo none)
EOT

for size in $(echo "$sizes" | tr ',' ' '); do
    case $size in
        9x9) t=$t9 ;;
        16x16) t=$t16 ;;
        25x25) t=$t25 ;;
        *) echo "phase-transition.sh: unknown size $size (9x9, 16x16 or 25x25)" >&2; exit 2 ;;
    esac
    set --
    for f in "$data/${size}"_[0-9][0-9][0-9]*; do
        [ -f "$f" ] || continue
        fill=$(basename "$f" | sed "s/^${size}_0*\([0-9][0-9]*\).*/\1/")
        if [ -n "$fills" ] && ! echo ",$fills," | grep -q ",$fill,"; then
            continue
        fi
        set -- "$@" "$(rel "$f")"
    done
    [ $# -gt 0 ] || { echo "phase-transition.sh: no ${size}_FFF files in $data" >&2; continue; }
    # acs and the peer's runs next to each other in every size x fill, so
    # that whatever load the machine has hits both alike (bench runs a
    # corpus's back ends one after the other, in this order)
    list=""
    for s in $(echo "$ours" | tr ',' ' '); do
        list="$list${list:+,}$s"
        if [ "$s" = acs ] && [ "$peer" = 1 ]; then
            k=1
            while [ "$k" -le "$runs" ]; do
                # its own timeout past the budget: the budget ends a run
                list="$list,sudoku_acs.$k=cmd:python3 scripts/sudoku-acs-adapter.py"
                list="$list --timeout $((t + 5)) --log $rout/$size$part/peer-times.tsv"
                k=$((k + 1))
            done
        fi
    done
    case ",$ours," in *,acs,*) ;; *)
        if [ "$peer" = 1 ]; then
            k=1
            while [ "$k" -le "$runs" ]; do
                list="$list${list:+,}sudoku_acs.$k=cmd:python3 scripts/sudoku-acs-adapter.py"
                list="$list --timeout $((t + 5)) --log $rout/$size$part/peer-times.tsv"
                k=$((k + 1))
            done
        fi ;;
    esac
    [ "$tables_only" = 1 ] && continue
    rm -rf "${out:?}/$size$part"
    mkdir -p "$out/$size$part"
    head_opt=""
    [ "$sample" -gt 0 ] && head_opt="--head $sample"
    echo "phase-transition.sh: $size, $# fills, $([ "$sample" -gt 0 ] && echo "the first $sample" || echo all)" \
        "instances of each, $t s per run" >&2
    # shellcheck disable=SC2086 # head_opt and seeds_opt are option pairs or empty
    nice "$bin" bench --solvers "$list" --limit 1 --budget-ms $((t * 1000)) $head_opt $seeds_opt \
        --warmup-ms 0 --pass-ms 0 --jobs "$jobs" --quiet --out "$rout/$size$part" "$@" \
        || echo "phase-transition.sh: bench on $size ended with status $? (see $out/$size$part)" >&2
    # each instance of the sample: its name, from the `# instNxN_F_K.txt`
    # line before it, and its puzzle when the peer ran (to join its times on)
    for f in "$@"; do
        # named as bench names a corpus: a compressed file as its content
        xz -dcf "$f" | awk -v corpus="$(basename "$f" | sed 's/\.[xg]z$//')" -f "$sdir/phase-names.awk"
    done | awk -F'\t' -v OFS='\t' -v sample="$sample" -v peer="$peer" '
        sample == 0 || $2 <= sample { if (!peer) $4 = ""; print }' > "$out/$size$part/names.tsv"
done

# The tables cover every size with runs in DIR, whichever sizes this run had.
# One row per run: size, fill, instance, solver, run, status, time_ns and,
# for the peer, the time its own clock gave (peer-times.tsv, by puzzle). A
# DIR without bench runs keeps the instances.csv it has (scripts/phase-cycles.py
# writes one for its runs interleaved per instance).
benched=0
for d in "$out"/*/runs.csv; do [ -f "$d" ] && benched=1; done
[ "$benched" = 1 ] || [ ! -f "$out/instances.csv" ] && {
    echo "size,fill,instance,solver,run,status,time_ns,own_ns"
    for size in 9x9 16x16 25x25; do
        for d in "$out/$size" "$out/$size".*; do
            [ -f "$d/runs.csv" ] || continue
            touch "$d/peer-times.tsv"
            awk -F'\t' -v size="$size" -v OFS=, '
                FILENAME ~ /names.tsv$/ { name[$1, $2] = $3; puzzle[$1, $2] = $4; next }
                FILENAME ~ /peer-times.tsv$/ { own[$1, ++logged[$1]] = $2; next }
                FNR == 1 { FS = ","; $0 = $0; for (i = 1; i <= NF; i++) c[$i] = i; next }
                {
                    corpus = $c["corpus"]; index_ = $c["index"]; solver = $c["solver"]
                    # our stochastic runs by their seed, the others by repeat
                    run = ("seed" in c) && $c["seed"] != "" ? $c["seed"] : $c["repeat"]
                    if (solver ~ /^sudoku_acs\.[0-9]+$/) { run = substr(solver, 12); solver = "sudoku_acs" }
                    fill = corpus; sub(/^[0-9]+x[0-9]+_0*/, "", fill); sub(/[^0-9].*$/, "", fill)
                    if (fill == "") fill = 0
                    inst = ((corpus, index_) in name) ? name[corpus, index_] : corpus ":" index_
                    p = puzzle[corpus, index_]
                    # the peer logs its solved runs in the order they end, as
                    # runs.csv has them: the n-th solved run of a puzzle is its
                    # n-th line
                    ownns = ""
                    if (solver == "sudoku_acs" && $c["status"] == "solved" && (p, used[p] + 1) in own)
                        ownns = sprintf("%.0f", own[p, ++used[p]] * 1e9)
                    print size, fill, inst, solver, run, $c["status"], $c["time_ns"], ownns
                }' "$d/names.tsv" "$d/peer-times.tsv" FS=, "$d/runs.csv"
        done
    done
} > "$out/instances.csv.new" && mv "$out/instances.csv.new" "$out/instances.csv"

awk -f "$sdir/phase-cells.awk" "$out/instances.csv" > "$out/cells.csv"
cat "$out"/protocol*.txt > "$out/cells.protocol"
awk -f "$sdir/phase-table.awk" -v protocol="$out/cells.protocol" \
    -v cpu="$(sed -n 's/^cpu: //p; s/^machine: .*CPUs, //p' "$out"/*/env.txt "$out"/env.txt 2>/dev/null | head -1)" \
    "$out/cells.csv" > "$out/table.md"
rm -f "$out/cells.protocol"
# per back end over every cell: how many runs it solved, and its slowest
# solved run (the instance that cost it most)
awk -F, '
    function t(ns) { return ns < 1e9 ? sprintf("%.3g ms", ns / 1e6) : sprintf("%.3g s", ns / 1e9) }
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    {
        s = $c["solver"]
        if (!(s in runs)) order[++n] = s
        runs[s]++
        if ($c["status"] == "solved" && $c["time_ns"] + 0 >= slowest[s]) {
            slowest[s] = $c["time_ns"] + 0; where[s] = $c["size"] " " $c["instance"]
        }
        if ($c["status"] == "solved") solved[s]++
    }
    END {
        print "\n## Every cell together\n"
        print "| back end | runs | solved | not solved | slowest solved run |"
        print "|---|---:|---:|---:|---|"
        for (i = 1; i <= n; i++) {
            s = order[i]
            printf "| %s | %d | %d | %d | %s |\n", s, runs[s], solved[s], runs[s] - solved[s],
                (solved[s] ? t(slowest[s]) " (" where[s] ")" : "-")
        }
    }' "$out/instances.csv" >> "$out/table.md"
# acs against the peer on the instances both solved (at least one run each):
# the same instances on both sides, so solving more (and harder) instances
# does not weigh against either
awk -F, '
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["status"] == "solved" && ($c["solver"] == "acs" || $c["solver"] == "sudoku_acs") {
        k = $c["size"] SUBSEP $c["instance"]; t = $c["time_ns"] / 1e6
        if (!($c["size"] in seen)) { seen[$c["size"]] = 1; sizes[++nz] = $c["size"] }
        if ($c["solver"] == "acs") { a[k] += t; na[k]++ }
        else { p[k] += t; np[k]++; if ($c["own_ns"] != "") { o[k] += $c["own_ns"] / 1e6; no[k]++ } }
    }
    function ms(v) { return v < 1000 ? sprintf("%.3g ms", v) : sprintf("%.3g s", v / 1000) }
    function x(v) { return v >= 10 ? sprintf("%.0fx", v) : sprintf("%.2gx", v) }
    END {
        for (k in a) {
            if (!(k in np) || !(k in no)) continue
            split(k, f, SUBSEP); z = f[1]
            n[z]++; ma = a[k] / na[k]; mp = p[k] / np[k]; mo = o[k] / no[k]
            sa[z] += ma; sp[z] += mp; so[z] += mo; lp[z] += log(mp / ma); lo[z] += log(mo / ma)
        }
        if (!nz) exit
        print "\n## acs against sudoku_acs on the instances both solved\n"
        print "Per instance, the mean time of its solved runs; the ratio is sudoku_acs'"'"'s time over"
        print "acs'"'"'s, as the geometric mean over the instances (above 1: acs faster).\n"
        print "| size | instances | acs mean | sudoku_acs round trip | its own clock | ratio (round trip) | ratio (own clock) |"
        print "|---|---:|---:|---:|---:|---:|---:|"
        for (i = 1; i <= nz; i++) {
            z = sizes[i]
            if (!n[z]) continue
            printf "| %s | %d | %s | %s | %s | %s | %s |\n", z, n[z], ms(sa[z] / n[z]), ms(sp[z] / n[z]),
                ms(so[z] / n[z]), x(exp(lp[z] / n[z])), x(exp(lo[z] / n[z]))
        }
    }' "$out/instances.csv" >> "$out/table.md"
printf '\n## Plots\n' >> "$out/table.md"
for size in 9x9 16x16 25x25; do
    grep -q "^$size," "$out/cells.csv" || continue
    gnuplot -e "sdir='$sdir'; csv='$out/cells.csv'; size='$size'; out='$out/phase-$size'" \
        "$sdir/phase-success.gp"
    gnuplot -e "sdir='$sdir'; csv='$out/cells.csv'; size='$size'; out='$out/phase-$size'" \
        "$sdir/phase-time.gp"
    printf '\n![%s: success rate against fill](phase-%s-success.png)\n' "$size" "$size"
    printf '\n![%s: median and p90 time against fill](phase-%s-time.png)\n' "$size" "$size"
done >> "$out/table.md"
echo "phase-transition.sh: wrote $out/table.md, instances.csv, cells.csv and the plots" >&2
