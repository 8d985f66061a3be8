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
 * same workload gives the same trace twice (see "Pinned randomness" below).
 */

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
#include "libvex_guest_amd64.h"

#define TG_U8 UChar
#define TG_U32 UInt
#define TG_U64 ULong
#include "tg_raw.h"

/*------------------------------------------------------------*/
/*--- Options                                              ---*/
/*------------------------------------------------------------*/

static const HChar* clo_out = NULL;   /* path (FIFO or file) */
static Long clo_out_fd = -1;          /* or an inherited fd */
static Long clo_skip = 0;
static Long clo_capture = 0;
static Int clo_at_end = 0;            /* 0 stop-tracing, 1 exit */
static Bool clo_trace_mem = True;
static Bool clo_trace_values = True;
static Bool clo_trace_branches = True;
static Bool clo_assist_exits = False;  /* non-Boring exits as branches */
static Long clo_buf_mib = 8;
static Bool clo_pin_random = True;    /* AT_RANDOM, getrandom, urandom, RDRAND, RDTSC */

static Bool tg_process_cmd_line_option(const HChar* arg)
{
   const HChar* tmp_str;
   if VG_STR_CLO(arg, "--out", tmp_str) { clo_out = tmp_str; }
   else if VG_BINT_CLO(arg, "--out-fd", clo_out_fd, 0, 1000000) {}
   else if VG_BINT_CLO(arg, "--skip", clo_skip, 0, 0x7fffffffffffffffLL) {}
   else if VG_BINT_CLO(arg, "--capture", clo_capture, 0, 0x7fffffffffffffffLL) {}
   else if VG_XACT_CLO(arg, "--at-end=stop-tracing", clo_at_end, 0) {}
   else if VG_XACT_CLO(arg, "--at-end=exit", clo_at_end, 1) {}
   else if VG_BOOL_CLO(arg, "--trace-mem", clo_trace_mem) {}
   else if VG_BOOL_CLO(arg, "--trace-values", clo_trace_values) {}
   else if VG_BOOL_CLO(arg, "--trace-branches", clo_trace_branches) {}
   else if VG_BOOL_CLO(arg, "--assist-exits-as-branches", clo_assist_exits) {}
   else if VG_BINT_CLO(arg, "--buffer-mib", clo_buf_mib, 1, 256) {}
   else if VG_BOOL_CLO(arg, "--pin-random", clo_pin_random) {}
   else
      return False;
   return True;
}

static void tg_print_usage(void)
{
   VG_(printf)(
"    --out=<path>              write raw records to <path> (a FIFO read by\n"
"                              the tracegen packer, or a file) [none]\n"
"    --out-fd=<n>              write raw records to inherited fd <n> [none]\n"
"    --skip=<n>                fast-forward <n> guest instructions [0]\n"
"    --capture=<n>             instructions to capture, 0 = to the end [0]\n"
"    --at-end=stop-tracing|exit  after the window: run on untraced, or exit\n"
"                              the program with status 0 [stop-tracing]\n"
"    --trace-mem=no|yes        record loads and stores [yes]\n"
"    --trace-values=no|yes     record loaded values (low 8 bytes) [yes]\n"
"    --trace-branches=no|yes   record branches, calls, returns, jumps [yes]\n"
"    --assist-exits-as-branches=no|yes  report non-branch IR side exits\n"
"                              (alignment checks, ...) as branches, like\n"
"                              Lackey's Jcc count [no]\n"
"    --buffer-mib=<n>          raw buffer size in MiB [8]\n"
"    --pin-random=no|yes       make the client's randomness deterministic:\n"
"                              fixed AT_RANDOM bytes (stack canary, pointer\n"
"                              guard); getrandom(2), reads of /dev/urandom\n"
"                              and /dev/random, RDRAND and RDSEED return\n"
"                              fixed splitmix64 streams; RDTSC/RDTSCP count\n"
"                              by 1000 per call [yes]\n"
   );
}

static void tg_print_debug_usage(void)
{
   VG_(printf)("    (none)\n");
}

/*------------------------------------------------------------*/
/*--- Buffer                                               ---*/
/*------------------------------------------------------------*/

/* Largest dynamic record of one block; the per-block check keeps at least
   this much room.  Checked (tl_assert) at instrumentation time. */
#define TG_MAX_BLOCK_BYTES (64 * 1024)

enum { MODE_FF = 0, MODE_TRACE = 1, MODE_DONE = 2 };

static Int    tg_mode = MODE_FF;
static Int    tg_fd = -1;
static UChar* tg_buf;        /* frame header (8 bytes) + payload */
static UChar* tg_buf_data;   /* tg_buf + 8 */
static UChar* tg_buf_end;
static UChar* tg_soft_end;   /* flush when the cursor passes this */
/* Read and written by generated code. */
static UChar* tg_cur;
static ULong  tg_icount;     /* instructions executed (exact when counted) */
static ULong  tg_stop_at;    /* icount at which tracing may stop */
static UInt   tg_next_id;
static ULong  tg_bytes_out;
static ULong  tg_flushes;

static void tg_write_all(const UChar* p, SizeT n)
{
   while (n > 0) {
      Int chunk = n > (1u << 30) ? (1 << 30) : (Int)n;
      Int r = VG_(write)(tg_fd, p, chunk);
      if (r <= 0) {
         VG_(umsg)("hwptrace: write to trace output failed (packer gone?)\n");
         VG_(exit)(1);
      }
      p += r;
      n -= r;
   }
}

