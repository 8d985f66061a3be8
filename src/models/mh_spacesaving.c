/* mh_spacesaving.c - Space-Saving (Metwally, Agrawal, El Abbadi 2005) run
 * per profile interval, as a modern baseline for the multihash paper.
 *
 * A table of k (tuple, count) entries, flushed every interval.  A tuple in
 * the table increments its count; a new tuple takes a free entry with count
 * 1, or else replaces the entry with the smallest count m and starts at m + 1
 * (ties: the entry that has held count m longest).  Reported candidates are
 * the entries with count >= T, f_h = count (an overestimate by at most m).
 * The table is the paper's "stream summary": groups of entries with equal
 * counts in a list sorted by count, each group's entries in the order they
 * reached that count, plus a chained hash index over the entry ids; every
 * update is O(1) and nothing is allocated after create.
 *
 * Equal memory: an entry costs tag_bytes + counter bytes.  `bytes` = 0 takes
 * the bytes of the default multihash config (2048 counters * counter bytes +
 * acc_entries * (tag_bytes + counter bytes)); k = bytes / entry bytes, unless
 * `entries` sets k directly.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "models/shared/mh_member.h"

static const struct param_spec spacesaving_params[] = {
    MH_PARAMS_STREAM,
    P_INT("bytes", 0, 0, 1073741824,
          "memory budget in bytes; 0 = that of the default multihash (2048 counters + accumulator)"),
    P_INT("entries", 0, 0, 16777216, "table entries k; 0 = bytes / (tag_bytes + counter bytes)"),
    P_INT("counter_bits", 24, 1, 32, "width of an entry's saturating counter"),
    P_INT("acc_entries", 0, 0, 1048576,
          "accumulator entries of the multihash config the default budget matches; 0 = ceil(1/threshold)"),
    P_INT("tag_bytes", 16, 1, 64, "bytes of a tag (memory accounting)"),
    MH_PARAM_COUNT_FIRST,
    PARAM_END
};

static const struct metric_spec spacesaving_metrics[] = {
    MH_ERR_METRICS,
    METRIC("table_entries", "entries k of the Space-Saving table"),
    METRIC("memory_bytes", "k x (tag + counter bytes)"),
    METRIC("candidate_T", "candidate threshold T in tuples"),
    METRIC_END,
};

struct ss_entry {
    uint64_t a, b;
    uint32_t count;
    int32_t grp, prev, next; /* its group, neighbours in the group (oldest first) */
};

/* A group: the entries with one count. */
struct ss_group {
    uint32_t count;
    int32_t first, last;     /* entries, in the order they reached the count */
    int32_t prev, next;      /* groups by increasing count; next also links the free list */
};

struct spacesaving {
    struct mh_member mb; /* first: source, interval, exact table */
    uint32_t k, n, cmax;
    bool count_first;
    uint64_t memory_bytes;
    struct ss_entry *e;      /* entries by id */
    struct ss_group *g;      /* k + 1 groups (one per entry, and one made before another is freed) */
    int32_t gmin, gfree;     /* smallest-count group; free groups */
    /* index: tuple -> entry id, chained through link[] */
    int32_t *head, *link;
    uint64_t mask;
    struct mh_err_sum err;
    struct mh_err_interval last;
};

static void ss_reset(struct spacesaving *s);

static void ss_free(void *m)
{
    struct spacesaving *s = m;
    if (!s)
        return;
    free(s->e);
    free(s->g);
    free(s->head);
    free(s->link);
    free(s);
}

