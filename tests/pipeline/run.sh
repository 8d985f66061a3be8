#!/bin/sh
# run.sh - end-to-end pipeline checks on hand-written traces:
#   text trace -> import -> `hwprof run` -> CSV with hand-computed numbers,
#   byte-identical reruns (1 and 2 threads), no result after a corrupted
#   trace, plot and table outputs.
# Usage: tests/pipeline/run.sh build/hwprof
set -u
HWPROF=$(cd "$(dirname "${1:-build/hwprof}")" && pwd)/$(basename "${1:-build/hwprof}")
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
check() { # name, condition-command...
    name=$1; shift
    if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $name"; fi
}
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
cat > expected.csv <<'CSV'
workload,run,model,instructions,loads,stores,branches,taken_branches,calls,returns,indirect_jumps,load_bytes,store_bytes
a,counts,counts,4,2,2,2,1,1,1,0,16,8
b,counts,counts,1,0,0,0,0,0,0,0,0,0
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
echo "pipeline: $pass passed, $fail failed"
[ $fail -eq 0 ]