static void tg_flush_buf(void)
{
   UInt len;
   if (tg_cur == NULL) tg_cur = tg_buf_data;
   len = (UInt)(tg_cur - tg_buf_data);
   if (len == 0) return;
   ((UInt*)tg_buf)[0] = TG_FRAME_MAGIC;
   ((UInt*)tg_buf)[1] = len;
   tg_write_all(tg_buf, 8 + (SizeT)len);
   tg_bytes_out += 8 + (ULong)len;
   tg_flushes++;
   tg_cur = tg_buf_data;
}

/* Room for n more bytes of control records (called from C only). */
static void tg_reserve(SizeT n)
{
   tl_assert(n <= (SizeT)(tg_buf_end - tg_buf_data));
   if (tg_cur == NULL) tg_cur = tg_buf_data;
   if (tg_cur + n > tg_buf_end) tg_flush_buf();
}

static void tg_put32(UInt v) { VG_(memcpy)(tg_cur, &v, 4); tg_cur += 4; }
static void tg_put64(ULong v) { VG_(memcpy)(tg_cur, &v, 8); tg_cur += 8; }

static void tg_write_end(UInt reason, Long exitcode)
{
   tg_reserve(32);
   tg_put32(TG_TAG_END);
   tg_put64(tg_icount);
   tg_put64((ULong)exitcode);
   tg_put32(reason);
   tg_put32(0);
   tg_flush_buf();
}

/* Make the scheduler discard every translation when the calling block
   leaves through its Ijk_InvalICache exit. */
static void tg_request_discard(VexGuestAMD64State* gst)
{
   gst->guest_CMSTART = 0x1000;
   gst->guest_CMLEN = ~(ULong)0xfff;
}

/* Called (guarded) at the entry of a fast-forward block that may contain
   instruction number skip+1. */
static void tg_ff_end(VexGuestAMD64State* gst)
{
   tg_mode = MODE_TRACE;
   tg_reserve(12);
   tg_put32(TG_TAG_START);
   tg_put64(tg_icount);
   tg_request_discard(gst);
}

/* Called (guarded) at the entry of a tracing block when the buffer is
   nearly full.  Sets tg_cur to 0 when tracing must stop: the block then
   leaves through its Ijk_InvalICache exit before recording anything. */
static void tg_flush_helper(VexGuestAMD64State* gst)
{
   tg_flush_buf();
   if (clo_capture > 0 && tg_icount >= tg_stop_at) {
      if (clo_at_end == 1) {
         tg_write_end(TG_REASON_WINDOW_EXIT, 0);
         VG_(close)(tg_fd);
         VG_(exit)(0);
      }
      tg_write_end(TG_REASON_WINDOW, 0);
      tg_mode = MODE_DONE;
      tg_cur = NULL;
      tg_request_discard(gst);
   }
}

/*------------------------------------------------------------*/
/*--- Pinned randomness                                    ---*/
/*------------------------------------------------------------*/

/* The kernel gives every process 16 random bytes (auxv AT_RANDOM; glibc
   derives the stack-protector canary and the pointer guard from them), and
   glibc and interpreters ask getrandom(2) (glibc: the malloc tcache key) or
   read /dev/urandom.  All of it reaches loaded values, so two captures of
   the same workload would differ.  With --pin-random=yes (default):

   - AT_RANDOM: the 16 bytes the client's AT_RANDOM entry points to are
     overwritten, when thread 1 first gets the CPU (before the client's
     first instruction), with the first 16 bytes of the splitmix64 stream
     seeded TG_SEED_AUXV.  The auxv is found by walking the initial client
     stack from its stack pointer (argc, argv..., 0, envp..., 0, auxv).
     The values of AT_IGNORE entries (those Valgrind hides, such as the
     host's vDSO address, which ASLR moves) are set to 0.
   - getrandom(2), and read/pread64/readv/preadv/preadv2 on a file
     descriptor that is the character device 1:8 (/dev/random) or 1:9
     (/dev/urandom), checked with fstat after the call: the bytes the call
     returned are overwritten, after the call, with the next bytes of the
     splitmix64 stream seeded TG_SEED_STREAM (one stream per process,
     consumed in call order; byte n of it is byte n%8, little-endian, of the
     (n/8+1)-th splitmix64 output).  Lengths and return values are the
     kernel's.
   - RDRAND and RDSEED instructions (VEX runs them through the dirty
     helpers amd64g_dirtyhelper_RDRAND/RDSEED, 32 random bits per call, two
     calls for a 64-bit operand): the helper call is replaced, at
     instrumentation time, by tg_pinned_rdrand, which returns success (CF=1)
     and the next 4 bytes of the splitmix64 stream seeded TG_SEED_RDRAND.
   - RDTSC and RDTSCP (ld.so reads the TSC at start-up in every program):
     the n-th call (n = 1, 2, ...) returns TG_TSC_BASE + n * TG_TSC_STEP,
     and RDTSCP's TSC_AUX (cpu number) is 0.
   Not pinned: the time system calls (time, gettimeofday, clock_gettime;
   Valgrind hides the vDSO, so these are real system calls), the pid
   (tracegen/capture runs the program in a PID namespace instead), and
   anything the program reads from files.

   Splitmix64 with seed S: output k (k = 1, 2, ...) is
   mix(S + k * 0x9e3779b97f4a7c15), mix = the splitmix64 finaliser. */

