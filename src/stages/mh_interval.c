/* mh_interval.c - stage "mh_interval": the tuple stream of the multi-hash
 * paper cut into intervals, with the exact per-interval profile.
 *
 * Reads decoded loads and control-flow events, emits struct mh_tuple
 * records (<load pc, value> or <branch pc, next pc>, mh_common.h) in chunks
 * of at most MH_CHUNK tuples that never cross an interval boundary, and
 * marks each interval's end with MARK_INTERVAL.  With `exact` it counts
 * every tuple of the current interval in an mh_exact_table, the shared
 * result that every scored model reads at the mark; the table is cleared
 * lazily, on the first feed after the mark, so that consumers see it as it
 * was at the boundary (stage.h).  The profile depends only on the tuple
 * stream and the interval length, never on a model's hardware or
 * threshold, so one stage serves every instance of a sweep.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stages/mh_interval.h"

/* Tuples per chunk: consumers' hardware loops run over a chunk while their
 * tables are hot in cache. */
#define MH_CHUNK 512

static const struct param_spec mh_interval_params[] = {
    P_ENUM("stream", 0, mh_stream_choices, "tuple stream: values = <load pc, loaded value>; edges = <branch pc, next pc>"),
    P_ENUM("edges", 0, mh_edges_choices, "control transfers that make edge tuples"),
    P_INT("interval", 10000, 1, 10000000, "interval length in tuples"),
    P_BOOL("exact", 1, "keep the exact per-interval profile (the shared result)"),
    PARAM_END,
};

struct mh_interval_stage {
    struct mh_source src;
    uint64_t length, pos;
    int pending_clear;
    struct mh_interval_view view;
    struct mh_exact_table table;
    struct mh_tuple out[MH_CHUNK];
};

static void *mhi_create(const struct param_values *pv, char *err, size_t errlen)
{
    struct mh_interval_stage *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->src.stream = pv_enum(pv, "stream");
    s->src.edges = pv_enum(pv, "edges");
    s->length = (uint64_t)pv_int(pv, "interval");
    if (pv_bool(pv, "exact")) {
        if (mh_exact_init(&s->table, s->length) != 0) {
            snprintf(err, errlen, "out of memory (exact profile of %llu tuples)", (unsigned long long)s->length);
            free(s);
            return NULL;
        }
        s->view.exact = &s->table;
    }
    return s;
}

static size_t mhi_feed(void *st, const void *in, size_t count, struct chunk *out)
{
    struct mh_interval_stage *s = st;
    const struct event *ev = in;
    if (s->pending_clear) {
        if (s->view.exact)
            mh_exact_clear(s->view.exact);
        s->pending_clear = 0;
    }
    uint64_t room = s->length - s->pos;
    size_t want = room < MH_CHUNK ? (size_t)room : MH_CHUNK;
    struct mh_tuple *t = s->out;
    size_t nt = 0, i = 0;
    if (s->src.stream == MH_STREAM_VALUES) {
        /* branch-free: every event writes the slot, only loads with a value advance */
        uint64_t skipped = 0;
        for (; i < count && nt < want; i++) {
            const struct event *e = &ev[i];
            unsigned load = e->kind == EV_LOAD, novalue = (e->flags & EVF_NOVALUE) != 0;
            t[nt].a = e->pc;
            t[nt].b = e->value;
            nt += load & !novalue;
            skipped += load & novalue;
        }
        s->src.skipped_loads += skipped;
    } else {
        for (; i < count && nt < want; i++)
            nt += (size_t)mh_tuple_of(&s->src, &ev[i], &t[nt].a, &t[nt].b);
    }
    s->view.skipped_loads = s->src.skipped_loads;
    s->view.tuples += nt;
    out->recs = t;
    out->n = nt;
    out->mark = MARK_NONE;
    if (nt == 0)
        return i;
    if (s->view.exact)
        mh_exact_add_tuples(s->view.exact, t, nt);
    s->pos += nt;
    if (s->pos == s->length) {
        out->mark = MARK_INTERVAL;
        s->pos = 0;
        s->pending_clear = 1;
    }
    return i;
}

static void *mhi_shared(void *st) { return &((struct mh_interval_stage *)st)->view; }

static void mhi_free(void *st)
{
    struct mh_interval_stage *s = st;
    if (!s)
        return;
    mh_exact_free(&s->table);
    free(s);
}

const struct stage_desc mh_interval_stage = {
    .name = "mh_interval",
    .summary = "multi-hash tuples (value or edge) cut into intervals, with the exact per-interval profile",
    .params = mh_interval_params,
    .input_rec = "event",
    .event_mask = MH_EVENT_MASK,
    .rec_type = "mh_tuple",
    .rec_size = sizeof(struct mh_tuple),
    .create = mhi_create,
    .feed = mhi_feed,
    .shared = mhi_shared,
    .free = mhi_free,
    .cost = 1.5,
};
STAGE_REGISTER(mh_interval_stage);
