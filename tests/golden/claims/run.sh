#!/bin/sh
# run.sh - golden cases of `hwprof claims` (src/cli/cmd_claims.c,
# docs/claims.md), one folder per case under tests/golden/claims/:
#   claims.json        the claims (more files with args)
#   results/           the hand-made CSVs the claims' queries read
#   args               the arguments after `claims` (optional; default: claims.json)
#   exit               the expected exit status
#   stdout, stderr     the exact output expected (absent: must be empty)
#   expected.csv, expected.workloads.csv
#                      results/claims.csv and results/claims.workloads.csv as
#                      they must be written (absent: no such file may appear,
#                      unless the case brings one)
#   NOTES              the hand arithmetic behind the expected numbers
# The case folder is copied to a scratch folder and the command runs there
# (src= paths are relative to it).  After a run that wrote the CSVs, the same
# claims with --check must exit 0: a fresh result is never stale.
# Usage: tests/golden/claims/run.sh build/hwprof
set -u
HWPROF=${1:-build/hwprof}
ROOT=$(pwd)
case $HWPROF in /*) ;; *) HWPROF=$ROOT/$HWPROF ;; esac
here=$ROOT/tests/golden/claims
# shellcheck source=tests/lib.sh
. "$ROOT/tests/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for dir in "$here"/*/; do
    case=${dir%/}
    name=${case##*/}
    work=$tmp/$name
    cp -R "$case" "$work"
    rm -f "$work/expected.csv" "$work/expected.workloads.csv" "$work/stdout" "$work/stderr" "$work/exit" \
        "$work/args" "$work/NOTES"
    args=claims.json
    [ -f "$case/args" ] && args=$(cat "$case/args")
    had_csv=0
    [ -f "$work/results/claims.csv" ] && had_csv=1
    # shellcheck disable=SC2086
    (cd "$work" && "$HWPROF" claims $args) >"$tmp/stdout" 2>"$tmp/stderr"
    rc=$?
    case_start
    want=$(cat "$case/exit")
    [ "$rc" = "$want" ] || case_fail "claims/$name: exit $rc, expected $want"
    for s in stdout stderr; do
        exp=/dev/null
        [ -f "$case/$s" ] && exp=$case/$s
        if ! diff -u "$exp" "$tmp/$s" >"$tmp/diff"; then
            case_fail "claims/$name: $s differs"; cat "$tmp/diff"
        fi
    done
    for f in claims claims.workloads; do
        exp=$case/expected${f#claims}.csv
        got=$work/results/$f.csv
        if [ -f "$exp" ]; then
            if ! diff -u "$exp" "$got" >"$tmp/diff" 2>&1; then
                case_fail "claims/$name: results/$f.csv is not as expected"; cat "$tmp/diff"
            fi
        elif [ $had_csv = 0 ] && [ -e "$got" ]; then
            case_fail "claims/$name: results/$f.csv written"
        fi
    done
    for f in "$work"/results/*.tmp.*; do
        [ -e "$f" ] && case_fail "claims/$name: a temporary file was left behind: ${f##*/}"
    done
    if [ -f "$case/expected.csv" ]; then
        # shellcheck disable=SC2086
        if ! (cd "$work" && "$HWPROF" claims --check -q $args) >"$tmp/check" 2>&1; then
            case_fail "claims/$name: --check after writing fails"; cat "$tmp/check"
        fi
    fi
    [ "$case_ok" = 0 ] && { echo "--- stderr:"; head -20 "$tmp/stderr"; }
    case_end
done
summary claims
