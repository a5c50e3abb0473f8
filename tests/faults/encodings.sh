#!/bin/sh
# The fault battery's encodings: `sudolab solve` on every kind of text file
# people have (a UTF-8 byte-order mark, CR, CRLF and mixed line ends, trailing
# blanks, no last newline, a line longer than any buffer, UTF-16, binary),
# each made on the fly. Every file either reads whole or is refused with its
# name, line and reason and a non-zero exit status; nothing is lost silently.
# Prints the table `# | fault | command | expected | outcome |`.
# Usage: encodings.sh SUDOLAB
set -u
bin=${1:-${SUDOLAB_BIN:-sudolab}}
# shellcheck source=tests/tap.sh
. "$(dirname "$0")/../tap.sh"

a='1....2....3....4'
b='12..34..........'
c='1.2.............'
table="$tmp/table"
: > "$table"

# expect FAULT FILE STATUS ROWS [STDERR-TEXT]: solves FILE ("-" reads
# $tmp/stdin), then checks the exit status, the number of result rows, and
# that standard error holds STDERR-TEXT (or is empty without one).
expect() {
    fault=$1 file=$2 want_status=$3 want_rows=$4 want_err=${5:-}
    if [ "$file" = - ]; then
        "$bin" solve - < "$tmp/stdin" > "$tmp/out" 2> "$tmp/err"
    else
        "$bin" solve "$file" > "$tmp/out" 2> "$tmp/err"
    fi
    status=$?
    rows=$(grep -c '^[0-9]' "$tmp/out")
    check "$fault: exit status" "$status" "$want_status"
    [ "$rows" -eq "$want_rows" ]
    ok "$fault: $want_rows result rows" $? "got $rows"
    if [ -n "$want_err" ]; then
        has "$fault: message" "$tmp/err" "$want_err"
    else
        [ ! -s "$tmp/err" ]
        ok "$fault: no message" $? "$(head -n 3 "$tmp/err")"
    fi
    expected="exit $want_status, $want_rows rows${want_err:+, '$want_err'}"
    outcome="exit $status, $rows rows"
    first=$(head -n 1 "$tmp/err")
    [ -n "$first" ] && outcome="$outcome, '${first#"$tmp/"}'"
    printf '| %s | sudolab solve %s | %s | %s |\n' "$fault" "${file#"$tmp/"}" \
        "$expected" "$outcome" >> "$table"
}

printf '\357\273\277%s\n%s\n%s\n' "$a" "$b" "$c" > "$tmp/bom.txt"
expect "UTF-8 BOM" "$tmp/bom.txt" 0 3
printf '\357\273\277# variant=diagonal\r\n%s\r\n' "$a" > "$tmp/bom-header.txt"
expect "UTF-8 BOM before a header" "$tmp/bom-header.txt" 0 1
cp "$tmp/bom.txt" "$tmp/stdin"
expect "UTF-8 BOM on standard input" - 0 3
if command -v gzip > /dev/null; then
    gzip -c "$tmp/bom.txt" > "$tmp/bom.gz"
    expect "UTF-8 BOM inside gzip" "$tmp/bom.gz" 0 3
else
    skip "UTF-8 BOM inside gzip" "no gzip"
fi
if command -v xz > /dev/null; then
    xz -c "$tmp/bom.txt" > "$tmp/bom.xz"
    expect "UTF-8 BOM inside xz" "$tmp/bom.xz" 0 3
else
    skip "UTF-8 BOM inside xz" "no xz"
fi

printf '%s\r%s\r%s\r' "$a" "$b" "$c" > "$tmp/cr.txt"
expect "CR-only line ends" "$tmp/cr.txt" 0 3
printf '%s\r\n%s\r\n%s\r\n' "$a" "$b" "$c" > "$tmp/crlf.txt"
expect "CRLF line ends" "$tmp/crlf.txt" 0 3
printf '%s\n%s\r%s\r\n' "$a" "$b" "$c" > "$tmp/mixed.txt"
expect "mixed LF, CR, CRLF" "$tmp/mixed.txt" 0 3
printf '%s\r\r12\r%s\r' "$a" "$b" > "$tmp/cr-bad.txt"
expect "CR-only, bad line numbered" "$tmp/cr-bad.txt" 1 3 "cr-bad.txt:3: 2 symbols"
printf '%s\r\n\r\n12\r\n%s\r\n' "$a" "$b" > "$tmp/crlf-bad.txt"
expect "CRLF, bad line numbered" "$tmp/crlf-bad.txt" 1 3 "crlf-bad.txt:3: 2 symbols"
printf '%s\n\r12\r\n%s\n' "$a" "$b" > "$tmp/mixed-bad.txt"
expect "mixed, bad line numbered" "$tmp/mixed-bad.txt" 1 3 "mixed-bad.txt:3: 2 symbols"

