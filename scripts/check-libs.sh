#!/bin/sh
# check-libs.sh - `make DEPS=0`: install nothing, only check that what the
# analysis side needs is present (any distribution, any user), and name
# everything missing in one message.
#   build: a C11 compiler, pkg-config modules jansson, libzstd, zlib, libmd
#   tests: cmocka (pkg-config), gnuplot (plots)
# Captures (tracegen) need Debian's valgrind package: see README.
# Usage: scripts/check-libs.sh [build|test]
want=${1:-build}
missing=""
command -v "${CC:-cc}" >/dev/null 2>&1 || missing="$missing C-compiler(${CC:-cc})"
if command -v pkg-config >/dev/null 2>&1; then
    mods="jansson libzstd zlib libmd"
    [ "$want" = test ] && mods="$mods cmocka"
    for m in $mods; do
        pkg-config --exists "$m" || missing="$missing $m"
    done
else
    missing="$missing pkg-config"
fi
[ "$want" = test ] && { command -v gnuplot >/dev/null 2>&1 || missing="$missing gnuplot"; }
if [ -n "$missing" ]; then
    echo "hwprof: missing for '$want':$missing" >&2
    echo "  Debian/Ubuntu: libjansson-dev libzstd-dev zlib1g-dev libmd-dev libcmocka-dev pkg-config gnuplot-nox" >&2
    echo "  Fedora: jansson-devel libzstd-devel zlib-devel libmd-devel libcmocka-devel pkgconf gnuplot" >&2
    echo "  (or run 'make' as root on Debian 12 without DEPS=0: it installs them)" >&2
    exit 1
fi
exit 0
