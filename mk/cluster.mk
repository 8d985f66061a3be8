# mk/cluster.mk - running the reproduction on a Slurm cluster, and the tests
# of resumption.  Included by the top-level Makefile (BUILD, Q, HWPROF,
# SCALE come from there).
#
#   make test-resume     a killed run (and a killed shard) resumes and ends
#                        with the same bytes; half-replaced results and
#                        figures are not taken as current (part of make test)

BUILD ?= build
HWPROF ?= $(BUILD)/hwprof

.PHONY: test-resume
test-resume: $(HWPROF)
	$(Q)tests/slurm/resume.sh $(HWPROF)

TEST_TARGETS += test-resume

# ---- Slurm ------------------------------------------------------------------
# make reproduce-all CLUSTER=slurm / make traces CLUSTER=slurm (the top-level
# Makefile and mk/experiments.mk hand these goals over here), and
#   make cluster-status     every task of the last submission, by name
#   make cluster-resubmit   submit again what is still missing (the same as
#                           the first command again: only what is missing)
#   make cluster-cancel     scancel the last submission's jobs
#   make cluster-plan       what a submission would submit (nothing is)
# All take SCALE= like the local targets.  cluster/slurm.sh says how, and
# cluster/profile.sh holds the partition, account and limits.
CLUSTER ?=
CLUSTER_ENV = SCALE="$(SCALE)" TRACEDIR="$(TRACEDIR)" OUT="$(OUT)" PLOTDIR="$(PLOTDIR)" HWPROF="$(HWPROF)" \
	BUILD="$(BUILD)" CPU_LEVEL="$(CPU_LEVEL)" CC="$(CC)"
.PHONY: cluster-check cluster-reproduce-all cluster-traces cluster-status cluster-resubmit cluster-cancel \
	cluster-plan cluster-draw test-slurm

cluster-check:
	$(Q)case "$(CLUSTER)" in slurm) ;; *) echo "CLUSTER=$(CLUSTER): only CLUSTER=slurm is known" >&2; exit 2 ;; esac

# hwprof and the tracer are built here, once, on the shared storage.
cluster-reproduce-all cluster-resubmit: cluster-check deps $(HWPROF) tracegen
	$(Q)$(CLUSTER_ENV) cluster/slurm.sh submit

cluster-traces: cluster-check deps $(HWPROF) tracegen
	$(Q)$(CLUSTER_ENV) cluster/slurm.sh submit --traces-only

cluster-plan: $(HWPROF)
	$(Q)$(CLUSTER_ENV) cluster/slurm.sh submit --dry-run

cluster-status:
	$(Q)$(CLUSTER_ENV) cluster/slurm.sh status

cluster-cancel:
	$(Q)$(CLUSTER_ENV) cluster/slurm.sh cancel

# The final task's drawing: plots and tables of the configs in CLUSTER_DRAW
# (those merged), by the ordinary rules.
CLUSTER_DRAW ?=
.SECONDEXPANSION:
cluster-draw: $$(SUITE_CSV) $$(patsubst configs/%.json,$$(PLOTDIR)/%.svg,$$(filter $$(PLOT_CONFIGS),$$(CLUSTER_DRAW))) \
	$$(patsubst configs/%.json,$$(OUT)/%.md,$$(filter $$(TABLE_CONFIGS),$$(CLUSTER_DRAW)))

# A private one-node Slurm cluster runs the tiny reproduction; it must equal
# a local run byte for byte (tests/slurm/run.sh; 4 to 12 minutes, so not in
# make test: .ci/run runs it after).
test-slurm: $(HWPROF) tracegen
	$(Q)scripts/setup-deps.sh slurm
	$(Q)tests/slurm/run.sh
