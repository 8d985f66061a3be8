# mk/claims.mk - verdicts computed from declared claims (src/cli/cmd_claims.c,
# docs/claims.md):
#   make claims        hwprof claims claims/*.json -> results/claims.csv,
#                      results/claims.workloads.csv and the verdict figure
#                      plots/claims.svg (.png, .pdf); `make docs` runs it first,
#                      so the documents' verdict markers read fresh verdicts
#   make golden-claims the golden cases of tests/golden/claims/ (part of
#                      `make golden`)
#   make test-claims   golden-claims and, when claims/*.json exist,
#                      `hwprof claims --check`: it fails when a committed CSV no
#                      longer gives the committed verdicts (and test-docs fails
#                      when a document's verdict is not the committed one)
# Included by the top-level Makefile (Q and HWPROF come from there).

CLAIMS_FILES := $(sort $(wildcard claims/*.json))

.PHONY: claims golden-claims test-claims
claims: deps $(HWPROF)
ifeq ($(CLAIMS_FILES),)
	@echo "make claims: no claims/*.json yet"
else
	$(Q)$(HWPROF) claims --plot plots $(CLAIMS_FILES)
docs: claims
endif

golden-claims: deps $(HWPROF)
	$(Q)tests/golden/claims/run.sh $(HWPROF)

golden: golden-claims

test-claims: deps $(HWPROF) golden-claims
ifneq ($(CLAIMS_FILES),)
	$(Q)$(HWPROF) claims --check -q $(CLAIMS_FILES)
endif

TEST_TARGETS += test-claims
