/* tg_int.h - what the files of the hwptrace tool share (internal): the
 * options, the output state that generated code reads and writes, and the
 * entry points of each part.  The parts and their jobs are listed in
 * tg_main.c's opening comment.  All of them are compiled with Valgrind's
 * tool flags and linked statically with libcoregrind/libvex
 * (mk/tracegen.mk).
 */
#ifndef TG_INT_H
#define TG_INT_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_machine.h"
#include "pub_tool_options.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"
#include "pub_tool_debuginfo.h"
#include "libvex_guest_amd64.h"

#define TG_U8 UChar
#define TG_U32 UInt
#define TG_U64 ULong
#include "tg_raw.h"

/*--- Options (tg_opts.c) --------------------------------------------*/

extern const HChar* clo_out;       /* path (FIFO or file) */
extern Long clo_out_fd;            /* or an inherited fd */
extern Long clo_skip;
extern Long clo_capture;
extern Int  clo_at_end;            /* 0 stop-tracing, 1 exit */
extern Bool clo_trace_mem;
extern Bool clo_trace_values;
extern Bool clo_trace_branches;
extern Bool clo_assist_exits;      /* non-Boring exits as branches */
extern Long clo_buf_mib;
extern Bool clo_pin_random;        /* AT_RANDOM, getrandom, urandom, RDRAND, RDTSC */
extern Int  clo_cpu_level;         /* TG_CPU_*: the CPUID identity the client sees */
extern Bool clo_pin_host;          /* auxv, directory order, sysinfo, host name */
extern const HChar* clo_bbv_out;   /* basic-block-vector mode: output file */
extern const HChar* clo_bbv_pc_out; /* block id -> address, function */
extern Long clo_bbv_slice;         /* instructions per slice */
extern const HChar* const tg_level_names[TG_CPU_LEVELS];

Bool tg_process_cmd_line_option(const HChar* arg);
void tg_print_usage(void);
void tg_print_debug_usage(void);
void tg_check_options(void);

/*--- Output (tg_out.c) ----------------------------------------------*/

/* Largest dynamic record of one block; the per-block check keeps at least
   this much room.  Checked (tl_assert) at instrumentation time. */
#define TG_MAX_BLOCK_BYTES (64 * 1024)

enum { MODE_FF = 0, MODE_TRACE = 1, MODE_DONE = 2 };

extern Int    tg_mode;
extern UChar* tg_soft_end;   /* flush when the cursor passes this */
/* Read and written by generated code. */
extern UChar* tg_cur;
extern ULong  tg_icount;     /* instructions executed (exact when counted) */

void tg_write_all_fd(Int fd, const UChar* p, SizeT n);
Int  tg_open_high(const HChar* opt, const HChar* path);
void tg_out_init(void);
void tg_out_fini(Int exitcode);
void tg_out_report(void);
void tg_emit_def(UInt id, const struct tg_item* items, Int nitems);
/* Called by generated code (tg_instr.c). */
void tg_ff_end(VexGuestAMD64State* gst);
void tg_flush_helper(VexGuestAMD64State* gst);

/*--- Instrumentation (tg_instr.c) -----------------------------------*/

extern UInt tg_next_id;     /* trace blocks defined (ids 0 ..) */

IRExpr* tg_assign(IRSB* sb, IRType ty, IRExpr* e);
IRExpr* tg_add64(IRSB* sb, ULong* counter, UInt n);
IRSB*   tg_copy_counting(IRSB* sbIn, IRSB* sbOut, Int i,
                         void (*count)(IRSB*, void*, UInt), void* arg);
IRSB*   tg_instrument_ff(IRSB* sbIn, IRSB* sbOut, Int i, Addr restart);
IRSB*   tg_instrument_trace(IRSB* sbIn, IRSB* sbOut, Int i, Addr restart);

/*--- Basic-block vectors (tg_bbv.c) ---------------------------------*/

void  tg_bbv_init(void);
IRSB* tg_instrument_bbv(IRSB* sbIn, IRSB* sbOut, Int i);
void  tg_bbv_fini(void);
void  tg_bbv_report(void);

/*--- Pinned CPU (tg_cpu.c) ------------------------------------------*/

extern UInt  tg_cpu_word;    /* HELLO: level | identity << 8 | host extras */
extern ULong tg_cpuid_calls_pinned;

void     tg_cpu_init(void);
ULong    tg_level_hwcap(void);
IRDirty* tg_pinned_cpuid(IRDirty* d);

/*--- Pinned randomness and host (tg_pin.c) --------------------------*/

void tg_pin_helpers(IRSB* sb);
void tg_start_client(ThreadId tid, ULong blocks_dispatched);
void tg_pre_syscall(ThreadId tid, UInt sysno, UWord* args, UInt nArgs);
void tg_post_syscall(ThreadId tid, UInt sysno, UWord* args, UInt nArgs, SysRes res);
void tg_pin_report(void);

#endif
