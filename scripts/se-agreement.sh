#!/bin/sh
# Agreement of `sudolab rate --method se` with serate's ratings.
# usage: scripts/se-agreement.sh [SUDOLAB] [RATINGS.tsv]  (source<TAB>puzzle<TAB>ER/EP/ED,
# default tests/data/se_dev.tsv; its provenance in tests/data/se_dev.README.md)
# Prints exact and within-0.2 shares of ER, EP and ED per source and per ER
# band, then every miss (source, puzzle, serate's, ours, our ER technique).
# serate's 20.0 against our `beyond` is agreement: both rate the puzzle past
# their techniques.
# Exits 1 when any rating misses (or sudolab gave fewer lines than the file
# has), 0 when all of ER, EP and ED are exact.
set -eu
bin=${1:-build/sudolab}
tsv=${2:-$(dirname "$0")/../tests/data/se_dev.tsv}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
cut -f2 "$tsv" | "$bin" rate --method se --no-puzzle - | grep -v '^#' >"$tmp"
paste "$tsv" "$tmp" | awk -F'\t' '
function band(er) { return er < 2 ? "1.0-1.9" : er < 4 ? "2.0-3.9" : er < 6 ? "4.0-5.9" : er < 8 ? "6.0-7.9" : er < 10 ? "8.0-9.9" : "10.0+" }
function tally(key, i,  d) {
    if (i == 1) n[key]++
    d = ref[i] - got[i]; if (d < 0) d = -d
    if (d < 0.05) ex[key, i]++
    if (d < 0.25) near[key, i]++
}
{
    split($3, ref, "/")
    split($4, f, " ")
    rating = f[2]; sub(/^se=/, "", rating); tech = f[3]; sub(/^se_technique=/, "", tech)
    # 20.0 from serate and beyond from us are one verdict: both gave up
    both_gave_up = ref[1] == 20 && rating == "beyond"
    if (both_gave_up) { got[1] = ref[1]; got[2] = ref[2]; got[3] = ref[3] }
    else if (split(rating, got, "/") != 3) { got[1] = got[2] = got[3] = -1 }
    for (i = 1; i <= 3; i++) { tally($1, i); tally("band " band(ref[1]), i); tally("all", i) }
    if (!($1 in seen)) { seen[$1] = 1; order[++ns] = $1 }
    if (rating != $3 && !both_gave_up) misses[++nm] = $1 "\t" $2 "\t" $3 "\t" rating "\t" tech
}
END {
    split("1.0-1.9 2.0-3.9 4.0-5.9 6.0-7.9 8.0-9.9 10.0+", bands, " ")
    for (b = 1; b <= 6; b++) order[++ns] = "band " bands[b]
    order[++ns] = "all"
    printf "%-16s %5s  %-13s %-13s %-13s\n", "set", "n", "ER =/0.2", "EP =/0.2", "ED =/0.2"
    for (k = 1; k <= ns; k++) {
        key = order[k]; if (!(key in n)) continue
        printf "%-16s %5d ", key, n[key]
        for (i = 1; i <= 3; i++) printf " %5.1f%%/%5.1f%%", 100 * ex[key, i] / n[key], 100 * near[key, i] / n[key]
        printf "\n"
    }
    printf "\nmisses (source, puzzle, serate, sudolab, sudolab ER technique): %d\n", nm
    for (m = 1; m <= nm; m++) print misses[m]
    exit (nm > 0 || NR == 0)
}'
