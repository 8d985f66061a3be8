#!/bin/bash
# tests/experiments/run.sh - tests of the workload suite (make test-experiments).
#  1. datagen is deterministic: same bytes twice, and known checksums
#     (a change in these means every compressor trace changes: update the
#     golden sums only on purpose);
#  2. every workload's input preparation is deterministic (same bytes twice);
#  3. every workload runs natively at tiny scale, exits 0, and prints the
#     same output twice;
#  4. every workload runs for at least skip+capture instructions at tiny
#     scale (valgrind cachegrind count; skipped with NO_COUNT=1);
#  5. capture.sh failure handling: a failing capture leaves no trace file and
#     names the workload;
#  6. once tracegen is built: one workload (TEST_CAPTURE, default lua: built
#     with -fstack-protector, calls getrandom, so it needs the tool's pinning,
#     tracegen/README.md "Determinism") captured twice at tiny scale gives
#     identical decoded events and identical trace files.
# Prints "N passed, N failed[, N skipped]" last; exit status 1 on failure.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root" || exit 1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test-experiments.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export EXP_BUILD=$tmp/build
. experiments/lib.sh

pass=0 fail=0 skip=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
skipped() { skip=$((skip + 1)); echo "SKIP $*"; }
dirsum() { (cd "$1" && find . -type f -print0 | sort -z |
            xargs -0 sha256sum | sha256sum | cut -d' ' -f1); }

# 1. datagen
exp_tools
declare -A golden=(
    [text]=08f3dacd0442cb9e76a9ec5dfbdf2c307ebe88bff653bdc66d49bc4255dfdb70
    [mixed]=27dea98aa5a3fdf1bc1dd54a0375e16e0a72fa54808b462d0dc44512e52c725e
    [binary]=461d759136c1f48f6ea4bf8f9ea8ec3c0e633aea622c2d983dc1172adb246e54)
for mix in text mixed binary; do
    a=$("$DATAGEN" $mix 1 100000 | sha256sum | cut -d' ' -f1)
    b=$("$DATAGEN" $mix 1 100000 | sha256sum | cut -d' ' -f1)
    n=$("$DATAGEN" $mix 1 100000 | wc -c)
    if [ "$a" = "$b" ] && [ "$a" = "${golden[$mix]}" ] && [ "$n" = 100000 ]; then
        ok "datagen $mix: deterministic, golden checksum, exact size"
    else
        bad "datagen $mix: sums $a / $b (golden ${golden[$mix]}), size $n"
    fi
done

# 2-4. every workload
for w in $(exp_workloads); do
    wl_load "$w" tiny
    wl_prepare "$tmp/$w.1"; d1=$(dirsum "$tmp/$w.1")
    wl_prepare "$tmp/$w.2"; d2=$(dirsum "$tmp/$w.2")
    if [ "$d1" = "$d2" ]; then ok "$w: input preparation deterministic"; else bad "$w: inputs differ between two preparations"; fi
    r1=0 r2=0
    experiments/run.sh --dir "$tmp/$w.1" "$w" tiny 2>"$tmp/$w.err1" || r1=$?
    experiments/run.sh --dir "$tmp/$w.2" "$w" tiny 2>"$tmp/$w.err2" || r2=$?
    if [ $r1 = 0 ] && [ $r2 = 0 ]; then
        ok "$w: native run exits 0 (${WL_ARGV[*]})"
    else
        bad "$w: native run exit status $r1/$r2: $(tail -3 "$tmp/$w.err1")"
    fi
    if [ "$WL_RESULT" != /dev/null ]; then
        if cmp -s "$tmp/$w.1/$WL_RESULT" "$tmp/$w.2/$WL_RESULT" && [ -s "$tmp/$w.1/$WL_RESULT" ]; then
            ok "$w: output identical over two runs"
        else
            bad "$w: output differs between two runs (or is empty)"
        fi
    fi
    if [ "${NO_COUNT:-0}" = 1 ]; then
        skipped "$w: instruction count (NO_COUNT=1)"
    elif ! command -v valgrind >/dev/null; then
        skipped "$w: instruction count (valgrind not installed)"
    else
        n=$(experiments/run.sh --count --dir "$tmp/$w.1" "$w" tiny 2>&1 | awk 'END {print $4}')
        need=$((WL_SKIP + WL_CAPTURE))
        if [[ $n =~ ^[0-9]+$ ]] && [ "$n" -ge "$need" ]; then
            ok "$w: tiny run has $n instructions >= skip+capture $need"
        else
            bad "$w: tiny run has '$n' instructions, needs skip+capture $need"
        fi
    fi
    rm -rf "$tmp/$w.1" "$tmp/$w.2"
