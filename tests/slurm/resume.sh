#!/bin/bash
# tests/slurm/resume.sh - a killed run resumes and ends with the same bytes
# (make test-resume; part of make test).  No Slurm needed: this is the
# runner behaviour the cluster scripts (cluster/) rely on.
#
# On synthetic traces (three workloads, five windows, imported from
# generated text traces) and a config with a series table:
#   1. a reference run, uninterrupted;
#   2. a run killed (SIGKILL) after its first finished job: no result file,
#      at least one part; the rerun says how many jobs it kept and writes
#      every file byte for byte as the reference (all but <stem>.run.json,
#      the record of how this copy was made);
#   3. the same with shards: shard 0/2 killed mid-way and rerun, merge
#      refuses while shard 1/2 is missing (naming it), then merges to the
#      reference bytes; --if-changed makes shards and merge of a current
#      result do nothing;
#   4. a result replaced half-way (a rename fails between the sidecar and
#      the CSV, as a kill there would leave it) leaves no CSV, so neither
#      make nor --if-changed takes the old CSV for the new result;
#   5. a figure replaced half-way (the PDF cannot be renamed) leaves no
#      SVG (make's target), so make draws it again.
# Usage: tests/slurm/resume.sh build/hwprof
set -uo pipefail
HWPROF=$(cd "$(dirname "${1:-build/hwprof}")" && pwd)/$(basename "${1:-build/hwprof}")
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test-resume.XXXXXX")
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done
    rm -rf "$tmp"
}
trap cleanup EXIT
. "$root/tests/lib.sh"

cd "$tmp" || exit 1
mkdir -p experiments traces configs/suite
ln -s "$root/plots" plots   # the gnuplot templates
# A text trace of N iterations of a loop over a few loads with values that
# drift slowly (so candidate sets change between intervals).
gen() { # seed iterations
    awk -v seed="$1" -v n="$2" 'BEGIN {
        for (i = 0; i < n; i++) {
            pc = 4198400 + (i % 7) * 16
            v = int((i * seed) / 997) % (50 + seed)
            printf "I %x 4\nL %x 7ffc%04x 8 %x\nB %x %x %x %s\n", pc, pc, (i % 64) * 8, v, pc, 4198400, pc + 4, (i % 5 ? "T" : "N")
        }
    }'
}
for w in a b c; do echo "# test workload" > experiments/$w.wl; done
i=0
for t in a.w0 a.w1 b.w0 b.w1 c.w0; do
    i=$((i + 1))
    gen $((i + 2)) 250000 > $t.txt
    "$HWPROF" trace import --from text --workload "${t%%.*}" $t.txt traces/$t.trace || { bad "import $t"; exit 1; }
done
cat > configs/suite/resume.json <<'JSON'
{
  "paper": "suite",
  "caption": "resume test",
  "workloads": ["a", "b", "c"],
  "series": true,
  "params": {"stream": "values", "interval": 1000, "threshold": 0.01, "counters": 256},
  "runs": [
    {"label": "SH", "model": "singlehash", "sweep": {"reset": [false, true], "retain": [false, true]}},
    {"label": "MH", "model": "multihash", "sweep": {"tables": [1, 2, 3, 4, 6, 8], "conservative": [false, true]}}
  ],
  "plot": {"type": "bars", "x": "workload", "y": ["error_pct"], "group": ["run", "tables", "conservative", "reset", "retain"]}
}
JSON
cfg=configs/suite/resume.json
run() { "$HWPROF" run --threads 1 --traces traces "$@"; }
# same_as_ref DIR: every result file of DIR equals the reference's (but the run record)
same_as_ref() {
    local f n=0
    for f in ref/suite/resume.*; do
        case $f in *.run.json) continue ;; esac
        cmp -s "$f" "$1/suite/${f#ref/suite/}" || { echo "  differs: $1/suite/${f#ref/suite/}"; return 1; }
        n=$((n + 1))
    done
    [ $n -ge 4 ] && [ ! -e "$1/suite/resume.parts" ]
}
# kill_after_first_part DIR ARGS...: start a run, SIGKILL it once a part exists
kill_after_first_part() {
    local dir=$1; shift
    "$HWPROF" run --threads 1 --traces traces --quiet --out "$dir" "$@" "$cfg" &   # not `run`: $! must be hwprof
    local pid=$! k
    pids+=("$pid")
    for ((k = 0; k < 600; k++)); do
        compgen -G "$dir/suite/resume.parts/job-*.json" >/dev/null && break
        sleep 0.02
    done
    kill -9 "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    compgen -G "$dir/suite/resume.parts/job-*.json" | wc -l
}

