# mk/plots.mk - `make test-plots`: draw every committed config's figure from
# the committed results/ into a scratch folder and fail on any error or any
# word gnuplot writes to stderr (a warning is a figure that lies: a dropped
# point, an empty range).  Included by the top-level Makefile (BUILD, Q and
# HWPROF come from there).

BUILD ?= build
HWPROF ?= $(BUILD)/hwprof

.PHONY: test-plots
test-plots: $(HWPROF)
	$(Q)tests/plots/run.sh $(HWPROF)

TEST_TARGETS += test-plots
