# shellcheck shell=sh
# tests/lib.sh - the pass/fail bookkeeping every shell test runner shares
# (POSIX sh; sourced by sh and bash runners alike):
#
#     . "$(dirname "$0")/../lib.sh"     # from tests/<suite>/run.sh
#
#   ok MSG              a check passed: counted, "ok   MSG" printed
#   bad MSG             a check failed: counted, "FAIL MSG" printed
#   skipped MSG         a check that could not run here: "SKIP MSG"
#   check MSG CMD...    run CMD; ok MSG or bad MSG by its exit status
#   case_start          a case of several checks (a golden folder) begins;
#   case_fail MSG       one of its checks failed ("FAIL MSG" printed);
#   case_end            the case is counted once: passed unless a check failed
#   add_counts P F      add the P passed and F failed of a sub-suite
#   summary NAME [MORE] print "NAME: P passed, F failed[, S skipped][ MORE]"
#                       (skipped only when some were); returns 1 when a
#                       check failed, so `summary x` can end a runner
#
# The counts are the variables pass, fail and skip (a runner may read them,
# e.g. to print a log when something failed).

pass=0 fail=0 skip=0 case_ok=1

ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
skipped() { skip=$((skip + 1)); echo "SKIP $*"; }

check() {
    _check_what=$1
    shift
    if "$@"; then ok "$_check_what"; else bad "$_check_what"; fi
}

case_start() { case_ok=1; }
case_fail() { case_ok=0; echo "FAIL $*"; }
case_end() {
    if [ "$case_ok" = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
}

add_counts() { pass=$((pass + ${1:-0})); fail=$((fail + ${2:-0})); }

summary() {
    _summary_skip=""
    if [ "$skip" -gt 0 ]; then _summary_skip=", $skip skipped"; fi
    echo "$1: $pass passed, $fail failed$_summary_skip${2:+ $2}"
    [ "$fail" -eq 0 ]
}
