/* tg_pin.c - hwptrace's pinned randomness (--pin-random) and pinned view
 * of the host (--pin-host): the client's initial stack (AT_RANDOM, the
 * auxv), the system calls whose results are overwritten (getrandom,
 * reads of /dev/urandom, getdents64, sysinfo, uname), and the dirty
 * helper calls replaced at instrumentation time (RDRAND/RDSEED,
 * RDTSC/RDTSCP, and CPUID for tg_cpu.c).  tracegen/README.md,
 * "Determinism" and "Pinned CPU and host".
 */

#include "tg_int.h"

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

/*------------------------------------------------------------*/
/*--- Pinned host                                          ---*/
/*------------------------------------------------------------*/

/* --pin-host=yes (default) fixes what the client can learn about the host
   without reading files, apart from the CPU (tg_cpu.c):
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

/* Valgrind core variables (pub_core_clientstate.h), kept pointing at the
   moved envp and auxv. */
extern HChar** VG_(client_envp);
extern UWord*  VG_(client_auxv);

static ULong tg_dirents_sorted, tg_sysinfo_pinned, tg_uname_pinned;
static UWord tg_auxv_removed;

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

/*------------------------------------------------------------*/
/*--- Hooks: start of the client, system calls, helpers    ---*/
/*------------------------------------------------------------*/

/* Thread 1 gets the CPU for the first time: nothing of the client has run,
   its stack pointer still points at argc. */
void tg_start_client(ThreadId tid, ULong blocks_dispatched)
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

/* Redirect the CPUID helper call of a block to the level's (--cpu-level),
   and the RDRAND/RDSEED/RDTSC/RDTSCP ones to the pinned versions
   (--pin-random); in place, result temp and guest-state effects
   unchanged. */
void tg_pin_helpers(IRSB* sb)
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

void tg_pre_syscall(ThreadId tid, UInt sysno, UWord* args, UInt nArgs)
{
}

void tg_post_syscall(ThreadId tid, UInt sysno, UWord* args, UInt nArgs,
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

void tg_pin_report(void)
{
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
