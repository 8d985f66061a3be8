#!/bin/sh
# A valid trace whose 8-byte magic is overwritten.
set -eu
"$HWPROF" trace import --from text --workload tiny "$ROOT/tests/data/tiny.txt" input
printf 'NOTATRCE' | dd of=input bs=1 seek=0 conv=notrunc 2>/dev/null
