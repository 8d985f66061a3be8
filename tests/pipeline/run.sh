#!/bin/sh
# run.sh - end-to-end pipeline checks on hand-written traces:
#   text trace -> import -> `hwprof run` -> CSV with hand-computed numbers,
#   byte-identical reruns (1 and 2 threads), no result after a corrupted
#   trace, plot and table outputs.
# Usage: tests/pipeline/run.sh build/hwprof
set -u
HWPROF=$(cd "$(dirname "${1:-build/hwprof}")" && pwd)/$(basename "${1:-build/hwprof}")
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
mkdir -p experiments traces configs/suite
echo "# test workload" > experiments/a.wl
echo "# test workload" > experiments/b.wl
cat > a.txt <<'TXT'
I 401000 4
L 401000 7ffc10 8 2a
I 401004 3
S 401004 7ffc18 4
B 401004 401000 401007 T
I 401000 4
L 401000 7ffc10 8 2b
I 401004 3
S 401004 7ffc18 4 M
B 401004 401000 401007 N
C 401007 402000
R 402000 40100c
C 40100c 403000 *
TXT
printf 'I 401000 4\n' > b.txt
"$HWPROF" trace import --from text --workload a a.txt traces/a.trace
"$HWPROF" trace import --from text --workload b b.txt traces/b.trace
cat > configs/suite/counts.json <<'JSON'
{
  "paper": "suite",
  "caption": "pipeline test",
  "workloads": ["a", "b"],
  "model": "counts",
  "plot": {"type": "bars", "x": "workload", "y": ["instructions", "loads"]},
  "table": {"columns": ["workload", "instructions", "branches"]}
}
JSON
# one window per workload: mean = min = max, no interval
cat > expected.csv <<'CSV'
workload,run,model,windows,instructions,instructions_min,instructions_max,instructions_lo,instructions_hi,loads,loads_min,loads_max,loads_lo,loads_hi,stores,stores_min,stores_max,stores_lo,stores_hi,branches,branches_min,branches_max,branches_lo,branches_hi,taken_branches,taken_branches_min,taken_branches_max,taken_branches_lo,taken_branches_hi,calls,calls_min,calls_max,calls_lo,calls_hi,indirect_calls,indirect_calls_min,indirect_calls_max,indirect_calls_lo,indirect_calls_hi,returns,returns_min,returns_max,returns_lo,returns_hi,indirect_jumps,indirect_jumps_min,indirect_jumps_max,indirect_jumps_lo,indirect_jumps_hi,load_bytes,load_bytes_min,load_bytes_max,load_bytes_lo,load_bytes_hi,store_bytes,store_bytes_min,store_bytes_max,store_bytes_lo,store_bytes_hi
a,counts,counts,1,4,4,4,,,2,2,2,,,2,2,2,,,2,2,2,,,1,1,1,,,2,2,2,,,1,1,1,,,1,1,1,,,0,0,0,,,16,16,16,,,8,8,8,,
b,counts,counts,1,1,1,1,,,0,0,0,,,0,0,0,,,0,0,0,,,0,0,0,,,0,0,0,,,0,0,0,,,0,0,0,,,0,0,0,,,0,0,0,,,0,0,0,,
CSV
"$HWPROF" run --quiet --traces traces --out r1 configs/suite/counts.json
check "hand-computed counts" cmp -s expected.csv r1/suite/counts.csv
"$HWPROF" run --quiet --threads 1 --traces traces --out r2 configs/suite/counts.json
check "rerun byte-identical (1 vs 2 threads)" cmp -s r1/suite/counts.csv r2/suite/counts.csv
check "sidecar written" test -s r1/suite/counts.json
check "text round trip" sh -c "'$HWPROF' trace cat traces/a.trace | cmp -s - a.txt"
"$HWPROF" plot configs/suite/counts.json --results r1 --plots p1 >/dev/null 2>&1
check "plot svg and png" test -s p1/suite/counts.svg -a -s p1/suite/counts.png
"$HWPROF" table configs/suite/counts.json --results r1 >/dev/null 2>&1
check "markdown table" grep -q '| a ' r1/suite/counts.md
# A corrupted trace: error naming it, exit 1, nothing written.
cp traces/a.trace good.trace
printf '\377' | dd of=traces/a.trace bs=1 seek=540 conv=notrunc 2>/dev/null
"$HWPROF" run --quiet --traces traces --out r3 configs/suite/counts.json 2>err.txt
rc=$?
check "corrupted trace exits 1" test $rc -eq 1
check "corrupted trace message" grep -q "traces/a.trace: byte" err.txt
check "no result after failure" test ! -e r3/suite/counts.csv
cp good.trace traces/a.trace
# An unfinished (interrupted) trace is refused.
head -c $(($(wc -c < good.trace) - 5)) good.trace > traces/b.trace
"$HWPROF" run --quiet --traces traces --out r4 configs/suite/counts.json 2>err.txt
check "truncated trace refused" grep -q "traces/b.trace: byte" err.txt
check "no result after truncated trace" test ! -e r4/suite/counts.csv
# Three windows of workload w (w.w0..w2.trace, no weights recorded: equal):
# 1, 2 and 3 instructions.  Mean 2, range [1, 3], t interval
# 2 -/+ t(0.975, 2) / sqrt(3) = [-0.4841377118, 4.484137712].
echo "# windows" > experiments/w.wl
for k in 0 1 2; do
    : > w$k.txt
    i=0; while [ $i -le $k ]; do printf 'I 40100%d 1\n' $i >> w$k.txt; i=$((i + 1)); done
    "$HWPROF" trace import --from text --workload w w$k.txt traces/w.w$k.trace
done
cat > configs/suite/win.json <<'JSON'
{"paper": "suite", "workloads": ["w"], "model": "counts", "metrics": ["instructions"]}
JSON
"$HWPROF" run --quiet --traces traces --out r5 configs/suite/win.json
check "window statistics" test "$(sed -n 2p r5/suite/win.csv)" = "w,counts,counts,3,2,1,3,-0.4841377118,4.484137712"
check "per-window rows" test "$(sed -n 2,4p r5/suite/win.windows.csv | tr '\n' ' ')" = "w,0,0.3333333333,counts,counts,1 w,1,0.3333333333,counts,counts,2 w,2,0.3333333333,counts,counts,3 "
summary pipeline
