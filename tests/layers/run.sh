#!/bin/sh
# run.sh - scripts/check-layers.sh tested on small trees: a good tree
# passes; each bad one (an include up a layer, one sideways, an include
# circle, a bare or a dangling include, an include across model families,
# a model file that registers nothing, a file over 1,000 lines, a folder
# that is no layer) fails with one message naming the file and line.
# Then the real src/ passes.  Usage: tests/layers/run.sh (from the top).
set -u
top=$(pwd)
. "$top/tests/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
checker=$top/scripts/check-layers.sh

# A tree with four layers and a model family on each side.
good() {
    rm -rf "$tmp/t"
    mkdir -p "$tmp/t/src/core" "$tmp/t/src/run" "$tmp/t/src/families" "$tmp/t/src/models" "$tmp/t/src/report"
    cat > "$tmp/t/src/README.md" <<'MD'
| folder | what | may include |
| --- | --- | --- |
| `core/` | basics | nothing |
| `run/` | the runner | `core/` |
| `families/` | libraries | `core/` `run/` |
| `models/` | models | `core/` `run/` `families/` |
| `report/` | reports | `core/` `run/` |
MD
    printf '#include "core/util.h"\n' > "$tmp/t/src/core/util.c"
    printf 'int util(void);\n' > "$tmp/t/src/core/util.h"
    printf '#include "core/util.h"\n' > "$tmp/t/src/run/model.h"
    printf '#include "run/model.h"\n#include "core/util.h"\n' > "$tmp/t/src/families/hps_lib.h"
    printf '#include "run/model.h"\n' > "$tmp/t/src/families/mh_lib.h"
    printf '#include "families/hps_lib.h"\nMODEL_REGISTER(x);\n' > "$tmp/t/src/models/hps.c"
    printf '#include "run/model.h"\n#include "buildinfo.h"\n' > "$tmp/t/src/report/plot.c"
}
# expect NAME PATTERN: the checker fails on the tree with a line matching PATTERN.
expect() {
    out=$("$checker" "$tmp/t" 2>&1); rc=$?
    if [ $rc -ne 0 ] && printf '%s\n' "$out" | grep -q -- "$2"; then
        ok "$1"
    else
        bad "$1 (exit $rc): $out"
    fi
}

good
check "a good tree passes" sh -c "'$checker' '$tmp/t' >/dev/null"

good
printf '#include "core/util.h"\n#include "run/model.h"\n' > "$tmp/t/src/core/util.c"
expect "upward include" '^src/core/util.c:2: includes "run/model.h": core/ may not include run/ (core/ may include: nothing'

good
printf '#include "families/mh_lib.h"\n' > "$tmp/t/src/report/table.c"
expect "sideways include" '^src/report/table.c:1: includes "families/mh_lib.h": report/ may not include families/'

good
printf '#include "core/b.h"\n' > "$tmp/t/src/core/a.h"
printf 'int b;\n#include "core/c.h"\n' > "$tmp/t/src/core/b.h"
printf '#include "core/a.h"\n' > "$tmp/t/src/core/c.h"
expect "include circle" '^src/core/a.h:1 -> src/core/b.h:2 -> src/core/c.h:1 -> src/core/a.h: an include circle'

good
printf '#include "model.h"\n' > "$tmp/t/src/run/engine.c"
expect "bare include" '^src/run/engine.c:1: includes "model.h": name project headers from src/'

good
printf '#include "../core/util.h"\n' > "$tmp/t/src/run/engine.c"
expect "relative include" '^src/run/engine.c:1: includes "../core/util.h": name project headers from src/'

good
printf '#include "core/nothing.h"\n' > "$tmp/t/src/run/engine.c"
expect "dangling include" '^src/run/engine.c:1: includes "core/nothing.h", which is not a file of src/'

good
printf '#include "run/model.h"\n#include "families/mh_lib.h"\n' > "$tmp/t/src/families/hps_lib.h"
expect "include across families" '^src/families/hps_lib.h:2: includes "families/mh_lib.h": a file of the hps family includes one of the mh family'

good
printf '#include "run/model.h"\n' > "$tmp/t/src/models/helper.c"
expect "a model file that registers none" '^src/models/helper.c: in models/ but registers no model'

good
mkdir -p "$tmp/t/src/misc"
printf 'int x;\n' > "$tmp/t/src/misc/x.c"
printf '#include "misc/x.c"\n' > "$tmp/t/src/run/engine.c"
expect "a folder that is no layer" '^src/misc/x.c: its folder is not a layer'

good
awk 'BEGIN { for (i = 0; i < 1000; i++) print "int v" i ";" }' > "$tmp/t/src/core/big.c"
check "1,000 lines pass" sh -c "'$checker' '$tmp/t' >/dev/null"
echo "int last;" >> "$tmp/t/src/core/big.c"
expect "1,001 lines fail" '^src/core/big.c: 1001 lines, over 1000'

check "the real src/ passes" sh -c "'$checker' '$top' >/dev/null"
summary layers
