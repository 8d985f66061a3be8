#!/bin/bash
# capture.sh - trace one window of one workload at one scale.
# Usage: experiments/capture.sh [--skip N] [--capture N] [--meta KEY=VALUE]...
#                               NAME SCALE OUT
# Prepares the input under build/inputs/SCALE/NAME (regenerated every time),
# then runs tracegen/capture in the fixed environment of lib.sh: skip N
# instructions (default: the workload's start-up, WL_SKIP_<scale> of its .wl)
# and trace the next N (default: the scale's slice length, scales.sh).
# experiments/windows.sh calls it once per SimPoint window with that
# window's skip and its window.* metadata.  OUT appears only when the
# capture succeeded (tracegen/capture writes it atomically); on failure OUT
# is removed, the reason (workload, scale, exit status, last log lines) is
# printed and the exit status is non-zero, so rerunning `make traces`
# retries.  Environment: TRACEGEN (default tracegen/capture), PROGRESS=1 to
# show the capture's progress on the terminal, EXP_BUILD (default build),
# AT_END (exit | stop-tracing: what the program does after the window;
# default exit), CPU_LEVEL (the CPU the program sees, tracegen/capture
# --cpu-level; default x86-64-v2).  The trace's metadata also records
# workload.scale and the workload's package (workload.package, from the .wl
# file), and the --meta pairs.
#
# BBV_SLICE=N: instead of a trace, run the whole program in exactly the same
# environment (same run directory contents, same log file name, same stdin
# and stdout) under tracegen's basic-block-vector mode and write OUT in
# exp-bbv's format, one line per N instructions, and the block map OUT.pc;
# slice k is then the window --skip k*N --capture N of a capture
# (experiments/bbv.sh is the short form, and describes what OUT holds).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

skip='' window='' metas=()
while [ $# -gt 0 ]; do
    case $1 in
    --skip) skip=$2; shift 2 ;;
    --capture) window=$2; shift 2 ;;
    --meta) metas+=(--meta "$2"); shift 2 ;;
    --) shift; break ;;
    -*) exp_die "capture.sh: unknown option $1" ;;
    *) break ;;
    esac
done
[ $# -eq 3 ] || exp_die "usage: capture.sh [--skip N] [--capture N] [--meta KEY=VALUE]... NAME SCALE OUT"
name=$1 scale=$2 out=$3
case $out in /*) ;; *) out=$PWD/$out ;; esac
TRACEGEN=${TRACEGEN:-$EXP_ROOT/tracegen/capture}
[ -x "$TRACEGEN" ] || exp_die "$name: $TRACEGEN not found or not executable (build tracegen first: make tracegen)"

rm -f "$out" "$out.pc"
mkdir -p "$(dirname "$out")"
wl_load "$name" "$scale"
skip=${skip:-$WL_SKIP} window=${window:-$WL_SLICE}
[[ $skip =~ ^[0-9]+$ && $window =~ ^[1-9][0-9]*$ ]] || exp_die "$name: --skip needs an integer >= 0, --capture one > 0"
wl_prepare
log=$WL_RUNDIR/capture.log
level=${CPU_LEVEL:-x86-64-v2}
meta=(--meta "workload.scale=$scale" --meta "workload.package=$WL_PACKAGE" ${metas[@]+"${metas[@]}"})
# --at-end exit: end the program right after the window (the rest of the run
# would only cost time; the native test checks that every command exits 0).
if [ -n "${BBV_SLICE:-}" ]; then
    [[ $BBV_SLICE =~ ^[1-9][0-9]*$ ]] || exp_die "$name: BBV_SLICE must be a positive integer"
    # The tool writes a hidden name; the last (partial) slice is moved into
    # the comments below, then the file is renamed to OUT.
    raw=$(dirname "$out")/.$(basename "$out").raw.$$
    trap 'rm -f "$raw" "$raw.full"' EXIT
    opts=(--workload "$name" --bbv-out "$raw" --bbv-slice "$BBV_SLICE" --bbv-pc-out "$out.pc"
          --cpu-level "$level" "${meta[@]}")
    echo "bbv: $name ($scale, CPU level $level) whole run, slices of $(exp_human "$BBV_SLICE"): ${WL_ARGV[*]}"
else
    opts=(--workload "$name" --out "$out" --skip "$skip" --capture "$window"
          --at-end "${AT_END:-exit}" --cpu-level "$level" "${meta[@]}")
    echo "capture: $name ($scale, CPU level $level) skip $(exp_human "$skip") capture $(exp_human "$window"): ${WL_ARGV[*]}"
fi
[ "${PROGRESS:-0}" = 1 ] && opts+=(--progress)
start=$(date +%s)
rc=0
if [ "${PROGRESS:-0}" = 1 ]; then
    wl_exec "$TRACEGEN" "${opts[@]}" -- "${WL_ARGV[@]}" 2> >(tee "$log" >&2) || rc=$?
else
    wl_exec "$TRACEGEN" "${opts[@]}" -- "${WL_ARGV[@]}" 2>"$log" || rc=$?
fi
made=$out what=trace
[ -n "${BBV_SLICE:-}" ] && made=$raw what="BBV file"
if [ "$rc" != 0 ] || [ ! -s "$made" ]; then
    rm -f "$made" "$out.pc"
    {
        echo "capture: FAILED: workload $name (scale $scale), exit status $rc; no $what written."
        echo "capture: command: ${WL_ARGV[*]}  (in $WL_RUNDIR)"
        echo "capture: last lines of $log:"
        tail -n 15 "$log" | sed 's/^/  | /'
    } >&2
    exit 1
fi
if [ -n "${BBV_SLICE:-}" ]; then
    # Keep only whole slices as vectors: the run's last slice holds the
    # remainder (1..N instructions) and a window there could not be captured
    # whole, so SimPoint must not choose it.  It stays in the file as a
    # comment ("# tail T:..."), and the totals join the provenance lines.
    awk -v n="$BBV_SLICE" '
        function total(line,   f, i, s) { s = 0; k = split(line, f, ":"); for (i = 3; i <= k; i += 2) s += f[i]; return s }
        /^T/ { if (have) print prev; prev = $0; have = 1; slices++; next }
        { rest[++nrest] = $0 }
        END {
            if (!have) exit 1
            t = total(prev)
            if (t == n) { full = slices; tail = 0; print prev }
            else { full = slices - 1; tail = t; print "# tail " prev }
            for (i = 1; i <= nrest; i++) print rest[i]
            printf "# meta bbv.slices=%d\n# meta bbv.tail=%d\n# meta bbv.instructions=%.0f\n", full, tail, full * n + tail
        }' "$raw" > "$raw.full" || { rm -f "$out.pc"; exp_die "$name: cannot post-process the BBV file $raw"; }
    slices=$(sed -n 's/^# meta bbv.slices=//p' "$raw.full")
    [ "$slices" -gt 0 ] || { rm -f "$out.pc"; exp_die "$name: the run is shorter than one slice of $(exp_human "$BBV_SLICE")"; }
    mv -f "$raw.full" "$out"
    rm -f "$raw"
    total=$(sed -n 's/^# meta bbv.instructions=//p' "$out")
    echo "bbv: $name ($scale) done in $(($(date +%s) - start)) s: $out, $total instructions = $slices slices of $(exp_human "$BBV_SLICE") + $((total - slices * BBV_SLICE)) ($(du -h "$out" | cut -f1))"
    exit 0
fi
echo "capture: $name ($scale) done in $(($(date +%s) - start)) s: $out ($(du -h "$out" | cut -f1))"
