#!/bin/bash
# stale.sh - is a captured trace or basic-block-vector file out of date with
# this machine?
# Usage: experiments/stale.sh FILE [CPU_LEVEL]
# FILE is a trace or a BBV file (experiments/bbv.sh: its provenance is in
# trailing "# meta" lines).  Prints "stale" on stdout (and the reason on
# stderr) when FILE exists and
#   - has no provenance metadata (trace format v1, or no "packages" key), or
#   - is a BBV whose slice length (bbv.slice) is not the one scales.sh now
#     gives its scale (workload.scale), or
#   - was captured at another CPU level than CPU_LEVEL (if given), or
#   - was captured without pinned signal dispositions (pin.signals), or
#   - records a Debian package version ("packages": pkg=version ...) other
#     than the installed one, or a package that is no longer installed.
# Prints nothing when FILE is current or does not exist (make builds a
# missing file anyway).  mk/experiments.mk calls it for every file it
# considers, so it must be cheap: it reads the header and the metadata text
# (docs/trace-format.md, "Metadata") or a BBV's last lines (meta.sh), never
# the events, needs no hwprof binary, and asks dpkg-query once.
set -u
trace=$1 level=${2:-}
[ -f "$trace" ] || exit 0
stale() { echo "experiments: $trace is stale: $*; recapturing" >&2; echo stale; exit 0; }

. "$(dirname "$0")/meta.sh"
meta_read "$trace" || stale "$META_WHY"
get() { meta_get "$1"; }
if [ "$META_KIND" = bbv ]; then
    # The slice length of the file's scale must still be scales.sh's.
    scale=$(get workload.scale) have=$(get bbv.slice)
    if [ -n "$scale" ]; then
        . "$(dirname "$0")/scales.sh"
        v=SLICE_$scale
        [ "$have" = "${!v:-}" ] || stale "slices of ${have:-?} instructions, scales.sh now says ${!v:-?} for scale $scale"
    fi
fi

if [ -n "$level" ]; then
    have=$(get cpu.level)
    [ "$have" = "$level" ] || stale "captured at CPU level '${have:-?}', CPU_LEVEL is '$level'"
fi
[ "$(get pin.signals)" = yes ] ||
    stale "captured with the signal dispositions make was started with (no pin.signals=yes)"
packages=$(get packages)
[ -n "$packages" ] || stale "no package versions recorded"
names=()
for pv in $packages; do names+=("${pv%%=*}"); done
command -v dpkg-query >/dev/null || exit 0 # nothing to compare with
installed=" $(dpkg-query -W -f '${binary:Package}=${Version} ' "${names[@]}" 2>/dev/null)"
for pv in $packages; do
    case "$installed" in
    *" $pv "*) ;;
    *)  now=$(printf '%s\n' $installed | sed -n "s/^${pv%%=*}=//p")
        stale "${pv%%=*} ${pv#*=} recorded, ${now:-not} installed" ;;
    esac
done
exit 0
