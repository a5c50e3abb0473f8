# Each entry of one corpus file, as `corpus<TAB>index<TAB>name<TAB>puzzle`:
# index counts entries from 1 as sudolab does, name is the `# instNxN_F_K.txt`
# comment before the entry (Lewis's file name; corpus:index without one) and
# puzzle is the grid in sudolab's protocol symbols ('.' blank, 1-9 then A-P),
# as a cmd: back end receives it (scripts/phase-transition.sh joins the
# peer's own times on it). Reads both one-line puzzles and Lewis's format
# (order n, an integer, then n^4 values, -1 for a blank).
#
# usage: xz -dcf FILE | awk -v corpus=NAME -f scripts/phase-names.awk
BEGIN {
    OFS = "\t"
    symbols = "123456789ABCDEFGHIJKLMNOP"
}

function emit(grid) {
    index_++
    print corpus, index_, (pending != "" ? pending : corpus ":" index_), grid
    pending = ""
}

{ sub(/\r$/, "") }

/^#/ {
    if (match($0, /inst[0-9]+x[0-9]+_[0-9]+_[0-9]+\.txt/))
        pending = substr($0, RSTART, RLENGTH)
    next
}

NF == 0 { next }

# a Lewis entry under way: its values, whitespace-separated, any lines
want > 0 {
    for (i = 1; i <= NF && want > 0; i++) {
        grid = grid ($i == -1 ? "." : substr(symbols, $i, 1))
        want--
    }
    if (want == 0)
        emit(grid)
    next
}

# a Lewis entry starts with its order alone on a line, then an integer
order == 0 && NF == 1 && $1 ~ /^[2-5]$/ && lewis_head == 0 {
    order = $1
    lewis_head = 1
    next
}

lewis_head == 1 {
    # the second integer: read and ignored, as sudolab does; values may follow
    lewis_head = 0
    want = order * order * order * order
    order = 0
    grid = ""
    for (i = 2; i <= NF && want > 0; i++) {
        grid = grid ($i == -1 ? "." : substr(symbols, $i, 1))
        want--
    }
    if (want == 0)
        emit(grid)
    next
}

# a one-line puzzle: its first word, blanks as '.'
{
    p = $1
    sub(/[,;:].*$/, "", p)
    gsub(/0/, ".", p)
    emit(toupper(p))
}
