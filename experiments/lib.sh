# lib.sh - shared code of the workload suite: load a workload description
# (experiments/NAME.wl), build the input generators, prepare a workload's
# input directory, and run its command in the fixed, reproducible
# environment.  Sourced by capture.sh, bbv.sh, simpoints.sh, windows.sh,
# run.sh, list.sh, measure.sh and the tests.
#
# Reproducibility rules applied to every run (see README.md):
#   - env -i with WL_ENV only (fixed PATH, C locale, UTC, hash seeds pinned);
#   - setarch -R (no ASLR) around the whole process tree;
#   - cwd = the workload's own input directory; all file arguments relative;
#   - inputs regenerated from scratch before every run, file times pinned;
#   - stdin from /dev/null unless the workload names a file.

EXP_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
EXP_ROOT=$(dirname "$EXP_DIR")
EXP_BUILD=${EXP_BUILD:-$EXP_ROOT/build}
case $EXP_BUILD in /*) ;; *) EXP_BUILD=$EXP_ROOT/$EXP_BUILD ;; esac
EXP_CC=${CC:-cc}
# Where wl_load finds NAME.wl and wl_prepare the inputs/NAME/ folder: the
# suite's folder, or (make workload WL=DIR/NAME.wl) a workload of your own
# outside the suite.
EXP_WL_DIR=${EXP_WL_DIR:-$EXP_DIR}
# shellcheck source=scales.sh
. "$EXP_DIR/scales.sh"

WL_ENV=(PATH=/usr/bin:/bin LANG=C LC_ALL=C TZ=UTC HOME=/nonexistent
        PYTHONHASHSEED=0 PYTHONDONTWRITEBYTECODE=1
        PERL_HASH_SEED=0 PERL_PERTURB_KEYS=0)
FIXED_MTIME='2000-01-01 00:00:00 UTC'

exp_die() { echo "experiments: $*" >&2; exit 1; }

# Workload names, sorted, from the .wl files.
exp_workloads() {
    local f
    for f in "$EXP_DIR"/*.wl; do basename "$f" .wl; done
}

# wl_load NAME SCALE: source NAME.wl and resolve the per-scale values:
# WL_UNIT (work size knob), WL_SKIP (start-up instructions to leave out),
# and from scales.sh WL_SLICE (slice = window length), WL_WINDOWS (at most
# that many SimPoint windows), WL_SKIP_SLICES (WL_SKIP rounded up to whole
# slices: the start-up SimPoint leaves out), WL_SIMPOINT (the options of
# `hwprof simpoint` but the file and --skip-slices, as one string).
wl_load() {
    local name=$1 scale=$2 v
    [ -f "$EXP_WL_DIR/$name.wl" ] || exp_die "unknown workload '$name' (have: $(exp_workloads | tr '\n' ' '))"
    case " $SCALES " in *" $scale "*) ;; *) exp_die "unknown scale '$scale' (have: $SCALES)" ;; esac
    unset WL_DESC WL_PACKAGE WL_PROGRAM WL_INPUT WL_WHY_SKIP WL_STDIN WL_STDOUT WL_RESULT WL_PRELOAD_FIXTIME WL_PRELOAD_FIXINODE WL_ARGV
    for v in WL_UNIT WL_SKIP; do unset "${v}_tiny" "${v}_default" "${v}_paper"; done
    # shellcheck disable=SC1090
    . "$EXP_WL_DIR/$name.wl"
    WL_NAME=$name
    WL_SCALE=$scale
    v=WL_UNIT_$scale;    WL_UNIT=${!v:-}
    v=WL_SKIP_$scale;    WL_SKIP=${!v:-}
    v=SLICE_$scale;      WL_SLICE=${!v}
    v=WINDOWS_$scale;    WL_WINDOWS=${!v}
    [ -n "$WL_UNIT" ] || exp_die "$name.wl: WL_UNIT_$scale is not set"
    [[ $WL_SKIP =~ ^[0-9]+$ ]] || exp_die "$name.wl: WL_SKIP_$scale must be a number of instructions"
    [ -n "${WL_PROGRAM:-}" ] || exp_die "$name.wl: WL_PROGRAM is not set"
    [[ $WL_SLICE =~ ^[1-9][0-9]*$ ]] || exp_die "scales.sh: SLICE_$scale must be a positive integer"
    [[ $WL_WINDOWS =~ ^[1-9][0-9]*$ ]] || exp_die "scales.sh: WINDOWS_$scale must be a positive integer"
    WL_SKIP_SLICES=$(((WL_SKIP + WL_SLICE - 1) / WL_SLICE))
    WL_SIMPOINT=$(scale_simpoint_options "$scale")
    WL_STDIN=${WL_STDIN:-/dev/null}
    WL_STDOUT=${WL_STDOUT:-stdout.txt}
    WL_RESULT=${WL_RESULT:-$WL_STDOUT}   # file the tests compare between runs
}

# Build one helper from experiments/gen/SRC.c into $EXP_BUILD/experiments/
# when missing or older than its source.  Atomic (make -j2 safe).
exp_build_tool() {
    local src=$EXP_DIR/gen/$1.c out=$EXP_BUILD/experiments/$2 extra=${3:-}
    if [ ! -x "$out" ] || [ "$src" -nt "$out" ]; then
        mkdir -p "$EXP_BUILD/experiments"
        # shellcheck disable=SC2086
        "$EXP_CC" -O2 -Wall -Wextra -o "$out.tmp.$$" "$src" $extra ||
            exp_die "cannot build $out from $src"
        mv -f "$out.tmp.$$" "$out"
    fi
}

exp_tools() {
    exp_build_tool datagen datagen
    exp_build_tool wlfix libwlfix.so "-shared -fPIC"
    exp_build_tool wlino libwlino.so "-shared -fPIC"
    DATAGEN=$EXP_BUILD/experiments/datagen
}

# The reader of `hwprof simpoint --json` results (gen/spwindows.c, jansson).
exp_spwindows() {
    exp_build_tool spwindows spwindows "$(pkg-config --cflags --libs jansson 2>/dev/null || echo -ljansson) -lm"
    SPWINDOWS=$EXP_BUILD/experiments/spwindows
}

# wl_prepare [DIR]: (re)create the run directory (default
# $EXP_BUILD/inputs/SCALE/NAME) with the workload's inputs; sets WL_RUNDIR.
# The .wl defines wl_input, run inside the directory (in a subshell) with
# WL_UNIT, DATAGEN and WL_SRC (= experiments/inputs/NAME) available to write
# the input files, and wl_command, which only sets the WL_ARGV array.
wl_prepare() {
    WL_RUNDIR=${1:-$EXP_BUILD/inputs/$WL_SCALE/$WL_NAME}
    exp_tools
    rm -rf "$WL_RUNDIR"
    mkdir -p "$WL_RUNDIR"
    WL_SRC=$EXP_WL_DIR/inputs/$WL_NAME
    WL_ARGV=()
    ( cd "$WL_RUNDIR" && wl_input ) || exp_die "$WL_NAME: preparing the input failed"
    wl_command   # pure: only sets WL_ARGV (relative file names)
    [ "${#WL_ARGV[@]}" -gt 0 ] || exp_die "$WL_NAME.wl: wl_command set no WL_ARGV"
    if [ "${WL_PRELOAD_FIXTIME:-0}" = 1 ]; then
        cp "$EXP_BUILD/experiments/libwlfix.so" "$WL_RUNDIR/libwlfix.so"
    fi
    if [ "${WL_PRELOAD_FIXINODE:-0}" = 1 ]; then
        cp "$EXP_BUILD/experiments/libwlino.so" "$WL_RUNDIR/libwlino.so"
    fi
    find "$WL_RUNDIR" -exec touch -h -d "$FIXED_MTIME" {} +
}

# The environment of a run, as env(1) arguments.
wl_env() {
    WL_RUN_ENV=("${WL_ENV[@]}")
    local preload=()
    [ "${WL_PRELOAD_FIXTIME:-0}" = 1 ] && preload+=(./libwlfix.so)
    [ "${WL_PRELOAD_FIXINODE:-0}" = 1 ] && preload+=(./libwlino.so)
    if [ "${#preload[@]}" -gt 0 ]; then
        local IFS=:
        WL_RUN_ENV+=("LD_PRELOAD=${preload[*]}")
    fi
}

# wl_exec CMD...: run CMD (a wrapper such as tracegen/capture or valgrind,
# followed by WL_ARGV) in the run directory with the fixed environment, no
# ASLR, stdin/stdout as the workload says.  Stderr is inherited.
wl_exec() {
    wl_env
    local out=$WL_STDOUT
    ( cd "$WL_RUNDIR" && exec env -i "${WL_RUN_ENV[@]}" setarch -R "$@" <"$WL_STDIN" >"$out" )
}

# Human-readable number: 30000000 -> 30M.
exp_human() {
    local n=$1
    if [ $((n % 1000000000)) = 0 ] && [ "$n" -ge 1000000000 ]; then echo "$((n / 1000000000))G"
    elif [ $((n % 1000000)) = 0 ] && [ "$n" -ge 1000000 ]; then echo "$((n / 1000000))M"
    elif [ $((n % 1000)) = 0 ] && [ "$n" -ge 1000 ]; then echo "$((n / 1000))K"
    else echo "$n"; fi
}
