#!/bin/bash
# stale.sh - is a captured trace out of date with this machine?
# Usage: experiments/stale.sh TRACE [CPU_LEVEL]
# Prints "stale" on stdout (and the reason on stderr) when TRACE exists and
#   - has no provenance metadata (trace format v1, or no "packages" key), or
#   - was captured at another CPU level than CPU_LEVEL (if given), or
#   - records a Debian package version ("packages": pkg=version ...) other
#     than the installed one, or a package that is no longer installed.
# Prints nothing when TRACE is current or does not exist (make builds a
# missing trace anyway).  mk/experiments.mk calls it for every trace it
# considers, so it must be cheap: it reads the header and the metadata text
# (docs/trace-format.md, "Metadata") with od/tail, never the events, needs
# no hwprof binary, and asks dpkg-query once.
set -u
trace=$1 level=${2:-}
[ -f "$trace" ] || exit 0
stale() { echo "experiments: $trace is stale: $*; recapturing" >&2; echo stale; exit 0; }

u32() { od -An -tu4 -j "$1" -N4 "$trace" 2>/dev/null | tr -d ' '; }
version=$(u32 8)
[ "$version" = 2 ] || stale "trace format v${version:-?} records no package versions"
mbytes=$(u32 504)
[[ $mbytes =~ ^[0-9]+$ ]] && [ "$mbytes" -gt 12 ] || stale "no provenance metadata"
# The text after the 12-byte section preamble at byte 512: key=value lines.
meta=$(tail -c +525 "$trace" | head -c $((mbytes - 12)))
get() { printf '%s\n' "$meta" | sed -n "s/^$1=//p" | head -1; }

if [ -n "$level" ]; then
    have=$(get cpu.level)
    [ "$have" = "$level" ] || stale "captured at CPU level '${have:-?}', CPU_LEVEL is '$level'"
fi
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
