/* hhh_ss.c - hierarchical heavy hitters with Space-Saving per level (see hhh_ss.h).
 *
 * A Space-Saving table: m entries (key, count, error) with ids 0 .. m - 1 in
 * the order they were first taken.  A key in the table adds w to its count;
 * a new key takes a free entry (count w, error 0), or replaces the minimum
 * entry - the least count, ties broken by the least key - and starts at its
 * count c + w with error c.  What a table holds (the key, count and error of
 * every id) depends only on the sequence of updates, since the minimum under
 * (count, key) is unique (keys are distinct): how the code finds it never
 * shows.  Three exact shortcuts rest on that:
 *
 *   runs     w updates of one key in a row are one update of weight w: for
 *            a key in the table both add w; for a new key the first unit
 *            takes the minimum entry (count c: error c, count c + 1) and the
 *            other w - 1 find it in the table (count c + w, error c), which
 *            is what one weighted update gives.  So every level keeps its
 *            current run (prefix, length) and applies it when a different
 *            prefix arrives, or before a query (hhh_flush).  Prefixes nest:
 *            when two consecutive keys share their top p bits, every level
 *            of at most p bits continues its run, and only the deeper levels
 *            touch their tables - for code, whose consecutive block starts
 *            mostly differ in their low bits only, a few of the L + 1.
 *   lazy     an update of a key in the table only adds to its count, in its
 *            index slot (below).  The minimum is found among entries *filed*
 *            under a count they had at some point (so <= their count now):
 *            an entry filed under c whose count is still c is fresh, one
 *            whose count grew is filed again when it is met.
 *   buckets  counts only grow, and a new entry starts above the minimum, so
 *            the minimum never decreases: entries are filed in buckets by
 *            count, from the minimum (base) up NB counts (higher counts in a
 *            heap by count).  When the bucket of base is reached its fresh
 *            entries are sorted by key (act[]); while one of them is fresh it
 *            is the minimum - no entry has a lower count, and every entry
 *            with count base was filed under base - and evictions take them
 *            in key order; then base moves to the next count with entries.
 *
 * The index is open addressing with linear probing and backward-shift
 * deletion (an evicted key leaves it); a slot holds the key and its count
 * (count 0: free), so an update of a key in the table reads and writes one
 * slot (sid[] names the entry in a slot, pos[] the slot of an entry).
 */
#include "families/hhh_ss.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EMPTY UINT32_MAX
#define NB 64u /* count buckets from the minimum up */
/* An index slot: a key in the table and its count (count 0: a free slot). */
struct ss_slot {
    uint64_t key, cnt;
};

struct ss_ovf {
    uint64_t snap;
    uint32_t id;
};

struct ss_act {
    uint64_t key;
    uint32_t id;
};

struct ss {
    uint32_t m, n;
    struct ss_slot *idx;     /* open addressing, linear probing */
    uint32_t *sid, *pos;
    uint32_t mask;
    uint64_t *err;
    uint32_t *next;          /* bucket lists */
    /* The minimum (see the top of the file): entries filed under a count in
     * (base, base + NB) hang in bucket count % NB (lists through next[]),
     * higher ones in the heap ovf (by count); act[apos .. an) holds the
     * fresh entries filed under base, sorted by key (act[m .. 2m) is the
     * sort's scratch). */
    uint64_t base;
    uint32_t head[NB];
    uint32_t inb;            /* entries in the bucket lists */
    struct ss_ovf *ovf;
    uint32_t novf;
    struct ss_act *act;
    uint32_t apos, an;
};

/* Per level: its prefix of a key is (key >> shift) & pmask; mst: its run
 * began at event run_start and run_hash is the hash of its prefix. */
struct lvl {
    uint64_t run_start;
    uint64_t pmask;
    uint32_t run_hash;
    uint32_t shift;
    struct ss_slot *idx;      /* the level's index, and its mask (the fast path) */
    uint32_t mask;
};

struct hhh {
    unsigned bits, k, levels; /* levels = L + 1 */
    int variant;
    uint64_t n, rng;
    uint64_t mask;            /* key_bits */
    struct ss *t;             /* one per level: level l keeps prefixes of plen(l) bits */
    /* Runs (see above).  mst: every level's run is the prefix of `last`
     * (the previous key) and began at event lv[l].run_start; rhhh: level
     * l's run is run_key[l] repeated run_len[l] times. */
    uint64_t last;
    struct lvl *lv;
    uint64_t *run_key, *run_len;
    unsigned char first_diff[65]; /* common top bits c < key_bits -> first level whose prefix differs */
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
    /* A sparse index keeps probe sequences (and mispredicted branches)
     * short: 4 slots per entry or more while that is small, 2 beyond. */
    uint32_t nidx = 4;
    while (nidx < (m <= 8192 ? 4 : 2) * (uint64_t)m)
        nidx *= 2;
    s->mask = nidx - 1;
    s->idx = calloc(nidx, sizeof *s->idx);
    s->sid = malloc(nidx * sizeof *s->sid);
    s->pos = malloc(m * sizeof *s->pos);
    s->err = malloc(m * sizeof *s->err);
    s->next = malloc(m * sizeof *s->next);
    s->ovf = malloc(m * sizeof *s->ovf);
    s->act = malloc(2 * (size_t)m * sizeof *s->act); /* and as much scratch for sorting */
    if (!s->idx || !s->sid || !s->pos || !s->err || !s->next || !s->ovf || !s->act)
        return -1;
    for (uint32_t b = 0; b < NB; b++)
        s->head[b] = EMPTY;
    return 0;
}

