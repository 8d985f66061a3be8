#!/bin/sh
# run.sh - golden cases of `hwprof docs` (src/cli/cmd_docs.c, docs/docfill.md),
# one folder per case under tests/docs/cases/:
#   doc.md     the document (copied with tests/docs/results/ into a scratch
#              folder: its markers read src=results/<name>.csv)
#   args       the arguments after `docs` (optional; default: doc.md)
#   exit       the expected exit status
#   stdout, stderr   the exact output expected (absent: must be empty)
#   after.md   the document expected after the run (absent: unchanged)
#   again      the stdout expected of the same command run a second time,
#              which must exit 0 and leave every byte and the inode alone
# Every case also checks that no other file appears or disappears (no
# temporary left behind), and that a rewritten document is a new inode
# (renamed into place, never written over).
# Usage: tests/docs/run.sh "build/hwprof docs"
set -u
CMD=${1:-build/hwprof docs}
ROOT=$(pwd)
here=$ROOT/tests/docs
# the command's first word (the binary) as an absolute path: cases run elsewhere
set -- $CMD
bin=$1
shift
case $bin in /*) ;; */*) bin=$ROOT/$bin ;; esac
sub="$*"
. "$ROOT/tests/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for dir in "$here"/cases/*/; do
    case=${dir%/}
    name=${case##*/}
    work=$tmp/$name
    mkdir -p "$work"
    cp -R "$here/results" "$work/results"
    cp "$case/doc.md" "$work/doc.md"
    args=doc.md
    [ -f "$case/args" ] && args=$(cat "$case/args")
    (cd "$work" && find . | LC_ALL=C sort) >"$tmp/files.before"
    inode=$(stat -c %i "$work/doc.md")
    # shellcheck disable=SC2086
    (cd "$work" && "$bin" $sub $args) >"$tmp/stdout" 2>"$tmp/stderr"
    rc=$?
    case_start
    want=$(cat "$case/exit")
    [ "$rc" = "$want" ] || case_fail "docs/$name: exit $rc, expected $want"
    for s in stdout stderr; do
        exp=/dev/null
        [ -f "$case/$s" ] && exp=$case/$s
        if ! diff -u "$exp" "$tmp/$s" >"$tmp/diff"; then
            case_fail "docs/$name: $s differs"; cat "$tmp/diff"
        fi
    done
    after=$case/doc.md
    [ -f "$case/after.md" ] && after=$case/after.md
    if ! cmp -s "$after" "$work/doc.md"; then
        case_fail "docs/$name: doc.md is not as expected"; diff -u "$after" "$work/doc.md"
    fi
    if ! cmp -s "$case/doc.md" "$work/doc.md" && [ "$(stat -c %i "$work/doc.md")" = "$inode" ]; then
        case_fail "docs/$name: doc.md was written in place, not replaced"
    fi
    (cd "$work" && find . | LC_ALL=C sort) >"$tmp/files.after"
    if ! diff -u "$tmp/files.before" "$tmp/files.after" >"$tmp/diff"; then
        case_fail "docs/$name: files appeared or disappeared"; cat "$tmp/diff"
    fi
    if [ -f "$case/again" ]; then
        cp -p "$work/doc.md" "$tmp/doc.first"
        inode=$(stat -c %i "$work/doc.md")
        # shellcheck disable=SC2086
        (cd "$work" && "$bin" $sub $args) >"$tmp/stdout" 2>"$tmp/stderr"
        rc=$?
        [ "$rc" = 0 ] || { case_fail "docs/$name: second run exit $rc"; cat "$tmp/stderr"; }
        if ! diff -u "$case/again" "$tmp/stdout" >"$tmp/diff"; then
            case_fail "docs/$name: second run's stdout differs"; cat "$tmp/diff"
        fi
        if ! cmp -s "$tmp/doc.first" "$work/doc.md" || [ "$(stat -c %i "$work/doc.md")" != "$inode" ]; then
            case_fail "docs/$name: the second run rewrote doc.md"
        fi
    fi
    case_end
done
summary docs
