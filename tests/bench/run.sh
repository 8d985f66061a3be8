#!/bin/sh
# tests/bench/run.sh - the CSV of RAP Figure 4's wall clock
# (bench/lib/rap_measure.h, `make rap-wallclock`) from a tiny hand-written
# trace: its columns, one row per run x aggregation, the counts (events and
# tree updates, computed by hand below; the times are not checked), the
# machine's description filled in, no temporary left behind, and a failed
# write that leaves the previous CSV in place.
#   300 iterations of a loop of two blocks (401000, 401010), each with one
#   load: 600 block starts with 2 distinct keys (code) and 600 load values,
#   0..6 and 0 (values: 7 distinct keys).  Without aggregation every key is
#   a tree update; full aggregation updates the tree once per distinct key.
# Usage: tests/bench/run.sh build/hwprof build/san/bench/bench_rap
set -u
abs() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }
HWPROF=$(abs "${1:-build/hwprof}")
BENCH=$(abs "${2:-build/san/bench/bench_rap}")
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

awk 'BEGIN { for (i = 0; i < 300; i++) {
    print "I 401000 4"; printf "L 401000 7ffc10 8 %x\n", i % 7; print "I 401004 3"; print "B 401004 401010 401007 T"
    print "I 401010 4"; print "L 401010 7ffc20 8 0"; print "I 401014 4"; print "B 401014 401000 401018 T" } }' > loop.txt
"$HWPROF" trace import --from text --workload loop --meta window.index=0 loop.txt loop.trace >/dev/null ||
    { bad "import the tiny trace"; summary "bench"; exit 1; }

mkdir -p out
check "bench_rap --csv writes the CSV" sh -c "'$BENCH' --csv out/w.csv --rounds 2 loop.trace > log 2>&1"
[ -s out/w.csv ] || { bad "no CSV ($(tail -3 log))"; summary "bench"; exit 1; }

want="workload,window,trace_sha256,run,aggregation,events,updates,nodes_max,seconds,events_per_s,speedup_vs_none,\
updates_saved_vs_none,tree_seconds,tree_speedup_vs_none,rounds,max_events,cpu_model,cores,kernel,compiler,cflags,\
git_revision,git_dirty,date"
check "the columns" [ "$(head -1 out/w.csv)" = "$want" ]
check "6 rows: code and values x none, buffer, full" [ "$(tail -n +2 out/w.csv | cut -d, -f4,5 | paste -sd' ')" = \
    "code,none code,buffer code,full values,none values,buffer values,full" ]
# workload,window,run,aggregation,events,updates,updates_saved_vs_none,rounds,max_events
counts=$(tail -n +2 out/w.csv | cut -d, -f1,2,4,5,6,7,12,15,16 | paste -sd' ')
check "the counts by hand" [ "$counts" = "loop,0,code,none,600,600,1,2,16777216 loop,0,code,buffer,600,2,300,2,16777216 \
loop,0,code,full,600,2,300,2,16777216 loop,0,values,none,600,600,1,2,16777216 \
loop,0,values,buffer,600,7,85.71428571,2,16777216 loop,0,values,full,600,7,85.71428571,2,16777216" ]
sha=$(sha256sum loop.trace | cut -d' ' -f1)
check "the trace's SHA-256 on every row" [ "$(tail -n +2 out/w.csv | cut -d, -f3 | sort -u)" = "$sha" ]
# times: positive numbers; the speedup of "none" over itself is 1; the tree
# phase's speedup only for full aggregation
check "times and rates are positive numbers" sh -c "tail -n +2 out/w.csv | awk -F, '
    !(\$9 > 0 && \$10 > 0 && \$11 > 0 && \$13 > 0) { exit 1 }
    \$5 == \"none\" && \$11 != 1 { exit 1 }
    (\$5 == \"full\") != (\$14 != \"\") { exit 1 }'"
# the machine: every description cell filled; git_dirty 0 or 1; an ISO date
# (a quoted cell, the flags with their commas, becomes one word first)
check "the machine's description" sh -c "tail -n +2 out/w.csv | sed 's/\"[^\"]*\"/quoted/g' | awk -F, '
    { for (i = 15; i <= 24; i++) if (\$i == \"\") exit 1 }
    \$23 != 0 && \$23 != 1 { exit 1 }
    \$24 !~ /^20[0-9][0-9]-[01][0-9]-[0-3][0-9]T[0-9:]+Z\$/ { exit 1 }'"
check "no temporary left" [ -z "$(ls out | grep -v '^w.csv$')" ]

# a failed write (the output's folder is a file) leaves nothing, and a
# failed measurement (no such trace) leaves the previous CSV as it was
cp out/w.csv before.csv
: > notadir
check "a write that fails exits 1" sh -c "! '$BENCH' --csv notadir/w.csv --rounds 1 loop.trace > log2 2>&1"
check "a missing trace exits 1, the previous CSV unchanged" sh -c \
    "! '$BENCH' --csv out/w.csv --rounds 1 loop.trace nosuch.trace > log3 2>&1 && cmp -s before.csv out/w.csv"
check "usage errors exit 2" sh -c "'$BENCH' --csv out/x.csv > /dev/null 2>&1; [ \$? = 2 ]"
summary "bench"
