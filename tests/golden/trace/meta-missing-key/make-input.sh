#!/bin/sh
# `info --meta KEY` of a trace without KEY (here: a v2 trace with one other
# pair) names the file and the key and exits 1.
set -eu
"$HWPROF" trace import --from text --workload tiny --meta program=/usr/bin/gzip "$ROOT/tests/data/tiny.txt" input
