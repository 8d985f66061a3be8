/* cache.c - stage "cache": loads that miss a DL1 + L2 hierarchy (see cache.h). */
#include "stages/cache.h"

#include <stdio.h>
#include <stdlib.h>

#define CACHE_CHUNK 512

static const struct param_spec cache_params[] = {
    CACHE_GEOMETRY_PARAMS,
    PARAM_END,
};

struct cache_st {
    struct cachesim *sim;
    struct event out[CACHE_CHUNK];
};

static void *cache_create(const struct param_values *pv, char *err, size_t errlen)
{
    struct cachesim_cfg cfg = {
        { (uint64_t)pv_int(pv, "l1_size"), (unsigned)pv_int(pv, "l1_ways"), (unsigned)pv_int(pv, "l1_line") },
        { (uint64_t)pv_int(pv, "l2_size"), (unsigned)pv_int(pv, "l2_ways"), (unsigned)pv_int(pv, "l2_line") },
        { (uint64_t)pv_int(pv, "il1_size"), (unsigned)pv_int(pv, "il1_ways"), (unsigned)pv_int(pv, "il1_line") },
        pv_bool(pv, "ifetch"),
    };
    struct cache_st *s = malloc(sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->sim = cachesim_create(&cfg, err, errlen);
    if (!s->sim) {
        free(s);
        return NULL;
    }
    return s;
}

static size_t cache_feed(void *st, const void *in, size_t n, struct chunk *out)
{
    struct cache_st *s = st;
    const struct event *ev = in;
    size_t i = 0, k = 0;
    for (; i < n && k < CACHE_CHUNK; i++) {
        const struct event *e = &ev[i];
        switch (e->kind) {
        case EV_LOAD: {
            unsigned r = cachesim_load(s->sim, e->addr, e->size);
            if (r & CACHE_L1_MISS) {
                s->out[k] = *e;
                if (r & CACHE_L2_MISS)
                    s->out[k].flags |= EVF_L2MISS;
                k++;
            }
            break;
        }
        case EV_STORE:
            cachesim_store(s->sim, e->addr, e->size);
            break;
        case EV_INSN:
            cachesim_ifetch(s->sim, e->pc, e->size);
            break;
        default:
            break;
        }
    }
    out->recs = s->out;
    out->n = k;
    out->mark = MARK_NONE;
    return i;
}

static void *cache_shared(void *st) { return (void *)cachesim_stats(((struct cache_st *)st)->sim); }

static void cache_free(void *st)
{
    struct cache_st *s = st;
    if (!s)
        return;
    cachesim_free(s->sim);
    free(s);
}

const struct stage_desc cache_stage = {
    .name = "cache",
    .summary = "DL1 + unified L2 (set-associative, LRU, write-back, write-allocate): the loads that miss DL1, "
               "flagged EVF_L2MISS when they miss L2 too",
    .params = cache_params,
    .input_rec = "event",
    .event_mask = EV_BIT(EV_LOAD) | EV_BIT(EV_STORE),
    .rec_type = "event",
    .rec_size = sizeof(struct event),
    .create = cache_create,
    .feed = cache_feed,
    .shared = cache_shared,
    .free = cache_free,
    .cost = 3,
};
STAGE_REGISTER(cache_stage);