/* ELF auxv types (not in the tool headers). */
#define TG_AT_NULL   0
#define TG_AT_IGNORE 1
#define TG_AT_RANDOM 25

#define TG_SEED_AUXV   0x41545f52414e444fULL   /* "AT_RANDO" */
#define TG_SEED_STREAM 0x6877707472616365ULL   /* "hwptrace" */
#define TG_SEED_RDRAND 0x5244524e44534544ULL   /* "RDRNDSED" */
#define TG_TSC_BASE    0x100000000ULL          /* RDTSC call n: BASE + n*STEP */
#define TG_TSC_STEP    1000ULL

typedef struct { ULong seed; ULong n; } TGStream;  /* n: bytes produced */

static TGStream tg_rnd_stream = { TG_SEED_STREAM, 0 };
static TGStream tg_rdrand_stream = { TG_SEED_RDRAND, 0 };
static ULong    tg_rdrand_calls, tg_tsc_calls;
static Bool     tg_auxv_done = False;  /* auxv walked */
static Bool     tg_auxv_pinned = False; /* AT_RANDOM found and pinned */
static ULong    tg_rnd_calls, tg_rnd_bytes;

static ULong tg_splitmix64(ULong seed, ULong k)
{
   ULong z = seed + k * 0x9e3779b97f4a7c15ULL;
   z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
   z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
   return z ^ (z >> 31);
}

static void tg_stream_fill(TGStream* st, UChar* p, SizeT len)
{
   SizeT i;
   for (i = 0; i < len; i++, st->n++)
      p[i] = (UChar)(tg_splitmix64(st->seed, st->n / 8 + 1) >> (8 * (st->n % 8)));
}

/* Thread 1 gets the CPU for the first time: nothing of the client has run,
   its stack pointer still points at argc. */
static void tg_start_client(ThreadId tid, ULong blocks_dispatched)
{
   UWord* p;
   UWord argc;
   Int i;
   if (tg_auxv_done || !clo_pin_random) return;
   tg_auxv_done = True;
   if (tid != 1 || blocks_dispatched != 0) {
      VG_(umsg)("hwptrace: warning: client started unexpectedly (tid %u, %llu "
                "blocks); AT_RANDOM not pinned\n", tid, blocks_dispatched);
      return;
   }
   p = (UWord*)VG_(get_SP)(1);
   argc = *p++;
   p += argc + 1;                       /* argv, NULL */
   for (i = 0; *p != 0 && i < 1000000; i++) p++;
   p++;                                 /* envp, NULL */
   for (i = 0; p[0] != TG_AT_NULL && i < 1000; i++, p += 2) {
      if (p[0] == TG_AT_RANDOM && p[1] != 0) {
         TGStream st = { TG_SEED_AUXV, 0 };
         tg_stream_fill(&st, (UChar*)p[1], 16);
         tg_auxv_pinned = True;
      } else if (p[0] == TG_AT_IGNORE) {
         p[1] = 0;   /* e.g. the host's (ASLR) vDSO address Valgrind hid */
      }
   }
   if (!tg_auxv_pinned)
      VG_(umsg)("hwptrace: warning: no AT_RANDOM entry in the client's auxv; "
                "not pinned\n");
}

/* Is fd the random or urandom character device (major 1, minor 8 or 9)? */
static Bool tg_is_random_dev(UWord fd)
{
   struct vg_stat st;
   ULong major, minor;
   if (fd > 0x7fffffff || VG_(fstat)((Int)fd, &st) < 0) return False;
   if (!VKI_S_ISCHR(st.mode)) return False;
   major = (st.rdev >> 8) & 0xfff;
   minor = (st.rdev & 0xff) | ((st.rdev >> 12) & 0xfff00);
   return major == 1 && (minor == 8 || minor == 9);
}

static void tg_pin(UChar* p, SizeT len)
{
   tg_stream_fill(&tg_rnd_stream, p, len);
   tg_rnd_calls++;
   tg_rnd_bytes += len;
}

/* Overwrite the first len bytes scattered over an iovec array. */
static void tg_pin_iov(const struct vki_iovec* iov, UWord iovcnt, SizeT len)
{
   UWord i;
   for (i = 0; i < iovcnt && len > 0; i++) {
      SizeT n = iov[i].iov_len < len ? iov[i].iov_len : len;
      tg_pin((UChar*)iov[i].iov_base, n);
      len -= n;
   }
}

/* Replacements of VEX's dirty helpers, with the same contracts:
   RDRAND/RDSEED return (CF << 32) | 32 random bits; RDTSC returns the
   64-bit counter; RDTSCP writes RAX/RDX (counter halves) and RCX (TSC_AUX,
   the cpu number: 0). */
static ULong tg_pinned_rdrand(void)
{
   UInt v;
   tg_stream_fill(&tg_rdrand_stream, (UChar*)&v, 4);
   tg_rdrand_calls++;
   return (1ULL << 32) | (ULong)v;
}

static ULong tg_pinned_tsc(void)
{
   tg_tsc_calls++;
   return TG_TSC_BASE + tg_tsc_calls * TG_TSC_STEP;
}

static ULong tg_pinned_rdtsc(void)
{
   return tg_pinned_tsc();
}