printf '%s \t \n%s\t\n1 0 0 0 \n0 2 0 0\t\n0 0 3 0  \n0 0 0 4\t \n' "$a" "$b" \
    > "$tmp/trailing.txt"
expect "trailing blanks and tabs" "$tmp/trailing.txt" 0 3
printf '%s\n%s' "$a" "$b" > "$tmp/no-newline.txt"
expect "no newline at the end" "$tmp/no-newline.txt" 0 2

# A line longer than any buffer, through a pipe: the line is refused with
# the limit it broke, the next line still read, and the reader's peak memory
# (GNU time's maximum resident set size) stays far below the line's length.
mib=64
long_line() { # long_line TAIL: $mib MiB of '1' and no newline, then TAIL
    head -c $((mib << 20)) /dev/zero | tr '\0' 1
    printf '%s' "$1"
}
timed=
if /usr/bin/time -v -o "$tmp/time" true 2> /dev/null; then
    timed="/usr/bin/time -v -o $tmp/time"
fi
# The program's own footprint (libraries, sanitizer runtime) is measured on
# one short puzzle and left out: the bound is on what the long line adds.
base_kib=0
if [ -n "$timed" ]; then
    printf '%s\n' "$a" | $timed "$bin" solve - > /dev/null 2>&1
    base_kib=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$tmp/time")
fi
for tail in "$(printf '\n%s\n' "$a")" ''; do
    if [ -n "$tail" ]; then
        fault="$mib MiB line, then a puzzle" want_rows=2
    else
        fault="$mib MiB line without a newline" want_rows=1
    fi
    long_line "$tail" | $timed "$bin" solve - > "$tmp/out" 2> "$tmp/err"
    status=$?
    rows=$(grep -c '^[0-9]' "$tmp/out")
    check "$fault: exit status" "$status" 1
    [ "$rows" -eq "$want_rows" ]
    ok "$fault: $want_rows result rows" $? "got $rows"
    want_err="<stdin>:1: line longer than 4096 bytes (it has $((mib << 20)))"
    has "$fault: message" "$tmp/err" "$want_err"
    outcome="exit $status, $rows rows, '$(head -n 1 "$tmp/err")'"
    if [ -n "$timed" ]; then
        kib=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$tmp/time")
        [ "${kib:-0}" -gt 0 ] && [ $((kib - ${base_kib:-0})) -lt $(((mib << 10) / 2)) ]
        ok "$fault: peak memory below half the line" $? \
            "${kib:-?} KiB, ${base_kib:-?} KiB of it on a short puzzle"
        outcome="$outcome, peak RSS $kib KiB ($base_kib KiB on a short puzzle)"
    else
        skip "$fault: peak memory below half the line" "no GNU time"
    fi
    printf '| %s | sudolab solve - (piped in) | exit 1, %s rows, memory < %s MiB | %s |\n' \
        "$fault" "$want_rows" $((mib / 2)) "$outcome" >> "$table"
done

# Lewis's instance format (datasets/lewis) under the same faults: a 4x4
# instance as sudoku_acs writes its files (CRLF, a tab after each value).
lewis='2\r\n1\r\n1\t-1\t-1\t-1\t\r\n-1\t2\t-1\t-1\t\r\n-1\t-1\t3\t-1\t\r\n-1\t-1\t-1\t4\t\r\n'
printf '%b' "$lewis" > "$tmp/lewis-crlf.txt"
expect "Lewis instance, CRLF" "$tmp/lewis-crlf.txt" 0 1
printf '\357\273\277%b' "$lewis" > "$tmp/lewis-bom.txt"
expect "Lewis instance after a UTF-8 BOM" "$tmp/lewis-bom.txt" 0 1
tr -d '\n' < "$tmp/lewis-crlf.txt" > "$tmp/lewis-cr.txt"
expect "Lewis instance, CR-only" "$tmp/lewis-cr.txt" 0 1
head -c -2 "$tmp/lewis-crlf.txt" > "$tmp/lewis-no-newline.txt"
expect "Lewis instance, no newline at the end" "$tmp/lewis-no-newline.txt" 0 1
{ printf '# one\n%b# two\n' "$lewis"; head -n 4 "$tmp/lewis-crlf.txt"
  printf '# three\n%b' "$lewis"; } > "$tmp/lewis-cut.txt"
expect "Lewis instance cut short between two" "$tmp/lewis-cut.txt" 1 3 \
    "lewis-cut.txt:9: instance has 8 of its 16 values (truncated at line 13)"
if command -v gzip > /dev/null; then
    gzip -c "$tmp/lewis-cut.txt" > "$tmp/lewis-cut.gz"
    expect "Lewis instances inside gzip" "$tmp/lewis-cut.gz" 1 3 \
        "lewis-cut.gz:9: instance has 8 of its 16 values (truncated at line 13)"
