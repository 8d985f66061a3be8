# mk/rap-wallclock.mk - RAP Figure 4's wall clock, measured by the pipeline
# (bench/lib/rap_measure.h; paper-repro.md quotes it).  Included by the
# top-level Makefile (BUILD, Q, OUT, TRACEDIR, SAN_CFLAGS, BENCH_CFLAGS,
# LIBS come from there, EXP_WORKLOADS from mk/experiments.mk;
# SAN_OBJS is defined after the fragments are included, hence the second
# expansion).
#
#   make rap-wallclock   RAP alone without aggregation, with the 1K merging
#                        buffer and fully aggregated, on the block starts
#                        and the load values of window 0 of every workload
#                        (RAP_WALLCLOCK_TRACES), at most 16M keys each, best
#                        of RAP_WALLCLOCK_ROUNDS (5) interleaved rounds:
#                        $(OUT)/rap/fig04-wallclock.csv (written whole or not
#                        at all), with the machine's description (CPU, cores,
#                        kernel, compiler and flags, git revision and dirty
#                        state, date) on every row.  About a minute and a half
#                        on an idle machine.  Run alone: other work on the
#                        machine slows it.
#                        `make reproduce-all` runs it last at SCALE=default
#                        (CLUSTER=slurm does not: time it on a machine of
#                        your choice).  It is measured again when bench_rap
#                        is rebuilt (any source or commit) or a trace
#                        changes; delete the CSV to measure again.  It
#                        reads the traces and never captures them.
#   make test-bench      the CSV's rows and columns from a tiny trace, with
#                        the sanitizers (tests/bench/run.sh; part of make test)
#
# The CSV is a measurement, not a result: the same traces give other times
# on another machine or another day, so it is not byte-reproducible and is
# not part of `make results` (whose outputs the tests compare byte for byte,
# tests/slurm/run.sh); paper-repro.md quotes it with its machine and date.

RAP_WALLCLOCK := $(OUT)/rap/fig04-wallclock.csv
RAP_WALLCLOCK_TRACES ?= $(EXP_WORKLOADS:%=$(TRACEDIR)/%.w0.trace)
RAP_WALLCLOCK_ROUNDS ?= 5

.PHONY: rap-wallclock test-bench
rap-wallclock: $(RAP_WALLCLOCK)

# The window traces themselves, not their .windows lists: timing never
# captures (`make traces` first; reproduce-all does), so a trace folder
# shared between checkouts is only read.
$(RAP_WALLCLOCK): $(BUILD)/bench/bench_rap $(RAP_WALLCLOCK_TRACES)
	$(Q)$(BUILD)/bench/bench_rap --csv $@ --rounds $(RAP_WALLCLOCK_ROUNDS) $(RAP_WALLCLOCK_TRACES)

# bench_rap with the sanitizers, for the test.
.SECONDEXPANSION:
$(BUILD)/san/bench/lib/rap_measure.o: CSTD += '-DHWPROF_BENCH_CFLAGS="$(SAN_CFLAGS)"'
$(BUILD)/san/bench/bench_rap: $(BUILD)/san/bench/bench_rap.o $(BUILD)/san/bench/lib/rap_measure.o $$(SAN_OBJS)
	$(if $(Q),@echo "  LD-TEST $@")
	$(Q)$(CC) $(SAN_CFLAGS) -o $@ $< $(BUILD)/san/bench/lib/rap_measure.o $(SAN_OBJS) $(LIBS)

test-bench: $(HWPROF) $(BUILD)/san/bench/bench_rap
	$(Q)tests/bench/run.sh $(HWPROF) $(BUILD)/san/bench/bench_rap

TEST_TARGETS += test-bench

.SECONDARY: $(BUILD)/san/bench/bench_rap.o $(BUILD)/san/bench/lib/rap_measure.o
-include $(BUILD)/san/bench/bench_rap.d $(BUILD)/san/bench/lib/rap_measure.d
