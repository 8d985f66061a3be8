/* exact_keys.c - stage "exact_keys": exact key counts of a stream (see exact_keys.h). */
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

struct exact_st {
    struct keysel sel;
    struct keycount *kc;
};

static void *exact_create(const struct param_values *pv, char *err, size_t errlen)
{
    struct exact_st *s = malloc(sizeof *s);
    if (!s || !(s->kc = keycount_create(1 << 16))) {
        free(s);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    keysel_init(&s->sel, pv_enum(pv, "filter"), pv_enum(pv, "key"), pv_enum(pv, "key2"), (unsigned)pv_int(pv, "key_bits"),
                (unsigned)pv_int(pv, "key2_bits"));
    return s;
}

static size_t exact_feed(void *st, const void *in, size_t n, struct chunk *out)
{
    struct exact_st *s = st;
    const struct event *ev = in;
    for (size_t i = 0; i < n; i++) {
        uint64_t x, y;
        if (keysel_key(&s->sel, &ev[i], &x, &y))
            (void)keycount_add(s->kc, x, y, 1); /* out of memory: keycount_failed, checked at finish */
    }
    out->recs = NULL;
    out->n = 0;
    out->mark = MARK_NONE;
    return n;
}

static void exact_finish(void *st, struct chunk *out)
{
    struct exact_st *s = st;
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
