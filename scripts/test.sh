#!/bin/sh
# Sets up everything and runs the whole test suite twice: a normal build
# (warnings are errors) and an AddressSanitizer + UndefinedBehaviorSanitizer
# build; compiles the release build (-O3, warnings are errors); then runs
# each libFuzzer target for 60 s (clang). Ends with one line
# "N passed, N failed, N skipped". With SUDOLAB_CI set (.ci/run), the suites
# CI expects to run (MPI, the page, fuzzing) fail instead of skipping when
# their tools are missing.
# Usage: scripts/test.sh [meson test arguments...]
set -u
cd "$(dirname "$0")/.." || exit 1
# Beyond the build: MPI for sudolab-mpi's test, clang-format for the style
# test, python3 for the process back end's test, and clang's wasm32 target
# and Chromium for the page's browser test (which skips without them).
sh scripts/setup-debian.sh libopenmpi-dev openmpi-bin clang lld llvm clang-format python3 wasi-libc \
    libclang-rt-14-dev libclang-rt-14-dev-wasm32 chromium || exit 1
# npm ci waits on the network: it runs while the normal build compiles
npm=""
if command -v npm > /dev/null 2>&1 && [ ! -d tests/web/node_modules/playwright-core ]; then
    (
        cd tests/web && npm ci --no-audit --no-fund > /dev/null \
            || echo "test.sh: npm ci failed in tests/web; the browser test will skip" >&2
    ) &
    npm=$!
fi

passed=0 failed=0 skipped=0
start=$(date +%s)
phase() { echo "== $* (at $(($(date +%s) - start)) s)"; }

niceness="" # "nice -n 19" in the later builds' subshell
build() { # build BUILD-DIR SETUP-ARGS...: configure (once) and compile
    dir=$1
    shift
    if [ -f "$dir/build.ninja" ]; then
        meson configure "$dir" "$@" > /dev/null || return 1
    else
        meson setup "$dir" "$@" > /dev/null || return 1
    fi
    $niceness ninja -C "$dir" > "$dir.build.log" 2>&1
}

# The later builds compile one after the other in the background, at the
# lowest priority, from the start: the normal build ends on one long compile
# (solvers/wide.c) with a core idle, and the suites wait on signals, MPI,
# Chromium and their last long test, so the two cores are not busy all along;
# a background build takes what the foreground leaves. The sanitizer build comes
# first (its suite is next), then the release check, then the fuzz targets.
# Each build's exit status is written to DIR.status.
build_later() { # build_later BUILD-DIR SETUP-ARGS...
    build "$@"
    echo $? > "$1.status"
}

# wait_build BUILD-DIR: waits for its status (as long as the later builds'
# subshell $later runs), prints its log if it failed
wait_build() {
    while [ ! -f "$1.status" ] && kill -0 "$later" 2> /dev/null; do sleep 1; done
    if [ -f "$1.status" ] && [ "$(cat "$1.status")" -eq 0 ]; then return 0; fi
    cat "$1.build.log" 2> /dev/null
    return 1
}

run_tests() { # run_tests BUILD-DIR: meson test, its counts added to the totals
    dir=$1
    # shellcheck disable=SC2086
    meson test -C "$dir" --print-errorlogs --num-processes 2 $test_args > "$dir.test.log" 2>&1
    rc=$?
    cat "$dir.test.log"
    ok=$(sed -n 's/^Ok: *\([0-9]*\).*/\1/p' "$dir.test.log" | tail -n 1)
    bad=$(sed -n 's/^Fail: *\([0-9]*\).*/\1/p' "$dir.test.log" | tail -n 1)
    xpass=$(sed -n 's/^Unexpected Pass: *\([0-9]*\).*/\1/p' "$dir.test.log" | tail -n 1)
    timeout=$(sed -n 's/^Timeout: *\([0-9]*\).*/\1/p' "$dir.test.log" | tail -n 1)
    skip=$(sed -n 's/^Skipped: *\([0-9]*\).*/\1/p' "$dir.test.log" | tail -n 1)
    passed=$((passed + ${ok:-0}))
    failed=$((failed + ${bad:-0} + ${xpass:-0} + ${timeout:-0}))
    skipped=$((skipped + ${skip:-0}))
    return $rc
}

test_args="$*"
status=0
have_clang=0
command -v clang > /dev/null 2>&1 && have_clang=1
rm -f build-asan.status build-release-check.status build-fuzz.status
(
    niceness="nice -n 19"
    # -O1, as AddressSanitizer's documentation advises for its speed: the
    # same tests, each about half the CPU of -O0 (docs/testing.md)
    build_later build-asan -Db_sanitize=address,undefined -Db_lundef=false -Doptimization=1 \
        -Ddebug=true
    # gcc -O3 inlines deeper than -O2 and warns where it does not (array
    # bounds seen through recursion): the build users run must be
    # warning-free too.
    build_later build-release-check --buildtype=release -Dwerror=true -Dtests=disabled
    if [ "$have_clang" -eq 1 ]; then
        export CC=clang CXX=clang++
        build_later build-fuzz -Dfuzz=true -Dtests=disabled -Dbuildtype=debugoptimized \
            -Db_sanitize=address,undefined -Db_lundef=false -Dfuzz_seconds=60
    fi
) &
later=$!
phase "normal build (build-test)"
if build build-test -Dwerror=true -Dbuildtype=debugoptimized; then
    normal_built=1
else
    cat build-test.build.log
    normal_built=0 status=1
fi
[ -n "$npm" ] && wait "$npm"
if [ "$normal_built" -eq 1 ]; then
    run_tests build-test || status=1
fi
phase "sanitizer build (build-asan): address, undefined"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
if wait_build build-asan; then
    run_tests build-asan || status=1
else
    status=1
fi
phase "release build (build-release-check): compiled only, warnings as errors"
wait_build build-release-check || status=1
if [ "$have_clang" -eq 1 ]; then
    phase "fuzz build (build-fuzz): each libFuzzer target for 60 s"
    if wait_build build-fuzz; then
        run_tests build-fuzz || status=1
    else
        status=1
    fi
elif [ -n "${SUDOLAB_CI:-}" ]; then
    phase "no clang: the fuzz targets cannot run, and SUDOLAB_CI is set: a failure"
    status=1
else
    phase "no clang: the fuzz targets are not run"
fi
wait
phase "done"
[ "$status" -ne 0 ] && [ "$failed" -eq 0 ] && failed=1
echo "$passed passed, $failed failed, $skipped skipped"
exit "$status"
