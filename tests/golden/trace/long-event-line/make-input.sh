#!/bin/sh
# An event line (not a comment) longer than the 4096-byte line limit.
set -eu
{
    printf 'I 401000 4\n'
    printf 'I 401004 3'; head -c 5000 /dev/zero | tr '\0' ' '; printf '\n'
} >input
