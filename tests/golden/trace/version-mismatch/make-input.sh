#!/bin/sh
# A valid trace that claims format version 3 (1 and 2 exist).
set -eu
"$HWPROF" trace import --from text --workload tiny "$ROOT/tests/data/tiny.txt" input
printf '\003' | dd of=input bs=1 seek=8 conv=notrunc 2>/dev/null