# 1. reference
t0=$(date +%s.%N)
run --quiet --out ref "$cfg" || { bad "reference run"; exit 1; }
ok "reference run ($(printf '%.1f' "$(echo "$(date +%s.%N) - $t0" | bc)") s, 5 jobs)"

# 2. killed, rerun
n=$(kill_after_first_part killed)
if [ "$n" -ge 1 ] && [ "$n" -lt 5 ] && [ ! -e killed/suite/resume.csv ] && [ ! -e killed/suite/resume.json ]; then
    ok "killed run: $n of 5 parts, no result file"
else
    bad "killed run: $n parts (want 1..4), result files: $(ls killed/suite 2>/dev/null | tr '\n' ' ')"
fi
run --out killed "$cfg" 2> killed.err
if grep -q "$n of 5 jobs already done" killed.err; then ok "rerun keeps the finished jobs ($n)"; else bad "rerun: $(cat killed.err)"; fi
check "rerun after the kill: same bytes as the reference, parts removed" same_as_ref killed

# 3. shards
n=$(kill_after_first_part sharded --shard=0/2)
[ -e sharded/suite/resume.parts/shard-0-of-2.done ] && bad "shard 0/2 finished before the kill"
run --quiet --out sharded --shard=0/2 "$cfg" || bad "shard 0/2 rerun"
check "shard 0/2 rerun marks it done" test -e sharded/suite/resume.parts/shard-0-of-2.done
if ! "$HWPROF" merge --traces traces --out sharded --shards 2 "$cfg" 2> merge.err &&
    grep -q 'shard 1/2' merge.err && [ ! -e sharded/suite/resume.csv ]; then
    ok "merge refuses while shard 1/2 is missing, naming it"
else
    bad "merge with a missing shard: $(cat merge.err)"
fi
run --quiet --out sharded --shard=1/2 "$cfg" || bad "shard 1/2"
"$HWPROF" merge --quiet --traces traces --out sharded --shards 2 "$cfg" || bad "merge"
check "killed shard, rerun, merge: same bytes as the reference" same_as_ref sharded
run --out sharded --if-changed --shard=1/2 "$cfg" 2> ifc.err
if grep -q 'up to date' ifc.err && [ ! -e sharded/suite/resume.parts ]; then
    ok "--if-changed: a shard of a current result does nothing"
else
    bad "--if-changed shard: $(cat ifc.err)"
fi
"$HWPROF" merge --if-changed --traces traces --out sharded --shards 2 "$cfg" 2> ifc.err
if grep -q 'nothing to merge' ifc.err; then ok "--if-changed: merge of a current result does nothing"; else bad "merge --if-changed: $(cat ifc.err)"; fi

# 4. a result replaced half-way: the run record cannot be renamed into place
cp -r ref half
sed -i 's/"resume test"/"resume test, changed"/' "$cfg"
rm -f half/suite/resume.run.json && mkdir half/suite/resume.run.json
run --quiet --out half "$cfg" 2>/dev/null && bad "the run with a blocked rename succeeded"
if [ ! -e half/suite/resume.csv ]; then
    ok "a result replaced half-way leaves no CSV (the old one is gone before the new files go in)"
else
    bad "a result replaced half-way left a CSV beside the new sidecar"
fi
rmdir half/suite/resume.run.json
run --out half --if-changed "$cfg" 2> half.err
if ! grep -q 'up to date' half.err && [ -s half/suite/resume.csv ]; then
    ok "--if-changed recomputes it"
else
    bad "--if-changed after a half-replaced result: $(cat half.err)"
fi

# 5. a figure replaced half-way
"$HWPROF" plot "$cfg" --results ref --plots figs >/dev/null 2>&1 || bad "plot"
check "figure drawn" test -s figs/suite/resume.svg
rm -f figs/suite/resume.pdf && mkdir figs/suite/resume.pdf
"$HWPROF" plot "$cfg" --results ref --plots figs >/dev/null 2>&1 && bad "the plot with a blocked rename succeeded"
check "a figure replaced half-way leaves no SVG (make draws it again)" test ! -e figs/suite/resume.svg

summary resume
