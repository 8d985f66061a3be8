#!/bin/bash
# cluster/slurm.sh - the reproduction as Slurm job arrays (make
# reproduce-all CLUSTER=slurm, make traces CLUSTER=slurm).
# Usage: cluster/slurm.sh submit [--traces-only] [--dry-run]
#        cluster/slurm.sh status
#        cluster/slurm.sh cancel
# Run from the repository root; settings from the environment (mk/cluster.mk
# passes make's): SCALE, TRACEDIR, OUT, PLOTDIR, HWPROF, BUILD, CPU_LEVEL,
# CC; the cluster profile from cluster/profile.sh (partition, account,
# limits, shards).  hwprof and tracegen must be built (make does it first).
#
# submit: looks at what exists, like make, and submits only what is missing:
#   <p>-bbv        array, one task per workload whose vectors or SimPoint
#                  choice is missing or stale (make <dir>/W.simpoints.json)
#   <p>-capture    array, one task per workload x window still to capture
#                  (workloads with a new SimPoint choice: every window up to
#                  WINDOWS_<scale>, experiments/scales.sh; a task whose
#                  window was not chosen ends at once); afterok on bbv
#   <p>-windows    array, one task per workload captured: windows into
#                  place and the list; afterok on capture
#   <p>-run:<paper>/<stem>   one array per config not current, one task per
#                  shard still to run (hwprof run --shard=I/N --if-changed);
#                  afterok on windows (configs that read traces)
#   <p>-final      hwprof merge of every config and the plots and tables;
#                  afterany on the runs, so it also reports what failed
# (<p> = <prefix>-<scale>, e.g. hwprof-paper.)  Dependent jobs use
# --kill-on-invalid-dep=yes: when a task fails or is cancelled, what
# depends on it is cancelled (reason DependencyNeverSatisfied) rather than
# left pending.  Running it again after a failure (make reproduce-all
# CLUSTER=slurm, or make cluster-resubmit) submits only what is still
# missing: the failed task, and what depends on it.
# --dry-run prints what would be submitted; --traces-only stops after the
# windows (make traces CLUSTER=slurm).
#
# status: every task of the last submission by name with its Slurm state
# (sacct, or squeue when there is no accounting), failed and cancelled ones
# listed last with their log files.  cancel: scancel the last submission's
# jobs (by job id).
#
# State, on the shared storage, in $CLUSTER_STATE (default
# $BUILD/cluster/<scale>/): tasks (one line per
# task submitted: JOBID_INDEX KIND WHAT LOG), lists/ (the array index ->
# workload/window files the tasks read), nshards (the shard count fixed per
# config), logs/ (one file per task).
set -euo pipefail

die() { echo "cluster/slurm.sh: $*" >&2; exit 1; }
root=$(pwd)
[ -f "$root/cluster/slurm.sh" ] || die "run from the repository root"
. "$root/cluster/profile.sh"
. "$root/experiments/scales.sh"

scale=${SCALE:-default}
tracedir=${TRACEDIR:-traces/$scale}
out=${OUT:-results} plotdir=${PLOTDIR:-plots}
build=${BUILD:-build}
hwprof=${HWPROF:-$build/hwprof}
level=${CPU_LEVEL:-x86-64-v2}
cc=${CC:-cc}
state=${CLUSTER_STATE:-$build/cluster/$scale}
prefix=$HWPROF_SLURM_PREFIX-$scale

cmd=${1:-}
[ -n "$cmd" ] && shift
dry=0 traces_only=0
for a in "$@"; do
    case $a in
    --dry-run) dry=1 ;;
    --traces-only) traces_only=1 ;;
    *) die "unknown option '$a'" ;;
    esac
done

export HWPROF_CL_SCALE=$scale HWPROF_CL_TRACEDIR=$tracedir HWPROF_CL_OUT=$out HWPROF_CL_PLOTDIR=$plotdir \
    HWPROF_CL_HWPROF=$hwprof HWPROF_CL_BUILD=$build HWPROF_CL_CPU_LEVEL=$level HWPROF_CL_CC=$cc \
    HWPROF_CL_NAME=$prefix

