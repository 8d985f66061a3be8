#!/bin/sh
# run.sh - golden error cases, one folder per case:
#   tests/golden/config/<case>/config.json   input config (run with `hwprof run`)
#   tests/golden/config/<case>/expected      the exact stderr line expected
#   tests/golden/config/<case>/exit          expected exit status
# A case passes when stderr and the exit status match and no result file
# appears.  Trace cases live in tests/golden/trace (run-trace.sh).
# Usage: tests/golden/run.sh build/hwprof
set -u
HWPROF=${1:-build/hwprof}
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for dir in tests/golden/config/*/; do
    case=${dir%/}
    out="$tmp/out"
    rm -rf "$out"; mkdir -p "$out"
    "$HWPROF" run --quiet --traces tests/golden/traces --out "$out" --experiments tests/golden/experiments \
        "$case/config.json" 2>"$tmp/stderr" >/dev/null
    rc=$?
    want_rc=$(cat "$case/exit")
    case_start
    if [ "$rc" != "$want_rc" ]; then case_fail "$case: exit $rc, expected $want_rc"; fi
    if ! diff -u "$case/expected" "$tmp/stderr" >"$tmp/diff"; then
        case_fail "$case: message differs"; cat "$tmp/diff"
    fi
    if [ -n "$(find "$out" -type f)" ]; then case_fail "$case: output written: $(find "$out" -type f)"; fi
    case_end
done
if [ -x tests/golden/run-trace.sh ]; then
    if tests/golden/run-trace.sh "$HWPROF" >"$tmp/trace.log" 2>&1; then
        tp=$(sed -n 's/.* \([0-9][0-9]*\) passed.*/\1/p' "$tmp/trace.log" | tail -n1)
        add_counts "${tp:-0}" 0
    else
        cat "$tmp/trace.log"; bad "tests/golden/run-trace.sh"
    fi
fi
summary golden
