#!/bin/sh
# run.sh - golden tests of the command line, one folder per case:
#   cmd            a shell command line run in a scratch folder made by
#                  setup.sh ($HWPROF is the binary)
#   exit           the expected exit status
#   stdout, stderr the exact output expected (optional)
#   stdout.grep, stderr.grep   extended regular expressions, one per line,
#                  each of which must match some line of the output (optional)
# Usage: tests/golden/cli/run.sh build/hwprof
set -u
HWPROF=${1:-build/hwprof}
ROOT=$(pwd)
case $HWPROF in /*) ;; *) HWPROF=$ROOT/$HWPROF ;; esac
export HWPROF
here=$ROOT/tests/golden/cli
. "$ROOT/tests/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for dir in "$here"/*/; do
    case=${dir%/}
    name=${case##*/}
    work=$tmp/$name
    mkdir -p "$work"
    if ! (cd "$work" && sh "$here/setup.sh") >"$tmp/setup.log" 2>&1; then
        bad "cli/$name: setup"; cat "$tmp/setup.log"; continue
    fi
    (cd "$work" && sh -c "$(cat "$case/cmd")") >"$tmp/stdout" 2>"$tmp/stderr"
    rc=$?
    case_start
    want=$(cat "$case/exit")
    [ "$rc" = "$want" ] || case_fail "cli/$name: exit $rc, expected $want"
    for s in stdout stderr; do
        if [ -f "$case/$s" ] && ! diff -u "$case/$s" "$tmp/$s" >"$tmp/diff"; then
            case_fail "cli/$name: $s differs"; cat "$tmp/diff"
        fi
        if [ -f "$case/$s.grep" ]; then
            while IFS= read -r re; do
                [ -z "$re" ] && continue
                grep -Eq -- "$re" "$tmp/$s" || case_fail "cli/$name: no $s line matches: $re"
            done <"$case/$s.grep"
        fi
    done
    [ $case_ok = 0 ] && { echo "--- stdout:"; head -20 "$tmp/stdout"; echo "--- stderr:"; head -20 "$tmp/stderr"; }
    case_end
done
summary cli
