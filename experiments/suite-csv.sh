#!/bin/bash
# suite-csv.sh - the captured suite of one scale as a CSV, for documents.
# Usage: experiments/suite-csv.sh SCALE DIR OUT
# One row per workload of experiments/*.wl with a DIR/<name>.windows list
# (experiments/windows.sh), from that list, the workload's basic-block
# vectors' provenance (DIR/<name>.bb) and its .wl file:
#   workload, package, version   the traced program's Debian package and
#                                version (from the vectors' metadata)
#   unit                         WL_UNIT_<scale> of the .wl (work size)
#   run_instructions             the whole run, as our tool counts it
#   whole_slices, startup_slices slices of the scale's length; the
#                                start-up ones SimPoint leaves out
#   k, windows                   SimPoint's k and the windows chosen
#   slices, weights              "4 9 10" and "0.308 0.231 0.462": the
#                                chosen slices and their weights, K order
#   trace_bytes                  bytes of the window traces together
#   pin_signals                  pin.signals of the vectors (yes)
# Written through a temporary name and renamed (nothing partial); the rows
# are sorted by workload, so the same captures give the same bytes.
# experiments/README.md quotes it through `hwprof docs` markers, so the
# window tables there are the pipeline's, never typed by hand
# (mk/experiments.mk: results/suite/windows.csv, results-paper/...).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$EXP_DIR/meta.sh"
[ $# -eq 3 ] || exp_die "usage: suite-csv.sh SCALE DIR OUT"
scale=$1 dir=$2 out=$3
mkdir -p "$(dirname "$out")"
tmp=$out.tmp.$$
trap 'rm -f "$tmp"' EXIT
{
    echo "workload,package,version,unit,run_instructions,whole_slices,startup_slices,k,windows,slices,weights,trace_bytes,pin_signals"
    for w in $(exp_workloads); do
        list=$dir/$w.windows
        [ -f "$list" ] || continue
        wl_load "$w" "$scale"
        meta_read "$dir/$w.bb" || exp_die "$dir/$w.bb: $META_WHY"
        read -r total whole k < <(sed -n 's/^# run: \([0-9]*\) instructions = \([0-9]*\) whole slices of [0-9]* .*k = \([0-9]*\)$/\1 \2 \3/p' "$list")
        [ -n "${k:-}" ] || exp_die "$list: no '# run:' line"
        slices=$(awk '$1 == "window" { printf "%s%s", sep, $3; sep = " " }' "$list")
        weights=$(awk '$1 == "window" { printf "%s%.3f", sep, $5; sep = " " }' "$list")
        nwin=$(awk '$1 == "window"' "$list" | wc -l)
        bytes=0
        for t in $(awk '$1 == "window" { print $6 }' "$list"); do
            bytes=$((bytes + $(stat -c %s "$dir/$t")))
        done
        echo "$w,$WL_PACKAGE,$(meta_get program.version),$WL_UNIT,$total,$whole,$WL_SKIP_SLICES,$k,$nwin,$slices,$weights,$bytes,$(meta_get pin.signals)"
    done
} > "$tmp"
mv -f "$tmp" "$out"
trap - EXIT
