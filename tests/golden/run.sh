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
pass=0 fail=0
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
    ok=1
    if [ "$rc" != "$want_rc" ]; then echo "FAIL $case: exit $rc, expected $want_rc"; ok=0; fi
    if ! diff -u "$case/expected" "$tmp/stderr" >"$tmp/diff"; then
        echo "FAIL $case: message differs"; cat "$tmp/diff"; ok=0
    fi
    if [ -n "$(find "$out" -type f)" ]; then echo "FAIL $case: output written: $(find "$out" -type f)"; ok=0; fi
    if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
if [ -x tests/golden/run-trace.sh ]; then
    if tests/golden/run-trace.sh "$HWPROF" >"$tmp/trace.log" 2>&1; then
        tp=$(sed -n 's/.* \([0-9][0-9]*\) passed.*/\1/p' "$tmp/trace.log" | tail -n1)
        pass=$((pass + ${tp:-0}))
    else
        cat "$tmp/trace.log"; fail=$((fail + 1))
    fi
fi
echo "golden: $pass passed, $fail failed"
[ $fail -eq 0 ]
