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
 *
 * Pinned CPU and host (--cpu-level, default x86-64-v2; --pin-host=yes, the
 * default): the client's CPUID answers come from one fixed VEX identity
 * whatever the host (and the auxv AT_HWCAP agrees with it); the auxv is
 * reduced to a fixed set of entries in a fixed order; directory listings
 * are sorted; sysinfo(2) and uname(2)'s host name are fixed values.  So the
 * same program gives the same trace on every host that meets the level
 * (see "Pinned CPU and host" below).
 *
 * Basic-block vectors (--bbv-out=FILE --bbv-slice=N): no trace; the whole
 * run is cut into slices of exactly N instructions, counted as traces
 * count them, and each slice's vector is written in exp-bbv's text format
 * (see "Basic-block vectors" below).
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
#include "pub_tool_debuginfo.h"
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
static Int  clo_cpu_level = TG_CPU_V2; /* TG_CPU_*: the CPUID identity the client sees */
static Bool clo_pin_host = True;      /* auxv, directory order, sysinfo, host name */
static const HChar* clo_bbv_out = NULL;   /* basic-block-vector mode: output file */
static const HChar* clo_bbv_pc_out = NULL; /* block id -> address, function */
static Long clo_bbv_slice = 0;        /* instructions per slice */
static const HChar* const tg_level_names[TG_CPU_LEVELS] = TG_CPU_LEVEL_NAMES;

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
   else if VG_BOOL_CLO(arg, "--pin-host", clo_pin_host) {}
   else if VG_STR_CLO(arg, "--bbv-out", clo_bbv_out) {}
   else if VG_STR_CLO(arg, "--bbv-pc-out", clo_bbv_pc_out) {}
   else if VG_BINT_CLO(arg, "--bbv-slice", clo_bbv_slice, 1, 0x7fffffffffffffffLL) {}
   else if VG_STR_CLO(arg, "--cpu-level", tmp_str) {
      Int k;
      for (k = 0; k < TG_CPU_LEVELS; k++)
         if (VG_(strcmp)(tmp_str, tg_level_names[k]) == 0) break;
      if (k == TG_CPU_LEVELS && VG_(strcmp)(tmp_str, "x86-64-v1") == 0) k = TG_CPU_V1;
      if (k == TG_CPU_LEVELS)
         VG_(fmsg_bad_option)(arg, "levels: host, x86-64 (= x86-64-v1), x86-64-v2, avx, x86-64-v3\n");
      clo_cpu_level = k;
   }
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
"    --cpu-level=host|x86-64|x86-64-v2|avx|x86-64-v3\n"
"                              the CPU the client sees: CPUID answered by\n"
"                              one fixed VEX identity (x86-64: AMD Opteron,\n"
"                              SSE2; x86-64-v2: Intel Core i5-670, SSE4.2;\n"
"                              avx: Core i5-2300; x86-64-v3: Core i7-4910MQ,\n"
"                              AVX2), AT_HWCAP to match; host = whatever\n"
"                              VEX picks for this host [x86-64-v2]\n"
"    --pin-host=no|yes         make the client's view of the host fixed:\n"
"                              canonical auxv (fixed entries and order),\n"
"                              getdents64 sorted by name, fixed sysinfo(2),\n"
"                              uname(2) host name 'hwptrace' [yes]\n"
"    --bbv-out=<file>          basic-block-vector mode: no trace; write one\n"
"                              line per slice of --bbv-slice instructions\n"
"                              (counted as traces count them) in exp-bbv's\n"
"                              format 'T:id:count :id:count ...' [none]\n"
"    --bbv-slice=<n>           instructions per slice (needed with --bbv-out)\n"
"    --bbv-pc-out=<file>       with --bbv-out: one line 'F:id:address:function'\n"
"                              per block, as exp-bbv's --pc-out-file [none]\n"
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

static void tg_write_all_fd(Int fd, const UChar* p, SizeT n)
{
   while (n > 0) {
      Int chunk = n > (1u << 30) ? (1 << 30) : (Int)n;
      Int r = VG_(write)(fd, p, chunk);
      if (r <= 0) {
         VG_(umsg)("hwptrace: write to the output failed (packer gone? disk full?)\n");
         VG_(exit)(1);
      }
      p += r;
      n -= r;
   }
}

