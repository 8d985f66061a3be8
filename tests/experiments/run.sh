#!/bin/bash
# tests/experiments/run.sh - tests of the workload suite (make test-experiments).
#  1. datagen is deterministic: same bytes twice, and known checksums
#     (a change in these means every compressor trace changes: update the
#     golden sums only on purpose);
#  1b. gen/wlino.c (li and gap): a probe program (wlino-probe.c) cannot
#     open /proc/self/maps (open, openat, fopen: ENOENT) and sees,
#     through stat, fstat, lstat and their *64 names, device 1, its two
#     files numbered 1 and 2 in first-asked order and every time
#     2000-01-01; without the shim it sees the host's numbers;
#  2. every workload's input preparation is deterministic (same bytes twice);
#  3. every workload runs natively at tiny scale, exits 0, and prints the
#     same output twice;
#  4. every workload runs for at least its start-up slices plus one slice at
#     tiny scale (valgrind cachegrind count; skipped with NO_COUNT=1);
#  5. capture.sh failure handling: a failing capture leaves no trace file and
#     names the workload;
#  6. once tracegen is built: workloads (TEST_CAPTURE, default "lua m88ksim":
#     lua is built with -fstack-protector and calls getrandom, so it needs the
#     tool's pinning, tracegen/README.md "Determinism"; m88ksim's simulator
#     calibrates its clock against gettimeofday, so it needs gen/wlfix.c's
#     virtual clock; TEST_CAPTURE=all: every workload) captured twice at tiny
#     scale give identical decoded events and identical trace files; the
#     second capture's files get other inode numbers (the run directory is
#     removed and its old inodes taken by placeholder files first), so a
#     program that loads file identities fails here;
#  6b. li (CLISP keeps st_dev/st_ino of its streams as data; gen/wlino.c
#     pins them): the default scale's 12th slice, where those values are
#     first loaded (the tiny window comes before it), captured twice with
#     other inode numbers gives identical trace files (TEST_LI_INODE=0
#     skips it);
#  7. the pipeline of `make traces` (mk/experiments.mk) at tiny scale on one
#     workload (TEST_PIPELINE, default gzip: the shortest run) in a
#     temporary traces folder, first with WINDOWS_tiny=2 then with the
#     scale's one window: basic-block vectors (whole slices, the tail and
#     the provenance as comments), SimPoint windows, window traces with
#     their window.* metadata and header skip, the .windows list; the
#     changed option re-chooses the windows and removes the traces of the
#     old choice (and a stray single trace and window); a second make does
#     nothing; the tool and the shared scripts count by content (their
#     fingerprint: a rebuild to the same bytes captures nothing, other
#     bytes make the vectors stale), and so do the .wl and every file
#     below its inputs folder (the workload's stamp);
#     window 0 equals a capture with the recorded skip;
#     spwindows rejects a bad result and a bad BBV leaves no SimPoint file.
# Prints "N passed, N failed[, N skipped]" last; exit status 1 on failure.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root" || exit 1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test-experiments.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export EXP_BUILD=$tmp/build
. experiments/lib.sh

. tests/lib.sh
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

# 1b. the file-identity shim answers every name it stands for
probe=$tmp/wlino-probe
if "${CC:-cc}" -std=c11 -O1 -Wall -Wextra -o "$probe" tests/experiments/wlino-probe.c; then
    mkdir -p "$tmp/probe"
    echo one > "$tmp/probe/a"
    echo two > "$tmp/probe/b"
    want=$'stat1 1 1 946684800 946684800 946684800\nfstat2 1 2 946684800 946684800 946684800\nlstat1 1 1 946684800 946684800 946684800\nstat64_2 1 2 946684800 946684800 946684800\nfstat64_2 1 2 946684800 946684800 946684800\nlstat64_1 1 1 946684800 946684800 946684800\nmaps ENOENT ENOENT ENOENT'
    got=$(cd "$tmp/probe" && LD_PRELOAD="$EXP_BUILD/experiments/libwlino.so" "$probe" a b)
    plain=$(cd "$tmp/probe" && "$probe" a b)
    if [ "$got" = "$want" ]; then
        ok "wlino: stat, fstat, lstat and the *64 names give device 1, files 1 and 2, times 2000-01-01; /proc/self/maps does not open (open, openat, fopen)"
    else
        bad "wlino: the probe saw"$'\n'"$got"$'\n'"wanted"$'\n'"$want"
    fi
    if [ "$plain" != "$want" ] && [ -n "$plain" ]; then
        ok "wlino: without the shim the probe sees the host's identities (the check above can fail)"
    else
        bad "wlino: the probe without the shim saw the pinned answers: $plain"
    fi
