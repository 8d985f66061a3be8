#!/bin/sh
# run-trace.sh - golden error cases of `hwprof trace`, one folder per case:
#   tests/golden/trace/<case>/cmd            arguments after `hwprof trace` (one line,
#                                            split on spaces; file names are relative)
#   tests/golden/trace/<case>/input          the input file, or
#   tests/golden/trace/<case>/make-input.sh  a script that writes ./input from a valid
#                                            trace (gets $HWPROF and $ROOT, the repo root)
#   tests/golden/trace/<case>/expected       the exact stderr expected
#   tests/golden/trace/<case>/exit           the expected exit status
# Each case runs in its own scratch folder, so messages name "input".  A case
# passes when stderr and the exit status match and the command created no
# file (a failed import leaves neither OUT nor its temporary file).
# Usage: tests/golden/run-trace.sh [--regen] build/hwprof
#   --regen rewrites expected/exit from the current output (review the diff!).
set -u
regen=0
if [ "${1:-}" = "--regen" ]; then regen=1; shift; fi
HWPROF=${1:-build/hwprof}
ROOT=$(pwd)
case $HWPROF in /*) ;; *) HWPROF=$ROOT/$HWPROF ;; esac
export HWPROF ROOT
. "$ROOT/tests/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for dir in "$ROOT"/tests/golden/trace/*/; do
    case=${dir%/}
    name=${case##*/}
    work=$tmp/$name
    mkdir -p "$work"
    if [ -f "$case/make-input.sh" ]; then
        if ! (cd "$work" && sh "$case/make-input.sh") >"$tmp/make.log" 2>&1; then
            bad "$name: make-input.sh failed"; cat "$tmp/make.log"
            continue
        fi
    else
        cp "$case/input" "$work/input"
    fi
    (cd "$work" && ls -A) >"$tmp/before"
    # shellcheck disable=SC2046 # cmd is split into words on purpose
    (cd "$work" && "$HWPROF" trace $(cat "$case/cmd")) >/dev/null 2>"$tmp/stderr"
    rc=$?
    (cd "$work" && ls -A) >"$tmp/after"
    if [ $regen = 1 ]; then
        cp "$tmp/stderr" "$case/expected"
        echo "$rc" >"$case/exit"
    fi
    case_start
    want_rc=$(cat "$case/exit")
    if [ "$rc" != "$want_rc" ]; then case_fail "$name: exit $rc, expected $want_rc"; fi
    if ! diff -u "$case/expected" "$tmp/stderr" >"$tmp/diff"; then
        case_fail "$name: message differs"; cat "$tmp/diff"
    fi
    if ! diff "$tmp/before" "$tmp/after" >"$tmp/diff"; then
        case_fail "$name: files changed:"; cat "$tmp/diff"
    fi
    case_end
done
summary "trace golden"
