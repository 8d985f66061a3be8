#!/bin/bash
# list.sh - print the workload suite with its windows (make workloads).
# Usage: experiments/list.sh [--markdown]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
md=0
[ "${1:-}" = --markdown ] && md=1
if [ $md = 1 ]; then
    echo "| name | program | Debian package | tiny skip+capture | default skip+capture | paper skip+capture |"
    echo "|---|---|---|---|---|---|"
else
    printf '%-8s %-40s %-20s %-14s %-14s %-14s\n' NAME PROGRAM PACKAGE "TINY skip+cap" "DEFAULT" "PAPER"
fi
for w in $(exp_workloads); do
    cols=()
    for s in $SCALES; do
        wl_load "$w" "$s"
        cols+=("$(exp_human "$WL_SKIP")+$(exp_human "$WL_CAPTURE")")
    done
    if [ $md = 1 ]; then
        echo "| $w | \`$WL_PROGRAM\` | $WL_PACKAGE | ${cols[0]} | ${cols[1]} | ${cols[2]} |"
    else
        printf '%-8s %-40s %-20s %-14s %-14s %-14s\n' "$w" "$WL_PROGRAM" "$WL_PACKAGE" "${cols[@]}"
    fi
done
[ $md = 1 ] || echo "(skip+capture in guest instructions; capture lengths per scale: experiments/scales.sh; details: experiments/README.md)"
