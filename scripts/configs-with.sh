#!/bin/sh
# configs-with.sh KEY CONFIG... - the configs that name KEY ("plot",
# "table"): those make draws a figure or renders a table for (the
# Makefile's PLOT_CONFIGS and TABLE_CONFIGS).  Prints nothing for none.
key=$1
shift
[ $# -gt 0 ] || exit 0
grep -l "\"$key\"" "$@" || true
