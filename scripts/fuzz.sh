#!/bin/sh
# fuzz.sh BUILD SECONDS NAME... - run each libFuzzer target
# BUILD/fuzz/fuzz_NAME for SECONDS (make fuzz, mk/fuzz.mk).  The corpus
# grows in BUILD/fuzz/corpus-NAME (seeded read-only from
# tests/fuzz/corpus/NAME), crashes land in BUILD/fuzz/crashes-NAME/, the
# log in BUILD/fuzz/fuzz_NAME.log; tests/fuzz/NAME.dict is used when there
# is one.  One line per target (its coverage and executions, or FAILED);
# exit status 1 when any target failed.
build=$1 seconds=$2
shift 2
rc=0
for n in "$@"; do
    mkdir -p "$build/fuzz/corpus-$n" "$build/fuzz/crashes-$n"
    dict=""
    [ -f "tests/fuzz/$n.dict" ] && dict="-dict=tests/fuzz/$n.dict"
    echo "fuzz $n: $seconds s"
    # shellcheck disable=SC2086 # $dict is one option or none
    if ! "$build/fuzz/fuzz_$n" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$build/fuzz/crashes-$n/" $dict \
        "$build/fuzz/corpus-$n" "tests/fuzz/corpus/$n" > "$build/fuzz/fuzz_$n.log" 2>&1; then
        echo "fuzz $n: FAILED (see $build/fuzz/fuzz_$n.log, inputs in $build/fuzz/crashes-$n/)"
        rc=1
    else
        grep -E "stat::number_of_executed_units|cov:" "$build/fuzz/fuzz_$n.log" | tail -2 | tr '\n' ' '
        echo
    fi
done
exit $rc
