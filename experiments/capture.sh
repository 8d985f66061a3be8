#!/bin/bash
# capture.sh - trace one workload at one scale.
# Usage: experiments/capture.sh NAME SCALE OUT
# Prepares the input under build/inputs/SCALE/NAME (regenerated every time),
# then runs tracegen/capture with the workload's skip and capture window in
# the fixed environment of lib.sh.  OUT appears only when the capture
# succeeded (tracegen/capture writes it atomically); on failure OUT is
# removed, the reason (workload, scale, exit status, last log lines) is
# printed and the exit status is non-zero, so rerunning `make traces` retries.
# Environment: TRACEGEN (default tracegen/capture), PROGRESS=1 to show the
# capture's progress on the terminal, EXP_BUILD (default build), AT_END
# (exit | stop-tracing: what the program does after the window; default exit),
# CPU_LEVEL (the CPU the program sees, tracegen/capture --cpu-level; default
# x86-64-v2).  The trace's metadata also records workload.scale and the
# workload's package (workload.package, from the .wl file).
# BBV_SLICE=N: instead of a trace, run the whole program in exactly the same
# environment (same run directory contents, same log file name, same stdin
# and stdout) under tracegen's basic-block-vector mode and write OUT in
# exp-bbv's format, one line per N instructions, and the block map OUT.pc;
# slice k is then the window --skip k*N --capture N of a capture
# (experiments/bbv.sh is the short form).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -eq 3 ] || exp_die "usage: capture.sh NAME SCALE OUT"
name=$1 scale=$2 out=$3
case $out in /*) ;; *) out=$PWD/$out ;; esac
TRACEGEN=${TRACEGEN:-$EXP_ROOT/tracegen/capture}
[ -x "$TRACEGEN" ] || exp_die "$name: $TRACEGEN not found or not executable (build tracegen first: make tracegen)"

rm -f "$out" "$out.pc"
mkdir -p "$(dirname "$out")"
wl_load "$name" "$scale"
wl_prepare
log=$WL_RUNDIR/capture.log
# --at-end exit: end the program right after the window (the rest of the run
# would only cost time; the native test checks that every command exits 0).
if [ -n "${BBV_SLICE:-}" ]; then
    [[ $BBV_SLICE =~ ^[1-9][0-9]*$ ]] || exp_die "$name: BBV_SLICE must be a positive integer"
    opts=(--workload "$name" --bbv-out "$out" --bbv-slice "$BBV_SLICE" --bbv-pc-out "$out.pc"
          --cpu-level "${CPU_LEVEL:-x86-64-v2}")
    echo "bbv: $name ($scale, CPU level ${CPU_LEVEL:-x86-64-v2}) whole run, slices of $(exp_human "$BBV_SLICE"): ${WL_ARGV[*]}"
else
    opts=(--workload "$name" --out "$out" --skip "$WL_SKIP" --capture "$WL_CAPTURE"
          --at-end "${AT_END:-exit}" --cpu-level "${CPU_LEVEL:-x86-64-v2}"
          --meta "workload.scale=$scale" --meta "workload.package=$WL_PACKAGE")
    echo "capture: $name ($scale, CPU level ${CPU_LEVEL:-x86-64-v2}) skip $(exp_human "$WL_SKIP") capture $(exp_human "$WL_CAPTURE"): ${WL_ARGV[*]}"
fi
[ "${PROGRESS:-0}" = 1 ] && opts+=(--progress)
start=$(date +%s)
rc=0
if [ "${PROGRESS:-0}" = 1 ]; then
    wl_exec "$TRACEGEN" "${opts[@]}" -- "${WL_ARGV[@]}" 2> >(tee "$log" >&2) || rc=$?
else
    wl_exec "$TRACEGEN" "${opts[@]}" -- "${WL_ARGV[@]}" 2>"$log" || rc=$?
fi
if [ "$rc" != 0 ] || [ ! -s "$out" ]; then
    rm -f "$out"
    {
        echo "capture: FAILED: workload $name (scale $scale), exit status $rc; no trace written."
        echo "capture: command: ${WL_ARGV[*]}  (in $WL_RUNDIR)"
        echo "capture: last lines of $log:"
        tail -n 15 "$log" | sed 's/^/  | /'
    } >&2
    exit 1
fi
echo "capture: $name ($scale) done in $(($(date +%s) - start)) s: $out ($(du -h "$out" | cut -f1))"
