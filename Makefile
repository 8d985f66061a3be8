# Makefile - hwprof: hardware-profiling paper reproductions.
#
#   make                 build build/hwprof (installs missing Debian packages first)
#   make test            the layers of src/, unit tests (ASan+UBSan), config validation, golden cases, tool checks
#   make traces          capture missing/stale traces for SCALE (tiny | default | paper)
#   make reproduce-all   traces -> results/ -> plots/ for every configs/<paper>/<fig>.json
#                        (every stale config in one `hwprof run` plan)
#   CLUSTER=slurm        reproduce-all and traces as Slurm job arrays (mk/cluster.mk)
#   make bench           throughput benchmarks (not part of test)
#   make rap-wallclock   RAP Fig 4's wall clock -> results/rap/fig04-wallclock.csv (part of reproduce-all)
#   V=1                  show commands
#
# Committed outputs: results/ and plots/ come from SCALE=default (every
# config); results-paper/ and plots-paper/ from SCALE=paper (500M-instruction
# windows, the configs listed in configs/paper-scale.list); SCALE=tiny
# writes to build/results-tiny and build/plots-tiny.

SCALE ?= default
BUILD := build
V ?= 0
Q := $(if $(filter 1,$(V)),,@)

CC ?= cc
HWPROF_VERSION := 0.1.0
# ---- flags, each set once -----------------------------------------------------
# WARN: every C file of ours.  CSTD: the language, the version and where
# headers are found: every include names its header from src/
# ("run/config.h", src/README.md).
WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wvla -Wformat=2 \
        -Wpointer-arith -Wundef -Wcast-align -Wwrite-strings -Wold-style-definition
CSTD = -std=c11 -D_DEFAULT_SOURCE -DHWPROF_VERSION=\"$(HWPROF_VERSION)\" -Isrc -I$(BUILD)/gen $(PKG_CFLAGS)
# Header dependencies: a .d file beside every object (-MP: a deleted header
# is no error), included at the end; nothing else lists headers.
DEPFLAGS := -MMD -MP
# One set per object flavour: build/obj (the hwprof binary), build/san (unit
# tests, with ASan+UBSan; warnings are errors), build/bench-obj (benchmarks).
CFLAGS ?= -O2 -g
SAN := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
SAN_CFLAGS := -O1 -g $(SAN) -Werror
BENCH_CFLAGS := -O3 -march=x86-64-v2 -DNDEBUG
# Libraries found with pkg-config (plain -l flags when it is missing).
PKG_MODULES := jansson libzstd zlib libmd
PKG_CFLAGS := $(shell pkg-config --cflags $(PKG_MODULES) 2>/dev/null)
PKG_LIBS := $(shell pkg-config --libs $(PKG_MODULES) 2>/dev/null || echo -ljansson -lzstd -lz -lmd)
LIBS := $(PKG_LIBS) -lpthread -lm
# DEPS=1 (default): install missing Debian packages (as root; otherwise print
# the apt-get line).  DEPS=0: install nothing, check the libraries and name
# what is missing (non-root users, other distributions).
DEPS ?= 1

