#!/bin/sh
# setup-deps.sh - install the Debian packages the harness needs, if missing.
# Idempotent and silent when everything is present.  As root it runs
# apt-get; otherwise it prints the exact command and fails.
set -eu

PKGS="build-essential pkg-config libjansson-dev libzstd-dev zlib1g-dev libmd-dev libcmocka-dev
gnuplot-nox valgrind zstd util-linux clang libclang-rt-14-dev
gzip bzip2 xz-utils gcc cpp-12 perl python3 sqlite3 lua5.4
link-grammar gap-core gnugo tachyon-bin-nox sjeng glpk-utils clisp simh"

# `setup-deps.sh slurm` adds a one-node Slurm for make test-slurm (the
# cluster scripts themselves only need a submit host's sbatch and squeue).
[ "${1:-}" = slurm ] && PKGS="$PKGS slurm-wlm slurmctld slurmd slurm-client munge"

missing=""
for p in $PKGS; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
    echo "hwprof: missing Debian packages:$missing" >&2
    echo "run as root:  apt-get update && apt-get install -y --no-install-recommends$missing" >&2
    exit 1
fi
echo "hwprof: installing missing Debian packages:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
