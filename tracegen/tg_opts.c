/* tg_opts.c - hwptrace's command-line options: the clo_* settings, their
 * parsing, the usage text, and the checks of combinations made after
 * parsing (tracegen/README.md, "Tool options").
 */

#include "tg_int.h"

const HChar* clo_out = NULL;   /* path (FIFO or file) */
Long clo_out_fd = -1;          /* or an inherited fd */
Long clo_skip = 0;
Long clo_capture = 0;
Int clo_at_end = 0;            /* 0 stop-tracing, 1 exit */
Bool clo_trace_mem = True;
Bool clo_trace_values = True;
Bool clo_trace_branches = True;
Bool clo_assist_exits = False;  /* non-Boring exits as branches */
Long clo_buf_mib = 8;
Bool clo_pin_random = True;    /* AT_RANDOM, getrandom, urandom, RDRAND, RDTSC */
Int  clo_cpu_level = TG_CPU_V2; /* TG_CPU_*: the CPUID identity the client sees */
Bool clo_pin_host = True;      /* auxv, directory order, sysinfo, host name */
const HChar* clo_bbv_out = NULL;   /* basic-block-vector mode: output file */
const HChar* clo_bbv_pc_out = NULL; /* block id -> address, function */
Long clo_bbv_slice = 0;        /* instructions per slice */
const HChar* const tg_level_names[TG_CPU_LEVELS] = TG_CPU_LEVEL_NAMES;

Bool tg_process_cmd_line_option(const HChar* arg)
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

void tg_print_usage(void)
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

void tg_print_debug_usage(void)
{
   VG_(printf)("    (none)\n");
}

/* A bad combination of options.  VG_(fmsg_bad_option) exits only while
   Valgrind is still parsing the command line; from post-init (where the
   combinations are checked) it prints and returns, and the tool would go
   on (--bbv-out without --bbv-slice spun for ever), so exit here. */
static void tg_bad_combination(const HChar* opt, const HChar* why)
{
   VG_(fmsg_bad_option)(opt, "%s", why);
   VG_(exit)(1);
}

/* Combinations, checked once all options are known: BBV mode writes no
   trace, and trace mode needs an output. */
void tg_check_options(void)
{
   if (clo_bbv_out != NULL) {
      if (clo_bbv_slice <= 0)
         tg_bad_combination("--bbv-out", "needs --bbv-slice=<n> (instructions per slice)\n");
      if (clo_skip || clo_capture || clo_out || clo_out_fd >= 0)
         tg_bad_combination("--bbv-out", "writes no trace: --out, --out-fd, --skip and "
                            "--capture do not apply\n");
      return;
   }
   if (clo_bbv_slice > 0 || clo_bbv_pc_out != NULL)
      tg_bad_combination("--bbv-slice/--bbv-pc-out", "need --bbv-out=<path>\n");
   if (clo_out == NULL && clo_out_fd < 0)
      tg_bad_combination("--out", "hwptrace needs --out=<path> or --out-fd=<n> (or --bbv-out=<path>)\n");
}
