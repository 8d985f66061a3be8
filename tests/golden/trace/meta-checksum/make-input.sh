#!/bin/sh
# A v2 trace with two metadata pairs ("cpu.level=x86-64-v2\nprogram=/usr/bin/gzip\n"
# after the 12-byte section preamble at byte 512) whose first value byte is
# changed: the CRC-32 of the text (byte 520) no longer matches.
set -eu
"$HWPROF" trace import --from text --workload tiny --meta cpu.level=x86-64-v2 --meta program=/usr/bin/gzip \
    "$ROOT/tests/data/tiny.txt" input
printf 'y' | dd of=input bs=1 seek=534 conv=notrunc 2>/dev/null
