/* tg_raw.h - the raw record stream between the hwptrace Valgrind tool
 * (tracegen/tg_*.c; tg_out.c and tg_instr.c write it) and the packer
 * (tracegen/packer.c).
 *
 * Why a private raw format: the tool cannot link libc/zstd and must not pay
 * a helper call per event, so it writes the smallest possible dynamic data
 * with inline IR (block id + load addresses/values + store addresses + exit
 * bits) and describes each superblock once, at instrumentation time, with a
 * template (BLOCK_DEF).  The packer expands templates into struct event.
 * This header is included by both sides, so it uses only fixed-size integer
 * types spelled via TG_U8..TG_U64 (the tool defines them from Valgrind's
 * UChar/UInt/ULong, the packer from <stdint.h>).
 *
 * Stream = frames.  Frame: u32 TG_FRAME_MAGIC, u32 payload bytes, payload.
 * A payload is a sequence of records; records never straddle frames.
 * Record: u32 tag.
 *   tag < TG_TAG_FIRST_CTRL: execution of block `tag`, followed by its
 *     dynamic fields, item by item in template order, up to the end of the
 *     block or up to (and including) the taken-byte of the exit that left:
 *       LOAD : [addr u64 if F_DYNADDR] [guard u8 if F_GUARD] [value, vbytes]
 *       STORE: [addr u64 if F_DYNADDR and not F_MODIFY] [guard u8 if F_GUARD]
 *       EXIT : [taken u8]  (taken = the IR side exit was taken)
 *       END  : [dest u64 if F_DYNDEST]
 *     INSN items have no dynamic fields.
 *   TG_TAG_HELLO: u32 version, u64 skip, u64 window, u32 opts, u32 cpu
 *                 (cpu: bits 0-7 the --cpu-level (TG_CPU_*), bits 8-15 the
 *                 CPUID identity the client sees (TG_ID_*), bits 16-18 the
 *                 host's F16C/RDRAND/RDSEED that VEX patches into the AVX
 *                 identities (level host only)).
 *   TG_TAG_DEF:   u32 id, u32 nitems, then nitems x struct tg_item.
 *   TG_TAG_START: u64 icount (guest instructions executed before the first
 *                 traced block; the packer drops skip - icount more).
 *   TG_TAG_END:   u64 icount (tool's count, 0 if not counted), i64 exit
 *                 code, u32 reason (TG_END_*), u32 pad.
 * All integers little-endian, unaligned.
 */
#ifndef TG_RAW_H
#define TG_RAW_H

#define TG_RAW_VERSION 2u
#define TG_FRAME_MAGIC 0x31524754u /* "TGR1" */
#define TG_TAG_FIRST_CTRL 0xFFFFFF00u
#define TG_TAG_HELLO 0xFFFFFFF0u
#define TG_TAG_DEF 0xFFFFFFF1u
#define TG_TAG_START 0xFFFFFFF2u
#define TG_TAG_END 0xFFFFFFF3u

/* item ops */
#define TG_OP_INSN 1
#define TG_OP_LOAD 2
#define TG_OP_STORE 3
#define TG_OP_EXIT 4
#define TG_OP_END 5

/* item flags */
#define TG_F_DYNADDR 0x01  /* LOAD/STORE: address recorded dynamically */
#define TG_F_GUARD 0x02    /* LOAD/STORE: guarded (LoadG/StoreG): guard byte */
#define TG_F_NOVALUE 0x04  /* LOAD: value not available (dirty helper) */
#define TG_F_MODIFY 0x08   /* STORE: merged with the preceding load (Lackey M) */
#define TG_F_INVERTED 0x10 /* EXIT: exit goes to the fall-through (taken = !exit) */
#define TG_F_ASSIST 0x20   /* EXIT: not Ijk_Boring (SEGV check, EmWarn, ...) */
#define TG_F_DYNDEST 0x40  /* END: destination recorded dynamically */

/* END item kinds (tg_item.size) */
#define TG_END_NONE 0
#define TG_END_CALL 1
#define TG_END_RET 2
#define TG_END_IJUMP 3

/* HELLO opts bits */
#define TG_OPT_MEM 0x1
#define TG_OPT_VALUES 0x2
#define TG_OPT_BRANCHES 0x4
#define TG_OPT_ASSIST_EXITS 0x8 /* assist exits reported as branches */
#define TG_OPT_PIN_RANDOM 0x10  /* --pin-random=yes */
#define TG_OPT_PIN_HOST 0x20    /* --pin-host=yes */

/* HELLO cpu word: CPU feature levels (--cpu-level) and the fixed CPUID
   identities of VEX (guest_amd64_helpers.c) that the client sees. */
#define TG_CPU_HOST 0   /* VEX's choice from the host's capabilities */
#define TG_CPU_V1 1     /* "x86-64": baseline identity */
#define TG_CPU_V2 2     /* "x86-64-v2": sse42_and_cx16 identity (default) */
#define TG_CPU_AVX 3    /* "avx": avx_and_cx16 identity, no F16C/RDRAND/RDSEED */
#define TG_CPU_V3 4     /* "x86-64-v3": avx2 identity with F16C */
#define TG_CPU_LEVELS 5
#define TG_CPU_LEVEL_NAMES { "host", "x86-64", "x86-64-v2", "avx", "x86-64-v3" }
#define TG_ID_BASELINE 1 /* AMD Opteron 848: SSE2, no SSE3, no CX16 */
#define TG_ID_SSE42 2    /* Intel Core i5-670 (Westmere): SSE4.2, POPCNT, CX16 */
#define TG_ID_AVX 3      /* Intel Core i5-2300 (Sandy Bridge): AVX */
#define TG_ID_AVX2 4     /* Intel Core i7-4910MQ (Haswell): AVX2, BMI1/2, FMA */
#define TG_ID_NAMES { "?", "AMD Opteron 848 (VEX amd64g_dirtyhelper_CPUID_baseline)", \
                      "Intel Core i5-670 (VEX amd64g_dirtyhelper_CPUID_sse42_and_cx16)", \
                      "Intel Core i5-2300 (VEX amd64g_dirtyhelper_CPUID_avx_and_cx16)", \
                      "Intel Core i7-4910MQ (VEX amd64g_dirtyhelper_CPUID_avx2)" }
#define TG_ID_F16C 0x10000u
#define TG_ID_RDRAND 0x20000u
#define TG_ID_RDSEED 0x40000u

/* END reasons */
#define TG_REASON_EXIT 0   /* program exited (fini) */
#define TG_REASON_WINDOW 1 /* capture window done (tracing stopped) */
#define TG_REASON_WINDOW_EXIT 2 /* window done, tool exits the program */

/* One template item, 32 bytes. */
struct tg_item {
    TG_U64 pc;   /* guest instruction address */
    TG_U64 a;    /* LOAD/STORE: static address; EXIT: taken target; END: static dest */
    TG_U64 b;    /* EXIT: fall-through */
    TG_U32 size; /* INSN: length; LOAD/STORE: bytes; END: TG_END_* */
    TG_U8 op;
    TG_U8 flags;
    TG_U8 vbytes; /* LOAD: bytes of value recorded (0..8) */
    TG_U8 pad;
};

#endif
