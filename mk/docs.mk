# mk/docs.mk - numbers in documents come from the results (src/cli/cmd_docs.c,
# docs/docfill.md):
#   make docs         fill every marker of $(DOCS) from results/ (rewrites a
#                     file only when a number changed)
#   make test-docs    `--check` on $(DOCS) (fails on any number or table that
#                     differs from the committed CSVs), and the golden cases
#                     of tests/docs/ (a number changed by hand is caught,
#                     marker errors name file:line:column)
# Included by the top-level Makefile (Q and HWPROF come from there).

DOCS ?= paper-repro.md experiments/README.md

.PHONY: docs test-docs
docs: deps $(HWPROF)
	$(Q)$(HWPROF) docs $(DOCS)

test-docs: deps $(HWPROF)
	$(Q)$(HWPROF) docs --check $(DOCS)
	$(Q)tests/docs/run.sh "$(HWPROF) docs"

TEST_TARGETS += test-docs
