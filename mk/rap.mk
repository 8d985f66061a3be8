# mk/rap.mk - until the v2 runner is merged: build and run the tests of the
# RAP models (src/models/rap.c, rap2d.c, rap_out.c, rap_bound_model.c, which
# need the v2 interface and so are compiled only with -DHWPROF_MODEL_V2) and
# of the stages (src/stages/*.c, which today's CORE_SRCS does not list),
# against a minimal stand-in runner (tests/rapv2/v2_fake.c).  `make unit`
# runs them first.  The whole fragment switches itself off once CORE_SRCS
# lists src/stages/ (the v2 build): then drop it, the guards and v2_fake.c.
ifeq ($(filter src/stages/%,$(CORE_SRCS)),)

RAPV2_SRCS := $(wildcard src/stages/*.c) src/models/rap.c src/models/rap2d.c src/models/rap_out.c \
              src/models/rap_bound_model.c src/models/hhh.c tests/rapv2/v2_fake.c
RAPV2_OBJS := $(patsubst %.c,$(BUILD)/rapv2/%.o,$(RAPV2_SRCS))
RAPV2_CORE := $(patsubst %.c,$(BUILD)/san/%.o,$(CORE_SRCS))
RAPV2_TESTS := $(patsubst tests/rapv2/%.c,$(BUILD)/rapv2/tests/%,$(wildcard tests/rapv2/test_*.c))
RAPV2_TOOL_SRCS := $(sort $(filter-out src/main.c,$(wildcard src/*.c)) $(wildcard src/models/*.c) $(RAPV2_SRCS))

$(BUILD)/rapv2/%.o: %.c $(wildcard src/*.h src/models/*.h src/stages/*.h tests/rapv2/*.h) | deps
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC-V2   $<")
	$(Q)$(CC) $(CSTD) -DHWPROF_MODEL_V2 -O1 -g $(SAN) $(WARN) -Werror -Isrc -Itests/rapv2 -c $< -o $@

$(BUILD)/rapv2/tests/%: tests/rapv2/%.c $(RAPV2_OBJS) $(RAPV2_CORE)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC-TEST $<")
	$(Q)$(CC) $(CSTD) -DHWPROF_MODEL_V2 -O1 -g $(SAN) $(WARN) -Werror -Isrc -Itests/rapv2 -o $@ $< \
		$(RAPV2_OBJS) $(RAPV2_CORE) $(LIBS) -lcmocka

.PHONY: unit-rapv2
unit-rapv2: deps $(RAPV2_TESTS)
	$(Q)tests/run-unit.sh $(RAPV2_TESTS)

unit: unit-rapv2

# Run a RAP model on a trace (optimised build, not part of any test):
#   make build/rapv2/rapv2_trace && build/rapv2/rapv2_trace rap TRACE stream=values
$(BUILD)/rapv2/rapv2_trace: tests/rapv2/rapv2_trace.c $(RAPV2_TOOL_SRCS) $(wildcard src/*.h src/models/*.h src/stages/*.h tests/rapv2/*.h) | deps
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC-O2   $<")
	$(Q)$(CC) $(CSTD) -DHWPROF_MODEL_V2 -O2 -DNDEBUG $(WARN) -Isrc -Itests/rapv2 -o $@ $< $(RAPV2_TOOL_SRCS) $(LIBS)

endif
