#!/bin/bash
# windows.sh - capture every SimPoint window of a workload as its own trace.
# Usage: experiments/windows.sh NAME SCALE DIR
# Reads DIR/NAME.simpoints.json (experiments/simpoints.sh) and makes
# DIR/NAME.w<K>.trace for K = 0 .. M-1, M = the number of chosen windows,
# K in the JSON's order, i.e. by slice (program order).  Window K is
#   experiments/capture.sh --skip slice*N --capture N NAME SCALE ...
# (N = the slice length) with the metadata
#   window.index=K  window.slice=<slice>  window.start=<slice*N>
#   window.weight=<SimPoint weight>  window.count=M  simpoint.k=<k>
# besides workload.scale, workload.package and tracegen's provenance.  The
# runner takes each window's weight from window.weight (src/run/run.c).
#
# Incremental: an existing NAME.w<K>.trace is kept when it is newer than
# DIR/NAME.bb (so it was made by the same tool, .wl, inputs and packages as
# the vectors; make rebuilds the vectors when those change), records
# exactly the metadata above and the CPU level CPU_LEVEL, and
# experiments/stale.sh finds it current; otherwise it is recaptured.
#
# Nothing partial or mixed: new windows are captured to hidden names
# (.NAME.w<K>.trace.pending, kept across an interrupted run and reused if
# still right); only when all M are there are they renamed into place, and
# every other trace of the workload (a single NAME.trace, NAME.w<J>.trace
# for J >= M, with the runner's .sha256 caches) is removed, so the runner
# never mixes windows of two choices.  Last, DIR/NAME.windows (the list of
# windows, the target make builds) is written; it is removed first, so an
# interrupted run leaves none and make reruns this script.  Sample:
#
#   # gzip (default): SimPoint windows from gzip.simpoints.json
#   # run: 742710061 instructions = 14 whole slices of 50000000 + 42710061; 1 skipped; k = 3
#   # window K slice start weight trace
#   window 0 4 200000000 0.3076923077 gzip.w0.trace
#   window 1 9 450000000 0.2307692308 gzip.w1.trace
#   window 2 10 500000000 0.4615384615 gzip.w2.trace
#
# Environment: as capture.sh (CPU_LEVEL, EXP_BUILD, TRACEGEN, PROGRESS).
#
# Split for a cluster (cluster/task.sh: one task per window), a fourth
# argument does one step only:
#   --window K    capture window K to its pending name (nothing if it is
#                 there and usable, nothing either when the choice has fewer
#                 than K+1 windows); no renaming, no list
#   --missing     print the K of every window still to capture, one a line
#   --no-capture  the last step only (rename, list), failing with the
#                 windows still to capture named if any is missing
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$EXP_DIR/meta.sh"

[ $# -eq 3 ] || [ $# -eq 4 ] || [ $# -eq 5 ] ||
    exp_die "usage: windows.sh NAME SCALE DIR [--window K | --missing | --no-capture]"
name=$1 scale=$2 dir=$3 step=${4:-all} only=${5:-}
case $step in
all | --missing | --no-capture) [ -z "$only" ] || exp_die "usage: windows.sh NAME SCALE DIR [--window K | --missing | --no-capture]" ;;
--window) [[ $only =~ ^[0-9]+$ ]] || exp_die "windows.sh: --window needs a window number, not '$only'" ;;
*) exp_die "usage: windows.sh NAME SCALE DIR [--window K | --missing | --no-capture]" ;;
esac
wl_load "$name" "$scale"
level=${CPU_LEVEL:-x86-64-v2}
json=$dir/$name.simpoints.json bb=$dir/$name.bb manifest=$dir/$name.windows
[ -s "$json" ] || exp_die "$name: $json is missing (experiments/simpoints.sh $name $scale $dir)"
[ -s "$bb" ] || exp_die "$name: $bb is missing (experiments/bbv.sh $name $scale $bb)"
exp_spwindows
list=$("$SPWINDOWS" "$json") || exp_die "$name: $json is not a usable SimPoint result"
[ "$step" = all ] || [ "$step" = --no-capture ] && rm -f "$manifest"
t0=$(date +%s)

field() { sed -n "s/^$1 //p" <<<"$list"; }
len=$(field slice_length) k=$(field k) count=$(field windows)
[ "$len" = "$WL_SLICE" ] || exp_die "$name: $json has slices of $len instructions, scale $scale wants $WL_SLICE"
mapfile -t wins < <(sed -n 's/^window //p' <<<"$list")

# The metadata window K must record, one KEY=VALUE per line.
expected() {
    local w; read -r -a w <<<"$1"
    printf '%s\n' "window.index=$2" "window.slice=${w[0]}" "window.start=${w[1]}" \
        "window.weight=${w[2]}" "window.count=$count" "simpoint.k=$k" "workload.scale=$scale" "cpu.level=$level"
}
# usable FILE K: FILE is a finished capture of window K as chosen now.
usable() {
    local file=$1 kv
    [ -f "$file" ] && [ "$file" -nt "$bb" ] || return 1
    meta_read "$file" || return 1
    while IFS= read -r kv; do
        [ "$(meta_get "${kv%%=*}")" = "${kv#*=}" ] || return 1
    done < <(expected "${wins[$2]}" "$2")
    [ -z "$("$EXP_DIR/stale.sh" "$file" "$level" 2>/dev/null)" ]
}

