/* mh_group.c - the shared feed path of the scored multihash-family models
 * (see mh_group.h). */
#include "mh_group.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

int mh_member_init(struct mh_member *m, const struct mh_member_ops *ops, const struct param_values *pv, bool score)
{
    m->ops = ops;
    mh_read_common(pv, &m->src, &m->iv);
    m->exact = NULL;
    if (!score)
        return 0;
    if (mh_exact_init(&m->own, m->iv.length) != 0)
        return -1;
    m->exact = &m->own;
    return 0;
}

void mh_member_free(struct mh_member *m) { mh_exact_free(&m->own); }

int mh_share_key(const void *mv, char *key, size_t len)
{
    const struct mh_member *m = mv;
    if (!m->exact)
        return 0;
    /* What the exact profile depends on: the tuple stream and the interval
     * length (threshold and partial only change how it is read). */
    int edges = m->src.stream == MH_STREAM_EDGES ? m->src.edges : -1;
    snprintf(key, len, "mh-exact stream=%d edges=%d interval=%" PRIu64, m->src.stream, edges, m->iv.length);
    return 1;
}

void mh_feed_group(void *const *mv, size_t n, const struct event *ev, size_t count)
{
    struct mh_member *lead = mv[0];
    struct mh_exact_table *ex = lead->exact;
    for (size_t k = 1; k < n; k++)
        ((struct mh_member *)mv[k])->exact = ex;
    struct mh_source src = lead->src; /* stream and edges; counts are deltas */
    const uint64_t length = lead->iv.length;
    struct mh_tuple t[MH_CHUNK];
    size_t i = 0;
    while (i < count) {
        uint64_t room = length - lead->iv.pos;
        size_t want = room < MH_CHUNK ? (size_t)room : MH_CHUNK;
        size_t nt = 0;
        src.skipped_loads = 0;
        if (src.stream == MH_STREAM_VALUES) {
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
            src.skipped_loads = skipped;
        } else {
            for (; i < count && nt < want; i++)
                nt += (size_t)mh_tuple_of(&src, &ev[i], &t[nt].a, &t[nt].b);
        }
        for (size_t k = 0; k < n; k++) {
            struct mh_member *m = mv[k];
            m->src.tuples += nt;
            m->src.skipped_loads += src.skipped_loads;
        }
        if (nt == 0)
            continue;
        if (ex)
            mh_exact_add_tuples(ex, t, nt);
        for (size_t k = 0; k < n; k++) {
            struct mh_member *m = mv[k];
            if (m->ops->tuples)
                m->ops->tuples(m, t, nt);
            m->iv.pos += nt;
        }
        if (nt == want && (uint64_t)nt == room) { /* interval boundary */
            for (size_t k = 0; k < n; k++) {
                struct mh_member *m = mv[k];
                m->ops->close(m);
            }
            if (ex)
                mh_exact_clear(ex);
        }
    }
}

void mh_feed(void *m, const struct event *ev, size_t count)
{
    void *one[1] = { m };
    mh_feed_group(one, 1, ev, count);
}

void mh_member_finish(struct mh_member *m)
{
    if (m->iv.partial && m->iv.pos > 0)
        m->ops->close(m);
}
