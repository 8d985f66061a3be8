#!/bin/bash
# run-tests.sh - tracegen tests (make test-tracegen; < 2 minutes).
#  (a) address + instruction stream == stock Lackey --trace-mem=yes, for a
#      whole run (/bin/true) and for a skip/capture window of gzip (exact
#      window alignment); Lackey runs with --vex-guest-chase=no (with chasing,
#      3.19 Lackey reports instructions of speculatively merged branch arms).
#  (b) instruction, conditional-branch and taken totals == Lackey's summary
#      ("guest instrs", "Jccs") for a whole gzip run.
#  (c) tests/tracegen/testprog.c traced and checked exactly.
#  (d) same workload + window twice -> identical event streams (and files).
#  (e) failures: non-zero exit, killed program, bad option -> no file.
#  (f) pinned randomness: tests/tracegen/randprog.c sees exactly the
#      documented AT_RANDOM bytes, canary, getrandom / /dev/urandom / RDRAND
#      streams and pid 2 (PID namespace), twice; --pin-random no differs.
#  (g) pinned paths: the same window captured from another run directory
#      with a copy of the tool at another path gives an identical file.
#  (h) pinned CPU: a gzip window captured at the default level
#      (x86-64-v2) and again with GLIBC_TUNABLES masking AVX, AVX2, BMI2 and
#      ERMS (an older host that still meets the level) is the same trace;
#      at --cpu-level host the same masking changes it.
#  (i) pinned host: tests/tracegen/hostprog.c sees the pinned CPUID
#      identity, AT_HWCAP, auxv, host name, sysinfo and a sorted directory
#      listing; with --cpu-level host --pin-host no it sees the host's.
#  (j) basic-block vectors of testprog (tests/tracegen/check_bbv.py):
#      exact slices, totals == trace, known block counts, a window
#      --skip k*N --capture N == slice k.
#  (k) provenance: the trace's metadata names the program's package and
#      version as dpkg does, the libc version and the CPU level.
#  (l) library cache: another /etc/ld.so.cache (40 more libraries
#      installed on the host) gives the identical trace file; with
#      --pin-ns no it does not.
#  (m) signal dispositions: a capture started with SIGINT, SIGQUIT, SIGHUP,
#      SIGPIPE, SIGTERM, SIGXFSZ and SIGXCPU ignored and SIGUSR1, SIGALRM
#      blocked (as under `nohup ... &`) gives the identical trace file; with
#      --pin-signals no it does not (gzip installs handlers only for
#      signals that are not ignored).
# Both Lackey and the capture driver run under `env -i` with the same
# environment and directory so the client's stack addresses agree; for that
# the Lackey comparisons capture with --pin-ns no (the namespaces would move
# the client's paths to /mnt/hwptrace, and so its stack), and with
# --cpu-level host --pin-host no: stock Lackey runs the program on the
# CPUID identity VEX picks for this host and with the kernel's auxv, so our
# capture must too (the pinned level and auxv change the program's path
# through ld.so and glibc, and the stack addresses).  --pin-random yes
# stays: pinning changes loaded values only, never addresses.
set -u
cd "$(dirname "$0")/../.."
ROOT=$PWD
B=$ROOT/build/tracegen
VGLIB=$(cd "$B/lib" && pwd -P)
T=$(mktemp -d /tmp/tgtest.XXXXXX)
trap 'rm -rf "$T"' EXIT
. tests/lib.sh
ENV=(env -i PATH=/usr/bin:/bin HOME=/ LC_ALL=C)
capture() { (cd "$T" && "${ENV[@]}" "$ROOT/tracegen/capture" "$@"); }
capture_lk() { capture --pin-ns no --cpu-level host --pin-host no "$@"; } # what stock Lackey sees
lackey() { # lackey LOG ARGS... -- CMD...
    local log=$1; shift
    (cd "$T" && "${ENV[@]}" VALGRIND_LIB="$VGLIB" bash -c 'valgrind --tool=lackey --vex-guest-chase=no "$@"' _ \
        --log-file="$log" "$@")
}
lk_lines() { grep -E '^(I | [LSM] )' "$1"; }