static void tg_pinned_rdtscp(VexGuestAMD64State* gst)
{
   ULong t = tg_pinned_tsc();
   gst->guest_RAX = t & 0xffffffffULL;
   gst->guest_RDX = t >> 32;
   gst->guest_RCX = 0;
}

/* Redirect the RDRAND/RDSEED/RDTSC/RDTSCP helper calls of a block (in
   place; arguments, result temp and guest-state effects are unchanged). */
static void tg_pin_helpers(IRSB* sb)
{
   static const struct { const HChar* vex; const HChar* name; void* fn; } map[] = {
      { "amd64g_dirtyhelper_RDRAND", "tg_pinned_rdrand", tg_pinned_rdrand },
      { "amd64g_dirtyhelper_RDSEED", "tg_pinned_rdrand", tg_pinned_rdrand },
      { "amd64g_dirtyhelper_RDTSC",  "tg_pinned_rdtsc",  tg_pinned_rdtsc },
      { "amd64g_dirtyhelper_RDTSCP", "tg_pinned_rdtscp", tg_pinned_rdtscp },
   };
   Int i, k;
   for (i = 0; i < sb->stmts_used; i++) {
      IRStmt* st = sb->stmts[i];
      IRDirty* d;
      if (st->tag != Ist_Dirty) continue;
      d = st->Ist.Dirty.details;
      for (k = 0; k < (Int)(sizeof map / sizeof map[0]); k++) {
         if (VG_(strcmp)(d->cee->name, map[k].vex) != 0) continue;
         d = deepCopyIRDirty(d);
         d->cee = mkIRCallee(d->cee->regparms, map[k].name,
                             VG_(fnptr_to_fnentry)(map[k].fn));
         sb->stmts[i] = IRStmt_Dirty(d);
         break;
      }
   }
}

static void tg_pre_syscall(ThreadId tid, UInt sysno, UWord* args, UInt nArgs)
{
}

static void tg_post_syscall(ThreadId tid, UInt sysno, UWord* args, UInt nArgs,
                            SysRes res)
{
   SizeT n;
   if (!clo_pin_random || sr_isError(res)) return;
   n = (SizeT)sr_Res(res);
   if (n == 0) return;
   switch (sysno) {
      case __NR_getrandom:
         tg_pin((UChar*)args[0], n);
         break;
      case __NR_read:
      case __NR_pread64:
         if (tg_is_random_dev(args[0])) tg_pin((UChar*)args[1], n);
         break;
      case __NR_readv:
      case __NR_preadv:
      case __NR_preadv2:
         if (tg_is_random_dev(args[0]))
            tg_pin_iov((const struct vki_iovec*)args[1], args[2], n);
         break;
      default:
         break;
   }
}

/*------------------------------------------------------------*/
/*--- Instrumentation                                      ---*/
/*------------------------------------------------------------*/

#define TG_MAX_ITEMS 4096

static struct tg_item tg_items[TG_MAX_ITEMS];

typedef struct {
   IRSB*   sb;
   IRTemp  cur;        /* record base (points at the block id) */
   UInt    off;        /* next free dynamic offset (from cur) */
   Int     nitems;
   Int     last_kind;  /* Lackey merge state: 0 none, 1 Dr (mergeable) */
   IRExpr* last_addr;  /* address atom of the mergeable Dr */
   UInt    last_size;
   Addr    iaddr;      /* current instruction */
   UInt    ilen;
} TGState;

static IRExpr* tg_assign(IRSB* sb, IRType ty, IRExpr* e)
{
   IRTemp t = newIRTemp(sb->tyenv, ty);
   addStmtToIRSB(sb, IRStmt_WrTmp(t, e));
   return IRExpr_RdTmp(t);
}

/* Store an atom at cur+off. */
static void tg_emit_store(TGState* s, UInt off, IRExpr* data)
{
   IRExpr* a = tg_assign(s->sb, Ity_I64,
                         IRExpr_Binop(Iop_Add64, IRExpr_RdTmp(s->cur),
                                      IRExpr_Const(IRConst_U64(off))));
   addStmtToIRSB(s->sb, IRStmt_Store(Iend_LE, a, data));
}

static struct tg_item* tg_new_item(TGState* s, UChar op)
{
   struct tg_item* it;
   tl_assert(s->nitems < TG_MAX_ITEMS);
   it = &tg_items[s->nitems++];
   VG_(memset)(it, 0, sizeof *it);
   it->op = op;
   it->pc = s->iaddr;
   return it;
}

/* Record the address part of a memory access item. */
static void tg_addr(TGState* s, struct tg_item* it, IRExpr* addr)
{
   tl_assert(isIRAtom(addr));
   if (addr->tag == Iex_Const) {
      it->a = addr->Iex.Const.con->Ico.U64;
   } else {
      it->flags |= TG_F_DYNADDR;
      tg_emit_store(s, s->off, addr);
      s->off += 8;
   }
}

static void tg_guard(TGState* s, struct tg_item* it, IRExpr* guard)
{
   if (guard == NULL) return;
   it->flags |= TG_F_GUARD;
   tg_emit_store(s, s->off, tg_assign(s->sb, Ity_I8, IRExpr_Unop(Iop_1Uto8, guard)));
   s->off += 1;
}

