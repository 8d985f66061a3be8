#!/bin/sh
# A valid trace of tests/data/tiny.txt with its last 5 bytes cut off.
set -eu
"$HWPROF" trace import --from text --workload tiny "$ROOT/tests/data/tiny.txt" valid.trace
size=$(wc -c <valid.trace)
head -c $((size - 5)) valid.trace >input
rm valid.trace