static void *ss_create(const struct model_ctx *ctx)
{
    const struct param_values *pv = ctx->pv;
    char *err = ctx->err;
    size_t errlen = ctx->errlen;
    struct spacesaving *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    mh_member_init(&s->mb, ctx);
    s->count_first = pv_bool(pv, "count_first");
    unsigned bits = (unsigned)pv_int(pv, "counter_bits");
    s->cmax = bits >= 32 ? UINT32_MAX : (uint32_t)((1ull << bits) - 1);
    uint64_t cb = mh_counter_bytes(bits), tag = (uint64_t)pv_int(pv, "tag_bytes");
    uint64_t acc = (uint64_t)pv_int(pv, "acc_entries");
    if (acc == 0)
        acc = mh_default_acc_entries(s->mb.iv.threshold);
    uint64_t bytes = (uint64_t)pv_int(pv, "bytes");
    if (bytes == 0)
        bytes = 2048 * cb + acc * (tag + cb);
    uint64_t k = (uint64_t)pv_int(pv, "entries");
    if (k == 0)
        k = bytes / (tag + cb);
    if (k < 1) {
        snprintf(err, errlen, "'bytes' (%llu) holds no entry", (unsigned long long)bytes);
        free(s);
        return NULL;
    }
    s->k = (uint32_t)k;
    s->memory_bytes = k * (tag + cb);
    s->e = malloc(k * sizeof *s->e);
    s->g = malloc((k + 1) * sizeof *s->g); /* + 1: a group is made before the emptied one is freed */
    uint64_t nb = 2;
    while (nb < 2 * k)
        nb *= 2;
    s->mask = nb - 1;
    s->head = malloc(nb * sizeof *s->head);
    s->link = malloc(k * sizeof *s->link);
    if (s->head)
        memset(s->head, 0xff, nb * sizeof *s->head);
    if (!s->e || !s->g || !s->head || !s->link) {
        ss_free(s);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    ss_reset(s);
    return s;
}

static inline uint64_t bucket_of(const struct spacesaving *s, uint64_t a, uint64_t b)
{
    return mh_index_hash(a, b) & s->mask;
}

static inline int32_t idx_find(const struct spacesaving *s, uint64_t a, uint64_t b)
{
    for (int32_t id = s->head[bucket_of(s, a, b)]; id >= 0; id = s->link[id])
        if (s->e[id].a == a && s->e[id].b == b)
            return id;
    return -1;
}

static inline void idx_link(struct spacesaving *s, uint32_t id)
{
    uint64_t h = bucket_of(s, s->e[id].a, s->e[id].b);
    s->link[id] = s->head[h];
    s->head[h] = (int32_t)id;
}

static inline void idx_unlink(struct spacesaving *s, uint32_t id)
{
    int32_t *p = &s->head[bucket_of(s, s->e[id].a, s->e[id].b)];
    while (*p != (int32_t)id)
        p = &s->link[*p];
    *p = s->link[id];
}

/* Empty the table (create, interval end). */
static void ss_reset(struct spacesaving *s)
{
    for (uint32_t id = 0; id < s->n; id++)
        s->head[bucket_of(s, s->e[id].a, s->e[id].b)] = -1;
    s->n = 0;
    s->gmin = -1;
    s->gfree = 0;
    for (uint32_t i = 0; i <= s->k; i++)
        s->g[i].next = i < s->k ? (int32_t)i + 1 : -1;
}

/* A new group of count c after group `after` (-1: first). */
static inline int32_t group_new(struct spacesaving *s, uint32_t c, int32_t after)
{
    int32_t gi = s->gfree;
    struct ss_group *g = &s->g[gi];
    s->gfree = g->next;
    g->count = c;
    g->first = g->last = -1;
    g->prev = after;
    g->next = after >= 0 ? s->g[after].next : s->gmin;
    if (g->next >= 0)
        s->g[g->next].prev = gi;
    if (after >= 0)
        s->g[after].next = gi;
    else
        s->gmin = gi;
    return gi;
}

static inline void group_push(struct spacesaving *s, int32_t gi, int32_t id)
{
    struct ss_group *g = &s->g[gi];
    struct ss_entry *x = &s->e[id];
    x->grp = gi;
    x->next = -1;
    x->prev = g->last;
    if (g->last >= 0)
        s->e[g->last].next = id;
    else
        g->first = id;
    g->last = id;
}

/* Take entry id out of its group, freeing the group when it empties. */
static inline void group_pop(struct spacesaving *s, int32_t id)
{
    struct ss_entry *x = &s->e[id];
    struct ss_group *g = &s->g[x->grp];
    if (x->prev >= 0)
        s->e[x->prev].next = x->next;
    else
        g->first = x->next;
    if (x->next >= 0)
        s->e[x->next].prev = x->prev;
    else
        g->last = x->prev;
    if (g->first >= 0)
        return;
    if (g->prev >= 0)
        s->g[g->prev].next = g->next;
    else
        s->gmin = g->next;
    if (g->next >= 0)
        s->g[g->next].prev = g->prev;
    g->next = s->gfree;
    s->gfree = x->grp;
}

/* count + 1 (saturating): the entry moves to the end of the next group. */
static inline void ss_increment(struct spacesaving *s, int32_t id)
{
    struct ss_entry *x = &s->e[id];
    if (x->count >= s->cmax)
        return;
    int32_t gi = x->grp, ng = s->g[gi].next;
    uint32_t c = x->count + 1;
    if (ng < 0 || s->g[ng].count != c)
        ng = group_new(s, c, gi);
    group_pop(s, id);
    x->count = c;
    group_push(s, ng, id);
}

static inline uint32_t count_of(const struct spacesaving *s, uint32_t id) { return s->e[id].count; }

static inline void ss_tuple(struct spacesaving *s, uint64_t a, uint64_t b)
{
    int32_t id = idx_find(s, a, b);
    if (id >= 0) {
        ss_increment(s, id);
        return;
    }
    if (s->n < s->k) {
        int32_t nid = (int32_t)s->n++;
        s->e[nid].a = a;
        s->e[nid].b = b;
        s->e[nid].count = 1;
        int32_t gi = s->gmin >= 0 && s->g[s->gmin].count == 1 ? s->gmin : group_new(s, 1, -1);
        group_push(s, gi, nid);
        idx_link(s, (uint32_t)nid);
        return;
    }
    /* replace the entry that has held the smallest count longest */
    int32_t victim = s->g[s->gmin].first;
    idx_unlink(s, (uint32_t)victim);
    s->e[victim].a = a;
    s->e[victim].b = b;
    idx_link(s, (uint32_t)victim);
    ss_increment(s, victim);
}

static void ss_tuples(struct mh_member *mb, const struct mh_tuple *t, size_t n)
{
    struct spacesaving *s = (struct spacesaving *)mb;
    for (size_t i = 0; i < n; i++)
        ss_tuple(s, t[i].a, t[i].b);
}

static void close_interval(struct mh_member *mb)
{
    struct spacesaving *s = (struct spacesaving *)mb;
    uint64_t T = s->mb.iv.T;
    struct mh_err_interval it;
    mh_err_begin(&it);
    for (uint32_t id = 0; id < s->n; id++)
        if (count_of(s, id) >= T)
            mh_err_hw(&it, s->mb.exact, s->e[id].a, s->e[id].b, count_of(s, id), T);
    mh_err_end(&it, s->mb.exact, T);
    if (s->count_first || s->mb.iv.index > 0)
        mh_err_add(&s->err, &it);
    s->last = it;
    mh_err_series(s->mb.out, 0, s->mb.iv.index, &it);
    s->mb.iv.index++;
    s->mb.iv.pos = 0;
    ss_reset(s);
}

static void ss_finish(void *m) { mh_member_finish(m, close_interval); }

static void ss_feed(void *m, const void *recs, size_t n)
{
    struct mh_member *mb = m;
    mh_member_begin(mb, n);
    ss_tuples(mb, recs, n);
    mh_member_end(mb, n);
}

static void ss_mark(void *m, uint32_t mark)
{
    (void)mark;
    close_interval(m);
}

static void ss_plan(const struct param_values *pv, struct plan *p) { mh_member_plan(pv, p, true); }

static void ss_report(void *m, struct model_out *o)
{
    double out[MH_ERR_NMETRICS + 3];
    const struct spacesaving *s = m;
    mh_err_report(&s->err, &s->mb.src, out);
    out[MH_ERR_NMETRICS + 0] = (double)s->k;
    out[MH_ERR_NMETRICS + 1] = (double)s->memory_bytes;
    out[MH_ERR_NMETRICS + 2] = (double)s->mb.iv.T;
    for (size_t k = 0; k < MH_ERR_NMETRICS + 3; k++)
        out_metric(o, k, out[k]);
}

uint32_t mh_spacesaving_count(const void *m, uint64_t a, uint64_t b)
{
    const struct spacesaving *s = m;
    int32_t id = idx_find(s, a, b);
    return id < 0 ? 0 : count_of(s, (uint32_t)id);
}

static const struct model_desc spacesaving_model = {
    .name = "spacesaving",
    .summary = "Space-Saving table flushed every interval, at multihash memory (baseline)",
    .params = spacesaving_params,
    .metrics = spacesaving_metrics,
    .tables = mh_err_tables,
    .plan = ss_plan,
    .create = ss_create,
    .feed = ss_feed,
    .mark = ss_mark,
    .finish = ss_finish,
    .report = ss_report,
    .free = ss_free,
    .trace_needs = mh_trace_needs,
};
MODEL_REGISTER(spacesaving_model);