/* Value of a loaded temp (or NULL): record its low bytes. */
static void tg_value(TGState* s, struct tg_item* it, IRExpr* val)
{
   IRType ty;
   IRExpr* v = NULL;
   UChar nb = 0;
   if (val == NULL || !clo_trace_values) {
      it->flags |= TG_F_NOVALUE;
      return;
   }
   ty = typeOfIRExpr(s->sb->tyenv, val);
   switch (ty) {
      case Ity_I8:  v = val; nb = 1; break;
      case Ity_I16: v = val; nb = 2; break;
      case Ity_I32: case Ity_F32: v = val; nb = 4; break;
      case Ity_I64: case Ity_F64: v = val; nb = 8; break;
      case Ity_V128:
         v = tg_assign(s->sb, Ity_I64, IRExpr_Unop(Iop_V128to64, val)); nb = 8; break;
      case Ity_V256:
         v = tg_assign(s->sb, Ity_I64, IRExpr_Unop(Iop_V256to64_0, val)); nb = 8; break;
      case Ity_I128:
         v = tg_assign(s->sb, Ity_I64, IRExpr_Unop(Iop_128to64, val)); nb = 8; break;
      default:
         it->flags |= TG_F_NOVALUE;
         return;
   }
   it->vbytes = nb;
   tg_emit_store(s, s->off, v);
   s->off += nb;
}

/* A load (Lackey Dr).  val: the temp holding the loaded value, or NULL.
   guard: NULL or the LoadG guard. */
static void tg_load(TGState* s, IRExpr* addr, UInt size, IRExpr* guard, IRExpr* val)
{
   struct tg_item* it;
   if (!clo_trace_mem) return;
   it = tg_new_item(s, TG_OP_LOAD);
   it->size = size;
   tg_addr(s, it, addr);
   tg_guard(s, it, guard);
   tg_value(s, it, val);
   if (guard == NULL) {
      s->last_kind = 1; s->last_addr = addr; s->last_size = size;
   } else {
      s->last_kind = 0;
   }
}

/* A store (Lackey Dw); merged into the preceding load like Lackey does. */
static void tg_store(TGState* s, IRExpr* addr, UInt size, IRExpr* guard)
{
   struct tg_item* it;
   if (!clo_trace_mem) return;
   it = tg_new_item(s, TG_OP_STORE);
   it->size = size;
   if (guard == NULL && s->last_kind == 1 && s->last_size == size
       && eqIRAtom(s->last_addr, addr)) {
      it->flags |= TG_F_MODIFY;
      s->last_kind = 0;
      return;
   }
   tg_addr(s, it, addr);
   tg_guard(s, it, guard);
   s->last_kind = 0;
}

/* Load/store events of one statement, emitted after the statement so that
   loaded values are available. */
static void tg_stmt_mem(TGState* s, IRStmt* st)
{
   IRTypeEnv* tyenv = s->sb->tyenv;
   switch (st->tag) {
      case Ist_WrTmp: {
         IRExpr* data = st->Ist.WrTmp.data;
         if (data->tag == Iex_Load)
            tg_load(s, data->Iex.Load.addr, sizeofIRType(data->Iex.Load.ty),
                    NULL, IRExpr_RdTmp(st->Ist.WrTmp.tmp));
         break;
      }
      case Ist_Store: {
         IRType ty = typeOfIRExpr(tyenv, st->Ist.Store.data);
         tl_assert(ty != Ity_INVALID);
         tg_store(s, st->Ist.Store.addr, sizeofIRType(ty), NULL);
         break;
      }
      case Ist_StoreG: {
         IRStoreG* sg = st->Ist.StoreG.details;
         IRType ty = typeOfIRExpr(tyenv, sg->data);
         tl_assert(ty != Ity_INVALID);
         tg_store(s, sg->addr, sizeofIRType(ty), sg->guard);
         break;
      }
      case Ist_LoadG: {
         IRLoadG* lg = st->Ist.LoadG.details;
         IRType ty = Ity_INVALID, tyw = Ity_INVALID;
         typeOfIRLoadGOp(lg->cvt, &tyw, &ty);
         tl_assert(ty != Ity_INVALID);
         tg_load(s, lg->addr, sizeofIRType(ty), lg->guard, IRExpr_RdTmp(lg->dst));
         break;
      }
      case Ist_Dirty: {
         IRDirty* d = st->Ist.Dirty.details;
         if (d->mFx != Ifx_None) {
            tl_assert(d->mAddr != NULL && d->mSize != 0);
            if (d->mFx == Ifx_Read || d->mFx == Ifx_Modify)
               tg_load(s, d->mAddr, d->mSize, NULL, NULL);
            if (d->mFx == Ifx_Write || d->mFx == Ifx_Modify)
               tg_store(s, d->mAddr, d->mSize, NULL);
         }
         break;
      }
      case Ist_CAS: {
         IRCAS* cas = st->Ist.CAS.details;
         Int size = sizeofIRType(typeOfIRExpr(tyenv, cas->dataLo));
         if (cas->dataHi != NULL) size *= 2;
         tg_load(s, cas->addr, size, NULL, IRExpr_RdTmp(cas->oldLo));
         tg_store(s, cas->addr, size, NULL);
         break;
      }
      case Ist_LLSC: {
         IRType ty;
         if (st->Ist.LLSC.storedata == NULL) {
            ty = typeOfIRTemp(tyenv, st->Ist.LLSC.result);
            tg_load(s, st->Ist.LLSC.addr, sizeofIRType(ty), NULL,
                    IRExpr_RdTmp(st->Ist.LLSC.result));
         } else {
            ty = typeOfIRExpr(tyenv, st->Ist.LLSC.storedata);
            tg_store(s, st->Ist.LLSC.addr, sizeofIRType(ty), NULL);
         }
         break;
      }
      default:
         break;
   }
}

