# scales.sh - capture window length per scale, for every workload: THE place
# to change how many instructions a trace holds.  Sourced by lib.sh.
# A workload may override one scale with WL_CAPTURE_<scale> in its .wl file;
# the environment may override these defaults (e.g. CAPTURE_default=20000000
# make traces), but make does not see such overrides as a reason to rebuild.
#   tiny    CI smoke test: a few seconds per capture
#   default the whole suite in <= 20 min on 2 cores with make -j2
#   paper   the papers' 500M instructions after fast-forward
: "${CAPTURE_tiny:=2000000}"
: "${CAPTURE_default:=50000000}"
: "${CAPTURE_paper:=500000000}"
SCALES="tiny default paper"