else
    skip "Lewis instances inside gzip" "no gzip"
fi
printf '%b' "$lewis" | sed 's/2\t-1/2\t\x00/' > "$tmp/lewis-nul.txt"
expect "NUL byte in a Lewis instance" "$tmp/lewis-nul.txt" 1 1 \
    "lewis-nul.txt:1: binary data (NUL byte at offset 24)"

utf16='UTF-16 is not supported, convert to UTF-8'
printf '\377\376#\000\n\0001\000.\000' > "$tmp/utf16le-bom.txt"
expect "UTF-16 LE with BOM" "$tmp/utf16le-bom.txt" 1 0 "utf16le-bom.txt: $utf16"
printf '\376\377\000#\000\n\0001\000.' > "$tmp/utf16be-bom.txt"
expect "UTF-16 BE with BOM" "$tmp/utf16be-bom.txt" 1 0 "utf16be-bom.txt: $utf16"
printf '1\000.\000.\000.\000\r\000\n\000' > "$tmp/utf16le.txt"
expect "UTF-16 LE without BOM" "$tmp/utf16le.txt" 1 0 "utf16le.txt: $utf16"
printf '\0001\000.\000.\000.\000\r\000\n' > "$tmp/utf16be.txt"
expect "UTF-16 BE without BOM" "$tmp/utf16be.txt" 1 0 "utf16be.txt: $utf16"

printf '%s\n1...\0002...3...4...\n%s\n' "$a" "$b" > "$tmp/nul.txt"
expect "NUL byte in a line" "$tmp/nul.txt" 1 3 \
    "nul.txt:2: binary data (NUL byte at offset 21)"
printf '\177ELF\002\001\001\000\000\000\000\000\n\000\000' > "$tmp/binary.elf"
expect "binary file (ELF header)" "$tmp/binary.elf" 1 2 \
    "binary.elf:1: binary data (control byte 0x7f at offset 0)"

# Pencil-mark (sukaku) lines, 729 characters (docs/formats.md): a file of
# good and bad ones, plain and compressed; each bad line is named with its
# reason and gets an invalid row, and the lines after it are still solved.
# The 9x9 puzzle of tests/data/se_dev.tsv's line 63 written as candidates:
# a clue its value alone, a blank all nine.
p9='..............1.23.45.6............7....8......924.......3...9...8...4..3....7...'
cand=$(printf '%s\n' "$p9" | awk '{
    s = ""
    for (i = 1; i <= 81; i++) {
        ch = substr($0, i, 1)
        if (ch == ".") s = s "123456789"
        else s = s substr(".........", 1, ch - 1) ch substr(".........", ch + 1)
    }
    print s }')
rest() { printf '%s' "$cand" | cut -c"$1"-; } # the candidates from column $1 on
{
    printf '%s\n' "$cand"
    printf '%s\n' "$cand" | cut -c1-728
    printf '%s9\n' "$cand"
    printf '123456789.........%s\n' "$(rest 19)"
    printf '1234x6789%s\n' "$(rest 10)"
    printf '....5....%s\n' "$(rest 10)"
    printf '%s\n' "$cand"
} > "$tmp/sukaku.txt"
sukaku_bad() { # sukaku_bad FAULT FILE: the five bad lines' messages
    for want in \
        "$2:2: 728 symbols is no grid size" \
        "$2:3: 730 symbols is no grid size" \
        "$2:4: r1c2 has no candidate: the puzzle is a contradiction" \
        "$2:5: 'x' at column 5 stands where candidate 5 of r1c1 goes" \
        "$2:6: lone candidate 5 appears twice in box 1 (r1c1 and r3c3)"; do
        has "$1: ${want#*: }" "$tmp/err" "$want"
    done
}
expect "pencil marks: 728, 730, no candidate, 'x', a clashing lone 5" \
    "$tmp/sukaku.txt" 1 7 "sukaku.txt:2: 728 symbols"
sukaku_bad "pencil marks" sukaku.txt
[ "$(grep -c '^[0-9]* unique' "$tmp/out")" -eq 2 ]
ok "pencil marks: the two good lines solved" $? "$(cut -c1-60 "$tmp/out")"
for z in gzip xz; do
    if command -v $z > /dev/null; then
        $z -c "$tmp/sukaku.txt" > "$tmp/sukaku.$z"
        expect "pencil marks inside $z" "$tmp/sukaku.$z" 1 7 "sukaku.$z:2: 728 symbols"
        sukaku_bad "pencil marks inside $z" "sukaku.$z"
    else
        skip "pencil marks inside $z" "no $z"
    fi
done

echo "# | fault | command | expected | outcome |"
echo "# |---|---|---|---|"
sed 's/^/# /' "$table"
tap_end