mkv() { make --no-print-directory -o "$hwprof" SCALE="$scale" EXP_TRACEDIR="$tracedir" TRACEDIR="$tracedir" \
    OUT="$out" PLOTDIR="$plotdir" HWPROF="$hwprof" BUILD="$build" CPU_LEVEL="$level" CC="$cc" DEPS=0 "$@"; }

# ---- submission -----------------------------------------------------------------
# sbatch_array KIND NAME ARRAY DEPENDENCY LOG-STEM TIME MEM CPUS -- TASK-ARGS...: the job id
sbatch_array() {
    local kind=$1 name=$2 array=$3 dep=$4 log=$5 time=$6 mem=$7 cpus=$8
    shift 9
    local opts=(--parsable -J "$name" --array="$array" --chdir="$root" -o "$state/logs/$log-%A_%a.out"
        --time="$time" --mem="$mem" --cpus-per-task="$cpus" --kill-on-invalid-dep=yes)
    [ -n "$dep" ] && opts+=(--dependency="$dep")
    [ -n "$HWPROF_SLURM_PARTITION" ] && opts+=(-p "$HWPROF_SLURM_PARTITION")
    [ -n "$HWPROF_SLURM_ACCOUNT" ] && opts+=(-A "$HWPROF_SLURM_ACCOUNT")
    [ -n "$HWPROF_SLURM_QOS" ] && opts+=(--qos "$HWPROF_SLURM_QOS")
    # shellcheck disable=SC2206 # a list of options
    [ -n "$HWPROF_SLURM_OPTIONS" ] && opts+=($HWPROF_SLURM_OPTIONS)
    local id
    id=$(sbatch "${opts[@]}" --wrap "exec cluster/task.sh $*") || die "sbatch failed for $name"
    echo "${id%%;*}"
}
# record JOBID KIND ARRAY-INDICES WHAT-PER-INDEX... : the task lines of the state
record() {
    local id=$1 kind=$2 log=$3; shift 3
    while [ $# -ge 2 ]; do
        echo "${id}_$1 $kind $2 $state/logs/$log-${id}_$1.out" >> "$state/tasks.new"
        shift 2
    done
}
join() { local IFS=,; echo "$*"; }

submit() {
    [ -x "$hwprof" ] || die "$hwprof is missing (make $hwprof)"
    [ $dry = 1 ] || command -v sbatch >/dev/null || die "sbatch not found: is this a Slurm submit host?"
    mkdir -p "$state/logs" "$state/lists"
    . "$root/experiments/lib.sh"
    local workloads wmax=WINDOWS_$scale stamp=$tracedir/.simpoint-options tgstamp=$tracedir/.tracegen
    workloads=$(exp_workloads)
    wmax=${!wmax}
    # The scale's SimPoint options stamp and the tool's fingerprint, current
    # before make -n looks.
    [ $dry = 1 ] || mkv "$stamp" "$tgstamp" >/dev/null
    local w k plan bbv=() cap=() win=() bbv_idx=() cap_idx=() win_idx=() i=0 j=0
    : > "$state/lists/.bbv.$$"; : > "$state/lists/.capture.$$"
    for w in $workloads; do
        echo "$w" >> "$state/lists/.bbv.$$"
        # What make would do for the workload's list of windows (-o: the
        # stamps were just refreshed; their phony prerequisite would
        # otherwise make every choice look stale, and with -o make does not
        # compare them: that is done here).
        plan=$(mkv -n -o "$stamp" -o "$tgstamp" "$tracedir/$w.windows" 2>&1) || die "make -n $tracedir/$w.windows: $plan"
        local need_bbv=0 need_win=0 missing=""
        if grep -q "experiments/bbv.sh $w " <<<"$plan" || grep -q "experiments/simpoints.sh $w " <<<"$plan" ||
            [ ! -f "$tracedir/$w.simpoints.json" ] || [ "$stamp" -nt "$tracedir/$w.simpoints.json" ] ||
            [ ! -f "$tracedir/$w.bb" ] || [ "$tgstamp" -nt "$tracedir/$w.bb" ]; then
            need_bbv=1 need_win=1
            missing=$(seq 0 $((wmax - 1)))
        elif grep -q "experiments/windows.sh $w " <<<"$plan"; then
            need_win=1
            missing=$(experiments/windows.sh "$w" "$scale" "$tracedir" --missing) || die "$w: cannot list its windows"
        fi
        [ $need_bbv = 1 ] && { bbv_idx+=("$i" "$w"); }
        [ $need_win = 1 ] && { win_idx+=("$i" "$w"); }
        for ((k = 0; k < wmax; k++)); do
            echo "$w $k" >> "$state/lists/.capture.$$"
            grep -qx "$k" <<<"$missing" && cap_idx+=("$j" "$w.w$k")
            j=$((j + 1))
        done
        i=$((i + 1))
    done
    local tag
    tag=$(date -u +%Y%m%dT%H%M%S)-$$
    mv "$state/lists/.bbv.$$" "$state/lists/workloads-$tag"
    mv "$state/lists/.capture.$$" "$state/lists/windows-$tag"
    local wl_list=$state/lists/workloads-$tag cap_list=$state/lists/windows-$tag
    idx_of() { local r=() x; while [ $# -ge 2 ]; do r+=("$1"); shift 2; done; join "${r[@]}"; }

    # Configs: every one not current; shards fixed per config.
    local configs c n jobs nw stale=() runs=()
    configs=$(ls configs/*/*.json)
    touch "$state/nshards"
    local traces_changing=$(( ${#win_idx[@]} > 0 ))
    if [ $traces_only = 0 ]; then
        # The results make would rebuild (one make for all: its staleness
        # checks of the traces are the slow part).
        local csvs=() rebuild
        for c in $configs; do csvs+=("$out/${c#configs/}"); done
        rebuild=$(mkv -n -o "$stamp" -o "$tgstamp" "${csvs[@]/%.json/.csv}" 2>&1) || die "make -n: $rebuild"
        rebuild=$(grep -o ' configs/[^ ]*\.json$' <<<"$rebuild" | sed 's/^ //' || true)
        for c in $configs; do
            local res=$out/${c#configs/}
            res=${res%.json}.csv
            local analytic=0 dry_out
            # (exit 1 for traces not captured yet is expected here: they are submitted below)
            dry_out=$("$hwprof" run --dry-run --traces "$tracedir" --out "$out" "$c" 2>&1) ||
                { grep -q '(missing: run `make traces`)$' <<<"$dry_out" && ! grep -q ' (unusable)$' <<<"$dry_out"; } ||
                die "$c: $dry_out"
            grep -q '^  job 0: analytic' <<<"$dry_out" && analytic=1
            # current: make would not rebuild the CSV (and no trace is about to change)
            if { [ $analytic = 1 ] || [ $traces_changing = 0 ]; } && ! grep -qx "$c" <<<"$rebuild"; then
                continue
            fi
            n=$(awk -v c="$c" '$1 == c { print $2 }' "$state/nshards")
            if [ -z "$n" ] || [ ! -d "${res%.csv}.parts" ]; then
                jobs=$(sed -n '1s/^[^:]*: \([0-9]*\) job.*/\1/p' <<<"$dry_out")
                nw=$(grep -c '^  job ' <<<"$dry_out")
                # windows not chosen yet: every workload may get WINDOWS_<scale>
                grep -q '(missing: run `make traces`)' <<<"$dry_out" || [ $traces_changing = 1 ] && jobs=$((nw * wmax))
                [ $analytic = 1 ] && jobs=1
                n=$jobs
                [ "$HWPROF_SLURM_SHARDS" != auto ] && [ "$HWPROF_SLURM_SHARDS" -lt "$n" ] && n=$HWPROF_SLURM_SHARDS
                [ "$n" -ge 1 ] || n=1
                { grep -v "^$c " "$state/nshards" || true; echo "$c $n"; } > "$state/nshards.tmp"
                mv "$state/nshards.tmp" "$state/nshards"
            fi
            # shards still to run: no done marker newer than the config, hwprof and the traces
            local s todo=() done_f newest=$c
            [ "$hwprof" -nt "$newest" ] && newest=$hwprof
            for w in $workloads; do [ -f "$tracedir/$w.windows" ] && [ "$tracedir/$w.windows" -nt "$newest" ] && newest=$tracedir/$w.windows; done
            for ((s = 0; s < n; s++)); do
                done_f=${res%.csv}.parts/shard-$s-of-$n.done
                if [ $traces_changing = 0 ] && [ -f "$done_f" ] && [ "$done_f" -nt "$newest" ]; then continue; fi
                todo+=("$s")
            done
            stale+=("$c $n $analytic $(join "${todo[@]}")")
        done
    fi

    # Print and submit.
    local nb=$((${#bbv_idx[@]} / 2)) nc=$((${#cap_idx[@]} / 2)) nwin=$((${#win_idx[@]} / 2))
    echo "cluster: scale $scale: $nb bbv, $nc capture, $nwin windows task(s); ${#stale[@]} config(s) to run"
    if [ $dry = 1 ]; then
        local e x
        [ $nb -gt 0 ] && echo "  bbv:     $(for ((x = 1; x < ${#bbv_idx[@]}; x += 2)); do printf '%s ' "${bbv_idx[x]}"; done)"
        [ $nc -gt 0 ] && echo "  capture: $(for ((x = 1; x < ${#cap_idx[@]}; x += 2)); do printf '%s ' "${cap_idx[x]}"; done)"
        [ $nwin -gt 0 ] && echo "  windows: $(for ((x = 1; x < ${#win_idx[@]}; x += 2)); do printf '%s ' "${win_idx[x]}"; done)"
        for e in "${stale[@]}"; do read -r c n _ x <<<"$e"; echo "  run:     $c: shards ${x:-none} of $n"; done
        rm -f "$wl_list" "$cap_list"
        return 0
    fi
    [ -f "$state/tasks" ] && mv "$state/tasks" "$state/tasks.prev"
    : > "$state/tasks.new"
    local bid="" cid="" wid="" dep
    if [ $nb -gt 0 ]; then
        bid=$(sbatch_array bbv "$prefix-bbv" "$(idx_of "${bbv_idx[@]}")" "" bbv \
            "$HWPROF_SLURM_BBV_TIME" "$HWPROF_SLURM_BBV_MEM" 1 -- bbv "$wl_list")
        record "$bid" bbv bbv "${bbv_idx[@]}"
        echo "  $bid  $prefix-bbv       [$(idx_of "${bbv_idx[@]}")]"
    fi
    if [ $nc -gt 0 ]; then
        cid=$(sbatch_array capture "$prefix-capture" "$(idx_of "${cap_idx[@]}")" "${bid:+afterok:$bid}" capture \
            "$HWPROF_SLURM_CAPTURE_TIME" "$HWPROF_SLURM_CAPTURE_MEM" "$HWPROF_SLURM_CAPTURE_CPUS" -- capture "$cap_list")
        record "$cid" capture capture "${cap_idx[@]}"
        echo "  $cid  $prefix-capture   [$(idx_of "${cap_idx[@]}")]"
    fi
    if [ $nwin -gt 0 ]; then
        dep=${cid:+afterok:$cid}
        [ -z "$dep" ] && dep=${bid:+afterok:$bid}
        wid=$(sbatch_array windows "$prefix-windows" "$(idx_of "${win_idx[@]}")" "$dep" windows \
            "$HWPROF_SLURM_WINDOWS_TIME" "$HWPROF_SLURM_WINDOWS_MEM" 1 -- windows "$wl_list")
        record "$wid" windows windows "${win_idx[@]}"
        echo "  $wid  $prefix-windows   [$(idx_of "${win_idx[@]}")]"
    fi
    local e analytic s rid final_list=$state/lists/configs-$tag
    : > "$final_list"
    for e in "${stale[@]}"; do
        read -r c n analytic s <<<"$e"
        echo "$c $n" >> "$final_list"
        [ -n "$s" ] || continue
        local stem=${c#configs/}
        stem=${stem%.json}
        dep=""
        [ $analytic = 0 ] && dep=${wid:+afterok:$wid}
        rid=$(sbatch_array run "$prefix-run:$stem" "$s" "$dep" "run-${stem//\//-}" \
            "$HWPROF_SLURM_RUN_TIME" "$HWPROF_SLURM_RUN_MEM" "$HWPROF_SLURM_RUN_CPUS" -- run "$c" "$n")
        runs+=("$rid")
        local pairs=() x
        for x in ${s//,/ }; do pairs+=("$x" "$stem#$x"); done
        record "$rid" run "run-${stem//\//-}" "${pairs[@]}"
        echo "  $rid  $prefix-run:$stem [$s] of $n"
    done
    if [ $traces_only = 0 ]; then
        # configs already current still get their plots drawn (make decides)
        for c in $configs; do grep -q "^$c " "$final_list" || echo "$c 1" >> "$final_list"; done
        dep=""
        [ ${#runs[@]} -gt 0 ] && dep=afterany:$(IFS=:; echo "${runs[*]}")
        [ -z "$dep" ] && [ -n "$wid" ] && dep=afterok:$wid
        local fid
        fid=$(sbatch_array final "$prefix-final" 0 "$dep" final \
            "$HWPROF_SLURM_FINAL_TIME" "$HWPROF_SLURM_FINAL_MEM" 1 -- final "$final_list")
        record "$fid" final final 0 final
        echo "  $fid  $prefix-final"
    fi
    mv "$state/tasks.new" "$state/tasks"
    echo "cluster: $(wc -l < "$state/tasks") task(s) submitted; follow with: squeue -n <name> / make cluster-status SCALE=$scale"
}

# ---- status ---------------------------------------------------------------------------
# One line per task: ID|STATE|ELAPSED, from sacct when accounting works, else squeue.
task_states() {
    local ids
    ids=$(awk '{ split($1, a, "_"); print a[1] }' "$state/tasks" | sort -u | paste -sd,)
    if sacct -n -P -X -j "$ids" -o JobID,State,Elapsed 2>/dev/null | grep -q .; then
        sacct -n -P -X -j "$ids" -o JobID,State,Elapsed 2>/dev/null
    else
        squeue -h -t all -j "$ids" -o '%i|%T|%M' 2>/dev/null || true
    fi
}

status() {
    [ -s "$state/tasks" ] || die "nothing submitted for scale $scale ($state/tasks)"
    local states id kind what log st el
    states=$(task_states)
    local n=0 nbad=0 bad=() counts
    declare -A count=()
    while read -r id kind what log; do
        st=$(awk -F'|' -v id="$id" '$1 == id { print $2; exit }' <<<"$states")
        el=$(awk -F'|' -v id="$id" '$1 == id { print $3; exit }' <<<"$states")
        if [ -z "$st" ]; then
            # a pending array's tasks are one line: 123_[4-7]
            st=$(awk -F'|' -v j="${id%_*}" 'index($1, j "_[") == 1 { print $2; exit }' <<<"$states")
            [ -n "$st" ] || st=UNKNOWN
        fi
        st=${st%% *}
        count[$st]=$((${count[$st]:-0} + 1))
        printf '%-14s %-10s %-12s %-9s %s\n' "$id" "$kind" "$st" "${el:--}" "$what"
        case $st in COMPLETED | PENDING | RUNNING | CONFIGURING | COMPLETING) ;; *) bad+=("$st $kind $what: $log") ;; esac
        n=$((n + 1))
    done < "$state/tasks"
    counts=$(for s in "${!count[@]}"; do echo "${count[$s]} $s"; done | sort -k2 | paste -sd, | sed 's/,/, /g')
    echo "cluster: $n task(s): $counts"
    if [ ${#bad[@]} -gt 0 ]; then
        echo "cluster: ${#bad[@]} task(s) did not complete (resubmit what is missing: make cluster-resubmit SCALE=$scale):"
        printf '  %s\n' "${bad[@]}"
        return 1
    fi
}

cancel() {
    [ -s "$state/tasks" ] || die "nothing submitted for scale $scale"
    local ids
    ids=$(awk '{ split($1, a, "_"); print a[1] }' "$state/tasks" | sort -u)
    # shellcheck disable=SC2086 # one id a word
    scancel $ids && echo "cluster: cancelled job(s) $(echo $ids)"
}

case $cmd in
submit) submit ;;
status) status ;;
cancel) cancel ;;
*) die "usage: cluster/slurm.sh submit [--traces-only] [--dry-run] | status | cancel" ;;
esac
