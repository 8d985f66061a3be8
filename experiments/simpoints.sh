#!/bin/bash
# simpoints.sh - choose a workload's SimPoint windows from its basic-block
# vectors.
# Usage: experiments/simpoints.sh NAME SCALE DIR
# Reads DIR/NAME.bb (experiments/bbv.sh: whole slices of the scale's slice
# length) and writes DIR/NAME.simpoints.json with
#   hwprof simpoint NAME.bb --slice N --max-k W --max-windows W
#                   <SIMPOINT_OPTIONS> --skip-slices S --json
# run inside DIR (so the JSON names the file "NAME.bb", whatever DIR is):
# N, W and SIMPOINT_OPTIONS from scales.sh, S = the .wl's start-up skip
# rounded up to slices (lib.sh, wl_load).  The JSON holds the chosen slices
# with their weights, k and every k's BIC (docs/simpoint.md); hwprof writes
# it through a temporary name, so a failure leaves no file.  Prints one
# progress line.  Environment: HWPROF (default $EXP_BUILD/hwprof).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$EXP_DIR/meta.sh"

[ $# -eq 3 ] || exp_die "usage: simpoints.sh NAME SCALE DIR"
name=$1 scale=$2 dir=$3
wl_load "$name" "$scale"
HWPROF=${HWPROF:-$EXP_BUILD/hwprof}
case $HWPROF in /*) ;; *) HWPROF=$PWD/$HWPROF ;; esac   # it runs inside DIR
[ -x "$HWPROF" ] || exp_die "$name: $HWPROF not found (make build/hwprof)"
bb=$dir/$name.bb
out=$dir/$name.simpoints.json
rm -f "$out"
[ -s "$bb" ] || exp_die "$name: $bb is missing (experiments/bbv.sh $name $scale $bb)"
meta_read "$bb" || exp_die "$name: $bb: $META_WHY"
slices=$(meta_get bbv.slices) have=$(meta_get bbv.slice)
[ "$have" = "$WL_SLICE" ] ||
    exp_die "$name: $bb has slices of ${have:-?} instructions, scale $scale wants $WL_SLICE (rerun experiments/bbv.sh)"
if [ "${slices:-0}" -le "$WL_SKIP_SLICES" ]; then
    exp_die "$name ($scale): the run has ${slices:-0} whole slices of $(exp_human "$WL_SLICE") and the start-up skip" \
        "($(exp_human "$WL_SKIP")) takes $WL_SKIP_SLICES: nothing left to choose from; make WL_UNIT_$scale larger in $name.wl"
fi
# shellcheck disable=SC2086 # WL_SIMPOINT is a list of options
(cd "$dir" && "$HWPROF" simpoint "$name.bb" $WL_SIMPOINT --skip-slices "$WL_SKIP_SLICES" --json \
    -o "$name.simpoints.json") || exp_die "$name: hwprof simpoint failed on $bb"
chmod 644 "$out"   # hwprof's temporary file was private
exp_spwindows
list=$("$SPWINDOWS" "$out") || { rm -f "$out"; exp_die "$name: $out is not a usable SimPoint result"; }
k=$(sed -n 's/^k //p' <<<"$list")
wins=$(awk '$1 == "window" { printf "%s%s (%.3f)", sep, $2, $4; sep = ", " }' <<<"$list")
echo "simpoint: $name ($scale): k = $k over $((slices - WL_SKIP_SLICES)) slices of $(exp_human "$WL_SLICE")" \
    "($WL_SKIP_SLICES skipped); windows at slices $wins"
