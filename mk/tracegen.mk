# mk/tracegen.mk - tracegen: the hwptrace Valgrind tool, its packer, the
# tgdump dumper, tests (test-tracegen) and the capture benchmark (bench-trace).
# Included by the top-level Makefile (BUILD, CC, WARN, CFLAGS, SAN, LIBS,
# CORE_SRCS come from there; defaults below allow `make -f mk/tracegen.mk`).

BUILD ?= build
CC ?= gcc
LIBS ?= -ljansson -lzstd -lz -lpthread -lm

TG_DIR      := $(BUILD)/tracegen
TG_LIBDIR   := $(TG_DIR)/lib
TG_TOOL     := $(TG_LIBDIR)/hwptrace-amd64-linux
TG_PACKER   := $(TG_DIR)/tg-packer
TG_SIGPIN   := $(TG_DIR)/tg-sigpin
TG_DUMP     := $(TG_DIR)/tgdump
TG_TESTPROG := $(TG_DIR)/tg-testprog
VG_INC      ?= /usr/include/valgrind
VG_ARCHLIB  ?= /usr/lib/x86_64-linux-gnu/valgrind
VG_LIBEXEC  ?= /usr/libexec/valgrind

# The checkout's path never enters a binary (its debug information names
# files relative to the checkout): the same sources build the same bytes in
# any clone, which is what the traces' tool fingerprint compares
# (mk/experiments.mk).
TG_PATHMAP := -ffile-prefix-map=$(CURDIR)=.

# Flags as used for Valgrind's own tools (out-of-tree build).
TG_TOOL_CFLAGS := $(TG_PATHMAP) -std=gnu11 -O2 -g -m64 -fno-pie -fno-PIC -fno-strict-aliasing \
	-fno-builtin -fno-stack-protector -fno-omit-frame-pointer \
	-Wall -Wextra -Wno-unused-parameter -Wno-sign-compare -Wno-missing-field-initializers \
	-I$(VG_INC) -DVGA_amd64=1 -DVGO_linux=1 -DVGP_amd64_linux=1 \
	-DVGPV_amd64_linux_vanilla=1
TG_TOOL_LDFLAGS := -m64 -static -no-pie -nodefaultlibs -nostartfiles -u _start \
	-Wl,--build-id=none -Wl,-Ttext-segment=0x58000000

# The packer and dumper link only what they need from the core: the packer
# the writer (its bytes are part of the traces' fingerprint, below, and do
# not change with the reader), the dumper the reader too.
TG_WRITE_SRCS := src/trace/trace.c src/trace/trace_write.c src/trace/event.c
TG_CORE_SRCS := $(TG_WRITE_SRCS) src/trace/trace_read.c
TG_HOST_CFLAGS := $(TG_PATHMAP) -std=c11 -O3 -g $(WARN)

.PHONY: tracegen test-tracegen bench-trace
tracegen: $(TG_TOOL) $(TG_PACKER) $(TG_SIGPIN) $(TG_DUMP) $(TG_LIBDIR)/.links

# The tool's parts (tracegen/tg_main.c lists their jobs); tg_int.h is what
# they share.
TG_TOOL_PARTS := tg_main tg_opts tg_out tg_instr tg_bbv tg_cpu tg_pin
TG_TOOL_OBJS  := $(TG_TOOL_PARTS:%=$(TG_DIR)/%.o)

$(TG_DIR)/tg_%.o: tracegen/tg_%.c tracegen/tg_int.h tracegen/tg_raw.h
	@mkdir -p $(TG_LIBDIR)
	$(if $(Q),@echo "  CC-VG   $<")
	$(Q)$(CC) $(TG_TOOL_CFLAGS) -c $< -o $@

$(TG_TOOL): $(TG_TOOL_OBJS)
	@mkdir -p $(TG_LIBDIR)
	$(if $(Q),@echo "  LD-VG   $@")
	$(Q)$(CC) $(TG_TOOL_LDFLAGS) -o $@ $(TG_TOOL_OBJS) \
		$(VG_ARCHLIB)/libcoregrind-amd64-linux.a $(VG_ARCHLIB)/libvex-amd64-linux.a \
		$(VG_ARCHLIB)/libgcc-sup-amd64-linux.a -lgcc

# Links to every stock file of the Valgrind libexec folder (preloads,
# suppressions, gdb xml, stock tools such as lackey/none for comparisons).
$(TG_LIBDIR)/.links:
	@mkdir -p $(TG_LIBDIR)
	@for f in $(VG_LIBEXEC)/*; do \
		b=$$(basename $$f); [ -e $(TG_LIBDIR)/$$b ] || ln -s $$f $(TG_LIBDIR)/$$b; \
	done
	@touch $@

$(TG_PACKER): tracegen/packer.c tracegen/tg_raw.h $(TG_WRITE_SRCS) src/trace/trace.h src/trace/trace_int.h src/trace/event.h
	@mkdir -p $(TG_DIR)
	$(if $(Q),@echo "  CC      $@")
	$(Q)$(CC) $(TG_HOST_CFLAGS) -Isrc -Itracegen -o $@ tracegen/packer.c $(TG_WRITE_SRCS) $(LIBS)

$(TG_SIGPIN): tracegen/sigpin.c
	@mkdir -p $(TG_DIR)
	$(if $(Q),@echo "  CC      $@")
	$(Q)$(CC) $(TG_HOST_CFLAGS) -o $@ $<

$(TG_DUMP): tracegen/tgdump.c $(TG_CORE_SRCS) src/trace/trace.h src/trace/trace_int.h src/trace/event.h
	@mkdir -p $(TG_DIR)
	$(if $(Q),@echo "  CC      $@")
	$(Q)$(CC) $(TG_HOST_CFLAGS) -Isrc -o $@ tracegen/tgdump.c $(TG_CORE_SRCS) $(LIBS)

$(TG_TESTPROG): tests/tracegen/testprog.c
	@mkdir -p $(TG_DIR)
	$(if $(Q),@echo "  CC      $@")
	$(Q)$(CC) -std=c11 -O1 -g -fno-inline -fno-pie -no-pie -o $@ $<

test-tracegen: tracegen $(TG_TESTPROG)
	$(Q)timeout 900 tests/tracegen/run-tests.sh

bench-trace: tracegen
	$(Q)timeout 900 tests/tracegen/bench.sh

TEST_TARGETS += test-tracegen
BENCH_TARGETS += bench-trace

# What a captured trace depends on (read by mk/experiments.mk): the tool,
# packer, pinner and driver, by content (experiments/content-stamp.sh
# fingerprints TRACEGEN_FILES and the links of TRACEGEN_LIBDIR), so a
# changed one makes every trace stale and a rebuild to the same bytes none.
TRACEGEN_FILES := $(TG_TOOL) $(TG_PACKER) $(TG_SIGPIN) tracegen/capture
TRACEGEN_LIBDIR := $(TG_LIBDIR)
TRACEGEN_DEPS := $(TRACEGEN_FILES) $(TG_LIBDIR)/.links

# The workload tests capture a workload twice: they need the tool.
test-experiments: tracegen