/* icount += n (generated code). */
static void tg_add_icount(IRSB* sb, UInt n)
{
   IRExpr* a = IRExpr_Const(IRConst_U64((ULong)(Addr)&tg_icount));
   IRExpr* t = tg_assign(sb, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64, a));
   IRExpr* u = tg_assign(sb, Ity_I64, IRExpr_Binop(Iop_Add64, t,
                                        IRExpr_Const(IRConst_U64(n))));
   addStmtToIRSB(sb, IRStmt_Store(Iend_LE, a, u));
}

/* Number of IMarks in sbIn from statement i up to the next Ist_Exit
   (inclusive of the instruction holding it), i.e. a segment. */
static UInt tg_segment_insns(IRSB* sbIn, Int i)
{
   UInt n = 0;
   for (; i < sbIn->stmts_used; i++) {
      IRStmt* st = sbIn->stmts[i];
      if (st->tag == Ist_IMark) n++;
      else if (st->tag == Ist_Exit) break;
   }
   return n;
}

/* Guarded dirty call fn(GSPTR) that may write CMSTART/CMLEN (and, through
   memory, tg_cur / tg_mode), then an exit to the block start that makes the
   scheduler discard all translations when exit_guard holds. */
static void tg_call_gs(IRSB* sb, const HChar* name, void* fn, IRExpr* guard)
{
   IRDirty* di = unsafeIRDirty_0_N(0, name, VG_(fnptr_to_fnentry)(fn),
                                   mkIRExprVec_1(IRExpr_GSPTR()));
   di->guard = guard;
   di->mFx = Ifx_Modify;
   di->mAddr = IRExpr_Const(IRConst_U64((ULong)(Addr)&tg_cur));
   di->mSize = 8;
   di->nFxState = 2;
   VG_(memset)(&di->fxState, 0, sizeof(di->fxState));
   di->fxState[0].fx = Ifx_Write;
   di->fxState[0].offset = offsetof(VexGuestAMD64State, guest_CMSTART);
   di->fxState[0].size = 8;
   di->fxState[1].fx = Ifx_Write;
   di->fxState[1].offset = offsetof(VexGuestAMD64State, guest_CMLEN);
   di->fxState[1].size = 8;
   addStmtToIRSB(sb, IRStmt_Dirty(di));
}

static void tg_exit_discard(IRSB* sb, IRExpr* guard, Addr restart)
{
   addStmtToIRSB(sb, IRStmt_Exit(guard, Ijk_InvalICache,
                                 IRConst_U64((ULong)restart), sb->offsIP));
}

/* Fast-forward: count instructions per segment; divert to tracing when the
   block may contain instruction skip+1. */
static IRSB* tg_instrument_ff(IRSB* sbIn, IRSB* sbOut, Int i, Addr restart)
{
   UInt total = 0;
   Int j;
   for (j = i; j < sbIn->stmts_used; j++)
      if (sbIn->stmts[j]->tag == Ist_IMark) total++;
   if (total > 0) {
      IRExpr* guard;
      if ((ULong)clo_skip < total) {
         guard = IRExpr_Const(IRConst_U1(True));
      } else {
         IRExpr* ic = tg_assign(sbOut, Ity_I64,
            IRExpr_Load(Iend_LE, Ity_I64,
                        IRExpr_Const(IRConst_U64((ULong)(Addr)&tg_icount))));
         guard = tg_assign(sbOut, Ity_I1,
            IRExpr_Binop(Iop_CmpLT64U,
                         IRExpr_Const(IRConst_U64((ULong)clo_skip - total)), ic));
      }
      tg_call_gs(sbOut, "tg_ff_end", tg_ff_end, guard);
      tg_exit_discard(sbOut, guard, restart);
      tg_add_icount(sbOut, tg_segment_insns(sbIn, i));
   }
   for (; i < sbIn->stmts_used; i++) {
      IRStmt* st = sbIn->stmts[i];
      addStmtToIRSB(sbOut, st);
      if (st->tag == Ist_Exit) {
         UInt n = tg_segment_insns(sbIn, i + 1);
         if (n > 0) tg_add_icount(sbOut, n);
      }
   }
   return sbOut;
}

/* Write the template of block `id` (called from instrumentation). */
static void tg_emit_def(UInt id, Int nitems)
{
   SizeT bytes = 12 + (SizeT)nitems * sizeof(struct tg_item);
   tg_reserve(bytes);
   tg_put32(TG_TAG_DEF);
   tg_put32(id);
   tg_put32((UInt)nitems);
   VG_(memcpy)(tg_cur, tg_items, (SizeT)nitems * sizeof(struct tg_item));
   tg_cur += (SizeT)nitems * sizeof(struct tg_item);
}

