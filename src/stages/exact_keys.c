/* exact_keys.c - stage "exact_keys": exact key counts of a stream (see exact_keys.h).
 *
 * In front of the table, a small direct-mapped cache of (key, count)
 * merges repeats of a key while it stays there; an entry that another key
 * displaces goes to the table as one weighted add, and finish adds the
 * rest before sorting.  The sorted table - distinct keys, their counts,
 * the total - is the same whatever order and grouping the adds came in, and
 * nothing reads it before finish; the cache only spares most events a probe
 * of a table that, for address pairs, is far larger than the caches.
 *
 * The displaced entries pass through a FIFO of SPILL on their way to the
 * table, in order: entering, an entry's first slot is requested; halfway,
 * the entry its tag names; leaving, it is added.  The requests are thus
 * a few dozen events ahead of the add that needs them, across feeds, so
 * the cache misses of the table overlap with the work of the events in
 * between instead of stalling it (a batch issued all at once waited for
 * its first slot almost at once). */
#include "stages/exact_keys.h"

#include <stdio.h>
#include <stdlib.h>
#include "families/keysel.h"

static const char *const filter_choices[] = KEYSEL_FILTER_CHOICES;
static const char *const field_choices[] = KEYSEL_FIELD_CHOICES;
static const char *const field2_choices[] = KEYSEL_FIELD2_CHOICES;

static const struct param_spec exact_keys_params[] = {
    P_ENUM("filter", 0, filter_choices, "records that count: all | loads | zero_loads | l2_miss (keysel.h)"),
    P_ENUM("key", 0, field_choices, "key field: pc | address | value"),
    P_ENUM("key2", 3, field2_choices, "second key field for pairs, or none"),
    P_INT("key_bits", 64, 1, 64, "keys are taken modulo 2^key_bits"),
    P_INT("key2_bits", 64, 1, 64, "second keys are taken modulo 2^key2_bits"),
    PARAM_END,
};

#define FRONT_BITS 12
#define SPILL 32 /* a power of two */

struct front {
    uint64_t a, b, count; /* count 0: empty */
};

struct exact_st {
    struct keysel sel;
    struct keycount *kc;
    struct front *fc;     /* 2^FRONT_BITS entries */
    struct front fifo[SPILL]; /* displaced entries on their way to kc: pushed at fifo_n % SPILL */
    uint64_t fifo_n;      /* entries ever pushed; min(fifo_n, SPILL) are in the FIFO */
};

static void *exact_create(const struct param_values *pv, char *err, size_t errlen)
{
    struct exact_st *s = calloc(1, sizeof *s);
    if (!s || !(s->kc = keycount_create(1 << 16)) || !(s->fc = calloc((size_t)1 << FRONT_BITS, sizeof *s->fc))) {
        if (s)
            keycount_free(s->kc);
        free(s);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    keysel_init(&s->sel, pv_enum(pv, "filter"), pv_enum(pv, "key"), pv_enum(pv, "key2"), (unsigned)pv_int(pv, "key_bits"),
                (unsigned)pv_int(pv, "key2_bits"));
    return s;
}

/* An entry that left the cache enters the FIFO (see the top of the file);
 * the one SPILL pushes older is added to the table. */
static inline void spill(struct exact_st *s, const struct front *f)
{
    uint64_t i = s->fifo_n++;
    struct front *slot = &s->fifo[i % SPILL];
    if (i >= SPILL) /* out of memory: keycount_failed, checked at finish */
        (void)keycount_add(s->kc, slot->a, slot->b, slot->count);
    *slot = *f;
    keycount_prefetch(s->kc, f->a, f->b, 1);
    if (i >= SPILL / 2) {
        const struct front *mid = &s->fifo[(i - SPILL / 2) % SPILL];
        keycount_prefetch(s->kc, mid->a, mid->b, 2);
    }
}

/* Add what the FIFO holds, oldest first. */
static void drain(struct exact_st *s)
{
    uint64_t n = s->fifo_n < SPILL ? s->fifo_n : SPILL;
    for (uint64_t i = s->fifo_n - n; i < s->fifo_n; i++) {
        const struct front *f = &s->fifo[i % SPILL];
        (void)keycount_add(s->kc, f->a, f->b, f->count);
    }
    s->fifo_n = 0;
}

static size_t exact_feed(void *st, const void *in, size_t n, struct chunk *out)
{
    struct exact_st *s = st;
    const struct event *ev = in;
    for (size_t i = 0; i < n; i++) {
        uint64_t x, y;
        if (!keysel_key(&s->sel, &ev[i], &x, &y))
            continue;
        uint64_t h = (x ^ (y * 0xc2b2ae3d27d4eb4full)) * 0x9e3779b97f4a7c15ull;
        struct front *f = &s->fc[h >> (64 - FRONT_BITS)];
        if (f->a == x && f->b == y && f->count) {
            f->count++;
            continue;
        }
        if (f->count)
            spill(s, f);
        f->a = x;
        f->b = y;
        f->count = 1;
    }
    out->recs = NULL;
    out->n = 0;
    out->mark = MARK_NONE;
    return n;
}

static void exact_finish(void *st, struct chunk *out)
{
    struct exact_st *s = st;
    drain(s);
    for (size_t i = 0; i < (size_t)1 << FRONT_BITS; i++)
        if (s->fc[i].count) {
            (void)keycount_add(s->kc, s->fc[i].a, s->fc[i].b, s->fc[i].count);
            s->fc[i].count = 0;
        }
    /* A failed sort leaves the table unsorted: its queries return 0 and
     * consumers see keycount_sorted() == 0 (they report the error as NaN). */
    (void)keycount_sort(s->kc);
    out->recs = NULL;
    out->n = 0;
    out->mark = MARK_NONE;
}

static void *exact_shared(void *st) { return ((struct exact_st *)st)->kc; }

static void exact_free(void *st)
{
    struct exact_st *s = st;
    if (!s)
        return;
    keycount_free(s->kc);
    free(s->fc);
    free(s);
}

const struct stage_desc exact_keys_stage = {
    .name = "exact_keys",
    .summary = "exact count of every key (or key pair) of a stream over the window; answers range and rectangle counts",
    .params = exact_keys_params,
    .input_rec = "event",
    .event_mask = EV_BIT(EV_LOAD),
    .rec_type = "none",
    .rec_size = 0,
    .create = exact_create,
    .feed = exact_feed,
    .finish = exact_finish,
    .shared = exact_shared,
    .free = exact_free,
    .cost = 1,
};
STAGE_REGISTER(exact_keys_stage);
