#!/bin/sh
# run-each.sh PROGRAM... - run each program in turn (make bench); stop at the
# first that fails, with its exit status.
for p in "$@"; do
    "$p" || exit
done
