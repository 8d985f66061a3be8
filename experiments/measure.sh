#!/bin/bash
# measure.sh - measure every workload's run length per scale and its native
# run time, and check that each scale's run leaves SimPoint enough slices.
# Usage: experiments/measure.sh [--traces ROOT] [NAME...]   (a Markdown table)
# Columns: start-up = the same command with WL_UNIT=0 (no work: the basis
# for choosing the skip; valgrind cachegrind --cache-sim=no "I refs"), then
# per scale the run's guest instructions as our tool counts them and, in
# parentheses, the whole slices left after the start-up (what SimPoint
# chooses from), read from ROOT/<scale>/<name>.bb (default ROOT: traces)
# when that exists and is current, else counted with experiments/bbv.sh;
# native seconds at default scale.  Check: at least 10 slices after the
# start-up at default and paper scale, 1 at tiny.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$EXP_DIR/meta.sh"
root=traces
[ "${1:-}" = --traces ] && { root=$2; shift 2; }
names=("$@")
[ ${#names[@]} -gt 0 ] || mapfile -t names < <(exp_workloads)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
echo "| workload | start-up (unit 0) | tiny total (slices) | default total (slices) | paper total (slices) | native s (default) | check |"
echo "|---|---|---|---|---|---|---|"
for w in "${names[@]}"; do
    row="| $w | $("$EXP_DIR/run.sh" --count --unit 0 --dir "$dir/r" "$w" default | awk '{print $4}')"
    ok=ok
    for s in tiny default paper; do
        wl_load "$w" "$s"
        bb=$root/$s/$w.bb
        if [ ! -s "$bb" ] || [ -n "$("$EXP_DIR/stale.sh" "$bb" "${CPU_LEVEL:-x86-64-v2}" 2>/dev/null)" ]; then
            bb=$dir/$w.$s.bb
            "$EXP_DIR/bbv.sh" "$w" "$s" "$bb" >/dev/null
        fi
        meta_read "$bb"
        n=$(meta_get bbv.instructions) left=$(($(meta_get bbv.slices) - WL_SKIP_SLICES))
        need=10
        [ "$s" = tiny ] && need=1
        [ "$left" -ge "$need" ] || ok="TOO SHORT at $s ($left slices after the start-up < $need)"
        row="$row | $n ($left)"
    done
    t=$("$EXP_DIR/run.sh" --time --dir "$dir/r" "$w" default | awk '{print $4}')
    row="$row | $t | $ok |"
    echo "$row"
done
