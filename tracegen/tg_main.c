/* tg_main.c - "hwptrace", the Valgrind tool behind tracegen.
 *
 * What: records, in program order, every guest instruction (pc, length),
 * load (pc, addr, size, low 8 bytes of the loaded value), store (pc, addr,
 * size), conditional branch (IR side exit), call, return and indirect jump,
 * and streams them as raw records (tracegen/tg_raw.h) to a pipe read by the
 * packer (tracegen/packer.c), which writes the compressed trace.
 *
 * Why it is fast: no helper call per event.  Each superblock is described
 * once, at instrumentation time, by a template (BLOCK_DEF record: its
 * instructions, memory accesses with static sizes/addresses, exits, end
 * kind).  At run time the instrumented block only stores the values the
 * template cannot know (block id, non-constant addresses, loaded values,
 * exit-taken bytes, indirect destinations) at fixed offsets from a cursor
 * loaded once per block, and advances the cursor at the block end or at a
 * taken side exit (guarded store).  One guarded dirty call per block entry
 * flushes the buffer when it is nearly full.
 *
 * What is recorded is the same as Lackey --trace-mem=yes: loads from
 * Iex_Load, LoadG, CAS, LLSC and dirty helpers' memory effects, stores from
 * Ist_Store, StoreG, CAS, LLSC, dirty helpers; a store immediately following
 * a load of the same size and address atom is Lackey's 'M' (flag MODIFY).
 * Guest chasing is disabled so that every guest branch is one IR exit or one
 * block end.  An exit whose destination is the next instruction is an
 * inverted conditional (as in Lackey): the branch is taken when the exit is
 * not.
 *
 * Skip/window: during --skip the blocks only count instructions (exactly,
 * per exit-delimited segment).  A block that could cross the skip boundary
 * calls a helper that switches to tracing mode and leaves through an
 * Ijk_InvalICache exit to its own start covering the whole address space, so
 * the scheduler discards every translation and the block is re-instrumented
 * for tracing.  The packer drops the few instructions before the boundary
 * (START record), so the window alignment is exact.  The end of the window
 * is detected at buffer flushes (the packer trims exactly); then tracing
 * stops the same way (--at-end=stop-tracing) or the program exits.
 *
 * Pinned randomness (--pin-random=yes, the default): the 16 AT_RANDOM bytes
 * of the client's auxv are overwritten with a fixed pattern before the
 * client's first instruction; every successful getrandom(2), every read
 * from /dev/urandom or /dev/random, RDRAND and RDSEED return the next bytes
 * of fixed splitmix64 streams; RDTSC/RDTSCP return a fixed counter.  So the
 * same workload gives the same trace twice (tg_pin.c).
 *
 * Pinned CPU and host (--cpu-level, default x86-64-v2; --pin-host=yes, the
 * default): the client's CPUID answers come from one fixed VEX identity
 * whatever the host (and the auxv AT_HWCAP agrees with it); the auxv is
 * reduced to a fixed set of entries in a fixed order; directory listings
 * are sorted; sysinfo(2) and uname(2)'s host name are fixed values.  So the
 * same program gives the same trace on every host that meets the level
 * (tg_cpu.c for the CPU, tg_pin.c for the rest).
 *
 * Basic-block vectors (--bbv-out=FILE --bbv-slice=N): no trace; the whole
 * run is cut into slices of exactly N instructions, counted as traces
 * count them, and each slice's vector is written in exp-bbv's text format
 * (tg_bbv.c).
 *
 * Files (one job each; what they share is declared in tg_int.h):
 *   tg_main.c   this design; registration, start-up, exit; the choice of
 *               instrumentation per superblock (trace, fast-forward, BBV)
 *   tg_opts.c   options, usage, checks of their combinations
 *   tg_out.c    raw buffer, frames, control records, output file; the
 *               helpers generated code calls (skip boundary, flush, end
 *               of the window)
 *   tg_instr.c  trace and fast-forward instrumentation
 *   tg_bbv.c    basic-block-vector mode
 *   tg_cpu.c    the pinned CPU identity (--cpu-level)
 *   tg_pin.c    pinned randomness and host view (--pin-random, --pin-host)
 */

#include "tg_int.h"

/*------------------------------------------------------------*/
/*--- Instrumentation: which mode                          ---*/
/*------------------------------------------------------------*/

static IRSB* tg_instrument(VgCallbackClosure* closure, IRSB* sbIn,
                           const VexGuestLayout* layout,
                           const VexGuestExtents* vge,
                           const VexArchInfo* archinfo_host,
                           IRType gWordTy, IRType hWordTy)
{
   IRSB* sbOut;
   Int i;

   if (gWordTy != hWordTy || gWordTy != Ity_I64)
      VG_(tool_panic)("host/guest word size mismatch (amd64 only)");
   if (clo_pin_random || clo_cpu_level != TG_CPU_HOST)
      tg_pin_helpers(sbIn);
   if (tg_mode == MODE_DONE && clo_bbv_out == NULL)
      return sbIn;

   sbOut = deepCopyIRSBExceptStmts(sbIn);
   /* Copy verbatim any IR preamble preceding the first IMark. */
   i = 0;
   while (i < sbIn->stmts_used && sbIn->stmts[i]->tag != Ist_IMark) {
      addStmtToIRSB(sbOut, sbIn->stmts[i]);
      i++;
   }
   if (clo_bbv_out != NULL)
      return tg_instrument_bbv(sbIn, sbOut, i);
   if (tg_mode == MODE_FF)
      return tg_instrument_ff(sbIn, sbOut, i, (Addr)closure->nraddr);
   return tg_instrument_trace(sbIn, sbOut, i, (Addr)closure->nraddr);
}

/*------------------------------------------------------------*/
/*--- Setup and teardown                                   ---*/
/*------------------------------------------------------------*/

static void tg_post_clo_init(void)
{
   /* Every guest branch must be an IR exit or a block end. */
   VG_(clo_vex_control).guest_chase = False;
   tg_cpu_init();
   tg_check_options();
   if (clo_bbv_out != NULL) {
      tg_bbv_init();
      tg_mode = MODE_DONE;   /* no trace */
      return;
   }
   tg_out_init();
}

static void tg_fini(Int exitcode)
{
   if (clo_bbv_out != NULL)
      tg_bbv_fini();
   else
      tg_out_fini(exitcode);
   if (VG_(clo_verbosity) > 1) {
      if (clo_bbv_out != NULL)
         tg_bbv_report();
      else
         tg_out_report();
      tg_pin_report();
   }
}

static void tg_pre_clo_init(void)
{
   VG_(details_name)("hwptrace");
   VG_(details_version)("2");
   VG_(details_description)("fast program-order trace capture for tracegen");
   VG_(details_copyright_author)("hwprof tracegen");
   VG_(details_bug_reports_to)("the hwprof maintainers");
   VG_(details_avg_translation_sizeB)(400);
   VG_(basic_tool_funcs)(tg_post_clo_init, tg_instrument, tg_fini);
   VG_(needs_command_line_options)(tg_process_cmd_line_option,
                                   tg_print_usage, tg_print_debug_usage);
   VG_(needs_syscall_wrapper)(tg_pre_syscall, tg_post_syscall);
   VG_(track_start_client_code)(tg_start_client);
}

VG_DETERMINE_INTERFACE_VERSION(tg_pre_clo_init)