else
    bad "wlino: cannot build the probe tests/experiments/wlino-probe.c"
fi

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
        need=$(((WL_SKIP_SLICES + 1) * WL_SLICE))
        if [[ $n =~ ^[0-9]+$ ]] && [ "$n" -ge "$need" ]; then
            ok "$w: tiny run has $n instructions >= start-up slices + 1 slice = $need"
        else
            bad "$w: tiny run has '$n' instructions, needs start-up slices + 1 slice = $need"
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

# capture_moved NAME SCALE PREFIX "CAPTURE OPTIONS": capture PREFIX.1.trace,
# then PREFIX.2.trace with the run directory's files on other inodes
# (placeholders take the inodes the first run's files freed).  Reports a
# failed capture; sets MOVED to "inode A -> B" (the run directory's).
capture_moved() {
    local name=$1 scale=$2 prefix=$3 opts=$4 i ino1='' rundir=$EXP_BUILD/inputs/$2/$1
    local pad=$EXP_BUILD/inputs/$2/.inode-pad.$$
    for i in 1 2; do
        if [ "$i" = 2 ]; then
            rm -rf "$rundir" && mkdir -p "$pad" &&
                for p in 1 2 3 4 5 6 7 8; do : >"$pad/$p"; done
        fi
        # shellcheck disable=SC2086
        experiments/capture.sh $opts "$name" "$scale" "$prefix.$i.trace" >"$tmp/cap.$i.log" 2>&1 ||
            { bad "capture $name #$i failed: $(tail -5 "$tmp/cap.$i.log")"; }
        [ "$i" = 1 ] && ino1=$(stat -c %i "$rundir" 2>/dev/null)
    done
    MOVED="inode $ino1 -> $(stat -c %i "$rundir" 2>/dev/null)"
    rm -rf "$pad"
}

# 6. capture twice, compare (decoded events, and the files byte for byte)
# TEST_CAPTURE: the workloads to capture twice (space-separated, or "all"
# for every workload of the suite).
capture_list=${TEST_CAPTURE:-lua m88ksim}
[ "$capture_list" = all ] && capture_list=$(exp_workloads | tr '\n' ' ')
packer=$EXP_ROOT/build/tracegen/tg-packer
dump=$EXP_ROOT/build/tracegen/tgdump
if [ ! -x "$EXP_ROOT/tracegen/capture" ] || [ ! -x "$packer" ] || [ ! -x "$dump" ]; then
    bad "capture twice ($capture_list): tracegen is not built (make tracegen)"
else
    for cw in $capture_list; do
        capture_moved "$cw" tiny "$tmp/cap/$cw" ""
        if [ -s "$tmp/cap/$cw.1.trace" ] && [ -s "$tmp/cap/$cw.2.trace" ]; then
            "$dump" --events "$tmp/cap/$cw.1.trace" >"$tmp/cap/1.txt" &&
                "$dump" --events "$tmp/cap/$cw.2.trace" >"$tmp/cap/2.txt"
            if [ -s "$tmp/cap/1.txt" ] && cmp -s "$tmp/cap/1.txt" "$tmp/cap/2.txt"; then
                ok "capture twice ($cw, tiny, $MOVED): identical decoded events ($(wc -l < "$tmp/cap/1.txt"))"
            else
                bad "capture twice ($cw, tiny): decoded events differ: $(diff "$tmp/cap/1.txt" "$tmp/cap/2.txt" 2>&1 | sed -n 2,3p | tr '\n' ' ')"
            fi
            if cmp -s "$tmp/cap/$cw.1.trace" "$tmp/cap/$cw.2.trace"; then
                ok "capture twice ($cw, tiny): identical trace files"
            else
                bad "capture twice ($cw, tiny): trace files differ: $(cmp "$tmp/cap/$cw.1.trace" "$tmp/cap/$cw.2.trace" 2>&1)"
            fi
        fi
        rm -f "$tmp/cap/$cw.1.trace" "$tmp/cap/$cw.2.trace" "$tmp/cap/1.txt" "$tmp/cap/2.txt"
    done
    # 6b. li's file identities, where it first loads them
    if [ "${TEST_LI_INODE:-1}" = 1 ]; then
        capture_moved li default "$tmp/cap/li-ino" "--skip 550000000 --capture 50000000"
        # (the files, not a text dump: 76M events would be gigabytes of text)
        if [ -s "$tmp/cap/li-ino.1.trace" ] && cmp -s "$tmp/cap/li-ino.1.trace" "$tmp/cap/li-ino.2.trace"; then
            ok "li, default slice 11 twice ($MOVED): identical trace files ($("$dump" --summary "$tmp/cap/li-ino.1.trace" | sed -n 's/^loads //p') loads)"
        else
            bad "li, default slice 11 twice ($MOVED): trace files differ (file identities leak into loads): $(cmp "$tmp/cap/li-ino.1.trace" "$tmp/cap/li-ino.2.trace" 2>&1)"
        fi
        rm -f "$tmp/cap/li-ino."*
    fi