static IRSB* tg_instrument_trace(IRSB* sbIn, IRSB* sbOut, Int i, Addr restart)
{
   TGState s;
   IRExpr *t0, *g, *gs, *next = sbIn->next;
   UInt id = tg_next_id++;
   Bool count = clo_capture > 0;
   Int k;

   VG_(memset)(&s, 0, sizeof s);
   s.sb = sbOut;
   tl_assert(id < TG_TAG_FIRST_CTRL);

   /* Entry: flush if needed; stop if the flush says so. */
   t0 = tg_assign(sbOut, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64,
                  IRExpr_Const(IRConst_U64((ULong)(Addr)&tg_cur))));
   g = tg_assign(sbOut, Ity_I1, IRExpr_Binop(Iop_CmpLT64U,
                 IRExpr_Const(IRConst_U64((ULong)(Addr)tg_soft_end)), t0));
   tg_call_gs(sbOut, "tg_flush_helper", tg_flush_helper, g);
   s.cur = newIRTemp(sbOut->tyenv, Ity_I64);
   addStmtToIRSB(sbOut, IRStmt_WrTmp(s.cur, IRExpr_Load(Iend_LE, Ity_I64,
                 IRExpr_Const(IRConst_U64((ULong)(Addr)&tg_cur)))));
   if (count) {
      gs = tg_assign(sbOut, Ity_I1, IRExpr_Binop(Iop_CmpEQ64, IRExpr_RdTmp(s.cur),
                                                 IRExpr_Const(IRConst_U64(0))));
      tg_exit_discard(sbOut, gs, restart);
      tg_add_icount(sbOut, tg_segment_insns(sbIn, i));
   }
   tg_emit_store(&s, 0, IRExpr_Const(IRConst_U32(id)));
   s.off = 4;

   for (; i < sbIn->stmts_used; i++) {
      IRStmt* st = sbIn->stmts[i];
      switch (st->tag) {
         case Ist_IMark: {
            struct tg_item* it;
            s.iaddr = (Addr)st->Ist.IMark.addr;
            s.ilen = st->Ist.IMark.len;
            it = tg_new_item(&s, TG_OP_INSN);
            it->size = s.ilen;
            s.last_kind = 0;
            addStmtToIRSB(sbOut, st);
            break;
         }
         case Ist_Exit: {
            Addr dst = (Addr)st->Ist.Exit.dst->Ico.U64;
            Bool assist = st->Ist.Exit.jk != Ijk_Boring;
            s.last_kind = 0;
            /* Every exit gets an item and a taken byte (the packer must
               know where a block left); the packer reports it as a branch
               according to the HELLO options. */
            {
               struct tg_item* it = tg_new_item(&s, TG_OP_EXIT);
               IRExpr* g8;
               it->flags = assist ? TG_F_ASSIST : 0;
               it->b = s.iaddr + s.ilen;
               if (dst == s.iaddr + s.ilen) {
                  it->flags |= TG_F_INVERTED;
                  it->a = 0; /* resolved below */
               } else {
                  it->a = dst;
               }
               g8 = tg_assign(sbOut, Ity_I8, IRExpr_Unop(Iop_1Uto8, st->Ist.Exit.guard));
               tg_emit_store(&s, s.off, g8);
               s.off += 1;
            }
            {
               IRExpr* nc = tg_assign(sbOut, Ity_I64, IRExpr_Binop(Iop_Add64,
                              IRExpr_RdTmp(s.cur), IRExpr_Const(IRConst_U64(s.off))));
               addStmtToIRSB(sbOut, IRStmt_StoreG(Iend_LE,
                  IRExpr_Const(IRConst_U64((ULong)(Addr)&tg_cur)), nc,
                  st->Ist.Exit.guard));
            }
            addStmtToIRSB(sbOut, st);
            if (count) {
               UInt n = tg_segment_insns(sbIn, i + 1);
               if (n > 0) tg_add_icount(sbOut, n);
            }
            break;
         }
         default:
            addStmtToIRSB(sbOut, st);
            tg_stmt_mem(&s, st);
            break;
      }
   }

   /* Block end: call / return / indirect jump. */
   if (clo_trace_branches) {
      UInt kind = TG_END_NONE;
      switch (sbIn->jumpkind) {
         case Ijk_Call: kind = TG_END_CALL; break;
         case Ijk_Ret: kind = TG_END_RET; break;
         case Ijk_Boring:
            if (next->tag != Iex_Const) kind = TG_END_IJUMP;
            break;
         default: break;
      }
      if (kind != TG_END_NONE) {
         struct tg_item* it = tg_new_item(&s, TG_OP_END);
         it->size = kind;
         if (next->tag == Iex_Const) {
            it->a = next->Iex.Const.con->Ico.U64;
         } else {
            it->flags |= TG_F_DYNDEST;
            tg_emit_store(&s, s.off, next);
            s.off += 8;
         }
      }
   }
   {
      IRExpr* nc = tg_assign(sbOut, Ity_I64, IRExpr_Binop(Iop_Add64,
                     IRExpr_RdTmp(s.cur), IRExpr_Const(IRConst_U64(s.off))));
      addStmtToIRSB(sbOut, IRStmt_Store(Iend_LE,
         IRExpr_Const(IRConst_U64((ULong)(Addr)&tg_cur)), nc));
   }
   tl_assert(s.off <= TG_MAX_BLOCK_BYTES);

   /* Resolve the taken targets of inverted exits: the not-exit path goes to
      the next instruction of the block, or to the block's constant next. */
   for (k = 0; k < s.nitems; k++) {
      struct tg_item* it = &tg_items[k];
      if (it->op == TG_OP_EXIT && (it->flags & TG_F_INVERTED)) {
         Int m;
         for (m = k + 1; m < s.nitems && tg_items[m].op != TG_OP_INSN; m++) ;
         if (m < s.nitems) it->a = tg_items[m].pc;
         else if (next->tag == Iex_Const) it->a = next->Iex.Const.con->Ico.U64;
         else it->a = 0;
      }
   }
   tg_emit_def(id, s.nitems);
   return sbOut;
}

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
   if (clo_pin_random)
      tg_pin_helpers(sbIn);
   if (tg_mode == MODE_DONE)
      return sbIn;

   sbOut = deepCopyIRSBExceptStmts(sbIn);
   /* Copy verbatim any IR preamble preceding the first IMark. */
   i = 0;
   while (i < sbIn->stmts_used && sbIn->stmts[i]->tag != Ist_IMark) {
      addStmtToIRSB(sbOut, sbIn->stmts[i]);
      i++;
   }
   if (tg_mode == MODE_FF)
      return tg_instrument_ff(sbIn, sbOut, i, (Addr)closure->nraddr);
   return tg_instrument_trace(sbIn, sbOut, i, (Addr)closure->nraddr);
}