static void tg_write_all(const UChar* p, SizeT n)
{
   tg_write_all_fd(tg_fd, p, n);
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

/*------------------------------------------------------------*/
/*--- Pinned CPU and host                                  ---*/
/*------------------------------------------------------------*/

/* glibc picks memcpy/strlen/... by CPUID at start-up (IFUNC), sizes its
   copy thresholds from the CPUID cache leaves and tunes by vendor and
   model; so do libcrypto, liblzma, GMP and the programs themselves.  VEX
   does not pass the host's CPUID through: guest_amd64_toIR.c turns CPUID
   into a call of one of four fixed dirty helpers (guest_amd64_helpers.c),
   chosen from the host's capabilities (AVX2 -> the "avx2" identity, AVX ->
   "avx_and_cx16", SSSE3+CX16 -> "sse42_and_cx16", else "baseline"), each a
   fixed CPU (vendor, family/model, features, cache leaves); for the two
   AVX ones VEX also patches in the host's F16C, RDRAND and RDSEED bits.
   So the identity, and with it the trace, changes with the host class.

   --cpu-level=L (default x86-64-v2) replaces that call, at instrumentation
   time, by the helper of level L with fixed arguments, so every host that
   can run L gives the same answers:
     x86-64    amd64g_dirtyhelper_CPUID_baseline      AMD Opteron 848: SSE2
     x86-64-v2 amd64g_dirtyhelper_CPUID_sse42_and_cx16 Intel Core i5-670:
               SSE3, SSSE3, SSE4.1/4.2, POPCNT, CX16, LAHF (psABI level v2)
     avx       amd64g_dirtyhelper_CPUID_avx_and_cx16(F16C=0, RDRAND=0,
               RDSEED=0) Intel Core i5-2300: v2 + AVX, XSAVE
     x86-64-v3 amd64g_dirtyhelper_CPUID_avx2(F16C=1, RDRAND=0, RDSEED=0)
               Intel Core i7-4910MQ: AVX2, BMI1/2, FMA, LZCNT, MOVBE, F16C
   A level needs a host on which VEX decodes what the identity advertises
   (tg_level_needs; refused otherwise): VEX decodes AVX and XGETBV only on
   AVX hosts, and F3 0F BC/BD as TZCNT/LZCNT only on BMI/LZCNT hosts (BSF/
   BSR otherwise).  The auxv AT_HWCAP (the kernel's copy of CPUID.1:EDX) is
   set to the identity's.  host keeps VEX's choice and the host's AT_HWCAP.

   --pin-host=yes (default) fixes the rest of what the client can learn
   about the host without reading files:
   - the auxv: Valgrind passes the kernel's entries on, turning those it
     does not know (AT_SYSINFO_EHDR, AT_HWCAP2, AT_MINSIGSTKSZ, AT_RSEQ_*,
     ...) into AT_IGNORE, but keeps their number, which grows with the
     kernel version and moves the whole initial stack (16 bytes per entry).
     The tool keeps exactly the entries of tg_auxv_order, in that order,
     and moves argc/argv/envp up by the space saved (a multiple of 16
     bytes, so the stack stays aligned and its top does not move);
   - getdents64: the entries each call returns are sorted by name (bytes),
     because the order of a directory listing is the file system's
     (ext4: a hash with a per-file-system seed): Python builds its import
     caches from listings, and the order changes its start-up instruction
     count.  d_ino and d_off stay the kernel's;
   - sysinfo(2): uptime 1000 s, loads 0, 16 GiB of RAM, 12 GiB free, no
     swap, 1 process, mem_unit 1 (glibc's qsort and sysconf(_SC_PHYS_PAGES),
     gcc's garbage-collector heuristics, xz's memory limits read it);
   - uname(2): nodename "hwptrace", domainname "(none)" (release, version
     and machine stay the kernel's). */

/* VEX's CPUID helpers (VEX/priv/guest_amd64_defs.h; the tool is linked
   statically with libvex). */
extern void amd64g_dirtyhelper_CPUID_baseline(VexGuestAMD64State* st);
extern void amd64g_dirtyhelper_CPUID_sse42_and_cx16(VexGuestAMD64State* st);
extern void amd64g_dirtyhelper_CPUID_avx_and_cx16(VexGuestAMD64State* st, ULong hasF16C,
                                                  ULong hasRDRAND, ULong hasRDSEED);
extern void amd64g_dirtyhelper_CPUID_avx2(VexGuestAMD64State* st, ULong hasF16C,
                                          ULong hasRDRAND, ULong hasRDSEED);
/* Valgrind core variables (pub_core_clientstate.h), kept pointing at the
   moved envp and auxv. */
extern HChar** VG_(client_envp);
extern UWord*  VG_(client_auxv);

#define TG_HW_BASE (VEX_HWCAPS_AMD64_SSE3 | VEX_HWCAPS_AMD64_SSSE3 | VEX_HWCAPS_AMD64_CX16)
static const struct {
   UInt id;           /* TG_ID_* */
   const HChar* name; /* helper name, as VEX spells it */
   void* fn;
   Bool four_args;    /* (st, hasF16C, hasRDRAND, hasRDSEED) */
   ULong f16c;
   UInt needs;        /* host VEX_HWCAPS_AMD64_* bits */
} tg_levels[TG_CPU_LEVELS] = {
   [TG_CPU_HOST] = { 0, NULL, NULL, False, 0, 0 },
   [TG_CPU_V1]   = { TG_ID_BASELINE, "amd64g_dirtyhelper_CPUID_baseline",
                     (void*)amd64g_dirtyhelper_CPUID_baseline, False, 0, 0 },
   [TG_CPU_V2]   = { TG_ID_SSE42, "amd64g_dirtyhelper_CPUID_sse42_and_cx16",
                     (void*)amd64g_dirtyhelper_CPUID_sse42_and_cx16, False, 0, TG_HW_BASE },
   [TG_CPU_AVX]  = { TG_ID_AVX, "amd64g_dirtyhelper_CPUID_avx_and_cx16",
                     (void*)amd64g_dirtyhelper_CPUID_avx_and_cx16, True, 0,
                     TG_HW_BASE | VEX_HWCAPS_AMD64_AVX },
   [TG_CPU_V3]   = { TG_ID_AVX2, "amd64g_dirtyhelper_CPUID_avx2",
                     (void*)amd64g_dirtyhelper_CPUID_avx2, True, 1,
                     TG_HW_BASE | VEX_HWCAPS_AMD64_AVX | VEX_HWCAPS_AMD64_AVX2
                     | VEX_HWCAPS_AMD64_BMI | VEX_HWCAPS_AMD64_LZCNT
                     | VEX_HWCAPS_AMD64_F16C },
};

static UInt  tg_host_hwcaps;
static UInt  tg_cpu_word;      /* HELLO: level | identity << 8 | host extras */
static ULong tg_cpuid_calls_pinned, tg_dirents_sorted, tg_sysinfo_pinned,
             tg_uname_pinned;
static UWord tg_auxv_removed;

/* "sse3 ssse3 cx16 ..." for messages. */
static void tg_hwcaps_string(UInt hw, HChar* buf, SizeT len)
{
   static const struct { UInt bit; const HChar* name; } names[] = {
      { VEX_HWCAPS_AMD64_SSE3, "sse3" }, { VEX_HWCAPS_AMD64_SSSE3, "ssse3" },
      { VEX_HWCAPS_AMD64_CX16, "cx16" }, { VEX_HWCAPS_AMD64_LZCNT, "lzcnt" },
      { VEX_HWCAPS_AMD64_AVX, "avx" }, { VEX_HWCAPS_AMD64_RDTSCP, "rdtscp" },
      { VEX_HWCAPS_AMD64_BMI, "bmi" }, { VEX_HWCAPS_AMD64_AVX2, "avx2" },
      { VEX_HWCAPS_AMD64_RDRAND, "rdrand" }, { VEX_HWCAPS_AMD64_F16C, "f16c" },
      { VEX_HWCAPS_AMD64_RDSEED, "rdseed" },
   };
   UInt k;
   SizeT used = 0;
   buf[0] = 0;
   for (k = 0; k < sizeof names / sizeof names[0]; k++) {
      if (!(hw & names[k].bit)) continue;
      if (used + VG_(strlen)(names[k].name) + 2 >= len) break;
      if (used) buf[used++] = ' ';
      VG_(strcpy)(buf + used, names[k].name);
      used += VG_(strlen)(names[k].name);
   }
   if (used == 0) VG_(strcpy)(buf, "none");
}

/* At start-up: check the level against the host, compute the HELLO word. */
static void tg_cpu_init(void)
{
   VexArch arch;
   VexArchInfo vai;
   UInt needs, id, extra = 0;
   VG_(machine_get_VexArchInfo)(&arch, &vai);
   tg_host_hwcaps = vai.hwcaps;
   needs = tg_levels[clo_cpu_level].needs;
   if ((tg_host_hwcaps & needs) != needs) {
      HChar want[200], have[200];
      tg_hwcaps_string(needs & ~tg_host_hwcaps, want, sizeof want);
      tg_hwcaps_string(tg_host_hwcaps, have, sizeof have);
      VG_(fmsg)("hwptrace: --cpu-level=%s needs a host where VEX has %s "
                "(this host: %s); use a lower level or --cpu-level=host\n",
                tg_level_names[clo_cpu_level], want, have);
      VG_(exit)(1);
   }
   if (clo_cpu_level != TG_CPU_HOST) {
      id = tg_levels[clo_cpu_level].id;
   } else {
      /* What guest_amd64_toIR.c picks (to report it). */
      UInt hw = tg_host_hwcaps;
      Bool base = (hw & VEX_HWCAPS_AMD64_SSSE3) && (hw & VEX_HWCAPS_AMD64_CX16);
      if (base && (hw & VEX_HWCAPS_AMD64_AVX2)) id = TG_ID_AVX2;
      else if (base && (hw & VEX_HWCAPS_AMD64_AVX)) id = TG_ID_AVX;
      else if (base) id = TG_ID_SSE42;
      else id = TG_ID_BASELINE;
      if (id == TG_ID_AVX2 || id == TG_ID_AVX)
         extra = ((hw & VEX_HWCAPS_AMD64_F16C) ? TG_ID_F16C : 0)
               | ((hw & VEX_HWCAPS_AMD64_RDRAND) ? TG_ID_RDRAND : 0)
               | ((hw & VEX_HWCAPS_AMD64_RDSEED) ? TG_ID_RDSEED : 0);
   }
   tg_cpu_word = (UInt)clo_cpu_level | (id << 8) | extra;
}

/* CPUID.1:EDX of the pinned identity: what a kernel on that CPU puts in
   AT_HWCAP. */
static ULong tg_level_hwcap(void)
{
   VexGuestAMD64State st;
   VG_(memset)(&st, 0, sizeof st);
   st.guest_RAX = 1;
   if (tg_levels[clo_cpu_level].four_args)
      ((void (*)(VexGuestAMD64State*, ULong, ULong, ULong))tg_levels[clo_cpu_level].fn)
         (&st, tg_levels[clo_cpu_level].f16c, 0, 0);
   else
      ((void (*)(VexGuestAMD64State*))tg_levels[clo_cpu_level].fn)(&st);
   return st.guest_RDX & 0xffffffffULL;
}

/* A CPUID helper call of VEX becomes one of the level's helper. */
static IRDirty* tg_pinned_cpuid(IRDirty* d)
{
   d = deepCopyIRDirty(d);
   d->cee = mkIRCallee(0, tg_levels[clo_cpu_level].name,
                       VG_(fnptr_to_fnentry)(tg_levels[clo_cpu_level].fn));
   if (tg_levels[clo_cpu_level].four_args)
      d->args = mkIRExprVec_4(IRExpr_GSPTR(),
                              mkIRExpr_HWord((HWord)tg_levels[clo_cpu_level].f16c),
                              mkIRExpr_HWord(0), mkIRExpr_HWord(0));
   else
      d->args = mkIRExprVec_1(IRExpr_GSPTR());
   tg_cpuid_calls_pinned++;
   return d;
}

/* The auxv entries the client gets with --pin-host, in this order (the
   order of Linux's create_elf_tables on x86-64).  Every x86-64 kernel
   gives them; Valgrind keeps them (AT_PHDR/AT_BASE/AT_ENTRY/AT_EXECFN/
   AT_PLATFORM/AT_RANDOM pointing at its own copies). */
static const UWord tg_auxv_order[] = {
   16 /* AT_HWCAP */, 6 /* AT_PAGESZ */, 17 /* AT_CLKTCK */, 3 /* AT_PHDR */,
   4 /* AT_PHENT */, 5 /* AT_PHNUM */, 7 /* AT_BASE */, 8 /* AT_FLAGS */,
   9 /* AT_ENTRY */, 11 /* AT_UID */, 12 /* AT_EUID */, 13 /* AT_GID */,
   14 /* AT_EGID */, 23 /* AT_SECURE */, 25 /* AT_RANDOM */, 31 /* AT_EXECFN */,
   15 /* AT_PLATFORM */,
};
#define TG_AT_HWCAP 16

/* Rebuild the auxv at p (n entries before AT_NULL) with the entries of
   tg_auxv_order only, moving the block [sp, end of auxv) up so that its
   end stays put; head = words from sp to the auxv.  Returns the new sp. */
static Addr tg_canonical_auxv(Addr sp, UWord head, UWord* p, UWord n)
{
   UWord* keep = VG_(malloc)("hwptrace.auxv", (n + 1) * 2 * sizeof(UWord));
   UWord k = 0, i, r, removed;
   Addr nsp;
   for (r = 0; r < sizeof tg_auxv_order / sizeof tg_auxv_order[0]; r++)
      for (i = 0; i < n; i++)
         if (p[2 * i] == tg_auxv_order[r]) {
            keep[2 * k] = p[2 * i];
            keep[2 * k + 1] = p[2 * i + 1];
            k++;
         }
   keep[2 * k] = TG_AT_NULL;
   keep[2 * k + 1] = 0;
   removed = n - k;
   nsp = sp + removed * 2 * sizeof(UWord);
   VG_(memmove)((void*)nsp, (void*)sp, head * sizeof(UWord));
   VG_(memcpy)((void*)(nsp + head * sizeof(UWord)), keep, (k + 1) * 2 * sizeof(UWord));
   VG_(memset)((void*)sp, 0, nsp - sp);
   VG_(free)(keep);
   tg_auxv_removed = removed;
   return nsp;
}

/* Thread 1 gets the CPU for the first time: nothing of the client has run,
   its stack pointer still points at argc. */
static void tg_start_client(ThreadId tid, ULong blocks_dispatched)
{
   UWord *p, *auxv;
   UWord argc, envc, n, i;
   Addr sp;
   if (tg_auxv_done) return;
   tg_auxv_done = True;
   if (!clo_pin_random && !clo_pin_host && clo_cpu_level == TG_CPU_HOST) return;
   if (tid != 1 || blocks_dispatched != 0) {
      VG_(umsg)("hwptrace: warning: client started unexpectedly (tid %u, %llu "
                "blocks); auxv (AT_RANDOM, AT_HWCAP) not pinned\n", tid, blocks_dispatched);
      return;
   }
   sp = VG_(get_SP)(1);
   p = (UWord*)sp;
   argc = p[0];
   for (envc = 0; p[1 + argc + 1 + envc] != 0 && envc < 1000000; envc++) ;
   auxv = p + 1 + argc + 1 + envc + 1;
   for (n = 0; auxv[2 * n] != TG_AT_NULL && n < 1000; n++) ;
   if (clo_pin_host) {
      UWord head = 1 + argc + 1 + envc + 1;
      Addr nsp = tg_canonical_auxv(sp, head, auxv, n);
      if (nsp != sp) {
         VG_(set_shadow_regs_area)(1, 0, offsetof(VexGuestAMD64State, guest_RSP),
                                   sizeof nsp, (const UChar*)&nsp);
         sp = nsp;
      }
      p = (UWord*)sp;
      auxv = p + head;
      VG_(client_envp) = (HChar**)(p + 1 + argc + 1);
      VG_(client_auxv) = auxv;
      for (n = 0; auxv[2 * n] != TG_AT_NULL; n++) ;
   }
   for (i = 0; i < n; i++) {
      UWord* e = auxv + 2 * i;
      if (e[0] == TG_AT_RANDOM && e[1] != 0 && clo_pin_random) {
         TGStream st = { TG_SEED_AUXV, 0 };
         tg_stream_fill(&st, (UChar*)e[1], 16);
         tg_auxv_pinned = True;
      } else if (e[0] == TG_AT_IGNORE && clo_pin_random) {
         e[1] = 0;   /* e.g. the host's (ASLR) vDSO address Valgrind hid */
      } else if (e[0] == TG_AT_HWCAP && clo_cpu_level != TG_CPU_HOST) {
         e[1] = (UWord)tg_level_hwcap();
      }
   }
   if (clo_pin_random && !tg_auxv_pinned)
      VG_(umsg)("hwptrace: warning: no AT_RANDOM entry in the client's auxv; "
                "not pinned\n");
}

static Int tg_dirent_cmp(const void* a, const void* b)
{
   const UChar* x = *(const UChar* const*)a + 19;   /* d_name */
   const UChar* y = *(const UChar* const*)b + 19;
   while (*x && *x == *y) { x++; y++; }
   return (Int)*x - (Int)*y;
}

/* Sort the linux_dirent64 records (u64 d_ino, s64 d_off, u16 d_reclen,
   u8 d_type, name) of one getdents64 result by name. */
static void tg_sort_dirents(UChar* buf, SizeT len)
{
   SizeT off, n = 0, k;
   UChar **recs, *tmp, *q;
   for (off = 0; off + 19 < len; n++) {
      UShort reclen = *(UShort*)(buf + off + 16);
      if (reclen < 20 || off + reclen > len) return;   /* not what we expect */
      off += reclen;
   }
   if (off != len || n < 2) return;
   recs = VG_(malloc)("hwptrace.dirents", n * sizeof(UChar*));
   for (off = 0, k = 0; k < n; k++) {
      recs[k] = buf + off;
      off += *(UShort*)(buf + off + 16);
   }
   VG_(ssort)(recs, n, sizeof(UChar*), tg_dirent_cmp);
   tmp = VG_(malloc)("hwptrace.dirents", len);
   for (q = tmp, k = 0; k < n; k++) {
      UShort reclen = *(UShort*)(recs[k] + 16);
      VG_(memcpy)(q, recs[k], reclen);
      q += reclen;
   }
   VG_(memcpy)(buf, tmp, len);
   VG_(free)(tmp);
   VG_(free)(recs);
   tg_dirents_sorted++;
}

/* struct sysinfo (x86-64): long uptime @0, ulong loads[3] @8, totalram @32,
   freeram @40, sharedram @48, bufferram @56, totalswap @64, freeswap @72,
   u16 procs @80, totalhigh @88, freehigh @96, u32 mem_unit @104. */
static void tg_pin_sysinfo(UChar* si)
{
   ULong v[12] = { 1000, 0, 0, 0, 16ULL << 30, 12ULL << 30, 0, 0, 0, 0 };
   UShort procs = 1;
   UInt unit = 1;
   VG_(memcpy)(si, v, 80);
   VG_(memcpy)(si + 80, &procs, 2);
   VG_(memset)(si + 88, 0, 16);
   VG_(memcpy)(si + 104, &unit, 4);
   tg_sysinfo_pinned++;
}

/* struct new_utsname: six 65-byte fields; nodename @65, domainname @325. */
static void tg_pin_uname(HChar* u)
{
   VG_(memset)(u + 65, 0, 65);
   VG_(strcpy)(u + 65, "hwptrace");
   VG_(memset)(u + 325, 0, 65);
   VG_(strcpy)(u + 325, "(none)");
   tg_uname_pinned++;
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

/* Redirect the CPUID helper call of a block to the level's (--cpu-level),
   and the RDRAND/RDSEED/RDTSC/RDTSCP ones to the pinned versions
   (--pin-random); in place, result temp and guest-state effects
   unchanged. */
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
      if (clo_cpu_level != TG_CPU_HOST
          && VG_(strncmp)(d->cee->name, "amd64g_dirtyhelper_CPUID", 24) == 0) {
         sb->stmts[i] = IRStmt_Dirty(tg_pinned_cpuid(d));
         continue;
      }
      if (!clo_pin_random) continue;
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
   if (sr_isError(res)) return;
   if (clo_pin_host) {
      switch (sysno) {
         case __NR_getdents64:
            tg_sort_dirents((UChar*)args[1], (SizeT)sr_Res(res));
            return;
         case __NR_sysinfo:
            tg_pin_sysinfo((UChar*)args[0]);
            return;
         case __NR_uname:
            tg_pin_uname((HChar*)args[0]);
            return;
         default:
            break;
      }
   }
   if (!clo_pin_random) return;
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

/*------------------------------------------------------------*/
/*--- Basic-block vectors                                  ---*/
/*------------------------------------------------------------*/

/* For SimPoint: exp-bbv's output, but with the slices cut exactly where a
   capture's --skip counts, so that a window --skip k*N --capture N of the
   same (pinned) run is slice k.  Stock exp-bbv counts a rep-prefixed
   instruction once per execution (we count every iteration, as traces and
   Lackey do) and closes an interval one instruction late, so its slices
   drift from our windows.

   A block is a superblock, named by the address of its first instruction
   (as exp-bbv does); ids are given at the block's first translation,
   which is its first execution (1, 2, ...), and kept if the code is
   translated again.  A block's count in a slice is the number of its
   instructions executed in that slice.  No helper call per block: each
   exit-delimited segment of n instructions adds n to the instruction
   counter and to its block's counter inline (count-ahead, as in skip mode:
   a segment's instructions all run unless the program faults), and calls
   tg_bbv_cross only when the counter reaches the end of the slice.  That
   call gives the segment's instructions beyond the boundary to the next
   slice and writes the finished slice: "T", then ":id:count   " for every
   block with a non-zero count in id order, then LF (exp-bbv's spelling,
   three spaces included).  At exit the last, partial slice is written if
   it has instructions, so the counts of all lines add up to the run's
   instruction count.  Threads are not told apart (Valgrind runs one at a
   time; the suite is single-threaded). */

typedef struct {
   ULong count;          /* instructions in the current slice (generated code) */
   Addr addr;            /* first instruction of the superblock */
   UInt id;
   const HChar* fn;      /* function name at translation time, for --bbv-pc-out */
} TGBlock;

#define TG_BBV_CHUNK 4096
static TGBlock** tg_bbv_chunks;   /* blocks by id - 1, in chunks that never move */
static UInt tg_bbv_nchunks, tg_bbv_nblocks;
static TGBlock** tg_bbv_hash;     /* open addressing on addr */
static UInt tg_bbv_hash_size;
static ULong tg_bbv_next;         /* icount at which the current slice ends */
static ULong tg_bbv_slices;
static Int tg_bbv_fd = -1;
static UChar tg_bbv_buf[1 << 16];
static UInt tg_bbv_used;

static UInt tg_bbv_slot(Addr a, UInt size)
{
   ULong h = (ULong)a * 0x9e3779b97f4a7c15ULL;
   return (UInt)(h >> 32) & (size - 1);
}

static void tg_bbv_grow(void)
{
   UInt size = tg_bbv_hash_size ? 2 * tg_bbv_hash_size : 1u << 16, i, k;
   TGBlock** h = VG_(calloc)("hwptrace.bbv.hash", size, sizeof(TGBlock*));
   for (i = 0; i < tg_bbv_hash_size; i++) {
      TGBlock* b = tg_bbv_hash[i];
      if (!b) continue;
      for (k = tg_bbv_slot(b->addr, size); h[k]; k = (k + 1) & (size - 1)) ;
      h[k] = b;
   }
   if (tg_bbv_hash) VG_(free)(tg_bbv_hash);
   tg_bbv_hash = h;
   tg_bbv_hash_size = size;
}

/* The block of the superblock at a; a new one gets the next id. */
static TGBlock* tg_bbv_block(Addr a)
{
   UInt k;
   TGBlock* b;
   const HChar* fn;
   if (2 * (tg_bbv_nblocks + 1) > tg_bbv_hash_size) tg_bbv_grow();
   for (k = tg_bbv_slot(a, tg_bbv_hash_size); tg_bbv_hash[k]; k = (k + 1) & (tg_bbv_hash_size - 1))
      if (tg_bbv_hash[k]->addr == a) return tg_bbv_hash[k];
   if (tg_bbv_nblocks % TG_BBV_CHUNK == 0) {
      tg_bbv_chunks = VG_(realloc)("hwptrace.bbv.chunks", tg_bbv_chunks,
                                   (tg_bbv_nchunks + 1) * sizeof(TGBlock*));
      tg_bbv_chunks[tg_bbv_nchunks++] = VG_(calloc)("hwptrace.bbv.blocks", TG_BBV_CHUNK,
                                                    sizeof(TGBlock));
   }
   b = &tg_bbv_chunks[tg_bbv_nblocks / TG_BBV_CHUNK][tg_bbv_nblocks % TG_BBV_CHUNK];
   b->addr = a;
   b->id = ++tg_bbv_nblocks;
   b->fn = NULL;
   if (clo_bbv_pc_out != NULL)
      b->fn = VG_(get_fnname)(VG_(current_DiEpoch)(), a, &fn) ? VG_(strdup)("hwptrace.bbv.fn", fn)
                                                             : "???";
   tg_bbv_hash[k] = b;
   return b;
}

static void tg_bbv_flush(void)
{
   if (tg_bbv_used) tg_write_all_fd(tg_bbv_fd, tg_bbv_buf, tg_bbv_used);
   tg_bbv_used = 0;
}

static void tg_bbv_put(const HChar* str)
{
   SizeT n = VG_(strlen)(str);
   if (tg_bbv_used + n > sizeof tg_bbv_buf) tg_bbv_flush();
   VG_(memcpy)(tg_bbv_buf + tg_bbv_used, str, n);
   tg_bbv_used += n;
}

/* Write the current slice's vector and clear the counts. */
static void tg_bbv_dump(void)
{
   UInt i;
   HChar item[64];
   tg_bbv_put("T");
   for (i = 0; i < tg_bbv_nblocks; i++) {
      TGBlock* b = &tg_bbv_chunks[i / TG_BBV_CHUNK][i % TG_BBV_CHUNK];
      if (b->count == 0) continue;
      VG_(sprintf)(item, ":%u:%llu   ", b->id, b->count);
      tg_bbv_put(item);
      b->count = 0;
   }
   tg_bbv_put("\n");
   tg_bbv_slices++;
}

/* Generated code: block b's segment of n instructions took tg_icount to
   or past tg_bbv_next (b->count includes the n). */
static VG_REGPARM(2) void tg_bbv_cross(TGBlock* b, ULong n)
{
   while (tg_icount >= tg_bbv_next) {
      ULong over = tg_icount - tg_bbv_next;   /* this segment's, after the boundary */
      b->count -= over;
      tg_bbv_dump();
      b->count = over;
      tg_bbv_next += (ULong)clo_bbv_slice;
   }
}

/* Inline: tg_icount += n; b->count += n; if tg_icount >= tg_bbv_next, call
   tg_bbv_cross(b, n). */
static void tg_bbv_count(IRSB* sb, TGBlock* b, UInt n)
{
   IRExpr *ic, *c, *nx, *g;
   IRDirty* di;
   IRExpr* ica = IRExpr_Const(IRConst_U64((ULong)(Addr)&tg_icount));
   IRExpr* ca = IRExpr_Const(IRConst_U64((ULong)(Addr)&b->count));
   ic = tg_assign(sb, Ity_I64, IRExpr_Binop(Iop_Add64, tg_assign(sb, Ity_I64,
                  IRExpr_Load(Iend_LE, Ity_I64, ica)), IRExpr_Const(IRConst_U64(n))));
   addStmtToIRSB(sb, IRStmt_Store(Iend_LE, ica, ic));
   c = tg_assign(sb, Ity_I64, IRExpr_Binop(Iop_Add64, tg_assign(sb, Ity_I64,
                 IRExpr_Load(Iend_LE, Ity_I64, ca)), IRExpr_Const(IRConst_U64(n))));
   addStmtToIRSB(sb, IRStmt_Store(Iend_LE, ca, c));
   nx = tg_assign(sb, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64,
                  IRExpr_Const(IRConst_U64((ULong)(Addr)&tg_bbv_next))));
   g = tg_assign(sb, Ity_I1, IRExpr_Binop(Iop_CmpLE64U, nx, ic));
   di = unsafeIRDirty_0_N(2, "tg_bbv_cross", VG_(fnptr_to_fnentry)(tg_bbv_cross),
                          mkIRExprVec_2(mkIRExpr_HWord((HWord)b), mkIRExpr_HWord(n)));
   di->guard = g;
   di->mFx = Ifx_Modify;           /* the counters and tg_bbv_next */
   di->mAddr = IRExpr_Const(IRConst_U64((ULong)(Addr)&tg_bbv_next));
   di->mSize = 8;
   addStmtToIRSB(sb, IRStmt_Dirty(di));
}

static IRSB* tg_instrument_bbv(IRSB* sbIn, IRSB* sbOut, Int i)
{
   TGBlock* b;
   UInt n;
   if (i >= sbIn->stmts_used) return sbOut;
   b = tg_bbv_block((Addr)sbIn->stmts[i]->Ist.IMark.addr);
   n = tg_segment_insns(sbIn, i);
   if (n > 0) tg_bbv_count(sbOut, b, n);
   for (; i < sbIn->stmts_used; i++) {
      IRStmt* st = sbIn->stmts[i];
      addStmtToIRSB(sbOut, st);
      if (st->tag == Ist_Exit) {
         n = tg_segment_insns(sbIn, i + 1);
         if (n > 0) tg_bbv_count(sbOut, b, n);
      }
   }
   return sbOut;
}

static void tg_bbv_fini(void)
{
   UInt i;
   HChar line[64];
   Int fd;
   /* The last slice, partial, if it has instructions. */
   if (tg_icount > tg_bbv_next - (ULong)clo_bbv_slice) tg_bbv_dump();
   tg_bbv_flush();
   VG_(close)(tg_bbv_fd);
   if (clo_bbv_pc_out == NULL) return;
   fd = VG_(fd_open)(clo_bbv_pc_out, VKI_O_WRONLY | VKI_O_CREAT | VKI_O_TRUNC, 0644);
   if (fd < 0) {
      VG_(fmsg)("hwptrace: cannot create --bbv-pc-out=%s\n", clo_bbv_pc_out);
      VG_(exit)(1);
   }
   tg_bbv_fd = fd;
   for (i = 0; i < tg_bbv_nblocks; i++) {
      TGBlock* b = &tg_bbv_chunks[i / TG_BBV_CHUNK][i % TG_BBV_CHUNK];
      VG_(snprintf)(line, sizeof line, "F:%u:%lx:", b->id, b->addr);
      tg_bbv_put(line);
      tg_bbv_put(b->fn);
      tg_bbv_put("\n");
   }
   tg_bbv_flush();
   VG_(close)(fd);
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

/* Open path for writing and move the fd out of the client's way (the
   client's next open() must get the same fd number as without us, and
   the same in trace and BBV mode). */
static Int tg_open_high(const HChar* opt, const HChar* path)
{
   Int fd, hi;
   /* A FIFO without a reader (the packer died) would block the open
      below forever: probe it without blocking first (ENXIO). */
   SysRes pr = VG_(open)(path, VKI_O_WRONLY | VKI_O_CREAT | VKI_O_NONBLOCK, 0644);
   if (sr_isError(pr)) {
      VG_(fmsg)("hwptrace: cannot open %s=%s%s\n", opt, path,
                sr_Err(pr) == VKI_ENXIO ? " (a FIFO without reader: packer gone?)" : "");
      VG_(exit)(1);
   }
   VG_(close)((Int)sr_Res(pr));
   fd = VG_(fd_open)(path, VKI_O_WRONLY | VKI_O_CREAT | VKI_O_TRUNC, 0644);
   if (fd < 0) {
      VG_(fmsg)("hwptrace: cannot open %s=%s\n", opt, path);
      VG_(exit)(1);
   }
   for (hi = 999; hi > 10; hi--) {
      struct vg_stat st;
      if (VG_(fstat)(hi, &st) < 0) {
         SysRes r = VG_(dup2)(fd, hi);
         if (!sr_isError(r)) { VG_(close)(fd); fd = hi; }
         break;
      }
   }
   return fd;
}

static void tg_open_output(void)
{
   if (clo_out != NULL) {
      tg_fd = tg_open_high("--out", clo_out);
   } else if (clo_out_fd >= 0) {
      tg_fd = (Int)clo_out_fd;
   } else {
      VG_(fmsg_bad_option)("--out", "hwptrace needs --out=<path> or --out-fd=<n> (or --bbv-out=<path>)\n");
   }
}

static void tg_post_clo_init(void)
{
   SizeT size = (SizeT)clo_buf_mib << 20;
   /* Every guest branch must be an IR exit or a block end. */
   VG_(clo_vex_control).guest_chase = False;
   tg_cpu_init();
   if (clo_bbv_out != NULL) {
      if (clo_bbv_slice <= 0)
         VG_(fmsg_bad_option)("--bbv-out", "needs --bbv-slice=<n> (instructions per slice)\n");
      if (clo_skip || clo_capture || clo_out || clo_out_fd >= 0)
         VG_(fmsg_bad_option)("--bbv-out", "writes no trace: --out, --out-fd, --skip and "
                              "--capture do not apply\n");
      tg_bbv_fd = tg_open_high("--bbv-out", clo_bbv_out);
      tg_bbv_next = (ULong)clo_bbv_slice;
      tg_mode = MODE_DONE;
      return;
   }
   if (clo_bbv_slice > 0 || clo_bbv_pc_out != NULL)
      VG_(fmsg_bad_option)("--bbv-slice/--bbv-pc-out", "need --bbv-out=<path>\n");
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
            | (clo_assist_exits ? TG_OPT_ASSIST_EXITS : 0)
            | (clo_pin_random ? TG_OPT_PIN_RANDOM : 0)
            | (clo_pin_host ? TG_OPT_PIN_HOST : 0));
   tg_put32(tg_cpu_word);
   if (clo_skip == 0) {
      tg_mode = MODE_TRACE;
      tg_put32(TG_TAG_START);
      tg_put64(0);
   }
}

static void tg_fini(Int exitcode)
{
   if (clo_bbv_out != NULL) {
      tg_bbv_fini();
   } else {
      if (tg_mode != MODE_DONE)
         tg_flush_buf();
      tg_write_end(TG_REASON_EXIT, exitcode);
      VG_(close)(tg_fd);
   }
   if (VG_(clo_verbosity) > 1) {
      if (clo_bbv_out != NULL)
         VG_(umsg)("hwptrace: bbv: %llu instructions, %llu slices of %lld, %u blocks\n",
                   tg_icount, tg_bbv_slices, clo_bbv_slice, tg_bbv_nblocks);
      else
         VG_(umsg)("hwptrace: %llu bytes in %llu frames, %u blocks, icount %llu\n",
                   tg_bytes_out, tg_flushes, tg_next_id, tg_icount);
      VG_(umsg)("hwptrace: pin-random %s: AT_RANDOM %s, %llu random bytes "
                "in %llu calls pinned, %llu RDRAND/RDSEED, %llu RDTSC(P)\n",
                clo_pin_random ? "yes" : "no", tg_auxv_pinned ? "pinned" : "not pinned",
                tg_rnd_bytes, tg_rnd_calls, tg_rdrand_calls, tg_tsc_calls);
      VG_(umsg)("hwptrace: cpu-level %s: %llu CPUID translations pinned; pin-host %s: "
                "%lu auxv entries removed, %llu directory reads sorted, %llu sysinfo, "
                "%llu uname\n", tg_level_names[clo_cpu_level], tg_cpuid_calls_pinned,
                clo_pin_host ? "yes" : "no", tg_auxv_removed, tg_dirents_sorted,
                tg_sysinfo_pinned, tg_uname_pinned);
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
