# mk/experiments.mk - the workload suite: `make traces`, `make workloads`,
# `make test-experiments`.  Included by the top-level Makefile (BUILD, CC,
# SCALE, Q, HWPROF come from there; defaults below allow
# `make -f mk/experiments.mk`).
#
#   make traces [SCALE=tiny|default|paper] [CPU_LEVEL=x86-64-v2|host|...]
#        for every experiments/<name>.wl, missing or stale only, -j2 safe:
#          1. traces/$(SCALE)/<name>.bb         basic-block vectors of the
#             whole run (experiments/bbv.sh; slices of the scale's length)
#          2. traces/$(SCALE)/<name>.simpoints.json   the SimPoint windows
#             (experiments/simpoints.sh: hwprof simpoint, options from
#             experiments/scales.sh)
#          3. traces/$(SCALE)/<name>.w<K>.trace  one trace per window, and
#             the list traces/$(SCALE)/<name>.windows (experiments/windows.sh)
#   make workloads                           the suite, its scales and windows
#   $(OUT)/suite/windows.csv                 the captured suite as a CSV
#        (experiments/suite-csv.sh; part of `make results`): what
#        experiments/README.md's window tables quote
#   make workload WL=DIR/NAME.wl [SCALE=tiny] [WL_TRACES=DIR]
#        a workload of your own, outside the suite (its inputs in
#        DIR/inputs/NAME/), captured by the same three steps into
#        WL_TRACES (default traces/own/$(SCALE)); a config names it with
#        "traces": that folder (configs/README.md, "Your own traces";
#        experiments/own/wordfreq.wl is the worked example)
#   make test-experiments                    generator determinism, native runs,
#                                            capture-twice reproducibility, the
#                                            tiny pipeline end to end
#   make test-walkthrough                    README.md's "Your own program" as
#                                            written, in a copy of the checkout
#
# TRACES (what results depend on) are the <name>.windows lists: windows.sh
# writes one last, after all of the workload's window traces are in place.
#
# Staleness, step by step:
#   vectors  when the .wl file, the workload's own inputs (every file
#            below experiments/inputs/<name>/), the shared scripts and
#            generators or the tracegen tool changed, all by content
#            (experiments/content-stamp.sh): the stamp <name>.sources
#            fingerprints the first two, the stamp .tracegen
#            $(TRACEGEN_FILES) from mk/tracegen.mk and $(EXP_COMMON); each
#            is rewritten only when those bytes change, not when the tool
#            is merely rebuilt by make clean or in another clone, or a
#            file gets a new time from a checkout), or experiments/stale.sh says
#            so: recorded package versions differ from the installed ones,
#            another CPU_LEVEL, another slice length than scales.sh's, or
#            no provenance;
#   windows  (the .simpoints.json) when the vectors, the SimPoint code or
#            the scale's SimPoint options (the stamp .simpoint-options,
#            rewritten only when scales.sh or the environment change them)
#            are newer;
#   traces   when their window's entry (slice, weight, k, count, index)
#            changed, or they are older than the vectors (windows.sh).
# Every step writes through a temporary name and leaves nothing at its
# target on failure, so rerunning `make traces` retries exactly what failed.

BUILD ?= build
SCALE ?= default
CPU_LEVEL ?= x86-64-v2
CC ?= cc
TRACEGEN_DEPS ?=
TRACEGEN_FILES ?=
TRACEGEN_LIBDIR ?=
HWPROF ?= $(BUILD)/hwprof
# Where the traces go (the tests point it elsewhere).
EXP_TRACEDIR ?= traces/$(SCALE)
# Where the .wl files and their inputs/ are: the suite's folder, or (make
# workload) the folder of a workload of your own.
EXP_WL_DIR ?= experiments
WL ?=
WL_TRACES ?= traces/own/$(SCALE)

