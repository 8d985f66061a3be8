#!/bin/bash
# bbv.sh - basic-block vectors of one workload's whole run, for SimPoint.
# Usage: experiments/bbv.sh NAME SCALE OUT [SLICE]
# Runs the workload exactly as experiments/capture.sh does (same inputs, run
# directory, environment, CPU level and pins; BBV_SLICE mode of capture.sh)
# under tracegen's basic-block-vector mode, with SLICE instructions per
# slice (default: the scale's slice length, scales.sh).  OUT gets one line
# per whole slice in exp-bbv's format "T:id:count   :id:count ...", OUT.pc
# the block map "F:id:address:function".  Slice k (the k-th line, from 0) is
# exactly the instructions a capture with --skip k*SLICE --capture SLICE
# traces.  The run's last, partial slice is not a vector line (a window
# there could not be captured whole): it ends the file as a comment
# "# tail T:...", followed by the provenance as comment lines
# "# meta KEY=VALUE": program, packages, cpu.level, pins (tracegen/capture),
# workload.scale, workload.package, bbv.slice, and bbv.slices (whole
# slices), bbv.tail (instructions of the partial one), bbv.instructions
# (the run's total).  Sample (lua, tiny):
#
#   T:1:2   :2:26   :3:6   :4:40   :5:85   :6:16   ...
#   ...
#   # tail T:341:3   :732:3   :733:2   ...
#   # hwptrace basic-block vectors: provenance
#   # meta program=/usr/bin/lua5.4
#   # meta program.package=lua5.4
#   ...
#   # meta packages=libc6:amd64=2.36-9+deb12u14 libreadline8:amd64=8.2-1.3 libtinfo6:amd64=6.4-4 lua5.4=5.4.4-3+deb12u1 valgrind=1:3.19.0-1
#   # meta pin.ns=yes
#   # meta cpu.level=x86-64-v2
#   ...
#   # meta bbv.slice=2000000
#   # meta workload.scale=tiny
#   # meta workload.package=lua5.4
#   # meta bbv.slices=224
#   # meta bbv.tail=1077866
#   # meta bbv.instructions=449077866
#
# Environment as for capture.sh (CPU_LEVEL, EXP_BUILD, TRACEGEN).
set -euo pipefail
[ $# -eq 3 ] || [ $# -eq 4 ] || { echo "usage: experiments/bbv.sh NAME SCALE OUT [SLICE]" >&2; exit 2; }
slice=${4:-}
if [ -z "$slice" ]; then
    . "$(dirname "$0")/scales.sh"
    v=SLICE_$2
    slice=${!v:-}
    [ -n "$slice" ] || { echo "experiments/bbv.sh: unknown scale '$2' (have: $SCALES)" >&2; exit 2; }
fi
BBV_SLICE=$slice exec "$(dirname "$0")/capture.sh" "$1" "$2" "$3"
