#!/bin/bash
# bbv.sh - basic-block vectors of one workload's whole run, for SimPoint.
# Usage: experiments/bbv.sh NAME SCALE OUT SLICE
# Runs the workload exactly as experiments/capture.sh does (same inputs, run
# directory, environment, CPU level and pins; BBV_SLICE mode of capture.sh)
# under tracegen's basic-block-vector mode: OUT gets one line per SLICE
# instructions in exp-bbv's format "T:id:count   :id:count ...", OUT.pc the
# block map "F:id:address:function".  Slice k (the k-th line, from 0) is
# exactly the instructions a capture with --skip k*SLICE --capture SLICE
# traces.  Environment as for capture.sh (CPU_LEVEL, EXP_BUILD, TRACEGEN).
set -euo pipefail
[ $# -eq 4 ] || { echo "usage: experiments/bbv.sh NAME SCALE OUT SLICE" >&2; exit 2; }
BBV_SLICE=$4 exec "$(dirname "$0")/capture.sh" "$1" "$2" "$3"
