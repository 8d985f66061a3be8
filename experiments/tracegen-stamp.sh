#!/bin/sh
# tracegen-stamp.sh STAMP LIBDIR [FILE...] - the capture's fingerprint
# (mk/experiments.mk: a workload's vectors, and so its traces, are stale
# when older than STAMP): the SHA-256 of each FILE (the tool, the packer,
# the signal pinner, the capture driver, and the experiments' shared
# scripts and generators) by name, and where each link of LIBDIR
# (Valgrind's stock files beside the tool) points.
#
# Rewritten only when that text changes, so a build to the same bytes
# (after `make clean`, or in another clone: the binaries do not record the
# checkout's path), or a script with a new time and the same bytes (a
# checkout), leaves every trace current.  Made for the first time, it
# takes the time of the newest FILE, so traces captured before it existed
# are judged as they were without it: by the tool's build time.
set -eu
stamp=$1 libdir=$2
shift 2
here=$(dirname "$0")
text=$(
    for f in "$@"; do
        printf '%s  %s\n' "$(sha256sum < "$f" | cut -d' ' -f1)" "$(basename "$f")"
    done
    if [ -n "$libdir" ] && [ -d "$libdir" ]; then
        for l in "$libdir"/*; do
            if [ -L "$l" ]; then printf 'link %s -> %s\n' "$(basename "$l")" "$(readlink "$l")"; fi
        done
    fi
)
new=0
[ -f "$stamp" ] || new=1
printf '%s\n' "$text" | "$here/../scripts/write-if-changed.sh" "$stamp"
if [ $new = 1 ] && [ $# -gt 0 ]; then
    # shellcheck disable=SC2012 # the names are the build's own
    touch -r "$(ls -t "$@" | head -n 1)" "$stamp"
fi
