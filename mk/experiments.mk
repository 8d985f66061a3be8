# mk/experiments.mk - the workload suite: `make traces`, `make workloads`,
# `make test-experiments`.  Included by the top-level Makefile (BUILD, CC,
# SCALE, Q come from there; defaults below allow `make -f mk/experiments.mk`).
#
#   make traces [SCALE=tiny|default|paper]   capture every missing or stale
#        traces/$(SCALE)/<name>.trace (one per experiments/<name>.wl); -j2 safe
#   make workloads                           list workloads and their windows
#   make test-experiments                    generator determinism, native runs,
#                                            capture-twice reproducibility
#
# A trace is stale when its .wl file, the shared scripts and generators, the
# workload's own inputs (experiments/inputs/<name>/) or the tracegen tool
# ($(TRACEGEN_DEPS), defined by mk/tracegen.mk) are newer.  experiments/
# capture.sh leaves no file at the target when a capture fails, so rerunning
# `make traces` retries exactly the failed workloads.

BUILD ?= build
SCALE ?= default
CC ?= cc
TRACEGEN_DEPS ?=

EXP_WORKLOADS := $(sort $(basename $(notdir $(wildcard experiments/*.wl))))
EXP_COMMON := experiments/lib.sh experiments/capture.sh experiments/scales.sh \
	$(wildcard experiments/gen/*.c)
TRACES := $(EXP_WORKLOADS:%=traces/$(SCALE)/%.trace)

.PHONY: traces workloads test-experiments
traces: $(TRACES)

# Secondary expansion: TRACEGEN_DEPS is defined by a fragment included after
# this one, and the per-workload inputs folder is named by the stem.
.SECONDEXPANSION:
traces/$(SCALE)/%.trace: experiments/%.wl $(EXP_COMMON) $$(TRACEGEN_DEPS) \
		$$(wildcard experiments/inputs/$$*/*)
	$(Q)CC="$(CC)" EXP_BUILD="$(BUILD)" experiments/capture.sh $* $(SCALE) $@

workloads:
	$(Q)experiments/list.sh

test-experiments:
	$(Q)CC="$(CC)" EXP_BUILD="$(BUILD)" tests/experiments/run.sh

TEST_TARGETS += test-experiments
