#!/bin/sh
# A valid trace with one bit flipped inside block 0's compressed data
# (header 512 bytes + block header 20 bytes + 10).
set -eu
"$HWPROF" trace import --from text --workload tiny "$ROOT/tests/data/tiny.txt" input
offset=542
old=$(od -An -tu1 -j $offset -N1 input | tr -d ' ')
new=$((old ^ 64))
printf "\\$(printf %03o "$new")" | dd of=input bs=1 seek=$offset conv=notrunc 2>/dev/null
