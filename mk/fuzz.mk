# mk/fuzz.mk - libFuzzer targets for every parser (tests/fuzz/):
#   make fuzz [FUZZ_SECONDS=60]   build and run each target for FUZZ_SECONDS
#   make fuzz-build               build only
# Targets: trace (raw files), trace_repair (checksums repaired after
# mutation, so blocks reach the decoder), trace_payload (raw event payloads
# wrapped in a valid container), text and lackey (importers), config (the
# config loader), bbv (basic-block vectors), csv (results reader), docs
# (markers in markdown documents).
# Seed corpora: tests/fuzz/corpus/<target>/ (read only); the growing corpus
# is kept in build/fuzz/corpus-<target>/ and crashes in
# build/fuzz/crashes-<target>/: a crash found becomes a golden case (tests/golden/).
# Needs clang with libFuzzer (Debian: clang, libclang-rt-14-dev; installed by
# scripts/setup-deps.sh).  Not part of `make test`.

FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_CFLAGS = -std=c11 -D_DEFAULT_SOURCE -DHWPROF_VERSION=\"$(HWPROF_VERSION)\" -Isrc -I$(BUILD)/gen $(PKG_CFLAGS) -g -O1 $(FUZZ_SAN)
FUZZ_OBJS := $(patsubst %.c,$(BUILD)/fuzz-obj/%.o,$(CORE_SRCS))
FUZZ_NAMES := trace trace_repair trace_payload text lackey config bbv $(if $(wildcard tests/fuzz/fuzz_csv.c),csv) docs
FUZZ_BINS := $(FUZZ_NAMES:%=$(BUILD)/fuzz/fuzz_%)

$(BUILD)/fuzz-obj/%.o: %.c $(HDRS) $(BUILD)/gen/buildinfo.h | deps
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC-FUZZ $<")
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -w -c $< -o $@

# name -> source and the -D that selects its mode
fuzz_src = $(if $(filter trace%,$(1)),tests/fuzz/fuzz_trace.c,$(if $(filter text lackey,$(1)),tests/fuzz/fuzz_text.c,tests/fuzz/fuzz_$(1).c))
fuzz_def = $(if $(filter trace_repair,$(1)),-DFUZZ_MODE=1,$(if $(filter trace_payload,$(1)),-DFUZZ_MODE=2,$(if $(filter lackey,$(1)),-DFUZZ_FORMAT=TT_LACKEY)))

$(BUILD)/fuzz/fuzz_%: $(FUZZ_OBJS) tests/fuzz/fuzz_trace.c tests/fuzz/fuzz_text.c tests/fuzz/fuzz_config.c tests/fuzz/fuzz_bbv.c \
		tests/fuzz/fuzz_docs.c tests/fuzz/fuzz_util.h
	@mkdir -p $(@D)
	$(if $(Q),@echo "  LD-FUZZ $@")
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $(call fuzz_def,$*) -Itests/fuzz -o $@ $(call fuzz_src,$*) $(FUZZ_OBJS) $(LIBS)

.PHONY: fuzz fuzz-build
fuzz-build: deps $(FUZZ_BINS)

fuzz: fuzz-build
	$(Q)rc=0; for n in $(FUZZ_NAMES); do \
		mkdir -p $(BUILD)/fuzz/corpus-$$n $(BUILD)/fuzz/crashes-$$n; \
		dict=""; [ -f tests/fuzz/$$n.dict ] && dict="-dict=tests/fuzz/$$n.dict"; \
		echo "fuzz $$n: $(FUZZ_SECONDS) s"; \
		if ! $(BUILD)/fuzz/fuzz_$$n -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 \
			-print_final_stats=1 -artifact_prefix=$(BUILD)/fuzz/crashes-$$n/ $$dict \
			$(BUILD)/fuzz/corpus-$$n tests/fuzz/corpus/$$n > $(BUILD)/fuzz/fuzz_$$n.log 2>&1; then \
			echo "fuzz $$n: FAILED (see $(BUILD)/fuzz/fuzz_$$n.log, inputs in $(BUILD)/fuzz/crashes-$$n/)"; rc=1; \
		else \
			grep -E "stat::number_of_executed_units|cov:" $(BUILD)/fuzz/fuzz_$$n.log | tail -2 | tr '\n' ' '; echo; \
		fi; \
	done; exit $$rc
