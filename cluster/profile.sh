# cluster/profile.sh - the cluster profile: where and with what limits the
# Slurm jobs of `make reproduce-all CLUSTER=slurm` run.  Sourced by
# cluster/slurm.sh (so: assignments only).  Every value can be overridden
# from the environment, e.g.
#   HWPROF_SLURM_PARTITION=short HWPROF_SLURM_ACCOUNT=arch42 make reproduce-all CLUSTER=slurm SCALE=paper
# or edit this file for your site.  Empty means "Slurm's default".
#
# Shared storage is assumed: the repository (with build/, traces/,
# results/, plots/) must be the same path on the submitting host and on
# every compute node, and the nodes must have the same Debian packages
# (scripts/setup-deps.sh; the traces record the package versions and the
# runner warns when windows of one config were made from different ones).
#
# Limits per kind of task; defaults sized for SCALE=paper from the
# projection in README.md ("Running on a cluster": longest bbv 9.5 min,
# capture 9 min, config shard 5.7 min), with a wide margin for slower or
# busier nodes:
#   bbv      one per workload: basic-block vectors of the whole run + SimPoint
#   capture  one per workload x window: one window trace (Valgrind + packer:
#            2 CPUs, the packer compresses on the second)
#   windows  one per workload: rename the windows into place, write the list
#   run      one per config x shard: `hwprof run --shard=I/N`
#   final    one: `hwprof merge` of every config, then the plots and tables

: "${HWPROF_SLURM_PARTITION:=}"
: "${HWPROF_SLURM_ACCOUNT:=}"
: "${HWPROF_SLURM_QOS:=}"
# Anything else sbatch should get, e.g. "--constraint=x86-64-v3 --nice=100".
: "${HWPROF_SLURM_OPTIONS:=}"
# Job names are <prefix>-<scale>-<kind>[:<what>] (squeue, sacct).
: "${HWPROF_SLURM_PREFIX:=hwprof}"

: "${HWPROF_SLURM_BBV_TIME:=2:00:00}"
: "${HWPROF_SLURM_BBV_MEM:=2G}"
: "${HWPROF_SLURM_CAPTURE_TIME:=1:00:00}"
: "${HWPROF_SLURM_CAPTURE_MEM:=4G}"
: "${HWPROF_SLURM_CAPTURE_CPUS:=2}"
: "${HWPROF_SLURM_WINDOWS_TIME:=0:20:00}"
: "${HWPROF_SLURM_WINDOWS_MEM:=1G}"
: "${HWPROF_SLURM_RUN_TIME:=2:00:00}"
: "${HWPROF_SLURM_RUN_MEM:=8G}"
: "${HWPROF_SLURM_RUN_CPUS:=2}"
: "${HWPROF_SLURM_FINAL_TIME:=1:00:00}"
: "${HWPROF_SLURM_FINAL_MEM:=4G}"

# Shards per config: "auto" = one per job (trace window): the most
# parallel; a number N caps it (a config with fewer jobs gets fewer).
# Fixed per config at its first submission (build/cluster/<scale>/nshards)
# so that a resubmission reruns exactly the shards that are missing.
: "${HWPROF_SLURM_SHARDS:=auto}"
