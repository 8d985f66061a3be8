#!/bin/bash
# tests/walkthrough/run.sh - README.md's "Your own program", proven: the
# shell blocks of that section, exactly as they stand in the README, run
# in a copy of the checkout's files (what `git ls-files` lists, tracked or
# new but not ignored: no traces, no results of earlier runs) at tiny
# scale, then their products are checked.  To stay quick the copy is given
# this checkout's build products (build/obj, build/tracegen, ..., with
# their times), so the walkthrough's `make` only relinks what the copy's
# build info changes; everything else (the capture of the example
# program, the config, the run, the plot) is done from scratch.
# Usage: tests/walkthrough/run.sh   (from the top of the checkout; make test-walkthrough)
set -uo pipefail
top=$(pwd)
[ -f README.md ] && [ -d experiments ] || { echo "walkthrough: run from the top of the checkout"; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test-walkthrough.XXXXXX")
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
. "$top/tests/lib.sh"

# The copy: the checkout's files as a fresh clone would have them.
repo=$tmp/repo
mkdir -p "$repo"
git ls-files -z --cached --others --exclude-standard |
    while IFS= read -r -d '' f; do [ -e "$f" ] || [ -L "$f" ] && printf '%s\0' "$f"; done |
    (cd "$top" && xargs -0 cp -P -p --parents -t "$repo") || { echo "walkthrough: copying the checkout failed"; exit 1; }
mkdir -p "$repo/build"
for d in obj gen hwprof tracegen experiments; do
    [ -e "build/$d" ] && cp -a "build/$d" "$repo/build/"
done

# The README's blocks of the section, in order.
awk '/^## Your own program/ { on = 1; next } on && /^## / { exit }
     on && /^```sh$/ { code = 1; next } code && /^```$/ { code = 0; next } code' README.md > "$tmp/walk.sh"
check "README has the walkthrough's commands" grep -q '^make workload WL=' "$tmp/walk.sh"

# As a user runs them: in the copy's top, a shell that stops at the first
# failing command, none of the make variables of an enclosing make.
start=$(date +%s)
if (cd "$repo" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES -u HWPROF \
        bash -e -x "$tmp/walk.sh") >"$tmp/walk.log" 2>&1; then
    ok "the walkthrough runs ($(($(date +%s) - start)) s)"
else
    bad "the walkthrough stopped:"; tail -25 "$tmp/walk.log"
fi

cd "$repo" || exit 1
check "own program captured in SimPoint windows" test -s traces/own/tiny/wordfreq.w0.trace -a -s traces/own/tiny/wordfreq.windows
check "trace names its workload" sh -c "build/hwprof trace info traces/own/tiny/wordfreq.w0.trace | grep -q '^workload *wordfreq$'"
check "the suite is left alone" test ! -e traces/tiny
check "results for the own program" grep -q '^wordfreq,BSH,singlehash,' mine/results/multihash/fig12.csv
check "figure drawn" test -s mine/plots/multihash/fig12.svg -a -s mine/plots/multihash/fig12.png -a -s mine/plots/multihash/fig12.pdf
check "imported trace run" grep -q '^true,counts,counts,' mine/results/mine/true.csv
check "every command's output logged without a warning" sh -c "! grep -qi 'warning' '$tmp/walk.log'"
[ $fail -eq 0 ] || { echo "--- log"; tail -40 "$tmp/walk.log"; }
summary walkthrough
