#!/bin/sh
# A valid trace whose header lacks the "complete" flag, as a writer that
# never reached trace_writer_close() leaves it.  The header checksum
# (crc32 of bytes 0..507, little-endian at 508) is recomputed so that the
# flag, not the checksum, is what the reader trips on; gzip's trailer
# holds exactly that crc32.
set -eu
"$HWPROF" trace import --from text --workload tiny "$ROOT/tests/data/tiny.txt" input
flags=$(od -An -tu1 -j 16 -N1 input | tr -d ' ')
printf "\\$(printf %03o $((flags & ~1)))" | dd of=input bs=1 seek=16 conv=notrunc 2>/dev/null
head -c 508 input | gzip -c | tail -c 8 | head -c 4 >crc
dd if=crc of=input bs=1 seek=508 conv=notrunc 2>/dev/null
rm crc