/*------------------------------------------------------------*/
/*--- Setup and teardown                                   ---*/
/*------------------------------------------------------------*/

static void tg_open_output(void)
{
   Int fd, hi;
   if (clo_out != NULL) {
      /* A FIFO without a reader (the packer died) would block the open
         below forever: probe it without blocking first (ENXIO). */
      SysRes pr = VG_(open)(clo_out, VKI_O_WRONLY | VKI_O_CREAT | VKI_O_NONBLOCK, 0644);
      if (sr_isError(pr)) {
         VG_(fmsg)("hwptrace: cannot open --out=%s%s\n", clo_out,
                   sr_Err(pr) == VKI_ENXIO ? " (a FIFO without reader: packer gone?)" : "");
         VG_(exit)(1);
      }
      VG_(close)((Int)sr_Res(pr));
      fd = VG_(fd_open)(clo_out, VKI_O_WRONLY | VKI_O_CREAT | VKI_O_TRUNC, 0644);
      if (fd < 0) {
         VG_(fmsg)("hwptrace: cannot open --out=%s\n", clo_out);
         VG_(exit)(1);
      }
      /* Move it out of the client's way (the client's next open() must
         get the same fd number as without us). */
      for (hi = 999; hi > 10; hi--) {
         struct vg_stat st;
         if (VG_(fstat)(hi, &st) < 0) {
            SysRes r = VG_(dup2)(fd, hi);
            if (!sr_isError(r)) { VG_(close)(fd); fd = hi; }
            break;
         }
      }
      tg_fd = fd;
   } else if (clo_out_fd >= 0) {
      tg_fd = (Int)clo_out_fd;
   } else {
      VG_(fmsg_bad_option)("--out", "hwptrace needs --out=<path> or --out-fd=<n>\n");
   }
}

static void tg_post_clo_init(void)
{
   SizeT size = (SizeT)clo_buf_mib << 20;
   /* Every guest branch must be an IR exit or a block end. */
   VG_(clo_vex_control).guest_chase = False;
   tg_open_output();
   tg_buf = VG_(malloc)("hwptrace.buf", size);
   tg_buf_data = tg_buf + 8;
   tg_buf_end = tg_buf + size;
   tl_assert(size > 2 * TG_MAX_BLOCK_BYTES);
   tg_soft_end = tg_buf_end - TG_MAX_BLOCK_BYTES;
   tg_cur = tg_buf_data;
   tg_stop_at = (ULong)clo_skip + (ULong)clo_capture;
   tg_reserve(32);
   tg_put32(TG_TAG_HELLO);
   tg_put32(TG_RAW_VERSION);
   tg_put64((ULong)clo_skip);
   tg_put64((ULong)clo_capture);
   tg_put32((clo_trace_mem ? TG_OPT_MEM : 0) | (clo_trace_values ? TG_OPT_VALUES : 0)
            | (clo_trace_branches ? TG_OPT_BRANCHES : 0)
            | (clo_assist_exits ? TG_OPT_ASSIST_EXITS : 0));
   tg_put32(0);
   if (clo_skip == 0) {
      tg_mode = MODE_TRACE;
      tg_put32(TG_TAG_START);
      tg_put64(0);
   }
}

static void tg_fini(Int exitcode)
{
   if (tg_mode != MODE_DONE)
      tg_flush_buf();
   tg_write_end(TG_REASON_EXIT, exitcode);
   VG_(close)(tg_fd);
   if (VG_(clo_verbosity) > 1) {
      VG_(umsg)("hwptrace: %llu bytes in %llu frames, %u blocks, icount %llu\n",
                tg_bytes_out, tg_flushes, tg_next_id, tg_icount);
      VG_(umsg)("hwptrace: pin-random %s: AT_RANDOM %s, %llu random bytes "
                "in %llu calls pinned, %llu RDRAND/RDSEED, %llu RDTSC(P)\n",
                clo_pin_random ? "yes" : "no", tg_auxv_pinned ? "pinned" : "not pinned",
                tg_rnd_bytes, tg_rnd_calls, tg_rdrand_calls, tg_tsc_calls);
   }
}

static void tg_pre_clo_init(void)
{
   VG_(details_name)("hwptrace");
   VG_(details_version)("1");
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
