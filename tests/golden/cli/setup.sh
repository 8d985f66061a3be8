#!/bin/sh
# setup.sh - the scratch folder every CLI golden case runs in: two workloads
# (a, b) with tiny hand-written traces and a valid config.
set -e
mkdir -p experiments traces configs/suite
echo "# test workload" > experiments/a.wl
echo "# test workload" > experiments/b.wl
printf 'I 401000 4\nL 401000 7ffc10 8 2a\nB 401000 401000 401004 T\nI 401000 4\n' > a.txt
printf 'I 401000 4\n' > b.txt
"$HWPROF" trace import --from text --workload a a.txt traces/a.trace
"$HWPROF" trace import --from text --workload b b.txt traces/b.trace
cat > configs/suite/ok.json <<'JSON'
{"paper": "suite", "workloads": ["a", "b"], "model": "counts", "metrics": ["instructions", "loads"]}
JSON
cat > configs/suite/sweep.json <<'JSON'
{"paper": "suite", "workloads": ["a"], "model": "multihash", "params": {"interval": 2},
 "sweep": {"tables": [1, 2], "conservative": [false, true]}}
JSON