done

# 5. a failing capture leaves nothing that looks finished
fake=$tmp/fake-capture
cat > "$fake" <<'FAKE'
#!/bin/bash
while [ $# -gt 0 ] && [ "$1" != -- ]; do [ "$1" = --out ] && out=$2; shift; done
echo partial > "$out"; echo "fake capture: program crashed" >&2; exit 3
FAKE
chmod +x "$fake"
msg=$(TRACEGEN=$fake experiments/capture.sh lua tiny "$tmp/out/lua.trace" 2>&1); rc=$?
if [ $rc != 0 ] && [ ! -e "$tmp/out/lua.trace" ] && [[ $msg == *"workload lua"* ]] && [[ $msg == *"program crashed"* ]]; then
    ok "capture.sh: failure leaves no trace and names the workload and the reason"
else
    bad "capture.sh: failure handling (rc $rc, file $(ls "$tmp/out" 2>/dev/null), message: $msg)"
fi

# 6. capture twice, compare (decoded events, and the files byte for byte)
cw=${TEST_CAPTURE:-lua}
packer=$EXP_ROOT/build/tracegen/tg-packer
dump=$EXP_ROOT/build/tracegen/tgdump
if [ ! -x "$EXP_ROOT/tracegen/capture" ] || [ ! -x "$packer" ] || [ ! -x "$dump" ]; then
    bad "capture twice ($cw): tracegen is not built (make tracegen)"
else
    for i in 1 2; do
        experiments/capture.sh "$cw" tiny "$tmp/cap/$cw.$i.trace" >"$tmp/cap.$i.log" 2>&1 ||
            { bad "capture $cw #$i failed: $(tail -5 "$tmp/cap.$i.log")"; }
    done
    if [ -s "$tmp/cap/$cw.1.trace" ] && [ -s "$tmp/cap/$cw.2.trace" ]; then
        "$dump" --events "$tmp/cap/$cw.1.trace" >"$tmp/cap/1.txt" &&
            "$dump" --events "$tmp/cap/$cw.2.trace" >"$tmp/cap/2.txt"
        if [ -s "$tmp/cap/1.txt" ] && cmp -s "$tmp/cap/1.txt" "$tmp/cap/2.txt"; then
            ok "capture twice ($cw, tiny): identical decoded events ($(wc -l < "$tmp/cap/1.txt"))"
        else
            bad "capture twice ($cw, tiny): decoded events differ: $(diff "$tmp/cap/1.txt" "$tmp/cap/2.txt" 2>&1 | sed -n 2,3p | tr '\n' ' ')"
        fi
        if cmp -s "$tmp/cap/$cw.1.trace" "$tmp/cap/$cw.2.trace"; then
            ok "capture twice ($cw, tiny): identical trace files"
        else
            bad "capture twice ($cw, tiny): trace files differ: $(cmp "$tmp/cap/$cw.1.trace" "$tmp/cap/$cw.2.trace" 2>&1)"
        fi
    fi
fi

echo "test-experiments: $pass passed, $fail failed, $skip skipped"
[ $fail = 0 ]
