# mk/simpoint.mk - SimPoint window selection: `make bench-simpoint`.
# Included by the top-level Makefile (BUILD, CC, CSTD, WARN, LIBS, Q and
# BENCH_OBJS come from there; BENCH_OBJS is defined after the fragments are
# included, hence the second expansion).  The unit tests
# (tests/unit/test_simpoint*.c) need nothing here: `make unit` builds them.
#
#   make bench-simpoint    time the selection on a synthetic 10,000-slice,
#                          50,000-block input (tests/simpoint/bench_simpoint.c);
#                          also writes it to build/simpoint-synth.bb

.PHONY: bench-simpoint
.SECONDEXPANSION:

$(BUILD)/bench/bench_simpoint: tests/simpoint/bench_simpoint.c $$(BENCH_OBJS)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC-O3   $<")
	$(Q)$(CC) $(CSTD) -O3 -march=x86-64-v2 -DNDEBUG $(WARN) -o $@ $< $(BENCH_OBJS) $(LIBS)

bench-simpoint: $(BUILD)/bench/bench_simpoint
	$(Q)$< 10000 50000 8 1000 --write $(BUILD)/simpoint-synth.bb

BENCH_TARGETS += bench-simpoint
