# mk/experiments.mk - the workload suite: `make traces`, `make workloads`,
# `make test-experiments`.  Included by the top-level Makefile (BUILD, CC,
# SCALE, Q come from there; defaults below allow `make -f mk/experiments.mk`).
#
#   make traces [SCALE=tiny|default|paper] [CPU_LEVEL=x86-64-v2|host|...]
#        capture every missing or stale traces/$(SCALE)/<name>.trace (one per
#        experiments/<name>.wl) at CPU level CPU_LEVEL (tracegen/README.md,
#        "Pinned CPU and host"); -j2 safe
#   make workloads                           list workloads and their windows
#   make test-experiments                    generator determinism, native runs,
#                                            capture-twice reproducibility
#
# A trace is stale when its .wl file, the shared scripts and generators, the
# workload's own inputs (experiments/inputs/<name>/) or the tracegen tool
# ($(TRACEGEN_DEPS), defined by mk/tracegen.mk) are newer, and also when
# experiments/stale.sh says so: the Debian package versions recorded in the
# trace's metadata differ from the installed ones, the trace was captured
# at another CPU_LEVEL, or it has no metadata (format v1).  That check
# reads only the trace's header and metadata, and runs only for the traces
# make considers.  experiments/capture.sh leaves no file at the target when
# a capture fails, so rerunning `make traces` retries exactly the failed
# workloads.

BUILD ?= build
SCALE ?= default
CPU_LEVEL ?= x86-64-v2
CC ?= cc
TRACEGEN_DEPS ?=

EXP_WORKLOADS := $(sort $(basename $(notdir $(wildcard experiments/*.wl))))
EXP_COMMON := experiments/lib.sh experiments/capture.sh experiments/scales.sh experiments/stale.sh \
	$(wildcard experiments/gen/*.c)
TRACES := $(EXP_WORKLOADS:%=traces/$(SCALE)/%.trace)

.PHONY: traces workloads test-experiments
traces: $(TRACES)

# Secondary expansion: TRACEGEN_DEPS is defined by a fragment included after
# this one, and the per-workload inputs folder is named by the stem.
.SECONDEXPANSION:
# The stale check is a prerequisite that exists only when the trace is stale.
traces/$(SCALE)/%.trace: experiments/%.wl $(EXP_COMMON) $$(TRACEGEN_DEPS) \
		$$(wildcard experiments/inputs/$$*/*) \
		$$(if $$(shell experiments/stale.sh $$@ $(CPU_LEVEL)),exp-stale-trace)
	$(Q)CC="$(CC)" EXP_BUILD="$(BUILD)" CPU_LEVEL="$(CPU_LEVEL)" experiments/capture.sh $* $(SCALE) $@

.PHONY: exp-stale-trace
exp-stale-trace:

workloads:
	$(Q)experiments/list.sh

test-experiments:
	$(Q)CC="$(CC)" EXP_BUILD="$(BUILD)" tests/experiments/run.sh

TEST_TARGETS += test-experiments