# A deterministic gzip input (~40 KB).
seq 1 8000 | sed 's/$/ tracegen test line/' > "$T/in.txt"
GZ=(gzip -c -n in.txt)

echo "tracegen tests"
# (a) whole run of /bin/true
# Stock Lackey cannot pin the kernel's random bytes, and ld.so's start-up
# has a few loads whose address depends on them (strcspn's table indexed by
# such bytes), so Lackey differs from itself between runs there.  Lackey runs
# three times; a line where its runs disagree is not compared (and counted).
lackey "$T/lk_true.log" --trace-mem=yes /bin/true
lackey "$T/lk_true2.log" --trace-mem=yes /bin/true
lackey "$T/lk_true3.log" --trace-mem=yes /bin/true
capture_lk --workload true --out "$T/true.trace" -- /bin/true || bad "(a) capture /bin/true"
lk_lines "$T/lk_true.log" > "$T/lk_true.txt"
lk_lines "$T/lk_true2.log" > "$T/lk_true2.txt"
lk_lines "$T/lk_true3.log" > "$T/lk_true3.txt"
"$B/tgdump" --lackey "$T/true.trace" > "$T/tg_true.txt"
if [ "$(wc -l < "$T/lk_true.txt")" = "$(wc -l < "$T/tg_true.txt")" ] &&
   [ "$(wc -l < "$T/lk_true.txt")" = "$(wc -l < "$T/lk_true2.txt")" ] &&
   [ "$(wc -l < "$T/lk_true.txt")" = "$(wc -l < "$T/lk_true3.txt")" ] &&
   res=$(paste -d '|' "$T/lk_true.txt" "$T/lk_true2.txt" "$T/lk_true3.txt" "$T/tg_true.txt" | awk -F'|' '
        $1 != $2 || $1 != $3 { unstable++; next } $1 != $4 { bad++; if (!first) first = NR ": " $1 " vs " $4 }
        END { printf "%d %d %s", bad + 0, unstable + 0, first }') &&
   [ "${res%% *}" = 0 ]; then
    set -- $res
    ok "(a) /bin/true: $(wc -l < "$T/tg_true.txt") I/L/S/M lines identical to Lackey ($2 lines where Lackey differs from itself not compared)"
else bad "(a) /bin/true differs from Lackey: ${res:-line counts differ}"; fi

# (a) gzip window
SKIP=400000 WIN=300000
lackey "$T/lk_gz.log" --trace-mem=yes -- "${GZ[@]}" > /dev/null
capture_lk --workload gzip --out "$T/gz.trace" --skip $SKIP --capture $WIN -- "${GZ[@]}" > /dev/null || bad "(a) capture gzip window"
lk_lines "$T/lk_gz.log" | awk -v s=$SKIP -v w=$WIN '/^I/{n++} n>s && n<=s+w' > "$T/lk_gz.txt"
"$B/tgdump" --lackey "$T/gz.trace" > "$T/tg_gz.txt"
if cmp -s "$T/lk_gz.txt" "$T/tg_gz.txt"; then
    ok "(a) gzip window skip=$SKIP capture=$WIN: $(wc -l < "$T/tg_gz.txt") lines identical to Lackey"
else bad "(a) gzip window differs from Lackey: $(diff "$T/lk_gz.txt" "$T/tg_gz.txt" | head -4 | tr '\n' ' ')"; fi
n=$("$B/tgdump" --summary "$T/gz.trace" | awk '/^insns/{print $2}')
[ "$n" = $WIN ] && ok "(a) window holds exactly $WIN instructions" || bad "(a) window holds $n instructions"

# (b) totals vs Lackey's basic counts (whole gzip run)
lackey "$T/lk_cnt.log" -- "${GZ[@]}" > /dev/null
lk_ins=$(awk '/guest instrs:/{gsub(",","",$NF); print $NF}' "$T/lk_cnt.log")
lk_jcc=$(awk '/Jccs:/{f=1} f&&/total:/{gsub(",","",$NF); print $NF; exit}' "$T/lk_cnt.log")
lk_tkn=$(awk '/Jccs:/{f=1} f&&/taken:/{gsub(",","",$(NF-1)); print $(NF-1); exit}' "$T/lk_cnt.log")
capture_lk --workload gzip --out "$T/gzall.trace" --vg-opt --assist-exits-as-branches=yes -- "${GZ[@]}" > /dev/null \
    || bad "(b) capture gzip"
read -r ins br tkn < <("$B/tgdump" --summary "$T/gzall.trace" |
    awk '/^insns/{i=$2} /^branches/{b=$2} /^taken/{t=$2} END{print i, b, t}')
if [ "$ins" = "$lk_ins" ] && [ "$br" = "$lk_jcc" ] && [ "$tkn" = "$lk_tkn" ]; then
    ok "(b) gzip: instrs $ins, Jccs $br, taken $tkn == Lackey"
else bad "(b) ours instrs/Jccs/taken $ins/$br/$tkn, Lackey $lk_ins/$lk_jcc/$lk_tkn"; fi
capture_lk --workload gzip --out "$T/gzdef.trace" --stats -- "${GZ[@]}" 2> "$T/stats" > /dev/null
br2=$("$B/tgdump" --summary "$T/gzdef.trace" | awk '/^branches/{print $2}')
ae=$(sed -n 's/.*assist exits \([0-9]*\).*/\1/p' "$T/stats")
[ $((br2 + ae)) = "$lk_jcc" ] && ok "(b) default mode: branches $br2 + assist exits $ae == Lackey Jccs" \
    || bad "(b) default mode: branches $br2 + assist exits $ae != $lk_jcc"

# (c) known program
capture --workload testprog --out "$T/tp.trace" -- "$B/tg-testprog" > "$T/tp.addrs" || bad "(c) capture testprog"
"$B/tgdump" --events "$T/tp.trace" > "$T/tp.ev"
if out=$(python3 tests/tracegen/check_testprog.py "$T/tp.addrs" "$T/tp.ev"); then ok "(c) $out"; else bad "(c) $out"; fi

# (d) determinism
capture --workload gzip --out "$T/gz1.trace" --skip $SKIP --capture $WIN -- "${GZ[@]}" > /dev/null || bad "(d) capture"
capture --workload gzip --out "$T/gz2.trace" --skip $SKIP --capture $WIN -- "${GZ[@]}" > /dev/null || bad "(d) capture"
"$B/tgdump" --events "$T/gz1.trace" > "$T/d1"; "$B/tgdump" --events "$T/gz2.trace" > "$T/d2"
if cmp -s "$T/d1" "$T/d2"; then ok "(d) two captures: identical event streams ($(wc -l < "$T/d1") events)$(cmp -s "$T/gz1.trace" "$T/gz2.trace" && echo ', identical files')"
else bad "(d) two captures differ"; fi

# (e) failures leave no file
capture --workload false --out "$T/f1.trace" -- /bin/false 2> "$T/e1"; rc=$?
[ $rc -ne 0 ] && [ ! -e "$T/f1.trace" ] && grep -q 'capture \[false\]' "$T/e1" && ok "(e) non-zero exit: rc=$rc, no file" \
    || bad "(e) non-zero exit: rc=$rc $(cat "$T/e1")"
capture --workload killed --out "$T/f2.trace" -- /bin/sh -c 'kill -9 $$' 2> "$T/e2"; rc=$?
[ $rc -ne 0 ] && [ ! -e "$T/f2.trace" ] && grep -q 'capture \[killed\]' "$T/e2" && ok "(e) killed program: rc=$rc, no file" \
    || bad "(e) killed program: rc=$rc $(cat "$T/e2")"
capture --workload badopt --out "$T/f3.trace" --vg-opt --no-such-option -- /bin/true 2> "$T/e3"; rc=$?
[ $rc -ne 0 ] && [ ! -e "$T/f3.trace" ] && ok "(e) valgrind failure: rc=$rc, no file" || bad "(e) valgrind failure: rc=$rc"
ls -A "$T" | grep -q '\.capture\.' && bad "(e) temporary files left behind"
# A bad combination of tool options ends valgrind at once (checked after
# the command line, where Valgrind's own bad-option exit does not apply).
(cd "$T" && timeout 60 "${ENV[@]}" VALGRIND_LIB="$VGLIB" valgrind -q --tool=hwptrace --bbv-out="$T/x.bb" /bin/true) 2> "$T/e4"; rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q 'needs --bbv-slice' "$T/e4" && ok "(e) --bbv-out without --bbv-slice: exit $rc" \
    || bad "(e) --bbv-out without --bbv-slice: rc=$rc $(head -3 "$T/e4")"

# (f) pinned randomness
cc -O1 -fstack-protector-all -o "$T/randprog" tests/tracegen/randprog.c || bad "(f) cannot build randprog"
for i in 1 2; do
    capture --workload rand --out "$T/rand$i.trace" -- "$T/randprog" > "$T/rand$i.out" || bad "(f) capture randprog #$i"
done
capture --workload rand --out "$T/rand0.trace" --pin-random no --pin-ns no -- "$T/randprog" > "$T/rand0.out" \
    || bad "(f) capture randprog --pin-random no"
pid=-
unshare --user --map-current-user --pid --fork --mount true 2>/dev/null && pid=2
"$B/tgdump" --events "$T/rand1.trace" > "$T/rand1.ev"
if out=$(python3 tests/tracegen/check_random.py "$T/rand1.out" $pid "$T/rand0.out" "$T/rand1.ev"); then ok "(f) $out"; else bad "(f) $out"; fi
[ $pid = - ] && echo "  note (f): no PID namespace here, pid not checked"
if cmp -s "$T/rand1.out" "$T/rand2.out" && cmp -s "$T/rand1.trace" "$T/rand2.trace"; then
    ok "(f) randprog twice: identical output and trace files"
else bad "(f) randprog twice: output or trace differs"; fi

# (g) pinned paths: another run directory (longer name) and a copy of the
# tool's build folder at another path give the same trace file.
if unshare --user --map-current-user --pid --fork --mount true 2>/dev/null; then
    mkdir -p "$T/a/much/longer/run/directory" "$T/other-build-folder"
    cp "$T/in.txt" "$T/a/much/longer/run/directory/"
    cp -a "$B/." "$T/other-build-folder/"
    (cd "$T/a/much/longer/run/directory" && "${ENV[@]}" TGBUILD="$T/other-build-folder" "$ROOT/tracegen/capture" \
        --workload gzip --out "$T/gz3.trace" --skip $SKIP --capture $WIN -- "${GZ[@]}" > /dev/null) || bad "(g) capture"
    if cmp -s "$T/gz1.trace" "$T/gz3.trace"; then ok "(g) other run directory and tool path: identical trace file"
    else bad "(g) the trace depends on the run directory or the tool's path"; fi
    capture_lk --workload gzip --out "$T/gz4.trace" --skip $SKIP --capture $WIN -- "${GZ[@]}" > /dev/null
    cmp -s "$T/gz1.trace" "$T/gz4.trace" && bad "(g) --pin-ns no gives the same file: the test cannot tell"
else
    echo "  note (g): no user/PID/mount namespaces here, path pinning not tested"
fi

# (h) pinned CPU level vs glibc's feature masking.  The two GLIBC_TUNABLES
# values have the same length (the same stack layout) but only the second
# names real features; glibc parses them at start-up with slightly
# different instruction counts, so the windows are aligned by the
# difference of the whole runs' counts (BBV mode counts them), and then the
# two pinned traces must be identical from byte 512 on (metadata and every
# block) with headers that differ only in the skip field (bytes 96-103)
# and the header CRC.
NOMASK='glibc.cpu.hwcaps=-XVX,-XVX2,-XMI2,-XRMS'
MASK='glibc.cpu.hwcaps=-AVX,-AVX2,-BMI2,-ERMS'
total() { awk '/^T/ {n = split($0, a, ":"); for (i = 3; i <= n; i += 2) s += a[i]} END {printf "%.0f\n", s}' "$1"; }
declare -A hsame hdiff
for lvl in x86-64-v2 host; do
    for m in nomask mask; do
        tun=$NOMASK; [ $m = mask ] && tun=$MASK
        (cd "$T" && "${ENV[@]}" GLIBC_TUNABLES=$tun "$ROOT/tracegen/capture" --cpu-level $lvl \
            --bbv-out "$T/h-$lvl-$m.bb" --bbv-slice 1000000000 -- "${GZ[@]}" > "$T/h.out") || bad "(h) count $lvl $m"
        d=0; [ $m = mask ] && d=$(( $(total "$T/h-$lvl-mask.bb") - $(total "$T/h-$lvl-nomask.bb") ))
        (cd "$T" && "${ENV[@]}" GLIBC_TUNABLES=$tun "$ROOT/tracegen/capture" --cpu-level $lvl --workload gzip \
            --out "$T/h-$lvl-$m.trace" --skip $((SKIP + d)) --capture $WIN -- "${GZ[@]}" > "$T/h.out") ||
            bad "(h) capture $lvl $m"
    done
    hdiff[$lvl]=$d
    hsame[$lvl]=no
    cmp -s <(tail -c +513 "$T/h-$lvl-nomask.trace") <(tail -c +513 "$T/h-$lvl-mask.trace") &&
        [ "$(cmp -l "$T/h-$lvl-nomask.trace" "$T/h-$lvl-mask.trace" | awk '$1 < 97 || ($1 > 104 && $1 < 509)' | wc -l)" = 0 ] &&
        hsame[$lvl]=yes
done
[ "${hsame[x86-64-v2]}" = yes ] &&
    ok "(h) x86-64-v2: masking AVX/AVX2/BMI2/ERMS moves only glibc's start-up (${hdiff[x86-64-v2]} instructions); the window is the same trace (bytes 512.. identical, header differs in skip only)" ||
    bad "(h) x86-64-v2: the masked window differs from the unmasked one"
[ "${hsame[host]}" = no ] &&
    ok "(h) --cpu-level host: the same masking changes the run by ${hdiff[host]} instructions and the aligned window differs" ||
    bad "(h) --cpu-level host: masking did not change the trace (the test cannot tell)"

# (i) pinned host view.  The directory's entries are created in an order
# that is neither sorted nor reversed; ext4 (and tmpfs) list them in their
# own order.
cc -O1 -o "$T/hostprog" tests/tracegen/hostprog.c || bad "(i) cannot build hostprog"
mkdir -p "$T/hdir" && (cd "$T/hdir" && touch zeta alpha Mid 10 2 _x)
capture --workload host --out "$T/host.trace" -- "$T/hostprog" "$T/hdir" > "$T/host.pinned" || bad "(i) capture"
capture --workload host --out "$T/host0.trace" --cpu-level host --pin-host no -- "$T/hostprog" "$T/hdir" > "$T/host.free" ||
    bad "(i) capture --cpu-level host --pin-host no"
cat > "$T/host.expect" <<'EOF2'
cpuid0 GenuineIntel 11
cpuid1 00020652 0298e3ff bfebfbff
auxv 16 6 17 3 4 5 7 8 9 11 12 13 14 23 25 31 15
hwcap bfebfbff
nodename hwptrace
sysinfo 1000 17179869184 12884901888 1 1
readdir . .. 10 2 Mid _x alpha zeta
EOF2
if diff <(grep -v '^sp_mod' "$T/host.pinned") "$T/host.expect" > "$T/host.diff"; then
    ok "(i) pinned: CPUID = Core i5-670 (x86-64-v2), AT_HWCAP bfebfbff, 17 auxv entries in kernel order, host name, sysinfo, sorted readdir"
else bad "(i) pinned host view differs: $(tr '\n' ' ' < "$T/host.diff")"; fi
n_free=$(grep -c . "$T/host.free")
if [ "$(sed -n 's/^nodename //p' "$T/host.free")" = "$(uname -n)" ] &&
   ! cmp -s <(grep -E '^(cpuid0|auxv|sysinfo)' "$T/host.free") <(grep -E '^(cpuid0|auxv|sysinfo)' "$T/host.pinned") &&
   [ "$n_free" = 8 ]; then
    ok "(i) --cpu-level host --pin-host no: the host's name, sysinfo, CPUID identity and auxv ($(sed -n 's/^cpuid0 //p' "$T/host.free"))"
else bad "(i) unpinned host view: $(tr '\n' ' ' < "$T/host.free")"; fi

# (j) basic-block vectors of testprog against its whole-run trace of (c)
# (same pins, stdout to a file in every run: glibc's stdio takes another
# path for a terminal or /dev/null).  N is chosen so that a slice boundary
# cuts a call of tg_leaf between its two instructions.
N=$(python3 - "$T/tp.addrs" "$T/tp.ev" <<'EOF2'
import sys
a = dict(kv.split('=') for kv in open(sys.argv[1]).read().split())
ret = int(a['leaf_ret'], 16)
ins = [int(l.split()[1][3:], 16) for l in open(sys.argv[2]) if l.startswith('I ')]
pos = set(i for i, pc in enumerate(ins) if pc == ret)
print(next(n for n in range(1500, 4000) if any(k * n in pos for k in range(1, len(ins) // n + 1))))
EOF2
)
capture --bbv-out "$T/tp.bb" --bbv-slice "$N" --bbv-pc-out "$T/tp.pc" -- "$B/tg-testprog" > "$T/tp.out2" ||
    bad "(j) BBV run"
leafid=$(awk -F: -v a="$(sed 's/.*leaf=\([0-9a-f]*\).*/\1/' "$T/tp.addrs")" '$3 == a {print $2}' "$T/tp.pc")
K=$(awk -v id="$leafid" 'index($0, ":" id ":") {print NR - 1; exit}' "$T/tp.bb")
capture --workload testprog --out "$T/tpwin.trace" --skip $((K * N)) --capture "$N" -- "$B/tg-testprog" > "$T/tp.out3" ||
    bad "(j) window capture"
"$B/tgdump" --events "$T/tpwin.trace" > "$T/tpwin.ev"
if out=$(python3 tests/tracegen/check_bbv.py "$T/tp.addrs" "$T/tp.bb" "$T/tp.pc" "$N" "$T/tp.ev" "$K" "$T/tpwin.ev"); then
    ok "(j) $out"
else bad "(j) $out"; fi

# (k) provenance metadata
meta() { "$B/tgdump" --meta "$1" "$2"; }
gzpath=$(readlink -f "$(type -P gzip)")
pkg=$( (dpkg -S "$gzpath" || dpkg -S "${gzpath#/usr}") 2>/dev/null | head -1 | cut -d: -f1) # merged /usr
if [ -n "$pkg" ] && [ "$(meta program.package "$T/gz1.trace")" = "$pkg" ] &&
   [ "$(meta program.version "$T/gz1.trace")" = "$(dpkg-query -W -f '${Version}' "$pkg")" ] &&
   [ "$(meta libc.version "$T/gz1.trace")" = "$(dpkg-query -W -f '${Version}' libc6:amd64)" ] &&
   [ "$(meta cpu.level "$T/gz1.trace")" = x86-64-v2 ] && [ "$(meta cpu.level "$T/gz.trace")" = host ] &&
   meta packages "$T/gz1.trace" | grep -q "libc6:amd64=" && [ -z "$(experiments/stale.sh "$T/gz1.trace" x86-64-v2)" ]; then
    ok "(k) metadata: $pkg $(meta program.version "$T/gz1.trace"), libc $(meta libc.version "$T/gz1.trace"), level x86-64-v2 (host for the Lackey runs); experiments/stale.sh: current"
else bad "(k) metadata: $("$B/tgdump" --summary "$T/gz1.trace" | grep '^meta' | tr '\n' ' ')"; fi

# (l) the host's library cache.  /etc/ld.so.cache lists every library
# installed on the host; ld.so's lookups in it took a number of
# instructions that changed with unrelated packages and moved every window.
# The same gzip window is captured with the host's cache replaced (in an
# outer user and mount namespace) by one that also lists 40 libraries
# nothing uses: with the namespaces (the default) the file is identical to (d)'s;
# with --pin-ns no (the host's cache seen as it is) the two caches give
# different traces, so the test can tell.
lcache() { unshare --user --map-current-user --mount --propagation private \
    /bin/sh -c 'mount --bind "$0" /etc/ld.so.cache && exec "$@"' "$T/ld.so.cache" "$@"; }
if unshare --user --map-current-user --pid --fork --mount true 2>/dev/null && [ -e /etc/ld.so.cache ] &&
   { command -v ldconfig > /dev/null || [ -x /sbin/ldconfig ]; }; then
    # 40 libraries with names spread over the alphabet (lib<letter><nn>):
    # one more entry need not change ld.so's binary search for gzip's
    # libc.so.6, forty do.
    mkdir -p "$T/extralib"
    for i in $(seq 1 40); do
        n=lib$(printf '%s' abcdefghijklmnopqrstuvwxyz | cut -c$((i % 26 + 1)))$(printf %02d $i)
        echo "int hwp_extra$i(void) { return $i; }" |
            cc -shared -fPIC -Wl,-soname,$n.so.1 -o "$T/extralib/$n.so.1" -x c - || bad "(l) cannot build $n"
    done
    printf 'include /etc/ld.so.conf\n%s\n' "$T/extralib" > "$T/ld.so.conf"
    PATH=$PATH:/sbin:/usr/sbin ldconfig -X -C "$T/ld.so.cache" -f "$T/ld.so.conf" 2> /dev/null
    if PATH=$PATH:/sbin:/usr/sbin ldconfig -p -C "$T/ld.so.cache" 2> /dev/null | grep -q lib[a-z][0-9][0-9][.]so; then
        (cd "$T" && lcache "${ENV[@]}" "$ROOT/tracegen/capture" --workload gzip --out "$T/gzl.trace" \
            --skip $SKIP --capture $WIN -- "${GZ[@]}" > /dev/null) || bad "(l) capture with another cache"
        cmp -s "$T/gz1.trace" "$T/gzl.trace" &&
            ok "(l) another /etc/ld.so.cache (40 more libraries installed): identical trace file" ||
            bad "(l) the trace depends on the host's /etc/ld.so.cache"
        capture --pin-ns no --workload gzip --out "$T/gzl0.trace" --skip $SKIP --capture $WIN -- "${GZ[@]}" > /dev/null
        (cd "$T" && lcache "${ENV[@]}" "$ROOT/tracegen/capture" --pin-ns no --workload gzip --out "$T/gzl1.trace" \
            --skip $SKIP --capture $WIN -- "${GZ[@]}" > /dev/null)
        cmp -s "$T/gzl0.trace" "$T/gzl1.trace" &&
            bad "(l) --pin-ns no: the two caches give the same trace (the test cannot tell)" ||
            ok "(l) --pin-ns no (the host's cache as it is): the two caches give different traces"
    else bad "(l) ldconfig -C did not write a cache listing the extra library"; fi
else
    echo "  note (l): no namespaces or no ldconfig here, library-cache independence not tested"
fi

# (m) signal dispositions (see the header).
SIGS=INT,QUIT,HUP,PIPE,TERM,XFSZ,XCPU
sigcap() { (cd "$T" && "${ENV[@]}" env --ignore-signal=$SIGS --block-signal=USR1,ALRM "$ROOT/tracegen/capture" "$@"); }
sigcap --workload gzip --out "$T/gzm.trace" --skip $SKIP --capture $WIN -- "${GZ[@]}" > /dev/null || bad "(m) capture"
cmp -s "$T/gz1.trace" "$T/gzm.trace" &&
    ok "(m) started with $SIGS ignored and USR1, ALRM blocked: identical trace file" ||
    bad "(m) the trace depends on the signal dispositions the capture inherited"
[ "$("$B/tgdump" --meta pin.signals "$T/gzm.trace")" = yes ] && ok "(m) metadata pin.signals=yes" ||
    bad "(m) the trace does not record pin.signals=yes"
capture --pin-signals no --workload gzip --out "$T/gzm0.trace" --skip $SKIP --capture $WIN -- "${GZ[@]}" > /dev/null
sigcap --pin-signals no --workload gzip --out "$T/gzm1.trace" --skip $SKIP --capture $WIN -- "${GZ[@]}" > /dev/null
"$B/tgdump" --events "$T/gzm0.trace" > "$T/m0"; "$B/tgdump" --events "$T/gzm1.trace" > "$T/m1"
cmp -s "$T/m0" "$T/m1" &&
    bad "(m) --pin-signals no: ignored signals give the same events (the test cannot tell)" ||
    ok "(m) --pin-signals no: ignored signals give other events"

summary "tracegen tests"
