# shellcheck shell=sh
# Helpers of the fault suites (sourced after tests/tap.sh, which makes $tmp):
# the table every suite prints, and waiting on a run's rows.

: > "$tmp/table"

row() { # row FAULT COMMAND EXPECTED OUTCOME: a line of the suite's table
    printf '| %s | %s | %s | %s |\n' "$1" "$2" "$3" "$4" >> "$tmp/table"
}

print_table() { # the table, as TAP comments
    printf '| fault | command | expected | outcome |\n|---|---|---|---|\n' \
        | cat - "$tmp/table" | sed 's/^/# /'
}

lines_of() { # lines_of FILE: its newline count, 0 when it does not exist
    if [ -f "$1" ]; then wc -l < "$1" | tr -d ' '; else echo 0; fi
}

# wait_lines PID FILE N: until FILE has N lines or PID has ended. Kill points
# are chosen by what was written, never by a sleep or a time limit, so a loaded
# machine changes only how long this takes (a run that writes nothing is
# meson's timeout).
wait_lines() {
    while [ "$(lines_of "$2")" -lt "$3" ] && kill -0 "$1" 2> /dev/null; do
        sleep 0.01
    done
}

# whole_rows FILE FIELDS: every newline-terminated line has FIELDS
# comma-separated fields (a torn last line, without its newline, is left out).
whole_rows() {
    if [ "$(tail -c 1 "$1" | od -An -c | tr -d ' ')" = '\n' ]; then cat "$1"; else sed '$d' "$1"; fi \
        | awk -F, -v nf="$2" 'NF != nf {bad = 1} END {exit bad}'
}

ends_in_newline() { # ends_in_newline FILE: no torn last line
    [ ! -s "$1" ] || [ "$(tail -c 1 "$1" | od -An -c | tr -d ' ')" = '\n' ]
}
