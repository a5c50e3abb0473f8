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
if command -v npm > /dev/null 2>&1 && [ ! -d tests/web/node_modules/playwright-core ]; then
    (cd tests/web && npm ci --no-audit --no-fund > /dev/null) \
        || echo "test.sh: npm ci failed in tests/web; the browser test will skip" >&2
fi

passed=0 failed=0 skipped=0
run_suite() { # run_suite BUILD-DIR SETUP-ARGS...
    dir=$1
    shift
    if [ -f "$dir/build.ninja" ]; then
        meson configure "$dir" "$@" > /dev/null || return 1
    else
        meson setup "$dir" "$@" > /dev/null || return 1
    fi
    ninja -C "$dir" > "$dir.build.log" 2>&1 || { cat "$dir.build.log"; return 1; }
    meson test -C "$dir" --print-errorlogs --num-processes 2 $test_args > "$dir.test.log" 2>&1
    status=$?
    cat "$dir.test.log"
    ok=$(sed -n 's/^Ok: *\([0-9]*\).*/\1/p' "$dir.test.log" | tail -n 1)
    bad=$(sed -n 's/^Fail: *\([0-9]*\).*/\1/p' "$dir.test.log" | tail -n 1)
    xpass=$(sed -n 's/^Unexpected Pass: *\([0-9]*\).*/\1/p' "$dir.test.log" | tail -n 1)
    timeout=$(sed -n 's/^Timeout: *\([0-9]*\).*/\1/p' "$dir.test.log" | tail -n 1)
    skip=$(sed -n 's/^Skipped: *\([0-9]*\).*/\1/p' "$dir.test.log" | tail -n 1)
    passed=$((passed + ${ok:-0}))
    failed=$((failed + ${bad:-0} + ${xpass:-0} + ${timeout:-0}))
    skipped=$((skipped + ${skip:-0}))
    return $status
}

test_args="$*"
status=0
echo "== normal build (build-test)"
run_suite build-test -Dwerror=true -Dbuildtype=debugoptimized || status=1
echo "== release build (build-release-check): compiled only, warnings as errors"
# gcc -O3 inlines deeper than -O2 and warns where it does not (array bounds
# seen through recursion): the build users run must be warning-free too.
if [ -f build-release-check/build.ninja ] \
    || meson setup build-release-check --buildtype=release -Dwerror=true -Dtests=disabled \
        > /dev/null; then
    ninja -C build-release-check > build-release-check.build.log 2>&1 \
        || { cat build-release-check.build.log; status=1; }
else
    status=1
fi
echo "== sanitizer build (build-asan): address, undefined"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
run_suite build-asan -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debug \
    || status=1
if command -v clang > /dev/null 2>&1; then
    echo "== fuzz build (build-fuzz): each libFuzzer target for 60 s"
    export CC=clang CXX=clang++
    run_suite build-fuzz -Dfuzz=true -Dtests=disabled -Dbuildtype=debugoptimized \
        -Db_sanitize=address,undefined -Db_lundef=false -Dfuzz_seconds=60 || status=1
elif [ -n "${SUDOLAB_CI:-}" ]; then
    echo "== no clang: the fuzz targets cannot run, and SUDOLAB_CI is set: a failure"
    status=1
else
    echo "== no clang: the fuzz targets are not run"
fi
[ "$status" -ne 0 ] && [ "$failed" -eq 0 ] && failed=1
echo "$passed passed, $failed failed, $skipped skipped"
exit "$status"
