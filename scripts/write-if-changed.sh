#!/bin/sh
# write-if-changed.sh FILE - standard input becomes FILE only when it
# differs from FILE's text, so that make sees a stamp or a generated header
# change only when its content does (build/gen/buildinfo.h, the SimPoint
# options stamp of mk/experiments.mk).  Written under a temporary name and
# renamed; nothing is left behind on failure.
set -eu
f=$1
mkdir -p "$(dirname "$f")"
tmp=$f.tmp.$$
trap 'rm -f "$tmp"' EXIT
cat > "$tmp"
cmp -s "$tmp" "$f" || mv -f "$tmp" "$f"
