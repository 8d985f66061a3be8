#!/bin/sh
# A valid trace whose header field "number of event kinds" (byte 20) says 8
# instead of 7, header checksum recomputed (see kind-count-mismatch).
set -eu
"$HWPROF" trace import --from text --workload tiny "$ROOT/tests/data/tiny.txt" input
printf '\010' | dd of=input bs=1 seek=20 conv=notrunc 2>/dev/null
head -c 508 input | gzip -c | tail -c 8 | head -c 4 >crc
dd if=crc of=input bs=1 seek=508 conv=notrunc 2>/dev/null
rm crc
