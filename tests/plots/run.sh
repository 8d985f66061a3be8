#!/bin/sh
# run.sh - draw the figure of every configs/<paper>/<stem>.json that has a
# "plot" section (or a hand-written plots/<paper>/<stem>.gp) from the
# committed results/, into a scratch folder: each must exit 0, write SVG,
# PNG and PDF, and leave stderr empty (no gnuplot warning).  The tables of
# the configs with a "table" section must come out as committed.
# Usage: tests/plots/run.sh build/hwprof
set -u
HWPROF=${1:-build/hwprof}
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for config in configs/*/*.json; do
    paper=$(basename "$(dirname "$config")")
    stem=$(basename "$config" .json)
    if ! grep -q '"plot"' "$config" && [ ! -f "plots/$paper/$stem.gp" ]; then continue; fi
    [ -f "results/$paper/$stem.csv" ] || continue
    if ! "$HWPROF" plot "$config" --results results --plots "$tmp/plots" --build "$tmp/build" \
            >"$tmp/out" 2>"$tmp/err"; then
        bad "$config: hwprof plot failed"; cat "$tmp/err"; continue
    fi
    if [ -s "$tmp/err" ]; then
        bad "$config: output on stderr"; cat "$tmp/err"; continue
    fi
    case_start
    for ext in svg png pdf; do
        [ -s "$tmp/plots/$paper/$stem.$ext" ] || case_fail "$config: no .$ext"
    done
    case_end
done
for config in configs/*/*.json; do
    paper=$(basename "$(dirname "$config")")
    stem=$(basename "$config" .json)
    [ -f "results/$paper/$stem.md" ] || continue
    mkdir -p "$tmp/results/$paper"
    cp "results/$paper/$stem.csv" "$tmp/results/$paper/"
    if "$HWPROF" table "$config" --results "$tmp/results" 2>"$tmp/err" &&
            cmp -s "$tmp/results/$paper/$stem.md" "results/$paper/$stem.md"; then
        add_counts 1 0
    else
        bad "$config: table differs from results/$paper/$stem.md"; cat "$tmp/err"
    fi
done
summary plots
