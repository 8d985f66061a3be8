#!/bin/bash
# bench.sh - make bench-trace: one workload (gzip of a generated ~250 KB
# file, whole run) natively, under --tool=none, under stock Lackey
# --trace-mem=yes (log to /dev/null) and under tracegen (hwptrace + packer
# writing a zstd trace).  One table: wall and CPU seconds, slowdown vs
# native and vs none, guest instructions/s, events/s, trace bytes per
# instruction.  Wall times are noisy on a shared 2-core machine; CPU is
# user+sys of all processes.
set -u
cd "$(dirname "$0")/../.."
ROOT=$PWD
B=$ROOT/build/tracegen
VGLIB=$(cd "$B/lib" && pwd -P)
T=$(mktemp -d /tmp/tgbench.XXXXXX)
trap 'rm -rf "$T"' EXIT
seq 1 40000 | awk '{print $1, $1*$1 % 9973, "bench line for tracegen"}' > "$T/in.txt"
CMD=(gzip -c -n "$T/in.txt")
TIMEFORMAT='%R %U %S'
run() { # run NAME CMD... -> "wall cpu"
    local t name=$1; shift
    t=$( { time "$@" > /dev/null 2>"$T/err.$name"; } 2>&1 | tail -1)
    echo "$t" | awk '{printf "%.3f %.3f\n", $1, $2 + $3}'
}
native=$(run native "${CMD[@]}")
none=$(run none env VALGRIND_LIB="$VGLIB" valgrind -q --tool=none "${CMD[@]}")
lackey=$(run lackey env VALGRIND_LIB="$VGLIB" valgrind --tool=lackey --trace-mem=yes --log-file=/dev/null "${CMD[@]}")
ours=$(run ours "$ROOT/tracegen/capture" --workload gzip --out "$T/gz.trace" --zstd-level 3 -- "${CMD[@]}")
ours1=$(run ours1 "$ROOT/tracegen/capture" --workload gzip --out "$T/gz1.trace" --zstd-level 1 -- "${CMD[@]}")
tool=$(run tool env VALGRIND_LIB="$VGLIB" valgrind -q --tool=hwptrace --out=/dev/null "${CMD[@]}")
read -r ins evs < <("$B/tgdump" --summary "$T/gz.trace" |
    awk '/^insns/{i=$2} /^(insns|loads|stores|branches|calls|rets|ijumps)/{e+=$2} END{print i, e}')
size=$(stat -c %s "$T/gz.trace"); size1=$(stat -c %s "$T/gz1.trace")
nw=$(echo "$none" | cut -d' ' -f1); natw=$(echo "$native" | cut -d' ' -f1)
echo "bench-trace: gzip whole run, $ins guest instructions, $evs events"
printf "%-34s %8s %8s %9s %9s %11s %11s %9s\n" run wall_s cpu_s x_native x_none Minstr/s Mevents/s B/instr
row() { # label "wall cpu" bytes
    local w c; read -r w c <<< "$2"
    awk -v l="$1" -v w="$w" -v c="$c" -v n="$natw" -v z="$nw" -v i="$ins" -v e="$evs" -v b="$3" 'BEGIN{
        printf "%-34s %8.2f %8.2f %9.1f %9.1f %11.1f %11s %9s\n", l, w, c, w/n, w/z, i/w/1e6,
            (b == "-" ? "-" : sprintf("%.1f", e/w/1e6)), (b == "-" ? "-" : sprintf("%.3f", b/i))}'
}
row "native" "$native" -
row "valgrind --tool=none" "$none" -
row "lackey --trace-mem=yes >/dev/null" "$lackey" -
row "hwptrace tool only (>/dev/null)" "$tool" -
row "tracegen capture (zstd 3)" "$ours" "$size"
row "tracegen capture (zstd 1, default)" "$ours1" "$size1"
# Targets from the default capture (zstd level 1, what make traces uses).
lw=$(echo "$lackey" | cut -d' ' -f1); ow=$(echo "$ours1" | cut -d' ' -f1)
awk -v l="$lw" -v o="$ow" -v z="$nw" 'BEGIN{printf "targets (default capture, zstd 1): speed-up vs Lackey %.1fx (target >= 10x), slowdown vs none %.1fx (target <= 10x)\n", l/o, o/z}'
