#!/bin/bash
# measure.sh - measure every workload's instruction counts and native run
# time, and check that each scale's program runs for at least skip+capture.
# Usage: experiments/measure.sh [NAME...]   (prints a Markdown table)
# Columns: start-up = the same command with WL_UNIT=0 (no work: the basis
# for choosing the skip), then total guest instructions per scale
# (valgrind cachegrind --cache-sim=no), native seconds at default scale.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
names=("$@")
[ ${#names[@]} -gt 0 ] || mapfile -t names < <(exp_workloads)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
echo "| workload | start-up (unit 0) | tiny total | default total | paper total | native s (default) | check |"
echo "|---|---|---|---|---|---|---|"
for w in "${names[@]}"; do
    row="| $w | $("$EXP_DIR/run.sh" --count --unit 0 --dir "$dir/r" "$w" default | awk '{print $4}')"
    ok=ok
    for s in tiny default paper; do
        n=$("$EXP_DIR/run.sh" --count --dir "$dir/r" "$w" "$s" | awk '{print $4}')
        wl_load "$w" "$s"
        need=$((WL_SKIP + WL_CAPTURE))
        [ "$n" -ge "$need" ] || ok="TOO SHORT at $s ($n < $need)"
        row="$row | $n"
    done
    t=$("$EXP_DIR/run.sh" --time --dir "$dir/r" "$w" default | awk '{print $4}')
    row="$row | $t | $ok |"
    echo "$row"
done
