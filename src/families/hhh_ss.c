/* hhh_ss.c - hierarchical heavy hitters with Space-Saving per level (see hhh_ss.h).
 *
 * A Space-Saving table: m entries (key, count, error); a binary min-heap of
 * entry ids on count; an open-addressing index key -> id with linear
 * probing and backward-shift deletion (an evicted key leaves the index).
 * A new key takes a free entry, or replaces the minimum entry and starts at
 * its count + 1 with that count as its error.
 */
#include "families/hhh_ss.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EMPTY UINT32_MAX

struct ss {
    uint32_t m, n;
    uint64_t *key, *cnt, *err;
    uint32_t *heap, *pos;
    uint32_t *idx; /* entry id or EMPTY */
    uint32_t mask;
};

struct hhh {
    unsigned bits, k, levels; /* levels = L + 1 */
    int variant;
    uint64_t n, rng;
    struct ss *t;             /* one per level: level l keeps prefixes of plen(l) bits */
};

static uint32_t hash(uint64_t key)
{
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdull;
    key ^= key >> 33;
    return (uint32_t)key;
}

static int ss_init(struct ss *s, uint32_t m)
{
    memset(s, 0, sizeof *s);
    s->m = m;
    uint32_t nidx = 4;
    while (nidx < 2 * m)
        nidx *= 2;
    s->mask = nidx - 1;
    s->key = malloc(m * sizeof *s->key);
    s->cnt = malloc(m * sizeof *s->cnt);
    s->err = malloc(m * sizeof *s->err);
    s->heap = malloc(m * sizeof *s->heap);
    s->pos = malloc(m * sizeof *s->pos);
    s->idx = malloc(nidx * sizeof *s->idx);
    if (!s->key || !s->cnt || !s->err || !s->heap || !s->pos || !s->idx)
        return -1;
    memset(s->idx, 0xff, nidx * sizeof *s->idx);
    return 0;
}

static void ss_destroy(struct ss *s)
{
    free(s->key);
    free(s->cnt);
    free(s->err);
    free(s->heap);
    free(s->pos);
    free(s->idx);
}

static uint32_t ss_find(const struct ss *s, uint64_t key)
{
    for (uint32_t j = hash(key) & s->mask;; j = (j + 1) & s->mask) {
        uint32_t id = s->idx[j];
        if (id == EMPTY || s->key[id] == key)
            return id;
    }
}

static void ss_index_put(struct ss *s, uint32_t id)
{
    uint32_t j = hash(s->key[id]) & s->mask;
    while (s->idx[j] != EMPTY)
        j = (j + 1) & s->mask;
    s->idx[j] = id;
}

/* Remove id's key from the index (backward-shift deletion). */
static void ss_index_del(struct ss *s, uint32_t id)
{
    uint32_t j = hash(s->key[id]) & s->mask;
    while (s->idx[j] != id)
        j = (j + 1) & s->mask;
    for (uint32_t k = (j + 1) & s->mask; s->idx[k] != EMPTY; k = (k + 1) & s->mask) {
        uint32_t home = hash(s->key[s->idx[k]]) & s->mask;
        /* move idx[k] to the hole j if its home is not in (j, k] (cyclically) */
        if (((k - home) & s->mask) >= ((k - j) & s->mask)) {
            s->idx[j] = s->idx[k];
            j = k;
        }
    }
    s->idx[j] = EMPTY;
}

static void heap_swap(struct ss *s, uint32_t a, uint32_t b)
{
    uint32_t x = s->heap[a];
    s->heap[a] = s->heap[b];
    s->heap[b] = x;
    s->pos[s->heap[a]] = a;
    s->pos[s->heap[b]] = b;
}

static int less(const struct ss *s, uint32_t a, uint32_t b)
{
    /* ties by key so the heap (and so every eviction) is deterministic */
    uint64_t ca = s->cnt[s->heap[a]], cb = s->cnt[s->heap[b]];
    return ca < cb || (ca == cb && s->key[s->heap[a]] < s->key[s->heap[b]]);
}

static void sift_down(struct ss *s, uint32_t i)
{
    for (;;) {
        uint32_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < s->n && less(s, l, m))
            m = l;
        if (r < s->n && less(s, r, m))
            m = r;
        if (m == i)
            return;
        heap_swap(s, i, m);
        i = m;
    }
}

