#!/bin/sh
# run-unit.sh - run every cmocka unit-test program and print one total line.
# Each program prints cmocka's own summary; the last line here is the
# "N passed, N failed" total over all programs.
. "$(dirname "$0")/lib.sh"
for t in "$@"; do
    out=$("$t" 2>&1); rc=$?
    printf '%s\n' "$out"
    p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -n1)
    f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -n1)
    add_counts "${p:-0}" "${f:-0}"
    if [ $rc -ne 0 ] && [ "${f:-0}" -eq 0 ]; then bad "$t: exit status $rc"; fi
done
summary unit