fi

# 7. the windows pipeline, end to end, at tiny scale
pw=${TEST_PIPELINE:-gzip}
hwprof=${HWPROF:-$EXP_ROOT/build/hwprof}
case $hwprof in /*) ;; *) hwprof=$EXP_ROOT/$hwprof ;; esac
tdir=$tmp/traces
# make_traces [VAR=VALUE...]: mk/experiments.mk's rules for one workload,
# into $tdir; prints what the scripts print.
make_traces() {
    env "$@" make -s --no-print-directory -f mk/experiments.mk SCALE=tiny BUILD="$EXP_BUILD" \
        HWPROF="$hwprof" EXP_TRACEDIR="$tdir" "$tdir/$pw.windows" 2>&1
}
# metaval FILE KEY: a trace's metadata value.
metaval() { "$hwprof" trace info --meta "$2" "$1" 2>/dev/null; }
# window_ok FILE K SLICE WEIGHT COUNT: the window's metadata and header.
window_ok() {
    local f=$1 why=''
    [ -s "$f" ] || { echo "$f missing"; return 1; }
    [ "$(metaval "$f" window.index)" = "$2" ] || why+=" window.index"
    [ "$(metaval "$f" window.slice)" = "$3" ] || why+=" window.slice"
    [ "$(metaval "$f" window.start)" = "$(($3 * WL_SLICE))" ] || why+=" window.start"
    [ "$(metaval "$f" window.weight)" = "$4" ] || why+=" window.weight"
    [ "$(metaval "$f" window.count)" = "$5" ] || why+=" window.count"
    [ -n "$(metaval "$f" simpoint.k)" ] || why+=" simpoint.k"
    [ "$(metaval "$f" workload.scale)" = tiny ] || why+=" workload.scale"
    "$hwprof" trace info "$f" | grep -q "^skip  *$(($3 * WL_SLICE)) instructions" || why+=" header-skip"
    "$hwprof" trace info "$f" | grep -q "^window  *$WL_SLICE instructions" || why+=" header-window"
    [ -z "$why" ] || { echo "$f: wrong$why"; return 1; }
}
if [ ! -x "$hwprof" ] || [ ! -x "$EXP_ROOT/tracegen/capture" ] || [ ! -x "$dump" ]; then
    bad "windows pipeline: hwprof or tracegen is not built (make build/hwprof tracegen)"
else
    wl_load "$pw" tiny
    exp_spwindows
    bb=$tdir/$pw.bb
    # (a) From nothing, with two windows (a SimPoint option other than the
    # scale's): vectors, SimPoint, two window traces, the list.
    log=$(make_traces WINDOWS_tiny=2); rc=$?
    list=$("$SPWINDOWS" "$tdir/$pw.simpoints.json" 2>&1)
    n2=$(sed -n 's/^windows //p' <<<"$list")
    mapfile -t wl < <(grep '^window ' <<<"$list")
    good=1 why=''
    for ((K = 0; K < ${n2:-0}; K++)); do
        read -r _ sl _ wt _ <<<"${wl[K]}"
        why=$(window_ok "$tdir/$pw.w$K.trace" "$K" "$sl" "$wt" "$n2") || good=0
        grep -q "^window $K $sl $((sl * WL_SLICE)) $wt $pw.w$K.trace$" "$tdir/$pw.windows" 2>/dev/null || good=0
    done
    if [ $rc = 0 ] && [ "$n2" = 2 ] && [ $good = 1 ] && [ "$(grep -c '^window ' "$tdir/$pw.windows")" = 2 ]; then
        ok "windows pipeline ($pw, tiny, WINDOWS_tiny=2): make built $pw.bb, $pw.simpoints.json, $pw.w0.trace and $pw.w1.trace (slices $(printf '%s\n' "${wl[@]}" | awk '{printf "%s ", $2}')) with their window.* metadata and header skip, and $pw.windows"
    else
        bad "windows pipeline ($pw, tiny, WINDOWS_tiny=2): status $rc, $n2 windows; $why; $(tail -5 <<<"$log")"
    fi
    # (b) Back to the scale's one window: a changed SimPoint option
    # re-chooses, w0 is recaptured (its entry changed), w1 and a stray
    # single trace and window are removed.
    cp "$tdir/$pw.w0.trace" "$tdir/$pw.trace"
    cp "$tdir/$pw.w0.trace" "$tdir/$pw.w4.trace"
    log=$(make_traces)
    list=$("$SPWINDOWS" "$tdir/$pw.simpoints.json" 2>&1)
    read -r _ s0 _ w0 _ <<<"$(grep '^window ' <<<"$list" | head -1)"
    left=$(cd "$tdir" && ls -a | grep -F "$pw." | grep -v '\.bb\|simpoints\|windows$\|sources$' | tr '\n' ' ')
    if [ "$(sed -n 's/^windows //p' <<<"$list")" = 1 ] && [ "$(sed -n 's/^skipped //p' <<<"$list")" = "$WL_SKIP_SLICES" ] &&
        [ "$w0" = 1 ] && [ "$left" = "$pw.w0.trace " ] && why=$(window_ok "$tdir/$pw.w0.trace" 0 "$s0" 1 1) &&
        [ "$(grep '^window ' "$tdir/$pw.windows")" = "window 0 $s0 $((s0 * WL_SLICE)) 1 $pw.w0.trace" ] &&
        grep -q '^simpoint: ' <<<"$log"; then
        ok "windows pipeline: back to WINDOWS_tiny=1: re-chosen (slice $s0, $WL_SKIP_SLICES start-up slice(s) left out), $pw.w0.trace recaptured with window.count=1; $pw.w1.trace, $pw.trace and $pw.w4.trace removed"
    else
        bad "windows pipeline: back to one window: files $left; $why; $(tr '\n' ' ' <<<"$list"); $(tail -3 <<<"$log")"
    fi
    # (c) The vectors: whole slices only, the tail and the provenance as comments.
    . experiments/meta.sh
    meta_read "$bb"
    sums=$(awk '/^T/ { s = 0; n = split($0, f, ":"); for (i = 3; i <= n; i += 2) s += f[i]; print s }' "$bb" | sort -u)
    nlines=$(grep -c '^T' "$bb")
    if [ "$sums" = "$WL_SLICE" ] && [ "$nlines" = "$(meta_get bbv.slices)" ] &&
        [ "$(meta_get bbv.slice)" = "$WL_SLICE" ] && [ "$(meta_get cpu.level)" = x86-64-v2 ] &&
        [ -n "$(meta_get packages)" ] && grep -q '^# tail T:' "$bb" &&
        [ "$(meta_get bbv.instructions)" = $((nlines * WL_SLICE + $(meta_get bbv.tail))) ] &&
        [ -z "$(experiments/stale.sh "$bb" x86-64-v2 2>/dev/null)" ] &&
        [ -n "$(SLICE_tiny=3000000 experiments/stale.sh "$bb" x86-64-v2 2>/dev/null)" ]; then
        ok "windows pipeline: $pw.bb has $nlines whole slices of $WL_SLICE, the tail ($(meta_get bbv.tail)) and provenance as comments; stale.sh: current, stale for another slice length"
    else
        bad "windows pipeline: $pw.bb: slice sums '$(tr '\n' ' ' <<<"$sums")', $nlines lines, meta: $(tr '\n' ' ' <<<"$META" | head -c 300)"
    fi
    # (d) Nothing to do the second time.
    before=$(stat -c %Y.%s "$tdir/$pw.w0.trace" 2>&1)
    log=$(make_traces)
    if [ -z "$log" ] && [ "$(stat -c %Y.%s "$tdir/$pw.w0.trace" 2>&1)" = "$before" ]; then
        ok "windows pipeline: a second make does nothing"
    else
        bad "windows pipeline: the second make did: $(head -3 <<<"$log")"
    fi
    # (d2) The tool and the shared scripts by content
    # (experiments/content-stamp.sh): a stand-in tool file and a stand-in
    # script, older than the traces, and no fingerprint yet (as in a traces
    # folder captured before fingerprints); the fingerprint made for the
    # first time takes their newest time, so nothing is captured again;
    # the tool rebuilt to the same bytes and the script checked out again
    # (newer files, same bytes): still nothing; the script's bytes
    # changed: the fingerprint is rewritten, newer than the vectors, which
    # make then takes as stale; and so for the tool's.
    tool=$tmp/fake-tool script=$tmp/fake-script.sh
    echo "tool 1" >"$tool"
    echo "script 1" >"$script"
    touch -d '2000-01-01' "$tool" "$script"
    fake=(TRACEGEN_FILES="$tool" TRACEGEN_DEPS="$tool" EXP_COMMON="$script")
    stamp_only() {
        make -s --no-print-directory -f mk/experiments.mk SCALE=tiny EXP_TRACEDIR="$tdir" "${fake[@]}" \
            "$tdir/.tracegen" >/dev/null 2>&1
    }
    rm -f "$tdir/.tracegen"
    log1=$(make_traces "${fake[@]}")
    stamp_made=$(stat -c %Y "$tdir/.tracegen" 2>&1)
    touch "$tool" "$script"
    log2=$(make_traces "${fake[@]}")
    fp1=$(cat "$tdir/.tracegen" 2>&1)
    h() { echo "$1" | sha256sum | cut -d' ' -f1; }
    echo "script 2" >"$script"
    touch -d '2000-01-02' "$tdir/.tracegen" # older than the vectors: only a rewrite makes it newer
    stamp_only
    script_newer=no
    [ "$tdir/.tracegen" -nt "$bb" ] && script_newer=yes
    echo "tool 2" >"$tool"
    touch -d '2000-01-02' "$tdir/.tracegen"
    stamp_only
    if [ -z "$log1$log2" ] && [ "$stamp_made" = "$(date -d 2000-01-01 +%s)" ] &&
        [ "$(stat -c %Y.%s "$tdir/$pw.w0.trace" 2>&1)" = "$before" ] &&
        [ "$fp1" = "$(printf '%s  fake-tool\n%s  fake-script.sh' "$(h "tool 1")" "$(h "script 1")")" ] &&
        [ $script_newer = yes ] &&
        grep -q "^$(h "tool 2")  fake-tool$" "$tdir/.tracegen" &&
        grep -q "^$(h "script 2")  fake-script.sh$" "$tdir/.tracegen" &&
        [ "$tdir/.tracegen" -nt "$bb" ]; then
        ok "windows pipeline: the tool and the scripts by content: their fingerprint made with their time, and the same bytes with new times, capture nothing; a script's or the tool's other bytes make the fingerprint newer than the vectors"
    else
        bad "windows pipeline: the fingerprint: made '$log1', rebuilt '$log2', stamp time $stamp_made, script change newer: $script_newer, fingerprint '$fp1' then '$(cat "$tdir/.tracegen" 2>&1)'"
    fi
    # (d3) The workload's own files by content (its stamp $pw.sources): a
    # copy of the suite's .wl in a folder of its own, with an input file
    # and one in a subfolder, all older than the traces, and no stamp yet;
    # the stamp made for the first time takes their newest time, so
    # nothing is captured again; the files checked out again (newer, same
    # bytes): still nothing; the file in the subfolder changed: the stamp
    # is rewritten, newer than the vectors, and make -n would remake them.
    wdir=$tmp/wl
    rm -f "$tdir/.tracegen" # (d2's stand-ins: made again from the real tool, with its time)
    mkdir -p "$wdir/inputs/$pw/sub"
    cp "experiments/$pw.wl" "$wdir/"
    echo "input 1" >"$wdir/inputs/$pw/in.txt"
    echo "deep 1" >"$wdir/inputs/$pw/sub/deep.txt"
    find "$wdir" -type f -exec touch -d '2000-01-01' {} +
    rm -f "$tdir/$pw.sources"
    log1=$(make_traces EXP_WL_DIR="$wdir")
    src_made=$(stat -c %Y "$tdir/$pw.sources" 2>&1)
    find "$wdir" -type f -exec touch {} +
    log2=$(make_traces EXP_WL_DIR="$wdir")
    fp1=$(cat "$tdir/$pw.sources" 2>&1)
    echo "deep 2" >"$wdir/inputs/$pw/sub/deep.txt"
    plan=$(EXP_WL_DIR=$wdir make -n --no-print-directory -f mk/experiments.mk SCALE=tiny BUILD="$EXP_BUILD" \
        EXP_TRACEDIR="$tdir" "$tdir/$pw.bb" 2>&1)
    if [ -z "$log1$log2" ] && [ "$src_made" = "$(date -d 2000-01-01 +%s)" ] &&
        [ "$(stat -c %Y.%s "$tdir/$pw.w0.trace" 2>&1)" = "$before" ] &&
        [ "$fp1" = "$(printf '%s  %s.wl\n%s  inputs/%s/in.txt\n%s  inputs/%s/sub/deep.txt' \
            "$(sha256sum <"experiments/$pw.wl" | cut -d' ' -f1)" "$pw" "$(h "input 1")" "$pw" "$(h "deep 1")" "$pw")" ] &&
        grep -q "^$(h "deep 2")  inputs/$pw/sub/deep.txt$" "$tdir/$pw.sources" &&
        [ "$tdir/$pw.sources" -nt "$bb" ] && grep -q "experiments/bbv.sh $pw tiny" <<<"$plan"; then
        ok "windows pipeline: the .wl and the inputs by content: their stamp made with their time, and the same bytes with new times, capture nothing; a changed file below inputs/$pw/ makes the stamp newer than the vectors, which make -n would remake"
    else
        bad "windows pipeline: the workload's stamp: made '$log1', again '$log2', stamp time $src_made, stamp '$fp1' then '$(cat "$tdir/$pw.sources" 2>&1)', make -n: $(tail -3 <<<"$plan")"
    fi
    rm -f "$tdir/$pw.sources" # the suite's own .wl again from here on
    # (e) Window 0 is the capture with the recorded skip.
    experiments/capture.sh --skip "$(metaval "$tdir/$pw.w0.trace" window.start)" --capture "$WL_SLICE" \
        "$pw" tiny "$tmp/direct.trace" >"$tmp/direct.log" 2>&1
    "$dump" --events "$tdir/$pw.w0.trace" >"$tmp/w0.txt" 2>&1
    "$dump" --events "$tmp/direct.trace" >"$tmp/direct.txt" 2>&1
    if [ -s "$tmp/w0.txt" ] && cmp -s "$tmp/w0.txt" "$tmp/direct.txt"; then
        ok "windows pipeline: w0 = capture.sh --skip $((s0 * WL_SLICE)) --capture $WL_SLICE, event for event ($(wc -l <"$tmp/w0.txt"))"
    else
        bad "windows pipeline: w0 differs from a capture with its skip: $(tail -2 "$tmp/direct.log"; diff "$tmp/w0.txt" "$tmp/direct.txt" 2>&1 | sed -n 2,3p)"
    fi
    # (f) spwindows refuses a result whose weights do not sum to 1, printing nothing.
    sed 's/"weight": 1\.0*/"weight": 0.5/' "$tdir/$pw.simpoints.json" >"$tmp/bad.json"
    out=$("$SPWINDOWS" "$tmp/bad.json" 2>"$tmp/bad.err"); rc=$?
    if [ $rc = 1 ] && [ -z "$out" ] && grep -q "sum to 0.5" "$tmp/bad.err"; then
        ok "spwindows: weights summing to 0.5 rejected: $(cat "$tmp/bad.err")"
    else
        bad "spwindows: bad weights: status $rc, output '$out', $(cat "$tmp/bad.err")"
    fi
    # (g) A bad BBV: simpoints.sh fails and leaves no SimPoint file.
    mkdir -p "$tmp/badtr"
    { head -2 "$bb"; echo "T:1:5   :1:6"; sed -n '3,$p' "$bb"; } >"$tmp/badtr/$pw.bb"
    msg=$(HWPROF=$hwprof experiments/simpoints.sh "$pw" tiny "$tmp/badtr" 2>&1); rc=$?
    if [ $rc != 0 ] && [ ! -e "$tmp/badtr/$pw.simpoints.json" ] && [[ $msg == *"$pw.bb:3:"*"appears twice"* ]]; then
        ok "simpoints.sh: a bad BBV fails naming file:line, no $pw.simpoints.json"
    else
        bad "simpoints.sh: bad BBV: status $rc, $(ls "$tmp/badtr"), $msg"
    fi
fi

summary test-experiments
