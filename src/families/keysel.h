/* keysel.h - which records of an event stream count and what their key is:
 * the one rule that a profiling model and the exact reference counting the
 * same stream (stages/exact_keys.c) must share, so that they see the same
 * keys.
 *
 *   filter  all         every record (e.g. a stage's output: block starts, DL1 misses)
 *           loads       EV_LOAD records
 *           zero_loads  EV_LOAD records that loaded the value 0
 *           l2_miss     records flagged EVF_L2MISS (the cache stage's L2 misses)
 *   key     pc | address | value (pc: the instruction; address: the data
 *           address, or a control transfer's target; value: a load's value)
 *   key2    none, or a second field for pairs (2-D profiles)
 *   bits    keys are taken modulo 2^bits (their low bits)
 * A record whose key needs its value but has EVF_NOVALUE (Lackey imports)
 * is skipped, as is a zero_loads record without a value.
 */
#ifndef KEYSEL_H
#define KEYSEL_H

#include <stdint.h>
#include "trace/event.h"

enum keysel_filter { KS_ALL = 0, KS_LOADS = 1, KS_ZERO_LOADS = 2, KS_L2MISS = 3 };
enum keysel_field { KF_PC = 0, KF_ADDR = 1, KF_VALUE = 2, KF_NONE = 3 };

/* Choice lists for P_ENUM rows, in enum order. */
#define KEYSEL_FILTER_CHOICES { "all", "loads", "zero_loads", "l2_miss", NULL }
#define KEYSEL_FIELD_CHOICES { "pc", "address", "value", NULL }
#define KEYSEL_FIELD2_CHOICES { "pc", "address", "value", "none", NULL }

struct keysel {
    int filter, field, field2;
    uint64_t mask, mask2;
    int needs_value;
};

static inline void keysel_init(struct keysel *k, int filter, int field, int field2, unsigned bits, unsigned bits2)
{
    k->filter = filter;
    k->field = field;
    k->field2 = field2;
    k->mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    k->mask2 = bits2 >= 64 ? ~0ull : (1ull << bits2) - 1;
    k->needs_value = filter == KS_ZERO_LOADS || field == KF_VALUE || field2 == KF_VALUE;
}

static inline uint64_t keysel_field_of(int field, const struct event *e)
{
    return field == KF_PC ? e->pc : field == KF_ADDR ? e->addr : e->value;
}

/* 1 and the key(s) when e counts; 0 otherwise. */
static inline int keysel_key(const struct keysel *k, const struct event *e, uint64_t *x, uint64_t *y)
{
    switch (k->filter) {
    case KS_LOADS:
        if (e->kind != EV_LOAD)
            return 0;
        break;
    case KS_ZERO_LOADS:
        if (e->kind != EV_LOAD || e->value != 0)
            return 0;
        break;
    case KS_L2MISS:
        if (!(e->flags & EVF_L2MISS))
            return 0;
        break;
    default:
        break;
    }
    if (k->needs_value && (e->flags & EVF_NOVALUE))
        return 0;
    *x = keysel_field_of(k->field, e) & k->mask;
    *y = k->field2 == KF_NONE ? 0 : keysel_field_of(k->field2, e) & k->mask2;
    return 1;
}

#endif
