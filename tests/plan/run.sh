#!/bin/bash
# tests/plan/run.sh - several configs in one plan (issue 24; make test-plan,
# part of make test): a result computed in the shared plan is the result of
# running its config alone, byte for byte.
#
# On synthetic traces (two workloads of two weighted windows each, with
# calls, returns, branches, loads with values and stores, imported from
# generated text) and a sample of the shipped configs of every family
# (multihash, conte, rap, hps, suite; HPS fig08 and fig09 run one sweep, the
# two HCCT configs one run: shared instances), plus an analytic config:
#   1. each config run alone (one `hwprof run` per config: the old path);
#   2. all of them in one `hwprof run`: one plan (fewer instances computed
#      than asked for), every CSV and sidecar .json equal to the config's
#      run alone, no parts left, the run record says the plan;
#   3. --if-changed over all of them: nothing to do; a result whose CSV was
#      cut short and one whose main CSV is gone are computed (in one plan)
#      to the same bytes; a config whose result is gone alone (a config
#      added later) runs alone;
#   4. the plan killed (SIGKILL) after its first part: no result of a
#      config reading the traces; the rerun resumes every config from its
#      parts and ends with the same bytes;
#   5. the plan in two shards and `hwprof merge` of every config: the same
#      bytes;
#   6. a config that fails in the plan (its model needs loaded values; the
#      trace of its own "traces" folder has none) costs another config that
#      reads the same window nothing: that one is written, equal to its run
#      alone, and the failed one is named.
# Usage: tests/plan/run.sh build/hwprof
set -uo pipefail
HWPROF=$(cd "$(dirname "${1:-build/hwprof}")" && pwd)/$(basename "${1:-build/hwprof}")
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test-plan.XXXXXX")
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done
    rm -rf "$tmp"
}
trap cleanup EXIT
# shellcheck source=tests/lib.sh
. "$root/tests/lib.sh"

