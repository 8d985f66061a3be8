/* mh_spacesaving.c - Space-Saving (Metwally, Agrawal, El Abbadi 2005) run
 * per profile interval, as a modern baseline for the multihash paper.
 *
 * A table of k (tuple, count) entries, flushed every interval.  A tuple in
 * the table increments its count; a new tuple takes a free entry with count
 * 1, or else replaces the entry with the smallest count m and starts at m + 1
 * (ties: whichever the min-heap holds at its root).  Reported candidates are
 * the entries with count >= T, f_h = count (an overestimate by at most m).
 * The table is a binary min-heap plus a chained hash index over the entry
 * ids (bucket heads and a next link per entry: a replacement unlinks one
 * entry and links another, no probing or shifting), so feed()
 * costs O(log k) and never allocates.
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
#include "mh_member.h"

static const struct param_spec spacesaving_params[] = {
    MH_PARAMS_STREAM,
    { "bytes", PARAM_INT, 0, 0, 1073741824, NULL,
      "memory budget in bytes; 0 = that of the default multihash (2048 counters + accumulator)" },
    { "entries", PARAM_INT, 0, 0, 16777216, NULL, "table entries k; 0 = bytes / (tag_bytes + counter bytes)" },
    { "counter_bits", PARAM_INT, 24, 1, 32, NULL, "width of an entry's saturating counter" },
    { "acc_entries", PARAM_INT, 0, 0, 1048576, NULL,
      "accumulator entries of the multihash config the default budget matches; 0 = ceil(1/threshold)" },
    { "tag_bytes", PARAM_INT, 16, 1, 64, NULL, "bytes of a tag (memory accounting)" },
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
static const struct col_spec spacesaving_series[] = { MH_ERR_SERIES, COL_END };
static const struct table_spec spacesaving_tables[] = { { "series", "per-interval error", spacesaving_series }, TABLE_END };

struct ss_entry {
    uint64_t a, b;
};

struct ss_hnode {
    uint32_t count, id;
};

struct spacesaving {
    struct mh_member mb; /* first: source, interval, exact table */
    uint32_t k, n, cmax;
    bool count_first;
    uint64_t memory_bytes;
    struct ss_entry *e;   /* tuples by id */
    struct ss_hnode *heap;/* min-heap on count; counts live here (no indirection when sifting) */
    uint32_t *pos;        /* heap position of each id */
    /* index: tuple -> entry id, chained through next[] */
    int32_t *head, *next;
    uint64_t mask;
    struct mh_err_sum err;
    struct mh_err_interval last;
};

static void ss_free(void *m)
{
    struct spacesaving *s = m;
    if (!s)
        return;
    free(s->e);
    free(s->heap);
    free(s->pos);
    free(s->head);
    free(s->next);
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
    s->heap = malloc(k * sizeof *s->heap);
    s->pos = malloc(k * sizeof *s->pos);
    uint64_t nb = 2;
    while (nb < 2 * k)
        nb *= 2;
    s->mask = nb - 1;
    s->head = malloc(nb * sizeof *s->head);
    s->next = malloc(k * sizeof *s->next);
    if (s->head)
        memset(s->head, 0xff, nb * sizeof *s->head);
    if (!s->e || !s->heap || !s->pos || !s->head || !s->next) {
        ss_free(s);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    return s;
}

static inline uint64_t bucket_of(const struct spacesaving *s, uint64_t a, uint64_t b)
{
    return mh_index_hash(a, b) & s->mask;
}

static inline int32_t idx_find(const struct spacesaving *s, uint64_t a, uint64_t b)
{
    for (int32_t id = s->head[bucket_of(s, a, b)]; id >= 0; id = s->next[id])
        if (s->e[id].a == a && s->e[id].b == b)
            return id;
    return -1;
}

static inline void idx_link(struct spacesaving *s, uint32_t id)
{
    uint64_t h = bucket_of(s, s->e[id].a, s->e[id].b);
    s->next[id] = s->head[h];
    s->head[h] = (int32_t)id;
}

static inline void idx_unlink(struct spacesaving *s, uint32_t id)
{
    int32_t *p = &s->head[bucket_of(s, s->e[id].a, s->e[id].b)];
    while (*p != (int32_t)id)
        p = &s->next[*p];
    *p = s->next[id];
}

/* Sift the node at i down with a hole: the same comparisons (and so the
 * same heap, ties included) as swapping it with its smaller child while
 * that child is smaller, without the swaps. */
static inline void sift_down(struct spacesaving *s, uint32_t i)
{
    struct ss_hnode *h = s->heap;
    const struct ss_hnode x = h[i];
    const uint32_t n = s->n;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && h[c + 1].count < h[c].count)
            c++;
        if (h[c].count >= x.count)
            break;
        h[i] = h[c];
        s->pos[h[i].id] = i;
        i = c;
    }
    h[i] = x;
    s->pos[x.id] = i;
}

static inline uint32_t count_of(const struct spacesaving *s, uint32_t id) { return s->heap[s->pos[id]].count; }

static inline void ss_tuple(struct spacesaving *s, uint64_t a, uint64_t b)
{
    int32_t id = idx_find(s, a, b);
    if (id >= 0) {
        uint32_t p = s->pos[id];
        if (s->heap[p].count < s->cmax)
            s->heap[p].count++;
        sift_down(s, p);
        return;
    }
    if (s->n < s->k) {
        /* count 1 is never above any parent: append at the heap end and
         * move up past parents with a larger count */
        uint32_t nid = s->n++;
        s->e[nid] = (struct ss_entry){ a, b };
        uint32_t i = nid;
        while (i > 0 && s->heap[(i - 1) / 2].count > 1) {
            s->heap[i] = s->heap[(i - 1) / 2];
            s->pos[s->heap[i].id] = i;
            i = (i - 1) / 2;
        }
        s->heap[i] = (struct ss_hnode){ 1, nid };
        s->pos[nid] = i;
        idx_link(s, nid);
        return;
    }
    uint32_t victim = s->heap[0].id;
    idx_unlink(s, victim);
    s->e[victim].a = a;
    s->e[victim].b = b;
    if (s->heap[0].count < s->cmax)
        s->heap[0].count++;
    idx_link(s, victim);
    sift_down(s, 0);
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
    for (uint32_t id = 0; id < s->n; id++)
        s->head[bucket_of(s, s->e[id].a, s->e[id].b)] = -1;
    s->n = 0;
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
    .tables = spacesaving_tables,
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
