#!/bin/sh
# content-stamp.sh [--base DIR] STAMP LIBDIR [FILE...] - a fingerprint file
# that make compares by time but that changes only with content
# (mk/experiments.mk): the SHA-256 of each FILE, by its name (its path
# below DIR with --base, else its base name), and where each link of
# LIBDIR points ("" for none).  Two uses:
#   traces/<scale>/.tracegen       the capture's tools: the tool, the
#                                  packer, the signal pinner, the capture
#                                  driver, Valgrind's stock files beside the
#                                  tool (LIBDIR), and the experiments'
#                                  shared scripts and generators;
#   traces/<scale>/<name>.sources  one workload's own files: its .wl and
#                                  every file below inputs/<name>/.
# A workload's vectors, and so its traces, are stale when older than
# either.
#
# Rewritten only when that text changes, so a build to the same bytes
# (after `make clean`, or in another clone: the binaries do not record the
# checkout's path), or a file with a new time and the same bytes (a
# checkout), leaves every trace current.  Made for the first time, it
# takes the time of the newest FILE, so traces captured before it existed
# are judged as they were without it: by the files' times.
set -eu
base=
if [ "${1:-}" = --base ]; then
    base=${2%/}
    shift 2
fi
stamp=$1 libdir=$2
shift 2
here=$(dirname "$0")
for f in "$@"; do
    [ -f "$f" ] || { echo "content-stamp.sh: $f: not a regular file" >&2; exit 1; }
done
text=$(
    for f in "$@"; do
        if [ -n "$base" ]; then name=${f#"$base"/}; else name=$(basename "$f"); fi
        printf '%s  %s\n' "$(sha256sum < "$f" | cut -d' ' -f1)" "$name"
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
    # shellcheck disable=SC2012 # the names are the suite's own
    touch -r "$(ls -t "$@" | head -n 1)" "$stamp"
fi
