#!/bin/bash
# cluster/task.sh - what one Slurm task of cluster/slurm.sh runs.
# Usage (from the repository root, as sbatch --chdir puts it):
#   cluster/task.sh bbv LIST       LIST line <index+1>: WORKLOAD
#   cluster/task.sh capture LIST   LIST line <index+1>: WORKLOAD K
#   cluster/task.sh windows LIST   LIST line <index+1>: WORKLOAD
#   cluster/task.sh run CONFIG N   shard <index> of N of CONFIG
#   cluster/task.sh final LIST     LIST: one "CONFIG N" line per config
# <index> is SLURM_ARRAY_TASK_ID.  Settings come from the environment that
# cluster/slurm.sh exported at submission (sbatch passes it on):
# HWPROF_CL_SCALE, _TRACEDIR, _OUT, _PLOTDIR, _HWPROF, _BUILD, _CPU_LEVEL,
# _CC, _NAME (the job name prefix).
#
# Every step is the local pipeline's own, so a task's output is what
# `make reproduce-all` writes:
#   bbv      make <tracedir>/W.simpoints.json (basic-block vectors and the
#            SimPoint choice, each only if missing or stale)
#   capture  experiments/windows.sh W SCALE DIR --window K (to a pending
#            name; nothing when captured before or K is not a chosen window)
#   windows  experiments/windows.sh W SCALE DIR --no-capture (rename, list)
#   run      hwprof run --if-changed --shard=I/N (nothing when current)
#   final    hwprof merge --if-changed of every config; then make draws the
#            plots and tables of the configs merged (or current); exits 1
#            naming the configs that could not be merged
# A running task renames itself <prefix>-<kind>:<what> (e.g.
# hwprof-paper-capture:gzip.w2) so squeue and sacct show what it works on.
set -euo pipefail

die() { echo "cluster/task.sh: $*" >&2; exit 1; }
[ $# -ge 2 ] || die "usage: task.sh bbv|capture|windows|final LIST | task.sh run CONFIG N"
kind=$1
idx=${SLURM_ARRAY_TASK_ID:-0}
scale=${HWPROF_CL_SCALE:?not set: submit with cluster/slurm.sh}
tracedir=${HWPROF_CL_TRACEDIR:?} out=${HWPROF_CL_OUT:?} plotdir=${HWPROF_CL_PLOTDIR:?}
hwprof=${HWPROF_CL_HWPROF:?} build=${HWPROF_CL_BUILD:?} level=${HWPROF_CL_CPU_LEVEL:-x86-64-v2}
cc=${HWPROF_CL_CC:-cc}
export CC=$cc EXP_BUILD=$build CPU_LEVEL=$level HWPROF=$hwprof PROGRESS=0
# make as the submitter ran it; never rebuild hwprof on a node (-o)
mk() { make --no-print-directory -o "$hwprof" SCALE="$scale" EXP_TRACEDIR="$tracedir" TRACEDIR="$tracedir" \
    OUT="$out" PLOTDIR="$plotdir" HWPROF="$hwprof" BUILD="$build" CPU_LEVEL="$level" CC="$cc" DEPS=0 "$@"; }
line() { sed -n "$((idx + 1))p" "$1"; }

name() { # the task's own name in squeue/sacct (best effort)
    local n="${HWPROF_CL_NAME:-hwprof-$scale}-$1"
    echo "task: $n (array task ${SLURM_ARRAY_JOB_ID:-?}_$idx) on $(hostname -s) at $(date -u +%FT%TZ)"
    if [ -n "${SLURM_ARRAY_JOB_ID:-}" ]; then
        scontrol update JobId="${SLURM_ARRAY_JOB_ID}_${idx}" JobName="$n" >/dev/null 2>&1 || true
    fi
}
t0=$(date +%s.%N)
finish() { # one line the measurements (README) are read from
    local rc=$?
    echo "task: done status $rc in $(printf '%.1f' "$(echo "$(date +%s.%N) - $t0" | bc)") s"
}
trap finish EXIT

case $kind in
bbv)
    w=$(line "$2")
    [ -n "$w" ] || die "no line $((idx + 1)) in $2"
    name "bbv:$w"
    mk "$tracedir/$w.simpoints.json"
    ;;
capture)
    read -r w k <<<"$(line "$2")"
    [ -n "${k:-}" ] || die "no line $((idx + 1)) in $2"
    name "capture:$w.w$k"
    experiments/windows.sh "$w" "$scale" "$tracedir" --window "$k"
    ;;
windows)
    w=$(line "$2")
    [ -n "$w" ] || die "no line $((idx + 1)) in $2"
    name "windows:$w"
    experiments/windows.sh "$w" "$scale" "$tracedir" --no-capture
    ;;
run)
    [ $# -eq 3 ] || die "usage: task.sh run CONFIG N"
    c=$2 n=$3 stem=${2#configs/}
    name "run:${stem%.json}#$idx"
    "$hwprof" run --if-changed --progress-interval=60 --threads "${SLURM_CPUS_PER_TASK:-1}" --traces "$tracedir" \
        --out "$out" --shard="$idx/$n" "$c"
    ;;
final)
    name final
    ok=() bad=()
    while read -r c n; do
        [ -n "$c" ] || continue
        if "$hwprof" merge --if-changed --quiet --traces "$tracedir" --out "$out" --shards "$n" "$c"; then
            ok+=("$c")
        else
            bad+=("$c")
        fi
    done < "$2"
    echo "final: ${#ok[@]} config(s) merged or current, ${#bad[@]} not"
    rc=0
    if [ ${#ok[@]} -gt 0 ]; then
        mk -k cluster-draw CLUSTER_DRAW="${ok[*]}" || rc=1
    fi
    if [ ${#bad[@]} -gt 0 ]; then
        echo "final: not merged (shards missing or failed; cluster/slurm.sh status, then resubmit):" >&2
        printf '  %s\n' "${bad[@]}" >&2
        rc=1
    fi
    exit $rc
    ;;
*) die "unknown kind '$kind'" ;;
esac
