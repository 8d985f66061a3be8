#!/bin/bash
# list.sh - print the workload suite, its scales and the windows captured
# (make workloads).
# Usage: experiments/list.sh [--markdown] [--traces DIR]
# First a table: per workload the program, its package and per scale the
# work size (WL_UNIT) and the start-up left out (in slices of the scale's
# slice length); then, from DIR/<name>.windows (experiments/windows.sh;
# default traces/default), each workload's run length, k and its windows
# with their slices and SimPoint weights.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
md=0 dir=traces/default
while [ $# -gt 0 ]; do
    case $1 in
    --markdown) md=1; shift ;;
    --traces) dir=$2; shift 2 ;;
    *) exp_die "usage: list.sh [--markdown] [--traces DIR]" ;;
    esac
done
if [ $md = 1 ]; then
    echo "| name | program | Debian package | tiny unit / start-up skip | default | paper |"
    echo "|---|---|---|---|---|---|"
else
    printf '%-8s %-40s %-16s %-18s %-18s %-18s\n' NAME PROGRAM PACKAGE "TINY unit/skip" "DEFAULT" "PAPER"
fi
for w in $(exp_workloads); do
    cols=()
    for s in $SCALES; do
        wl_load "$w" "$s"
        cols+=("$WL_UNIT / $WL_SKIP_SLICES x $(exp_human "$WL_SLICE")")
    done
    if [ $md = 1 ]; then
        echo "| $w | \`$WL_PROGRAM\` | $WL_PACKAGE | ${cols[0]} | ${cols[1]} | ${cols[2]} |"
    else
        printf '%-8s %-40s %-16s %-18s %-18s %-18s\n' "$w" "$WL_PROGRAM" "$WL_PACKAGE" "${cols[@]}"
    fi
done
if [ $md = 0 ]; then
    per=()
    for s in $SCALES; do
        v=WINDOWS_$s u=SLICE_$s
        per+=("$s <= ${!v} x $(exp_human "${!u}")")
    done
    echo "(unit: WL_UNIT of the .wl; skip: start-up slices SimPoint leaves out;"
    echo " windows per scale: $(IFS=,; echo "${per[*]}" | sed 's/,/, /g'); experiments/scales.sh)"
fi

# The windows captured in DIR.
echo
if [ $md = 1 ]; then
    echo "Windows in \`$dir\`:"
    echo
    echo "| name | run (instructions) | slices | k | windows: slice (weight) |"
    echo "|---|---|---|---|---|"
else
    echo "Windows in $dir:"
fi
for w in $(exp_workloads); do
    f=$dir/$w.windows
    if [ ! -f "$f" ]; then
        [ $md = 1 ] && echo "| $w | | | | not captured (make traces) |" || printf '%-8s not captured (make traces)\n' "$w"
        continue
    fi
    run=$(sed -n 's/^# run: \([0-9]*\) instructions = \([0-9]*\) whole slices of \([0-9]*\) .*k = \([0-9]*\)$/\1 \2 \3 \4/p' "$f")
    read -r total slices len k <<<"$run"
    wins=$(awk '$1 == "window" { printf "%sw%s: %s (%.4f)", sep, $2, $3, $5; sep = ", " }' "$f")
    if [ $md = 1 ]; then
        echo "| $w | $(exp_human "$total") | $slices x $(exp_human "$len") | $k | $wins |"
    else
        printf '%-8s %6s instructions, %3s slices of %-5s k = %s: %s\n' "$w" "$(exp_human $(((total + 5000000) / 10000000 * 10000000)))" \
            "$slices" "$(exp_human "$len")," "$k" "$wins"
    fi
done
