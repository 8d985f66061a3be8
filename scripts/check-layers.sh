#!/bin/sh
# check-layers.sh [ROOT] - the structure rules of src/ (src/README.md), on
# the checkout at ROOT (default: here).  Fails, one line per problem naming
# the file and line, on
#   - an include from a layer to one its row of src/README.md's table does
#     not name (a lower layer including a higher one, or a side step such
#     as report/ including families/);
#   - an include circle between files (a.h includes b.h includes a.h);
#   - a project include that does not name its header from src/
#     ("run/config.h"), or names a file that is not there (the generated
#     buildinfo.h aside);
#   - an include between two model families (scripts/families.sh) in
#     families/, stages/ and models/;
#   - a file of models/ that registers no model, of stages/ that registers
#     no stage;
#   - a C file (.c or .h) of src/, tracegen/, tests/ or bench/ over MAX_LINES
#     (1000) lines.
# The layers and what each may include are read from the table of
# ROOT/src/README.md (rows "| `folder/` | what | `a/` `b/` |"), so the
# documented rule and the checked one are the same text.  Run by
# `make test-layers` (part of make test); tests/layers/run.sh tests it on
# small bad trees.
set -u
root=${1:-.}
here=$(cd "$(dirname "$0")" && pwd)
MAX_LINES=${MAX_LINES:-1000}
# shellcheck source=scripts/families.sh
. "$here/families.sh"
cd "$root" || exit 2
[ -f src/README.md ] || { echo "check-layers: no src/README.md in $root" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The rule: "folder allowed..." per line, from the README's table.
# shellcheck disable=SC2016 # backquotes of markdown, not of the shell
sed -n 's/^| `\([a-z_/]*\)\/` |.*| \([^|]*\) |$/\1 \2/p' src/README.md | tr -d '`' |
    sed 's/ nothing$//; s/\/ / /g; s/\/$//' > "$tmp/rule"
[ -s "$tmp/rule" ] || { echo "src/README.md: no layer table (rows | \`folder/\` | what | may include |)" >&2; exit 2; }

find src -name '*.[ch]' -type f | LC_ALL=C sort > "$tmp/files"
# Family of every model-code file (for the cross-family check).
while read -r f; do
    case $f in src/families/*|src/stages/*|src/models/*) echo "$f $(family "$f")" ;; esac
done < "$tmp/files" > "$tmp/fams"
# Every quoted include: file, line, name.
while read -r f; do
    awk -v f="$f" '/^[ \t]*#[ \t]*include[ \t]*"/ {
        s = $0; sub(/^[^"]*"/, "", s); sub(/".*$/, "", s); print f, FNR, s }' "$f"
done < "$tmp/files" > "$tmp/incs"
# Registration of models and stages.
for f in src/models/*.c; do
    [ -f "$f" ] && ! grep -q 'MODEL_REGISTER(' "$f" && echo "$f reg model"
done > "$tmp/reg"
for f in src/stages/*.c; do
    [ -f "$f" ] && ! grep -q 'STAGE_REGISTER(' "$f" && echo "$f reg stage"
done >> "$tmp/reg"
# Long files.
for d in src tracegen tests bench; do
    [ -d "$d" ] && find "$d" -name '*.[ch]' -type f
done | LC_ALL=C sort | while read -r f; do
    n=$(wc -l < "$f")
    [ "$n" -gt "$MAX_LINES" ] && echo "$f: $n lines, over $MAX_LINES: split it by job"
done > "$tmp/long"

awk -v rulef="$tmp/rule" -v famf="$tmp/fams" -v regf="$tmp/reg" '
function layer_of(path,    best, l, p) {   # longest folder of the table
    best = ""
    for (l in allow) {
        p = "src/" l "/"
        if (substr(path, 1, length(p)) == p && length(l) > length(best))
            best = l
    }
    return best
}
function visit(u,    k, v) {                 # depth-first, colours 0/1/2
    colour[u] = 1
    stack[++depth] = u
    for (k = 1; k <= nout[u]; k++) {
        v = out[u, k]
        if (colour[v] == 1) {
            cycle(v)
        } else if (!colour[v]) {
            visit(v)
        }
    }
    depth--
    colour[u] = 2
}
function cycle(v,    i, j, msg) {            # the circle is stack[i..depth] -> v
    for (i = depth; i > 0 && stack[i] != v; i--)
        ;
    msg = ""
    for (j = i; j <= depth; j++)
        msg = msg stack[j] ":" line[stack[j], (j < depth ? stack[j + 1] : v)] " -> "
    print msg v ": an include circle (each of these includes the next)"
    bad++
}
BEGIN {
    while ((getline l < rulef) > 0) {
        n = split(l, w, " ")
        allow[w[1]] = " " w[1] " "
        for (i = 2; i <= n; i++)
            allow[w[1]] = allow[w[1]] w[i] " "
    }
    while ((getline l < famf) > 0) {
        split(l, w, " ")
        fam[w[1]] = w[2]
    }
    while ((getline l < regf) > 0) {
        split(l, w, " ")
        print w[1] ": in " (w[3] == "model" ? "models/" : "stages/") " but registers no " w[3] \
              " (" (w[3] == "model" ? "MODEL_REGISTER" : "STAGE_REGISTER") "): move it to the layer of what it is"
        bad++
    }
}
FNR == NR && FILENAME ~ /files$/ { exists[$0] = 1; next }
{
    f = $1; ln = $2; name = $3
    if (name == "buildinfo.h")               # generated: build/gen
        next
    target = "src/" name
    if (name !~ /^[a-z_]+\// || name ~ /\.\./ || !(target in exists)) {
        if (name ~ /^[a-z_]+\// && !(name ~ /\.\./))
            print f ":" ln ": includes \"" name "\", which is not a file of src/"
        else
            print f ":" ln ": includes \"" name "\": name project headers from src/ (\"layer/file.h\", src/README.md)"
        bad++
        next
    }
    from = layer_of(f); to = layer_of(target)
    if (from == "" || to == "") {
        print (from == "" ? f : target) ": its folder is not a layer of src/README.md"
        bad++
        next
    }
    if (index(allow[from], " " to " ") == 0) {
        print f ":" ln ": includes \"" name "\": " from "/ may not include " to "/ (" from "/ may include:" \
              (allow[from] == " " from " " ? " nothing" : substr(allow[from], length(from) + 2)) \
              "; src/README.md)"
        bad++
    }
    if ((f in fam) && (target in fam) && fam[f] != fam[target]) {
        print f ":" ln ": includes \"" name "\": a file of the " fam[f] " family includes one of the " \
              fam[target] " family (scripts/families.sh: their sources are fingerprinted apart)"
        bad++
    }
    if (!((f, target) in line)) {
        out[f, ++nout[f]] = target
        line[f, target] = ln
    }
    node[f] = 1
}
END {
    for (u in node)
        sorted[++nn] = u
    for (i = 2; i <= nn; i++) {              # insertion sort: stable messages
        x = sorted[i]
        for (j = i - 1; j > 0 && sorted[j] > x; j--)
            sorted[j + 1] = sorted[j]
        sorted[j + 1] = x
    }
    for (i = 1; i <= nn; i++)
        if (!colour[sorted[i]])
            visit(sorted[i])
    exit bad > 0
}' "$tmp/files" "$tmp/incs" > "$tmp/out"
rc=$?
cat "$tmp/out" "$tmp/long"
if [ $rc -ne 0 ] || [ -s "$tmp/long" ]; then
    echo "check-layers: $(cat "$tmp/out" "$tmp/long" | wc -l | tr -d ' ') problem(s); the rules are in src/README.md" >&2
    exit 1
fi
echo "check-layers: $(wc -l < "$tmp/files" | tr -d ' ') files of src/ in $(wc -l < "$tmp/rule" | tr -d ' ') layers," \
    "$(wc -l < "$tmp/incs" | tr -d ' ') includes: none upward, no circle; no C file over $MAX_LINES lines"