cd "$tmp" || exit 1
mkdir -p experiments traces configs
# A program-like text trace: calls from a few sites into 13 functions, each
# a small loop of loads (values drifting, zeros, one hot value), a store and
# a back branch, then a return.
gen() { # seed iterations
    awk -v seed="$1" -v n="$2" 'BEGIN {
        for (i = 0; i < n; i++) {
            f = (i * 7 + int(i / 50)) % 13
            site = 4198400 + (i % 5) * 32
            fn = 5242880 + f * 256
            printf "I %x 5\nC %x %x\n", site, site, fn
            reps = 1 + (i + f) % 3
            for (r = 0; r < reps; r++) {
                pc = fn + r * 16
                v1 = int((i * seed) / 997) % (50 + seed)
                v2 = (i % 3 == 0) ? 0 : (i * 7919 + r) % 1000
                v3 = (i % 10 < 7) ? 42 : (i * 31 + f) % 4096
                printf "I %x 4\nL %x %x 8 %x\n", pc, pc, 140720308486144 + ((i * 8 + r) % 512) * 8, v1
                printf "I %x 4\nL %x %x 4 %x\n", pc + 4, pc + 4, 6295552 + (f * 64 + r) * 4, v2
                printf "I %x 3\nL %x %x 8 %x\n", pc + 8, pc + 8, 6299648 + (i % 97) * 8, v3
                printf "I %x 3\nS %x %x 8\n", pc + 11, pc + 11, 140720308490240 + (i % 64) * 8
                printf "I %x 2\nB %x %x %x %s\n", pc + 14, pc + 14, fn, pc + 16, (r < reps - 1 ? "T" : "N")
            }
            printf "I %x 1\nR %x %x\n", fn + 64, fn + 64, site + 5
        }
    }'
}
i=0
for t in a.w0:0.7 a.w1:0.3 b.w0:0.5 b.w1:0.5; do
    i=$((i + 1))
    w=${t%%.*} k=${t#*.w} k=${k%%:*} wt=${t#*:}
    gen $((i + 2)) 12000 > "$w.w$k.txt"
    "$HWPROF" trace import --from text --workload "$w" --meta window.index="$k" --meta window.count=2 \
        --meta window.weight="$wt" "$w.w$k.txt" "traces/$w.w$k.trace" || { bad "import $w.w$k"; exit 1; }
done
for w in a b; do echo "# test workload" > experiments/$w.wl; done
# the sample: every family, shared instances, tables and series, an analytic config
sample="multihash/fig07-singlehash-10k multihash/fig12-best-multihash-10k multihash/fig06-candidate-change
    conte/accuracy conte/sweep-btb-assoc rap/fig10-error rap/fig11-miss-value-locality rap/fig02-bound-vs-b
    hps/fig08-accuracy-overhead hps/fig09-accuracy-overhead-per-workload hps/hcct-callpairs-memory
    hps/hcct-callpairs-overhead suite/workload-stats"
cfgs=()
for s in $sample; do
    mkdir -p "configs/${s%%/*}"
    cp "$root/configs/$s.json" "configs/$s.json"
    cfgs+=("configs/$s.json")
done
run() { "$HWPROF" run --threads 2 --traces traces "$@"; }
# same DIR REF: every result file of REF is in DIR with the same bytes (but
# the run records), and no parts are left
same() {
    local f n=0
    for f in $(cd "$2" && find . -type f ! -name '*.run.json' | sort); do
        cmp -s "$2/$f" "$1/$f" || { echo "  differs: $1/$f"; return 1; }
        n=$((n + 1))
    done
    [ $n -ge 30 ] || { echo "  only $n files in $2"; return 1; }
    ! find "$1" -name '*.parts' | grep -q . || { echo "  parts left in $1"; return 1; }
}

# 1. each config alone
for c in "${cfgs[@]}"; do
    run --quiet --out alone "$c" || bad "alone: $c"
done
ok "each of ${#cfgs[@]} configs run alone ($(find alone -name '*.csv' | wc -l) CSVs)"

# 2. together
run --out together "${cfgs[@]}" 2> together.err || { bad "together"; cat together.err; }
plan=$(grep '^hwprof run: one plan for' together.err)
# a window job per trace window and family: 4 windows x 5 families, and
# one analytic job
if [[ $plan =~ one\ plan\ for\ ${#cfgs[@]}\ configs:\ 21\ window\ jobs,\ ([0-9]+)\ instances\ computed\ for\ the\ ([0-9]+) ]] &&
    [ "${BASH_REMATCH[1]}" -lt "${BASH_REMATCH[2]}" ]; then
    ok "one plan: 21 window jobs (4 windows x 5 families, 1 analytic), ${BASH_REMATCH[1]} instances computed for ${BASH_REMATCH[2]} asked"
else
    bad "the plan: ${plan:-no summary}"
fi
check "the summary has every family and a total" sh -c \
    "for f in multihash conte rap hps suite total; do grep -q \"^  \$f  \" together.err || exit 1; done"
check "in the plan: every CSV and sidecar .json equal to the config's run alone" same together alone
check "the run record says the plan" grep -q '"plan_configs": '"${#cfgs[@]}" together/hps/fig08-accuracy-overhead.run.json

# 3. --if-changed over several configs
run --if-changed --out together "${cfgs[@]}" 2> ifc.err
if [ "$(grep -c 'up to date' ifc.err)" = "${#cfgs[@]}" ] && ! grep -q 'wrote\|one plan' ifc.err; then
    ok "--if-changed: every config up to date, nothing run"
else
    bad "--if-changed, all current: $(cat ifc.err)"
fi
head -c 100 together/rap/fig11-miss-value-locality.coverage.csv > cut.csv
mv cut.csv together/rap/fig11-miss-value-locality.coverage.csv
rm together/hps/fig09-accuracy-overhead-per-workload.csv
run --if-changed --out together "${cfgs[@]}" 2> ifc2.err
if grep -q '^hwprof run: one plan for 2 configs' ifc2.err && [ "$(grep -c 'up to date' ifc2.err)" = $((${#cfgs[@]} - 2)) ] &&
    grep -q 'fig11-miss-value-locality: wrote' ifc2.err && grep -q 'fig09-accuracy-overhead-per-workload: wrote' ifc2.err; then
    ok "--if-changed: a table cut short and a deleted CSV recomputed in one plan, the others kept"
else
    bad "--if-changed, two damaged: $(cat ifc2.err)"
fi
check "... to the same bytes" same together alone
rm together/conte/accuracy.*
run --if-changed --out together "${cfgs[@]}" 2> ifc3.err
if ! grep -q 'one plan' ifc3.err && grep -q '^accuracy: wrote' ifc3.err; then
    ok "--if-changed: one stale config (added later) runs alone"
else
    bad "--if-changed, one stale: $(cat ifc3.err)"
fi
check "... to the same bytes" same together alone

# 4. the plan killed after its first part, then resumed
"$HWPROF" run --threads 1 --traces traces --quiet --out killed "${cfgs[@]}" &   # $! must be hwprof
pid=$!
pids+=("$pid")
for ((k = 0; k < 1500; k++)); do
    compgen -G "killed/*/*.parts/job-*.json" >/dev/null && break
    sleep 0.02
done
kill -9 "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
nparts=$(compgen -G "killed/*/*.parts/job-*.json" | wc -l)
if [ "$nparts" -ge 1 ] && ! compgen -G "killed/multihash/*.csv" >/dev/null; then
    ok "plan killed after its first window: $nparts parts, no result of a config reading traces"
else
    bad "killed plan: $nparts parts; $(find killed -name '*.csv' | head -3)"
fi
run --out killed "${cfgs[@]}" 2> killed.err
nres=$(grep -c 'jobs already done (parts in' killed.err)
if [ "$nres" -ge 1 ] && grep -q '^hwprof run: one plan for' killed.err; then
    ok "the rerun resumes from the parts ($nres configs)"
else
    bad "rerun after the kill: $(cat killed.err)"
fi
check "killed plan, rerun: the same bytes" same killed alone

# 5. shards of the plan, merged
run --quiet --out sharded --shard=0/2 "${cfgs[@]}" || bad "shard 0/2"
run --quiet --out sharded --shard=1/2 "${cfgs[@]}" || bad "shard 1/2"
"$HWPROF" merge --quiet --traces traces --out sharded --shards 2 "${cfgs[@]}" || bad "merge"
check "two shards of the plan, merged: the same bytes" same sharded alone

# 6. a failure in the plan: the config reading the same window keeps its result
mkdir -p lackey configs/fail
printf 'I  00401000,4\n L 7ffc1000,8\nI  00401004,3\n S 7ffc1008,8\n' > c.lackey
"$HWPROF" trace import --from lackey --workload c c.lackey lackey/c.trace || bad "import c"
cat > configs/fail/counts.json <<'JSON'
{"paper": "fail", "workloads": ["c"], "traces": "lackey", "model": "counts"}
JSON
cat > configs/fail/values.json <<'JSON'
{"paper": "fail", "workloads": ["c"], "traces": "lackey", "model": "multihash", "params": {"stream": "values"}}
JSON
run --quiet --out failed_alone configs/fail/counts.json || bad "counts alone"
run --out failed configs/fail/values.json configs/fail/counts.json 2> failed.err
rc=$?
if [ $rc = 1 ] && grep -q "model 'multihash' needs loaded values" failed.err &&
    grep -q '^  configs/fail/values.json: run failed' failed.err && ! grep -q 'counts.json: run failed' failed.err &&
    cmp -s failed/fail/counts.csv failed_alone/fail/counts.csv && [ ! -e failed/fail/values.csv ]; then
    ok "a config failing in the plan: named, exit 1; the other config of its window written, equal to its run alone"
else
    bad "failure in the plan (exit $rc): $(cat failed.err)"
fi

summary plan
