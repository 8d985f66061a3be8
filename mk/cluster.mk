# mk/cluster.mk - running the reproduction on a Slurm cluster, and the tests
# of resumption.  Included by the top-level Makefile (BUILD, Q, HWPROF,
# SCALE come from there).
#
#   make test-resume     a killed run (and a killed shard) resumes and ends
#                        with the same bytes; half-replaced results and
#                        figures are not taken as current (part of make test)

BUILD ?= build
HWPROF ?= $(BUILD)/hwprof

.PHONY: test-resume
test-resume: $(HWPROF)
	$(Q)tests/slurm/resume.sh $(HWPROF)

TEST_TARGETS += test-resume