static void sift_up(struct ss *s, uint32_t i)
{
    while (i > 0 && less(s, i, (i - 1) / 2)) {
        heap_swap(s, i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
}

static void ss_add(struct ss *s, uint64_t key, uint64_t w)
{
    uint32_t id = ss_find(s, key);
    if (id != EMPTY) {
        s->cnt[id] += w;
        sift_down(s, s->pos[id]);
        return;
    }
    if (s->n < s->m) {
        id = s->n;
        s->key[id] = key;
        s->cnt[id] = w;
        s->err[id] = 0;
        s->heap[s->n] = id;
        s->pos[id] = s->n;
        s->n++;
        ss_index_put(s, id);
        sift_up(s, s->n - 1);
        return;
    }
    id = s->heap[0];
    ss_index_del(s, id);
    s->err[id] = s->cnt[id];
    s->cnt[id] += w;
    s->key[id] = key;
    ss_index_put(s, id);
    sift_down(s, 0);
}

struct hhh *hhh_create(const struct hhh_cfg *cfg, char *err, size_t errlen)
{
    if (cfg->key_bits < 1 || cfg->key_bits > 64 || cfg->stride < 1 || cfg->stride > 16) {
        snprintf(err, errlen, "key_bits must be in [1, 64] and log2 b in [1, 16]");
        return NULL;
    }
    struct hhh *h = calloc(1, sizeof *h);
    if (!h) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    h->bits = cfg->key_bits;
    h->k = cfg->stride;
    h->levels = (cfg->key_bits + cfg->stride - 1) / cfg->stride + 1;
    h->variant = cfg->variant;
    h->rng = cfg->seed ^ 0x9e3779b97f4a7c15ull;
    uint64_t per = cfg->entries / h->levels;
    if (per < 1 || per > (1u << 28)) {
        snprintf(err, errlen, "%llu entries over %u levels: need 1 .. 2^28 per level",
                 (unsigned long long)cfg->entries, h->levels);
        free(h);
        return NULL;
    }
    h->t = calloc(h->levels, sizeof *h->t);
    if (!h->t) {
        free(h);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    for (unsigned l = 0; l < h->levels; l++)
        if (ss_init(&h->t[l], (uint32_t)per) != 0) {
            hhh_free(h);
            snprintf(err, errlen, "out of memory");
            return NULL;
        }
    return h;
}

void hhh_free(struct hhh *h)
{
    if (!h)
        return;
    for (unsigned l = 0; h->t && l < h->levels; l++)
        ss_destroy(&h->t[l]);
    free(h->t);
    free(h);
}

static unsigned plen_of(const struct hhh *h, unsigned level)
{
    unsigned p = level * h->k;
    return p < h->bits ? p : h->bits;
}

static uint64_t prefix(const struct hhh *h, uint64_t key, unsigned plen)
{
    unsigned drop = h->bits - plen;
    return drop >= 64 ? 0 : key >> drop;
}

void hhh_add(struct hhh *h, uint64_t key)
{
    if (h->bits < 64)
        key &= (1ull << h->bits) - 1;
    h->n++;
    if (h->variant == HHH_RHHH) {
        /* xorshift64*: the level to update */
        h->rng ^= h->rng >> 12;
        h->rng ^= h->rng << 25;
        h->rng ^= h->rng >> 27;
        uint64_t r = h->rng * 0x2545f4914f6cdd1dull;
        unsigned l = (unsigned)(((r >> 32) * h->levels) >> 32);
        ss_add(&h->t[l], prefix(h, key, plen_of(h, l)), 1);
        return;
    }
    for (unsigned l = 0; l < h->levels; l++)
        ss_add(&h->t[l], prefix(h, key, plen_of(h, l)), 1);
}

uint64_t hhh_events(const struct hhh *h) { return h->n; }
unsigned hhh_levels(const struct hhh *h) { return h->levels; }
uint64_t hhh_entries_per_level(const struct hhh *h) { return h->t[0].m; }

static int inside(const struct hhh_range *a, const struct hhh_range *b) /* a within b */
{
    return a->lo >= b->lo && a->hi <= b->hi;
}

static int cmp_range(const void *pa, const void *pb)
{
    const struct hhh_range *a = pa, *b = pb;
    if (a->lo != b->lo)
        return a->lo < b->lo ? -1 : 1;
    return a->plen < b->plen ? -1 : a->plen > b->plen; /* wider (shorter prefix) first */
}

size_t hhh_query(const struct hhh *h, double hot, struct hhh_range **out)
{
    size_t cap = 16, n = 0;
    struct hhh_range *r = malloc(cap * sizeof *r);
    *out = NULL;
    if (!r)
        return (size_t)-1;
    uint64_t scale = h->variant == HHH_RHHH ? h->levels : 1;
    double limit = hot * (double)h->n;
    for (unsigned l = h->levels; l-- > 0;) {
        const struct ss *s = &h->t[l];
        unsigned plen = plen_of(h, l), free_bits = h->bits - plen;
        size_t found_below = n;
        for (uint32_t id = 0; id < s->n; id++) {
            struct hhh_range x;
            x.plen = plen;
            x.lo = free_bits >= 64 ? 0 : s->key[id] << free_bits;
            x.hi = x.lo | (free_bits >= 64 ? ~0ull : (1ull << free_bits) - 1);
            x.estimate = s->cnt[id] * scale;
            x.lower = (s->cnt[id] - s->err[id]) * scale;
            double cond = (double)x.estimate;
            /* minus the lower bounds of the largest HHHs inside (found at deeper levels) */
            for (size_t i = 0; i < found_below; i++) {
                if (!inside(&r[i], &x))
                    continue;
                int covered = 0;
                for (size_t j = 0; j < found_below && !covered; j++)
                    covered = j != i && inside(&r[i], &r[j]) && inside(&r[j], &x) && r[j].plen < r[i].plen;
                if (!covered)
                    cond -= (double)r[i].lower;
            }
            if (cond > limit) {
                x.conditioned = cond;
                if (n == cap) {
                    struct hhh_range *nr = realloc(r, 2 * cap * sizeof *nr);
                    if (!nr) {
                        free(r);
                        return (size_t)-1;
                    }
                    r = nr;
                    cap *= 2;
                }
                r[n++] = x;
            }
        }
    }
    qsort(r, n, sizeof *r, cmp_range);
    *out = r;
    return n;
}