if [ "$step" = --missing ] || [ "$step" = --window ]; then
    for ((K = 0; K < count; K++)); do
        [ "$step" = --window ] && [ "$K" != "$only" ] && continue
        usable "$dir/$name.w$K.trace" "$K" && continue
        usable "$dir/.$name.w$K.trace.pending" "$K" && continue
        if [ "$step" = --missing ]; then
            echo "$K"
            continue
        fi
        read -r -a w <<<"${wins[K]}"
        echo "windows: $name ($scale): w$K/$count: slice ${w[0]}, start $(exp_human "${w[1]}"), weight ${w[2]}"
        metas=()
        while IFS= read -r kv; do
            case $kv in workload.scale=* | cpu.level=*) ;; *) metas+=(--meta "$kv") ;; esac
        done < <(expected "${wins[K]}" "$K")
        rm -f "$dir/.$name.w$K.trace.pending"
        "$EXP_DIR/capture.sh" --skip "${w[1]}" --capture "$len" "${metas[@]}" "$name" "$scale" \
            "$dir/.$name.w$K.trace.pending" || exp_die "$name: capturing window $K failed"
        usable "$dir/.$name.w$K.trace.pending" "$K" ||
            exp_die "$name: the capture of window $K does not record the expected metadata"
        exit 0
    done
    [ "$step" = --window ] && echo "windows: $name ($scale): w$only: nothing to capture" \
        "($([ "$only" -lt "$count" ] && echo "captured before" || echo "the choice has $count window(s)"))"
    exit 0
fi

kept=0 captured=0 plan=()
for ((K = 0; K < count; K++)); do
    final=$dir/$name.w$K.trace pending=$dir/.$name.w$K.trace.pending
    read -r -a w <<<"${wins[K]}"
    if usable "$final" "$K"; then
        rm -f "$pending"; kept=$((kept + 1)); plan+=("w$K slice ${w[0]} weight ${w[2]}: kept")
    elif usable "$pending" "$K"; then
        plan+=("w$K slice ${w[0]} weight ${w[2]}: captured before")
    else
        rm -f "$pending"; plan+=("w$K slice ${w[0]} weight ${w[2]}: to capture")
    fi
done
echo "windows: $name ($scale): $count window(s) of $(exp_human "$len") (k = $k): $(IFS=';'; echo "${plan[*]}" | sed 's/;/; /g')"

for ((K = 0; K < count; K++)); do
    pending=$dir/.$name.w$K.trace.pending
    usable "$dir/$name.w$K.trace" "$K" && continue
    usable "$pending" "$K" && continue
    [ "$step" = --no-capture ] &&
        exp_die "$name: window $K is not captured (experiments/windows.sh $name $scale $dir --window $K)"
    read -r -a w <<<"${wins[K]}"
    echo "windows: $name ($scale): w$K/$count: slice ${w[0]}, start $(exp_human "${w[1]}"), weight ${w[2]}"
    metas=()
    while IFS= read -r kv; do
        case $kv in workload.scale=* | cpu.level=*) ;; *) metas+=(--meta "$kv") ;; esac
    done < <(expected "${wins[K]}" "$K")
    "$EXP_DIR/capture.sh" --skip "${w[1]}" --capture "$len" "${metas[@]}" "$name" "$scale" "$pending" ||
        exp_die "$name: capturing window $K failed (windows captured so far stay as $dir/.$name.w*.trace.pending)"
    usable "$pending" "$K" || exp_die "$name: the capture of window $K does not record the expected metadata"
    captured=$((captured + 1))
done

# All windows are there: drop every other trace of the workload, then move
# the new windows into place (each rename is atomic).
removed=()
shopt -s nullglob
for f in "$dir/$name.trace" "$dir/$name".w*.trace "$dir/.$name".w*.trace.pending; do
    [ -e "$f" ] || continue
    base=${f##*/}
    if [[ $base =~ ^\.?$name\.w([0-9]+)\.trace(\.pending)?$ ]] && [ "${BASH_REMATCH[1]}" -lt "$count" ] &&
        [ "${BASH_REMATCH[1]}" = "$((10#${BASH_REMATCH[1]}))" ]; then
        continue
    fi
    rm -f "$f" "$f.sha256"
    removed+=("$base")
done
for ((K = 0; K < count; K++)); do
    pending=$dir/.$name.w$K.trace.pending final=$dir/$name.w$K.trace
    if [ -f "$pending" ]; then
        rm -f "$final.sha256"
        mv -f "$pending" "$final"
    fi
done

total=$(meta_read "$bb" && meta_get bbv.instructions)
slices=$(field slices) skipped=$(field skipped)
tmp=$dir/.$name.windows.$$
{
    echo "# $name ($scale): SimPoint windows from $name.simpoints.json"
    echo "# run: $total instructions = $slices whole slices of $len + $((total - slices * len)); $skipped skipped; k = $k"
    echo "# window K slice start weight trace"
    for ((K = 0; K < count; K++)); do
        read -r -a w <<<"${wins[K]}"
        echo "window $K ${w[0]} ${w[1]} ${w[2]} $name.w$K.trace"
    done
} > "$tmp" && mv -f "$tmp" "$manifest" || { rm -f "$tmp"; exp_die "$name: cannot write $manifest"; }
bytes=0
for ((K = 0; K < count; K++)); do bytes=$((bytes + $(stat -c %s "$dir/$name.w$K.trace"))); done
echo "windows: $name ($scale) done in $(($(date +%s) - t0)) s: $count window(s), $captured captured, $kept kept," \
    "$(numfmt --to=iec-i --suffix=B "$bytes") of traces${removed[*]:+; removed ${removed[*]}}"
