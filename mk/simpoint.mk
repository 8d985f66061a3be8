# mk/simpoint.mk - SimPoint window selection: `make bench-simpoint`.
# Included by the top-level Makefile (BUILD, CC, BENCH_CFLAGS, LIBS, Q and
# BENCH_OBJS come from there, and the rule that compiles
# build/bench-obj/tests/simpoint/bench_simpoint.o; BENCH_OBJS is defined
# after the fragments are included, hence the second expansion).  The unit tests
# (tests/unit/test_simpoint*.c) need nothing here: `make unit` builds them.
#
#   make bench-simpoint    time the selection on a synthetic 10,000-slice,
#                          50,000-block input (tests/simpoint/bench_simpoint.c);
#                          also writes it to build/simpoint-synth.bb

.PHONY: bench-simpoint
.SECONDEXPANSION:

$(BUILD)/bench/bench_simpoint: $(BUILD)/bench-obj/tests/simpoint/bench_simpoint.o $$(BENCH_OBJS)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  LD-O3   $@")
	$(Q)$(CC) $(BENCH_CFLAGS) -o $@ $< $(BENCH_OBJS) $(LIBS)

bench-simpoint: $(BUILD)/bench/bench_simpoint
	$(Q)$< 10000 50000 8 1000 --write $(BUILD)/simpoint-synth.bb

BENCH_TARGETS += bench-simpoint

-include $(BUILD)/bench-obj/tests/simpoint/bench_simpoint.d
