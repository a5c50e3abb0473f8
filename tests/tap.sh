# shellcheck shell=sh
# TAP helpers shared by the shell suites (sourced, not run): each check prints
# "ok N - NAME" or "not ok N - NAME" with what went wrong as "#" lines, and
# tap_end prints the plan and exits 1 when any check failed.
# The including script sets -u and may use $tmp, a folder removed at exit.
failures=0
n=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { # ok NAME CONDITION-STATUS [DETAIL]
    n=$((n + 1))
    if [ "$2" -eq 0 ]; then
        echo "ok $n - $1"
    else
        echo "not ok $n - $1${3:+: $3}"
        failures=$((failures + 1))
    fi
}

skip() { # skip NAME REASON
    n=$((n + 1))
    echo "ok $n - $1 # SKIP $2"
}

check() { # check NAME COMMAND-STATUS EXPECTED-STATUS
    [ "$2" -eq "$3" ]
    ok "$1" $? "exit status $2, expected $3"
}

has() { # has NAME FILE PATTERN
    grep -q -- "$3" "$2"
    st=$?
    [ "$st" -ne 0 ] && { echo "# '$3' not in:"; head -c 4000 "$2" | sed 's/^/#   /'; }
    ok "$1" "$st"
}

same() { # same NAME FILE1 FILE2
    cmp -s "$2" "$3"
    st=$?
    [ "$st" -ne 0 ] && diff "$2" "$3" | head -n 20 | sed 's/^/#   /'
    ok "$1" "$st"
}

tap_end() { # prints the plan; exit status 1 when a check failed
    echo "1..$n"
    [ "$failures" -eq 0 ]
    exit $?
}
