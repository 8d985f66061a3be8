#!/bin/bash
# run.sh - run a workload natively (or count its instructions) in exactly the
# environment capture.sh uses, without tracing.
# Usage: experiments/run.sh [--count] [--unit N] [--dir DIR] NAME [SCALE]
#   --count    run under valgrind --tool=cachegrind --cache-sim=no and print
#              "NAME SCALE UNIT INSTRUCTIONS" (guest instructions, whole run)
#   --unit N   override the scale's work size (e.g. 0 to measure start-up)
#   --dir DIR  run directory (default build/inputs/SCALE/NAME)
#   --time     print "NAME SCALE UNIT SECONDS" (wall time of the native run)
# Exit status: the program's.  Program stdout goes where the .wl says
# (stdout.txt in the run directory by default).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

count=0 unit='' dir='' timeit=0
while [ $# -gt 0 ]; do
    case $1 in
    --count) count=1; shift ;;
    --unit) unit=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --time) timeit=1; shift ;;
    -*) exp_die "run.sh: unknown option $1" ;;
    *) break ;;
    esac
done
[ $# -ge 1 ] || exp_die "usage: run.sh [--count] [--unit N] [--dir DIR] NAME [SCALE]"
wl_load "$1" "${2:-default}"
[ -n "$unit" ] && WL_UNIT=$unit
wl_prepare "$dir"

if [ "$count" = 0 ] && [ "$timeit" = 1 ]; then
    t0=$(date +%s%N)
    wl_exec "${WL_ARGV[@]}"
    t1=$(date +%s%N)
    printf '%s %s %s %d.%03d\n' "$WL_NAME" "$WL_SCALE" "$WL_UNIT" $(((t1 - t0) / 1000000000)) $(((t1 - t0) / 1000000 % 1000))
    exit
elif [ "$count" = 0 ]; then
    wl_exec "${WL_ARGV[@]}"
    exit
fi
log=$WL_RUNDIR/count.log
rc=0
wl_exec valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
    --log-file="$log" "${WL_ARGV[@]}" || rc=$?
n=$(sed -n 's/.*I *refs: *//p' "$log" | tr -d ,)
[ "$rc" = 0 ] && [ -n "$n" ] || { tail -5 "$log" >&2; exp_die "$WL_NAME: counting run failed (exit $rc)"; }
echo "$WL_NAME $WL_SCALE $WL_UNIT $n"
