#!/bin/sh
# A valid trace of tests/data/tiny.txt (5 loads, 4 stores) whose header
# claims 4 loads (byte 32) and 5 stores (byte 40): the total (byte 80) still
# agrees with the 25 decoded events, so the reader must name the per-kind
# field that disagrees.  The header checksum (crc32 of bytes 0..507,
# little-endian at 508) is recomputed; gzip's trailer holds exactly that crc32.
set -eu
"$HWPROF" trace import --from text --workload tiny "$ROOT/tests/data/tiny.txt" input
printf '\004' | dd of=input bs=1 seek=32 conv=notrunc 2>/dev/null
printf '\005' | dd of=input bs=1 seek=40 conv=notrunc 2>/dev/null
head -c 508 input | gzip -c | tail -c 8 | head -c 4 >crc
dd if=crc of=input bs=1 seek=508 conv=notrunc 2>/dev/null
rm crc
