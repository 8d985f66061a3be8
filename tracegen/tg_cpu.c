/* tg_cpu.c - hwptrace's pinned CPU identity (--cpu-level): which of VEX's
 * fixed CPUID identities the client sees, checked against the host at
 * start-up, the CPUID helper calls redirected to it, and the AT_HWCAP
 * that goes with it (tracegen/README.md, "Pinned CPU and host").
 */

#include "tg_int.h"

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
   (tg_levels[].needs; refused otherwise): VEX decodes AVX and XGETBV only on
   AVX hosts, and F3 0F BC/BD as TZCNT/LZCNT only on BMI/LZCNT hosts (BSF/
   BSR otherwise).  The auxv AT_HWCAP (the kernel's copy of CPUID.1:EDX) is
   set to the identity's.  host keeps VEX's choice and the host's AT_HWCAP. */

/* VEX's CPUID helpers (VEX/priv/guest_amd64_defs.h; the tool is linked
   statically with libvex). */
extern void amd64g_dirtyhelper_CPUID_baseline(VexGuestAMD64State* st);
extern void amd64g_dirtyhelper_CPUID_sse42_and_cx16(VexGuestAMD64State* st);
extern void amd64g_dirtyhelper_CPUID_avx_and_cx16(VexGuestAMD64State* st, ULong hasF16C,
                                                  ULong hasRDRAND, ULong hasRDSEED);
extern void amd64g_dirtyhelper_CPUID_avx2(VexGuestAMD64State* st, ULong hasF16C,
                                          ULong hasRDRAND, ULong hasRDSEED);

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
UInt  tg_cpu_word;      /* HELLO: level | identity << 8 | host extras */
ULong tg_cpuid_calls_pinned;

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
void tg_cpu_init(void)
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
ULong tg_level_hwcap(void)
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
IRDirty* tg_pinned_cpuid(IRDirty* d)
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