static void ss_destroy(struct ss *s)
{
    free(s->sid);
    free(s->pos);
    free(s->err);
    free(s->next);
    free(s->idx);
    free(s->ovf);
    free(s->act);
}

/* ---- index: key -> id, linear probing ---------------------------------- */

static inline uint64_t cnt_of(const struct ss *s, uint32_t id) { return s->idx[s->pos[id]].cnt; }
static inline uint64_t key_of(const struct ss *s, uint32_t id) { return s->idx[s->pos[id]].key; }

/* Empty slot j: backward-shift deletion (later slots of its cluster whose
 * probe sequence passes j move up). */
static void ss_index_del(struct ss *s, uint32_t j)
{
    const uint32_t mask = s->mask;
    for (uint32_t k = (j + 1) & mask; s->idx[k].cnt; k = (k + 1) & mask) {
        uint32_t home = hash(s->idx[k].key) & mask;
        /* move idx[k] to the hole j if its home is not in (j, k] (cyclically) */
        if (((k - home) & mask) >= ((k - j) & mask)) {
            s->idx[j] = s->idx[k];
            s->sid[j] = s->sid[k];
            s->pos[s->sid[j]] = j;
            j = k;
        }
    }
    s->idx[j].cnt = 0;
}

static void ss_index_put(struct ss *s, uint64_t key, uint64_t cnt, uint32_t id)
{
    uint32_t j = hash(key) & s->mask;
    while (s->idx[j].cnt)
        j = (j + 1) & s->mask;
    s->idx[j] = (struct ss_slot){ key, cnt };
    s->sid[j] = id;
    s->pos[id] = j;
}

/* ---- the minimum: count buckets --------------------------------------- */

static void ovf_push(struct ss *s, uint64_t snap, uint32_t id)
{
    uint32_t i = s->novf++;
    while (i > 0) {
        uint32_t p = (i - 1) / 2;
        if (s->ovf[p].snap <= snap)
            break;
        s->ovf[i] = s->ovf[p];
        i = p;
    }
    s->ovf[i] = (struct ss_ovf){ snap, id };
}

static struct ss_ovf ovf_pop(struct ss *s)
{
    struct ss_ovf top = s->ovf[0], x = s->ovf[--s->novf];
    uint32_t i = 0, n = s->novf;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && s->ovf[c + 1].snap < s->ovf[c].snap)
            c++;
        if (s->ovf[c].snap >= x.snap)
            break;
        s->ovf[i] = s->ovf[c];
        i = c;
    }
    if (n)
        s->ovf[i] = x;
    return top;
}

/* File entry id under count c: c > base, or any count before the first
 * eviction (base 0, counts >= 1). */
static inline void ss_file(struct ss *s, uint32_t id, uint64_t c)
{
    if (c - s->base < NB) {
        uint32_t b = (uint32_t)(c % NB);
        s->next[id] = s->head[b];
        s->head[b] = id;
        s->inb++;
    } else {
        ovf_push(s, c, id);
    }
}

/* Overflow entries that the window [base, base + NB) now reaches. */
static void ss_pull(struct ss *s)
{
    while (s->novf && s->ovf[0].snap - s->base < NB) {
        struct ss_ovf x = ovf_pop(s);
        uint32_t b = (uint32_t)(x.snap % NB);
        s->next[x.id] = s->head[b];
        s->head[b] = x.id;
        s->inb++;
    }
}

/* Merge sorted a[0, na) and b[0, nb) into out; the choice is a select,
 * not a branch (which key is smaller is anyone's guess). */
static void merge_act(const struct ss_act *a, uint32_t na, const struct ss_act *b, uint32_t nb, struct ss_act *out)
{
    uint32_t i = 0, j = 0, k = 0;
    while (i < na && j < nb) {
        uint64_t ka = a[i].key, kb = b[j].key;
        uint32_t ia = a[i].id, ib = b[j].id;
        uint32_t tb = kb < ka;
        uint64_t mk = 0 - (uint64_t)tb; /* all ones: take b's */
        out[k].key = (ka & ~mk) | (kb & mk);
        out[k].id = (ia & ~(uint32_t)mk) | (ib & (uint32_t)mk);
        k++;
        j += tb;
        i += tb ^ 1;
    }
    while (i < na)
        out[k++] = a[i++];
    while (j < nb)
        out[k++] = b[j++];
}