CORE_SRCS := $(filter-out src/cli/main.c,$(wildcard src/*/*.c src/*/*/*.c))
HWPROF := $(BUILD)/hwprof

ifeq ($(SCALE),default)
OUT := results
PLOTDIR := plots
else ifeq ($(SCALE),paper)
OUT := results-paper
PLOTDIR := plots-paper
else
OUT := $(BUILD)/results-$(SCALE)
PLOTDIR := $(BUILD)/plots-$(SCALE)
endif
TRACEDIR := traces/$(SCALE)

TEST_TARGETS :=
BENCH_TARGETS :=

# Part fragments (tracegen, experiments) add their own targets, TEST_TARGETS
# and BENCH_TARGETS; included before any rule that lists those variables.
include $(sort $(wildcard mk/*.mk))

# Trace files the results depend on (mk/experiments.mk defines TRACES).
TRACES ?=

.PHONY: all deps test unit validate golden pipeline test-plan example-model params-doc test-layers traces reproduce-all results plots tables \
	bench clean workloads
.DEFAULT_GOAL := all

all: deps $(HWPROF)

# Installs missing Debian packages; silent when nothing is missing.
deps:
ifeq ($(DEPS),0)
	$(Q)scripts/check-libs.sh $(if $(filter test unit,$(MAKECMDGOALS)),test,build)
else
	$(Q)scripts/setup-deps.sh
endif

# ---- the runner -------------------------------------------------------------
# Build provenance (git revision, dirty state, flags), rewritten only when it changes.
$(BUILD)/gen/buildinfo.h: FORCE
	@mkdir -p $(@D)
	@scripts/buildinfo.sh "$(CFLAGS) $(WARN)" | scripts/write-if-changed.sh $@
.PHONY: FORCE
FORCE:
$(foreach d,obj san bench-obj fuzz-obj,$(BUILD)/$(d)/src/core/provenance.o $(BUILD)/$(d)/src/run/freshness.o): \
	$(BUILD)/gen/buildinfo.h

OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(CORE_SRCS))
SAN_OBJS := $(patsubst %.c,$(BUILD)/san/%.o,$(CORE_SRCS))
BENCH_OBJS := $(patsubst %.c,$(BUILD)/bench-obj/%.o,$(CORE_SRCS))

$(BUILD)/obj/%.o: %.c | deps
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC      $<")
	$(Q)$(CC) $(CSTD) $(CFLAGS) $(WARN) $(DEPFLAGS) -c $< -o $@

$(BUILD)/san/%.o: %.c | deps
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC-SAN  $<")
	$(Q)$(CC) $(CSTD) $(SAN_CFLAGS) $(WARN) $(DEPFLAGS) -c $< -o $@

$(BUILD)/bench-obj/%.o: %.c | deps
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC-O3   $<")
	$(Q)$(CC) $(CSTD) $(BENCH_CFLAGS) $(WARN) $(DEPFLAGS) -c $< -o $@

$(HWPROF): $(OBJS) $(BUILD)/obj/src/cli/main.o
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) -o $@ $^ $(LIBS)

# ---- tests ------------------------------------------------------------------
# A unit test is compiled like the sanitizer objects (build/san/tests/unit/
# test_x.o, with its .d) and linked with all of them.
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_OBJS := $(patsubst %.c,$(BUILD)/san/%.o,$(UNIT_SRCS))
UNIT_BINS := $(patsubst tests/unit/%.c,$(BUILD)/san/tests/%,$(UNIT_SRCS))

$(UNIT_BINS): $(BUILD)/san/tests/%: $(BUILD)/san/tests/unit/%.o $(SAN_OBJS)
	$(if $(Q),@echo "  LD-TEST $@")
	$(Q)$(CC) $(SAN_CFLAGS) -o $@ $< $(SAN_OBJS) $(LIBS) -lcmocka

# Each unit program prints cmocka's summary; tests/run-unit.sh adds the total.
unit: deps $(UNIT_BINS)
	$(Q)tests/run-unit.sh $(UNIT_BINS)

validate: deps $(HWPROF)
	$(Q)$(HWPROF) validate

golden: deps $(HWPROF)
	$(Q)tests/golden/run.sh $(HWPROF)
	$(Q)tests/golden/cli/run.sh $(HWPROF)

pipeline: deps $(HWPROF)
	$(Q)tests/pipeline/run.sh $(HWPROF)

# Several configs in one `hwprof run` plan: each result byte for byte its
# config's run alone, --if-changed, a killed plan resumed, shards, a failure.
test-plan: deps $(HWPROF)
	$(Q)tests/plan/run.sh $(HWPROF)

# docs/adding-a-model.md's example model, built from its one file.
example-model: deps $(HWPROF)
	$(Q)tests/example-model/run.sh "$(OBJS) $(BUILD)/obj/src/cli/main.o" "$(CC)" "$(CSTD) $(CFLAGS) $(WARN) -Werror" "$(LIBS)"

# docs/params.md is generated from the parameter tables; the test keeps it current.
docs/params.md: $(HWPROF)
	$(Q)$(HWPROF) params > $@.tmp && mv $@.tmp $@

params-doc: deps $(HWPROF)
	$(Q)$(HWPROF) params | cmp -s - docs/params.md || \
		{ echo "docs/params.md is out of date: run 'make docs/params.md'"; exit 1; }

# The structure of src/ (src/README.md): no include up a layer or round a
# circle, no C file over 1,000 lines; then the checker's own cases.
test-layers:
	$(Q)scripts/check-layers.sh
	$(Q)tests/layers/run.sh

test: deps $(HWPROF) test-layers unit validate golden pipeline test-plan example-model params-doc $(TEST_TARGETS)
	@echo "make test: all suites passed"

# ---- benchmarks ---------------------------------------------------------------
BENCH_BINS := $(patsubst bench/%.c,$(BUILD)/bench/%,$(wildcard bench/*.c))
# Code the benchmarks share (bench/lib/: RAP Figure 4's timing and CSV,
# mk/rap-wallclock.mk), compiled like them; it records the flags it was
# compiled with.
BENCH_LIB_SRCS := $(wildcard bench/lib/*.c)
BENCH_LIB_OBJS := $(patsubst %.c,$(BUILD)/bench-obj/%.o,$(BENCH_LIB_SRCS))
$(BENCH_LIB_OBJS): CSTD += '-DHWPROF_BENCH_CFLAGS="$(BENCH_CFLAGS)"'
# Compiled like the benchmark objects (build/bench-obj/bench/x.o), linked
# with all of them.
$(BUILD)/bench/%: $(BUILD)/bench-obj/bench/%.o $(BENCH_LIB_OBJS) $(BENCH_OBJS)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  LD-O3   $@")
	$(Q)$(CC) $(BENCH_CFLAGS) -o $@ $< $(BENCH_LIB_OBJS) $(BENCH_OBJS) $(LIBS)

bench: deps $(BENCH_BINS) $(BENCH_TARGETS)
	$(Q)scripts/run-each.sh $(BENCH_BINS)

# ---- the pipeline: configs -> results -> plots ----------------------------------
ifeq ($(SCALE),paper)
CONFIGS := $(sort $(shell sed -e 's/\#.*//' configs/paper-scale.list))
else
CONFIGS := $(sort $(wildcard configs/*/*.json))
endif
RESULTS := $(patsubst configs/%.json,$(OUT)/%.csv,$(CONFIGS))
# The configs with a "plot" (a "table") section, by scripts/configs-with.sh:
# looked up once, and only when a goal needs them (plots, tables,
# reproduce-all, cluster-draw), through secondary expansion.
PLOT_CONFIGS = $(eval PLOT_CONFIGS := $(shell scripts/configs-with.sh plot $(CONFIGS)))$(PLOT_CONFIGS)
TABLE_CONFIGS = $(eval TABLE_CONFIGS := $(shell scripts/configs-with.sh table $(CONFIGS)))$(TABLE_CONFIGS)
PLOTS = $(patsubst configs/%.json,$(PLOTDIR)/%.svg,$(PLOT_CONFIGS))
TABLES = $(patsubst configs/%.json,$(OUT)/%.md,$(TABLE_CONFIGS))


.SECONDEXPANSION:
# --if-changed: a result whose sidecar records the same config, sources and
# traces (by content, not file times) is kept, so on a fresh clone with
# freshly captured traces only new or changed configs are computed.  One
# result: `make results/x/y.csv` (and cluster/slurm.sh's `make -n`, which
# reads the configs off these lines).  After `make results` ran every config
# in one plan, RESULTS_RAN=1 takes the CSVs as made (plots and tables only).
$(OUT)/%.csv: configs/%.json $(HWPROF) $(TRACES)
	$(Q)$(if $(RESULTS_RAN),test -f $@,$(HWPROF) run --if-changed --traces $(TRACEDIR) --out $(OUT) $(RUN_FLAGS) $<)

$(PLOTDIR)/%.svg: $(OUT)/%.csv configs/%.json $$(wildcard plots/$$*.gp) $(HWPROF)
	$(Q)$(HWPROF) plot configs/$*.json --results $(OUT) --plots $(PLOTDIR)

$(OUT)/%.md: $(OUT)/%.csv configs/%.json $(HWPROF)
	$(Q)$(HWPROF) table configs/$*.json --results $(OUT)

# Every config of the scale in ONE `hwprof run --if-changed` (issue 24): the
# stale ones (a config changed, or a result whose CSVs are not the bytes its
# sidecar records) are computed in one plan, each trace window decoded once
# for all of them (src/run/run_plan.c); it ends with where the time went.
results: deps $(HWPROF) $(TRACES) $(SUITE_CSV)
	$(Q)$(HWPROF) run --if-changed --traces $(TRACEDIR) --out $(OUT) $(RUN_FLAGS) $(CONFIGS)
plots: $$(PLOTS)
tables: $$(TABLES)

ifneq ($(CLUSTER),)
# CLUSTER=slurm: submitted as job arrays (mk/cluster.mk, cluster/slurm.sh).
reproduce-all: cluster-reproduce-all
else
# At SCALE=default, then RAP Figure 4's wall clock (mk/rap-wallclock.mk),
# alone, once nothing else runs: a measurement, not a byte-reproducible result.
reproduce-all: deps $(HWPROF)
	$(Q)$(MAKE) --no-print-directory traces SCALE=$(SCALE)
	$(Q)$(MAKE) --no-print-directory results SCALE=$(SCALE)
	$(Q)$(MAKE) --no-print-directory plots tables SCALE=$(SCALE) RESULTS_RAN=1
ifeq ($(SCALE),default)
	$(Q)$(MAKE) --no-print-directory rap-wallclock SCALE=$(SCALE)
endif
	@echo "reproduce-all: $(words $(RESULTS)) results in $(OUT)/, $(words $(PLOTS)) plots in $(PLOTDIR)/ (SCALE=$(SCALE))"
endif

clean:
	rm -rf $(BUILD)

# Keep the objects between runs (some are intermediates of pattern rules).
# Named, not a plain .SECONDARY: with every target secondary, make ignores
# -o on a file whose prerequisite is phony, and cluster/slurm.sh's plan
# (make -n -o <tracedir>/.simpoint-options) would redo every SimPoint choice.
.SECONDARY: $(OBJS) $(SAN_OBJS) $(UNIT_OBJS) $(BENCH_OBJS) $(BENCH_LIB_OBJS) $(FUZZ_OBJS) \
	$(patsubst $(BUILD)/bench/%,$(BUILD)/bench-obj/bench/%.o,$(BENCH_BINS)) \
	$(BUILD)/bench-obj/tests/simpoint/bench_simpoint.o

-include $(patsubst %.o,%.d,$(OBJS) $(BUILD)/obj/src/cli/main.o $(SAN_OBJS) $(UNIT_OBJS) $(BENCH_OBJS) \
	$(BENCH_LIB_OBJS) $(patsubst $(BUILD)/bench/%,$(BUILD)/bench-obj/bench/%.o,$(BENCH_BINS)))
