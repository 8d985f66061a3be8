#!/bin/sh
# run.sh - docs/adding-a-model.md, proven: the example model
# docs/examples/branch_bias.c, one file, is compiled and linked with the
# harness's objects (no other file edited), appears in `hwprof models` and
# `hwprof params`, is validated in a config, runs on a hand-written trace
# with numbers computed by hand (metrics and its `branches` table), and
# its table is plotted (every column name once: a parameter named like a
# table column made two columns of one name, which validate now refuses).
# Usage: tests/example-model/run.sh "HARNESS_OBJECTS" CC "CFLAGS" "LIBS"
set -u
objs=$1 cc=$2 cflags=$3 libs=$4
top=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$top/tests/lib.sh"

# shellcheck disable=SC2086
$cc $cflags -c docs/examples/branch_bias.c -o "$tmp/branch_bias.o" || { bad "compile"; exit 1; }
# shellcheck disable=SC2086
$cc -o "$tmp/hwprof" $objs "$tmp/branch_bias.o" $libs || { bad "link"; exit 1; }
H="$tmp/hwprof"
check "listed by models" sh -c "'$H' models | grep -q '^branch_bias: example model'"
check "params doc" sh -c "'$H' params branch_bias | grep -q '| \`min_bias\` | real | 0.9 | \[0.5, 1\]'"
check "metric doc" sh -c "'$H' params branch_bias | grep -q '| \`biased_pct\` |'"

cd "$tmp"
mkdir -p experiments traces configs/demo
echo "# test workload" > experiments/w.wl
# branch A at 0x1000: taken, taken, not taken; branch B at 0x2000: taken
cat > w.txt <<'TXT'
I 1000 2
B 1000 1000 1002 T
I 1000 2
B 1000 1000 1002 T
I 1000 2
B 1000 1000 1002 N
I 1002 2
B 2000 1000 2002 T
TXT
"$H" trace import --from text --workload w w.txt traces/w.trace >/dev/null
cat > configs/demo/bias.json <<'JSON'
{"paper": "demo", "workloads": ["w"], "model": "branch_bias", "tables": ["branches"],
 "sweep": {"min_bias": [0.6, 0.9]},
 "plot": {"type": "scatter", "source": "branches", "x": "executions", "y": ["bias"],
          "where": {"min_bias": 0.9}}}
JSON
check "validates" "$H" validate -q configs/demo/bias.json
"$H" run -q --traces traces configs/demo/bias.json
# min_bias 0.6: A (2/3) and B (1/1) biased: 100%; 0.9: only B: 1 of 4 dynamic = 25%; mean bias (2+1)/4
want='workload,window,weight,run,model,min_bias,max_branches,min_exec,static_branches,biased_pct,mean_bias,untracked
w,0,1,branch_bias,branch_bias,0.6,65536,1,2,100,0.75,0
w,0,1,branch_bias,branch_bias,0.9,65536,1,2,25,0.75,0'
check "metrics by hand" test "$(cat results/demo/bias.windows.csv)" = "$want"
check "main CSV over windows" grep -q '^w,branch_bias,branch_bias,0.9,65536,1,1,2,2,2,,,25,25,25,,,0.75,0.75,0.75,,,0,0,0,,$' results/demo/bias.csv
check "table rows" test "$(grep -c '^w,' results/demo/bias.branches.csv)" = 4
check "table row A" grep -q '^w,0,branch_bias,branch_bias,0.9,65536,1,0x1000,3,2,0.6666666667$' results/demo/bias.branches.csv
check "table header: every name once" sh -c "head -1 results/demo/bias.branches.csv | tr , '\n' | sort | uniq -d | grep -q . && exit 1 || exit 0"
"$H" plot configs/demo/bias.json --results results --plots plots --templates "$top/plots/templates" 2>plot.err
check "table plotted" test -s plots/demo/bias.svg -a -s plots/demo/bias.png -a -s plots/demo/bias.pdf
check "plot quiet" test ! -s plot.err
[ -s plot.err ] && cat plot.err
check "typo suggestion" sh -c "printf '{\"paper\": \"demo\", \"workloads\": [\"w\"], \"model\": \"branch_bais\"}' > configs/demo/bad.json; '$H' validate -q configs/demo/bad.json 2>&1 | grep -q \"did you mean 'branch_bias'\""
cd "$top"
summary example-model