/* Sort a[0, n) by key (distinct keys) with tmp[0, n) as scratch: runs of 4
 * by insertion, then bottom-up merges. */
static void sort_act(struct ss_act *a, struct ss_act *tmp, uint32_t n)
{
    for (uint32_t r = 0; r < n; r += 4) {
        uint32_t e = r + 4 < n ? r + 4 : n;
        for (uint32_t i = r + 1; i < e; i++) {
            struct ss_act x = a[i];
            uint32_t j = i;
            for (; j > r && a[j - 1].key > x.key; j--)
                a[j] = a[j - 1];
            a[j] = x;
        }
    }
    struct ss_act *src = a, *dst = tmp;
    for (uint32_t w = 4; w < n; w *= 2) {
        for (uint32_t lo = 0; lo < n; lo += 2 * w) {
            uint32_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            merge_act(src + lo, mid - lo, src + mid, hi - mid, dst + lo);
        }
        struct ss_act *t = src;
        src = dst;
        dst = t;
    }
    if (src != a)
        memcpy(a, src, n * sizeof *a);
}

/* act = the entries filed under base whose count is still base, sorted by
 * key; the others (their counts grew) are filed again. */
static void ss_activate(struct ss *s)
{
    uint32_t b = (uint32_t)(s->base % NB), n = 0;
    uint32_t id = s->head[b];
    s->head[b] = EMPTY;
    while (id != EMPTY) {
        uint32_t nx = s->next[id];
        s->inb--;
        const struct ss_slot *x = &s->idx[s->pos[id]];
        uint64_t c = x->cnt;
        if (c == s->base)
            s->act[n++] = (struct ss_act){ x->key, id };
        else
            ss_file(s, id, c);
        id = nx;
    }
    sort_act(s->act, s->act + s->m, n);
    s->apos = 0;
    s->an = n;
}

/* The next count with entries filed under it becomes base: the next
 * non-empty bucket (within NB counts), or with every bucket empty the least
 * count in the heap. */
static void ss_advance(struct ss *s)
{
    for (;;) {
        if (s->inb)
            s->base++;
        else
            s->base = s->ovf[0].snap; /* > base: the heap holds counts from base + NB up */
        ss_pull(s);
        if (s->head[s->base % NB] != EMPTY) {
            ss_activate(s);
            return;
        }
    }
}

/* The entry with the least (count, key), left at act[apos]. */
static uint32_t ss_min(struct ss *s)
{
    for (;;) {
        while (s->apos < s->an) {
            uint32_t id = s->act[s->apos].id;
            uint64_t c = cnt_of(s, id);
            if (c == s->base)
                return id;
            s->apos++; /* its count grew since it was filed: file it again */
            ss_file(s, id, c);
        }
        ss_advance(s);
    }
}

/* ---- updates ------------------------------------------------------------ */

/* w (>= 1) updates of key, whose hash is hk. */
static void ss_add_h(struct ss *s, uint64_t key, uint32_t hk, uint64_t w)
{
    uint32_t j = hk & s->mask;
    for (;; j = (j + 1) & s->mask) {
        struct ss_slot *x = &s->idx[j];
        if (!x->cnt)
            break;
        if (x->key == key) {
            x->cnt += w; /* filed lazily (ss_min) */
            return;
        }
    }
    if (s->n < s->m) {
        uint32_t id = s->n++;
        s->idx[j] = (struct ss_slot){ key, w };
        s->sid[j] = id;
        s->pos[id] = j;
        s->err[id] = 0;
        ss_file(s, id, w);
        return;
    }
    uint32_t id = ss_min(s);
    s->apos++;
    uint64_t c = s->idx[s->pos[id]].cnt;
    ss_index_del(s, s->pos[id]); /* the minimum's key leaves */
    s->err[id] = c;
    ss_index_put(s, key, c + w, id);
    ss_file(s, id, c + w);
}

