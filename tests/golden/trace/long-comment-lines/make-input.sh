#!/bin/sh
# Comment lines may be longer than the 4096-byte line limit: a 5000-byte one
# and one of 3 MiB (longer than the reader's 1 MiB chunk).  Both are
# skipped, and the error on line 6 shows that lines are still counted right.
set -eu
{
    printf '# '; head -c 5000 /dev/zero | tr '\0' a; printf '\n'
    printf 'I 401000 4\n'
    printf '#'; head -c 3145728 /dev/zero | tr '\0' b; printf '\n'
    printf '#\n'
    printf 'I 401004 3\n'
    printf 'I 401007 05\n'
} >input
