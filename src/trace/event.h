/* event.h - the decoded trace event: what every reader produces and every
 * model consumes.  One fixed-size struct per event so that a batch is a plain
 * array (no per-event allocation, cache friendly).
 *
 * Field use by kind:
 *   kind       pc                 addr                 value            size      taken  flags
 *   EV_INSN    instruction addr   -                    -                length    -      -
 *   EV_LOAD    instruction addr   data address         loaded value     bytes     -      EVF_NOVALUE if unknown
 *   EV_STORE   instruction addr   data address         -                bytes     -      EVF_MODIFY (Lackey 'M')
 *   EV_BRANCH  branch addr        taken target         fall-through     -         0/1    -
 *   EV_CALL    call site          callee               -                -         -      EVF_INDIRECT if the callee is computed
 *   EV_RET     return instr addr  return destination   -                -         -      -
 *   EV_IJUMP   jump addr          destination          -                -         -      -
 * Loads wider than 8 bytes record the low 8 bytes (little-endian) as value.
 */
#ifndef EVENT_H
#define EVENT_H

#include <stdint.h>

enum ev_kind {
    EV_INSN = 0,
    EV_LOAD = 1,
    EV_STORE = 2,
    EV_BRANCH = 3,
    EV_CALL = 4,
    EV_RET = 5,
    EV_IJUMP = 6,
    EV_KINDS = 7
};

enum ev_flag {
    EVF_NOVALUE = 1u << 0, /* load value not captured (e.g. Lackey import) */
    EVF_MODIFY = 1u << 1,  /* store half of a read-modify-write (Lackey 'M') */
    EVF_L2MISS = 1u << 2,  /* set by the cache stage (stages/cache.c) on the loads it emits (DL1 misses) that also missed L2 */
    EVF_INDIRECT = 1u << 3 /* call through a register or memory (call *%rax): its callee is not in the instruction */
};

struct event {
    uint64_t pc;
    uint64_t addr;
    uint64_t value;
    uint32_t size;
    uint8_t kind;
    uint8_t taken;
    uint8_t flags;
    uint8_t pad_;
};

/* Bit for kind k in a model's event mask. */
#define EV_BIT(k) (1u << (k))
#define EV_ALL ((1u << EV_KINDS) - 1u)

/* One-letter names used by the text format and by `trace info`. */
extern const char ev_kind_letter[EV_KINDS];
extern const char *const ev_kind_name[EV_KINDS];

#endif
