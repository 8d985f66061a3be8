# mk/fuzz.mk - libFuzzer targets for every parser (tests/fuzz/):
#   make fuzz [FUZZ_SECONDS=60]   build and run each target for FUZZ_SECONDS
#   make fuzz-build               build only
# Targets: trace (raw files), trace_repair (checksums repaired after
# mutation, so blocks reach the decoder), trace_payload (raw event payloads
# wrapped in a valid container), text and lackey (importers), config (the
# config loader), bbv (basic-block vectors), csv (results reader), docs
# (markers in markdown documents), claims (claims files, evaluated on
# small CSVs).
# Seed corpora: tests/fuzz/corpus/<target>/ (read only); the growing corpus
# is kept in build/fuzz/corpus-<target>/ and crashes in
# build/fuzz/crashes-<target>/: a crash found becomes a golden case (tests/golden/).
# Needs clang with libFuzzer (Debian: clang, libclang-rt-14-dev; installed by
# scripts/setup-deps.sh).  Not part of `make test`.

FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
# The Makefile's language and sanitizer flags (CSTD, SAN), with clang.
FUZZ_CFLAGS = $(CSTD) -g -O1 $(SAN)
FUZZ_OBJS := $(patsubst %.c,$(BUILD)/fuzz-obj/%.o,$(CORE_SRCS))
FUZZ_NAMES := trace trace_repair trace_payload text lackey config bbv $(if $(wildcard tests/fuzz/fuzz_csv.c),csv) docs claims
FUZZ_BINS := $(FUZZ_NAMES:%=$(BUILD)/fuzz/fuzz_%)

$(BUILD)/fuzz-obj/%.o: %.c | deps
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC-FUZZ $<")
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) $(DEPFLAGS) -fsanitize=fuzzer-no-link -w -c $< -o $@

# name -> source and the -D that selects its mode
fuzz_src = $(if $(filter trace%,$(1)),tests/fuzz/fuzz_trace.c,$(if $(filter text lackey,$(1)),tests/fuzz/fuzz_text.c,tests/fuzz/fuzz_$(1).c))
fuzz_def = $(if $(filter trace_repair,$(1)),-DFUZZ_MODE=1,$(if $(filter trace_payload,$(1)),-DFUZZ_MODE=2,$(if $(filter lackey,$(1)),-DFUZZ_FORMAT=TT_LACKEY)))

$(BUILD)/fuzz/fuzz_%: $(FUZZ_OBJS) tests/fuzz/fuzz_trace.c tests/fuzz/fuzz_text.c tests/fuzz/fuzz_config.c tests/fuzz/fuzz_bbv.c \
		tests/fuzz/fuzz_docs.c tests/fuzz/fuzz_claims.c tests/fuzz/fuzz_util.h
	@mkdir -p $(@D)
	$(if $(Q),@echo "  LD-FUZZ $@")
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $(call fuzz_def,$*) -Itests/fuzz -o $@ $(call fuzz_src,$*) $(FUZZ_OBJS) $(LIBS)

.PHONY: fuzz fuzz-build
fuzz-build: deps $(FUZZ_BINS)

# Each target for FUZZ_SECONDS, one after the other (scripts/fuzz.sh).
fuzz: fuzz-build
	$(Q)scripts/fuzz.sh $(BUILD) $(FUZZ_SECONDS) $(FUZZ_NAMES)

-include $(FUZZ_OBJS:.o=.d)
