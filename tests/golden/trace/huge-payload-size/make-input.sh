#!/bin/sh
# A valid trace whose payload_bytes field (byte 112, 8 bytes) is
# 0xffffffffffffffc0: 512 + that wraps around to 448 in 64 bits, which must
# not be taken for the expected file size.  Header checksum recomputed (see
# kind-count-mismatch).
set -eu
"$HWPROF" trace import --from text --workload tiny "$ROOT/tests/data/tiny.txt" input
printf '\300\377\377\377\377\377\377\377' | dd of=input bs=1 seek=112 conv=notrunc 2>/dev/null
head -c 508 input | gzip -c | tail -c 8 | head -c 4 >crc
dd if=crc of=input bs=1 seek=508 conv=notrunc 2>/dev/null
rm crc