EXP_WORKLOADS := $(sort $(basename $(notdir $(wildcard experiments/*.wl))))
# The shared capture scripts and generators, in the fingerprint .tracegen
# (a test names stand-ins).
EXP_COMMON ?= experiments/lib.sh experiments/capture.sh experiments/bbv.sh experiments/meta.sh \
	experiments/stale.sh $(wildcard experiments/gen/*.c)
EXP_SIMPOINT_SRCS := $(wildcard src/simpoint/*.[ch]) src/cli/cmd_simpoint.c
EXP_ENV = CC="$(CC)" EXP_BUILD="$(BUILD)" CPU_LEVEL="$(CPU_LEVEL)" HWPROF="$(HWPROF)" \
	EXP_WL_DIR="$(abspath $(EXP_WL_DIR))"
TRACES := $(EXP_WORKLOADS:%=$(EXP_TRACEDIR)/%.windows)
# Never delete the intermediate steps (they are what makes the next run quick).
# As patterns, for a workload of your own too (make workload).
.PRECIOUS: $(EXP_TRACEDIR)/%.bb $(EXP_TRACEDIR)/%.simpoints.json
WL_NAME = $(basename $(notdir $(WL)))

# The captured suite of this scale, for the documents (OUT: the Makefile's).
SUITE_CSV := $(OUT)/suite/windows.csv
$(SUITE_CSV): $(TRACES) experiments/suite-csv.sh
	$(Q)experiments/suite-csv.sh $(SCALE) $(EXP_TRACEDIR) $@

.PHONY: traces workloads workload test-experiments test-walkthrough exp-stale exp-force
# CLUSTER=slurm: submitted as Slurm job arrays instead (mk/cluster.mk).
traces: $(if $(CLUSTER),cluster-traces,$(TRACES))

# Secondary expansion: TRACEGEN_DEPS is defined by a fragment included after
# this one, and the per-workload inputs folder is named by the stem.
.SECONDEXPANSION:
# The stale check (experiments/stale.sh) is a prerequisite that exists only
# when the file is stale.  It is not evaluated when the makefiles are read:
# the prerequisites of a pattern rule are expanded the second time only
# when make considers a target of the rule, so stale.sh runs once for each
# vector file make considers (and under make -n, which cluster/slurm.sh's
# planning uses), never for goals that need no trace (make, make test-docs).
# A stamp file instead would be taken as changed the first time it is made,
# remaking every vector file captured before it existed.
exp_stale = $(if $(shell experiments/stale.sh $(1) $(CPU_LEVEL)),exp-stale)
$(EXP_TRACEDIR)/%.bb: $(EXP_TRACEDIR)/.tracegen $$(call exp_sources_stale,$$*) $$(call exp_stale,$$@) \
		| $(EXP_WL_DIR)/%.wl
	$(Q)$(EXP_ENV) experiments/bbv.sh $* $(SCALE) $@

# The workload's own files, its .wl and every file below its inputs folder,
# by content: their fingerprint <name>.sources (experiments/content-stamp.sh,
# as .tracegen below), brought up to date whenever make considers the
# vectors, which are stale when older (or when it cannot be written).  A
# prerequisite in the same way as exp_stale's, not a file make makes: make
# takes a prerequisite it creates as changed, and would recapture a traces
# folder from before these fingerprints; content-stamp.sh gives a new one
# the newest file's time.  The .wl itself is order-only: it must exist.
exp_inputs = $(shell find $(EXP_WL_DIR)/inputs/$(1) -type f 2>/dev/null | LC_ALL=C sort)
exp_sources_stale = $(shell [ ! -f $(EXP_WL_DIR)/$(1).wl ] && exit; \
	experiments/content-stamp.sh --base $(EXP_WL_DIR) $(EXP_TRACEDIR)/$(1).sources "" \
	$(EXP_WL_DIR)/$(1).wl $(call exp_inputs,$(1)) >&2 || { echo exp-stale; exit; }; \
	[ $(EXP_TRACEDIR)/$(1).sources -nt $(EXP_TRACEDIR)/$(1).bb ] && echo exp-stale)

# The fingerprint of the tool and of the shared capture scripts and
# generators, rewritten only when their bytes change (its phony
# prerequisite makes make look every time; cluster/slurm.sh's plan
# refreshes it first and passes -o, as for .simpoint-options).  By content,
# not by file time: a checkout or a comment's edit that gives a script a
# new time, or a rebuild of the tool, recaptures nothing.
$(EXP_TRACEDIR)/.tracegen: $$(TRACEGEN_DEPS) $(EXP_COMMON) experiments/content-stamp.sh exp-force
	$(Q)experiments/content-stamp.sh $@ "$(TRACEGEN_LIBDIR)" $(TRACEGEN_FILES) $(EXP_COMMON)

$(EXP_TRACEDIR)/%.simpoints.json: $(EXP_TRACEDIR)/%.bb $(EXP_TRACEDIR)/.simpoint-options \
		experiments/simpoints.sh $(EXP_SIMPOINT_SRCS) | $(HWPROF)
	$(Q)$(EXP_ENV) experiments/simpoints.sh $* $(SCALE) $(EXP_TRACEDIR)

$(EXP_TRACEDIR)/%.windows: $(EXP_TRACEDIR)/%.simpoints.json experiments/windows.sh
	$(Q)$(EXP_ENV) experiments/windows.sh $* $(SCALE) $(EXP_TRACEDIR)

# The scale's SimPoint options, rewritten only when they change.
$(EXP_TRACEDIR)/.simpoint-options: exp-force
	$(Q)bash -c '. experiments/scales.sh && scale_simpoint_options $(SCALE)' | scripts/write-if-changed.sh $@

exp-stale:
exp-force:

workloads:
	$(Q)EXP_BUILD="$(BUILD)" experiments/list.sh --traces $(EXP_TRACEDIR)

# One workload of your own: the same rules with its folder for the suite's
# and its traces folder for traces/$(SCALE).
workload:
	@case "$(WL)" in *.wl) ;; *) echo "make workload: give WL=DIR/NAME.wl, a workload of your own" \
		"(experiments/own/wordfreq.wl is a worked example; experiments/README.md, 'Your own program')" >&2; exit 2 ;; esac
	@[ -f "$(WL)" ] || { echo "make workload: no file $(WL)" >&2; exit 2; }
	@case "$(WL_NAME)" in *[!a-z0-9_-]*|[!a-z0-9]*) echo "make workload: the name '$(WL_NAME)' (of $(WL))" \
		"must be lower-case letters, digits, '_' and '-', starting with a letter or digit" >&2; exit 2 ;; esac
	$(Q)$(MAKE) --no-print-directory EXP_WL_DIR="$(patsubst %/,%,$(dir $(WL)))" EXP_TRACEDIR="$(WL_TRACES)" \
		"$(WL_TRACES)/$(WL_NAME).windows"
	@echo "workload: $(WL_NAME) ($(SCALE)): $$(grep -c '^window ' $(WL_TRACES)/$(WL_NAME).windows) window(s) in" \
		"$(WL_TRACES)/; use it with \"workloads\": [\"$(WL_NAME)\"], \"traces\": \"$(WL_TRACES)\""

test-experiments: $(HWPROF) tracegen
	$(Q)CC="$(CC)" EXP_BUILD="$(BUILD)" HWPROF="$(HWPROF)" tests/experiments/run.sh

# README.md's "Your own program", run as it stands in a copy of the checkout.
test-walkthrough: $(HWPROF) tracegen
	$(Q)tests/walkthrough/run.sh

TEST_TARGETS += test-experiments test-walkthrough
