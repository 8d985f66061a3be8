#!/bin/sh
# regen-config.sh - rewrite tests/golden/config/*/expected from the current
# binary.  Review the diff (git diff tests/golden) before committing: the
# golden files are the specification of the error messages.
HWPROF=${1:-build/hwprof}
for dir in tests/golden/config/*/; do
    case=${dir%/}
    "$HWPROF" run --quiet --traces tests/golden/traces --out /tmp/hwprof-golden-regen \
        --experiments tests/golden/experiments "$case/config.json" 2>"$case/expected" >/dev/null
    echo $? >"$case/exit"
done
rm -rf /tmp/hwprof-golden-regen
