# scales.sh - per scale, for every workload: the slice length (= the window
# length, the instructions one trace holds), the number of SimPoint windows
# and SimPoint's options.  THE place to change how workloads are traced.
# Sourced by lib.sh, bbv.sh, stale.sh and mk/experiments.mk (so: only
# assignments and a function, no commands).
#
#   scale    slice = window   windows   what for
#   tiny     2M               1         CI smoke test: seconds per workload
#   default  50M              3         the committed results (runs >= ~600M)
#   paper    500M             3         the papers' 500M-instruction windows
#                                       (runs >= ~6G)
#
# A workload's run (WL_UNIT_<scale> in its .wl) is cut into slices of
# SLICE_<scale> instructions; its start-up (WL_SKIP_<scale>, rounded up to
# slices) is left out; `hwprof simpoint` clusters the other slices' basic-
# block vectors into at most WINDOWS_<scale> clusters (--max-k = --max-windows
# = WINDOWS_<scale>, so every clustered slice is represented: coverage 1) and
# each chosen slice is captured as one window trace, weighted by its
# cluster's share (experiments/README.md, "Windows").
#
# The environment may override any of these (e.g. WINDOWS_default=5 make
# traces): make sees a changed slice length (recorded in the BBV, see
# stale.sh) and changed SimPoint options (a stamp file, mk/experiments.mk),
# and redoes exactly what depends on them.
: "${SLICE_tiny:=2000000}"
: "${SLICE_default:=50000000}"
: "${SLICE_paper:=500000000}"
: "${WINDOWS_tiny:=1}"
: "${WINDOWS_default:=3}"
: "${WINDOWS_paper:=3}"
# The other options of `hwprof simpoint` (docs/simpoint.md): its defaults,
# spelled out so that a change of hwprof's defaults does not silently
# re-choose every window.
: "${SIMPOINT_OPTIONS:=--dim 15 --seed 1 --inits 5 --init kmeans++ --bic-threshold 0.9 --max-iter 100}"
SCALES="tiny default paper"

# scale_simpoint_options SCALE: the options of `hwprof simpoint` for SCALE
# but the file and --skip-slices (which is per workload).  mk/experiments.mk
# keeps them in traces/SCALE/.simpoint-options, rewritten only when they
# change, so that make re-chooses every window of the scale then.
scale_simpoint_options() {
    local s=SLICE_$1 w=WINDOWS_$1
    echo "--slice ${!s} --max-k ${!w} --max-windows ${!w} $SIMPOINT_OPTIONS"
}