static inline void ss_add(struct ss *s, uint64_t key, uint64_t w) { ss_add_h(s, key, hash(key), w); }

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
    h->mask = h->bits >= 64 ? ~0ull : (1ull << h->bits) - 1;
    h->t = calloc(h->levels, sizeof *h->t);
    h->lv = calloc(h->levels, sizeof *h->lv);
    h->run_key = calloc(h->levels, sizeof *h->run_key);
    h->run_len = calloc(h->levels, sizeof *h->run_len);
    if (!h->t || !h->lv || !h->run_key || !h->run_len) {
        hhh_free(h);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    for (unsigned l = 0; l < h->levels; l++) {
        unsigned plen = l * h->k < h->bits ? l * h->k : h->bits;
        unsigned drop = h->bits - plen;
        h->lv[l].shift = drop >= 64 ? 0 : drop;
        h->lv[l].pmask = drop >= 64 ? 0 : ~0ull;
    }
    /* two keys whose top c bits agree (c < key_bits) differ from level c / k + 1 on */
    for (unsigned c = 0; c < h->bits; c++)
        h->first_diff[c] = (unsigned char)(c / h->k + 1);
    /* the runs start with the prefixes of key 0 (with no events yet) */
    for (unsigned l = 0; l < h->levels; l++)
        h->lv[l].run_hash = hash(0);
    for (unsigned l = 0; l < h->levels; l++)
        if (ss_init(&h->t[l], (uint32_t)per) != 0) {
            hhh_free(h);
            snprintf(err, errlen, "out of memory");
            return NULL;
        }
    for (unsigned l = 0; l < h->levels; l++) {
        h->lv[l].idx = h->t[l].idx; /* never reallocated */
        h->lv[l].mask = h->t[l].mask;
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
    free(h->lv);
    free(h->run_key);
    free(h->run_len);
    free(h);
}

static unsigned plen_of(const struct hhh *h, unsigned level)
{
    unsigned p = level * h->k;
    return p < h->bits ? p : h->bits;
}

static inline uint64_t prefix(const struct hhh *h, uint64_t key, unsigned level)
{
    return (key >> h->lv[level].shift) & h->lv[level].pmask;
}

void hhh_add(struct hhh *h, uint64_t key)
{
    key &= h->mask;
    if (h->variant == HHH_RHHH) {
        /* xorshift64*: the level to update */
        h->rng ^= h->rng >> 12;
        h->rng ^= h->rng << 25;
        h->rng ^= h->rng >> 27;
        uint64_t r = h->rng * 0x2545f4914f6cdd1dull;
        unsigned l = (unsigned)(((r >> 32) * h->levels) >> 32);
        uint64_t p = prefix(h, key, l);
        h->n++;
        if (h->run_len[l] && h->run_key[l] == p) {
            h->run_len[l]++;
            return;
        }
        if (h->run_len[l])
            ss_add(&h->t[l], h->run_key[l], h->run_len[l]);
        h->run_key[l] = p;
        h->run_len[l] = 1;
        return;
    }
    /* The levels whose prefix of key differs from the previous key's end
     * their runs (the first key: every run is empty). */
    uint64_t diff = key ^ h->last;
    unsigned d = diff ? h->first_diff[h->bits - 64 + (unsigned)__builtin_clzll(diff)] : h->levels;
    const uint64_t last = h->last, n = h->n;
    for (unsigned l = d; l < h->levels; l++) {
        struct lvl *v = &h->lv[l];
        struct ss *s = &h->t[l];
        uint64_t w = n - v->run_start;
        if (w) {
            uint64_t p = (last >> v->shift) & v->pmask;
            struct ss_slot *x = &v->idx[v->run_hash & v->mask];
            if (x->key == p && x->cnt)
                x->cnt += w; /* in the table, at its home slot */
            else
                ss_add_h(s, p, v->run_hash, w);
        }
        v->run_start = n;
        v->run_hash = hash((key >> v->shift) & v->pmask);
    }
    h->last = key;
    h->n = n + 1;
}

void hhh_flush(struct hhh *h)
{
    for (unsigned l = 0; l < h->levels; l++) {
        if (h->variant == HHH_RHHH) {
            if (h->run_len[l])
                ss_add(&h->t[l], h->run_key[l], h->run_len[l]);
            h->run_len[l] = 0;
        } else {
            uint64_t w = h->n - h->lv[l].run_start;
            if (w)
                ss_add(&h->t[l], prefix(h, h->last, l), w);
            h->lv[l].run_start = h->n;
        }
    }
}

size_t hhh_table(struct hhh *h, unsigned level, uint64_t *key, uint64_t *count, uint64_t *error)
{
    hhh_flush(h);
    const struct ss *s = &h->t[level];
    for (uint32_t id = 0; id < s->n; id++) {
        key[id] = key_of(s, id);
        count[id] = cnt_of(s, id);
        error[id] = s->err[id];
    }
    return s->n;
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

size_t hhh_query(struct hhh *h, double hot, struct hhh_range **out)
{
    hhh_flush(h);
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
            x.lo = free_bits >= 64 ? 0 : key_of(s, id) << free_bits;
            x.hi = x.lo | (free_bits >= 64 ? ~0ull : (1ull << free_bits) - 1);
            x.estimate = cnt_of(s, id) * scale;
            x.lower = (cnt_of(s, id) - s->err[id]) * scale;
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
