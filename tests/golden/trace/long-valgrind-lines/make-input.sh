#!/bin/sh
# Valgrind's own lines in a Lackey log may be longer than the 4096-byte line
# limit: a 5000-byte "==pid== Command:" line and a 2 MiB "--pid--" line
# (longer than the reader's 1 MiB chunk).  Both are skipped, and the error
# on line 5 shows that lines are still counted right.
set -eu
{
    printf '==5394== Command: /bin/prog '; head -c 5000 /dev/zero | tr '\0' a; printf '\n'
    printf 'I  0401ab70,3\n'
    printf -- '--5394-- '; head -c 2097152 /dev/zero | tr '\0' b; printf '\n'
    printf ' S 1fff000708,8\n'
    printf ' S 1fff000,8\n'
} >input
