/* hhh_ss.c - hierarchical heavy hitters with Space-Saving per level (see hhh_ss.h).
 *
 * A Space-Saving table: m entries (key, count, error) with ids 0 .. m - 1 in
 * the order they were first taken.  A key in the table adds w to its count;
 * a new key takes a free entry (count w, error 0), or replaces the minimum
 * entry - the least count, ties broken by the least key - and starts at its
 * count c + w with error c.  What a table holds (the key, count and error of
 * every id) depends only on the sequence of updates, since the minimum under
 * (count, key) is unique (keys are distinct): how the code finds it never
 * shows.  Four exact shortcuts rest on that:
 *
 *   runs     w updates of one key in a row are one update of weight w: for
 *            a key in the table both add w; for a new key the first unit
 *            takes the minimum entry (count c: error c, count c + 1) and the
 *            other w - 1 find it in the table (count c + w, error c), which
 *            is what one weighted update gives.  So every level keeps its
 *            current run (where it began) and applies it when a different
 *            prefix arrives, or before a query (hhh_flush).  Prefixes nest:
 *            when two consecutive keys share their top p bits, every level
 *            of at most p bits continues its run, and only the deeper levels
 *            touch their tables - for code, whose consecutive block starts
 *            mostly differ in their low bits only, a few of the L + 1.
 *   levels   the levels' tables are independent: each sees its own sequence
 *            of run updates, whatever happens at the others.  So (mst) keys
 *            are buffered, HB at a time, and the batch is applied two
 *            levels at a time: the run ends of the deepest level (every key
 *            that differs from the one before), then of each level above
 *            (those whose first differing level is at most that level),
 *            each level getting its updates in event order while its table
 *            is in the L1 or L2 cache.
 *   lazy     an update of a key in the table only adds to its count (in
 *            ent[], below).  The minimum is found among entries *filed*
 *            under a count they had at some point (so <= their count now):
 *            an entry filed under c whose count is still c is fresh, one
 *            whose count grew is filed again when it is met.
 *   buckets  counts only grow, and a new entry starts above the minimum, so
 *            the minimum never decreases: entries are filed in buckets by
 *            count, from the minimum (base) up NB counts (higher counts in a
 *            heap by count).  When the bucket of base is reached its fresh
 *            entries are sorted by key (act[]); while one of them is fresh
 *            it is the minimum - no entry has a lower count, and every entry
 *            with count base was filed under base - and evictions take them
 *            in key order; then base moves to the next count with entries.
 *
 * The entries' keys and counts sit side by side in ent[], in id order (a
 * table of 124 entries in 2 KB).  The index is open addressing with linear
 * probing and backward-shift deletion (an evicted key leaves it); a slot
 * holds id + 1 of its entry, 0 when free, and ent[0] is no entry: its key
 * is one no prefix of the level can be, where the level has one, so a free
 * slot fails the key comparison by itself.  A key's home slot is the top
 * bits of key * HMUL (Fibonacci hashing: where a key sits never shows in a
 * result).
 */
#include "families/hhh_ss.h"
#include "families/hhh_runs.h"
#include "families/hhh_sort.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EMPTY UINT32_MAX
#define NB 64u   /* count buckets from the minimum up */
#define HB 4096u /* mst: keys per batch */
#define HMUL 0x9e3779b97f4a7c15ull

/* An entry: its key and count.  ent[0] is no entry (key nokey, count 0),
 * entry id is ent[id + 1]. */
struct ss_ent {
    uint64_t key, cnt;
};

struct ss_ovf {
    uint64_t snap;
    uint32_t id;
};

struct ss {
    uint32_t m, n;
    unsigned ibits;          /* bits of the greatest id (at least 1) */
    uint32_t *idx;           /* open addressing, linear probing: id + 1 of the entry in a slot, 0 free */
    struct ss_ent *ent;
    uint32_t mask;
    unsigned hshift;         /* home slot of key: (key * HMUL) >> hshift */
    /* A key no prefix of this level can be (all ones, when the level's
     * prefixes have a 0 bit), ent[0]'s; nokey_ok = 0 when every key is
     * possible (then a free slot is known by its 0). */
    uint64_t nokey;
    int nokey_ok;
    uint64_t *err;
    uint32_t *next;          /* bucket lists */
    /* The minimum (see the top of the file): entries filed under a count in
     * (base, base + NB) hang in bucket count % NB (lists through next[]),
     * higher ones in the heap ovf (by count); act[apos .. an) holds the
     * fresh entries filed under base, in key order. */
    uint64_t base;
    uint32_t head[NB];
    uint32_t inb;            /* entries in the bucket lists */
    struct ss_ovf *ovf;
    uint32_t novf;
    uint32_t *act;           /* ids */
    uint32_t apos, an;
    struct hhh_act *fr;       /* scratch: the entries found fresh under base, and as many again */
    uint64_t *wk;            /* scratch: their sort words (up to 7 more, see ss_activate), and as many again,
                              * between two readable words (hhh_sort_u64) */
};

/* Per level: the tables hold prefixes left-aligned, key & pmask (the
 * key's top plen bits, the others 0: distinct prefixes stay distinct and in
 * the same order), and report them right-aligned, >> shift; mst: its run
 * began at event run_start. */
struct lvl {
    uint64_t run_start;
    uint64_t pmask;
    uint32_t shift;
};

struct hhh {
    unsigned bits, k, levels; /* levels = L + 1 */
    int variant;
    uint64_t n, rng;
    uint64_t mask;            /* key_bits */
    struct ss *t;             /* one per level: level l keeps prefixes of plen(l) bits */
    /* Runs (see above).  mst: every level's run is the prefix of kb[nb]
     * (the last key) and began at event lv[l].run_start; rhhh: level l's run
     * is run_key[l] repeated run_len[l] times. */
    struct lvl *lv;
    uint64_t *run_key, *run_len;
    /* mst batch: kb[0] is the key before it, kb[1 .. nb] its keys (events
     * n - nb .. n - 1); rl[] the run ends of one level, as position << 8 |
     * the first level whose prefix differs there. */
    uint64_t *kb;
    uint32_t nb;
    uint32_t *rl;
    int fresh;                /* mst: every run is empty */
};

static inline uint32_t home(const struct ss *s, uint64_t key) { return (uint32_t)((key * HMUL) >> s->hshift); }

static int ss_init(struct ss *s, uint32_t m, uint64_t pmask)
{
    memset(s, 0, sizeof *s);
    s->m = m;
    s->ibits = m > 1 ? 32 - (unsigned)__builtin_clz(m - 1) : 1;
    s->nokey_ok = pmask != ~0ull;
    s->nokey = s->nokey_ok ? ~0ull : 0;
    /* A sparse index keeps probe sequences (and mispredicted branches)
     * short: most misses find their home slot empty, and most deletions
     * shift nothing.  32 slots per entry while the index takes at most 16
     * KB (two levels' tables, worked on together, stay in the L1 cache: see
     * mst_batch), else 4 while that is small, 2 beyond.  Measured on cc1's
     * code stream, 124 entries per level (2026-11-27, the tables alone:
     * 9.92M keys): 32 slots per entry 0.234 s, 16 0.248 s, 64 0.231 s but
     * 32 KB a level; before ent[], slots of key and count, 16 per entry
     * (32 KB) took 0.238-0.241 s, and in `make bench` the model went from
     * 0.391-0.395 to 0.401-0.408 of decoding's speed.  Earlier, 16 per
     * entry made the model 10% faster than 4, and 2 15% slower. */
    uint64_t want = 32 * (uint64_t)m <= 4096 ? 32 * (uint64_t)m : (m <= 8192 ? 4 : 2) * (uint64_t)m;
    uint32_t nidx = 4;
    unsigned lg = 2;
    while (nidx < want) {
        nidx *= 2;
        lg++;
    }
    s->mask = nidx - 1;
    s->hshift = 64 - lg;
    s->idx = calloc(nidx, sizeof *s->idx);
    s->ent = calloc((size_t)m + 1, sizeof *s->ent);
    s->err = malloc(m * sizeof *s->err);
    s->next = malloc(m * sizeof *s->next);
    s->ovf = malloc(m * sizeof *s->ovf);
    s->act = malloc(m * sizeof *s->act);
    s->fr = malloc(2 * (size_t)m * sizeof *s->fr);
    s->wk = calloc(2 * ((size_t)m + 7) + 2, sizeof *s->wk);
    if (s->wk)
        s->wk++;
    if (!s->idx || !s->ent || !s->err || !s->next || !s->ovf || !s->act || !s->fr || !s->wk)
        return -1;
    s->ent[0].key = s->nokey;
    for (uint32_t b = 0; b < NB; b++)
        s->head[b] = EMPTY;
    return 0;
}

static void ss_destroy(struct ss *s)
{
    free(s->ent);
    free(s->err);
    free(s->next);
    free(s->idx);
    free(s->ovf);
    free(s->act);
    free(s->fr);
    free(s->wk ? s->wk - 1 : NULL);
}

/* ---- index: key -> id, linear probing ---------------------------------- */

static inline uint64_t cnt_of(const struct ss *s, uint32_t id) { return s->ent[id + 1].cnt; }
static inline uint64_t key_of(const struct ss *s, uint32_t id) { return s->ent[id + 1].key; }

/* Empty slot j: backward-shift deletion (later slots of its cluster whose
 * probe sequence passes j move up).  Returns the slot left empty: every
 * other slot is as occupied as before. */
static uint32_t ss_index_del(struct ss *s, uint32_t j)
{
    const uint32_t mask = s->mask;
    for (uint32_t k = (j + 1) & mask; s->idx[k]; k = (k + 1) & mask) {
        uint32_t h = home(s, s->ent[s->idx[k]].key);
        /* move idx[k] to the hole j if its home is not in (j, k] (cyclically) */
        if (((k - h) & mask) >= ((k - j) & mask)) {
            s->idx[j] = s->idx[k];
            j = k;
        }
    }
    s->idx[j] = 0;
    return j;
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

/* act[0 .. an) = the entries filed under base whose count is still base, in
 * key order (apos: the next); the others (their counts grew) are filed
 * again.  The keys of a table share their top bits, and the ones below
 * the highest that varies, with the entry's id below them, sort as the
 * keys do: one 64-bit word per entry when they fit in it, sorted in vector
 * registers when there are at most 128 and the processor can (hhh_sort.h:
 * on cc1's code stream, bench's table, the sort went from 0.047 to about
 * 0.015 s), else by hhh_sort_u64. */
static void ss_activate(struct ss *s)
{
    uint32_t b = (uint32_t)(s->base % NB), n = 0, ns = 0;
    uint32_t id = s->head[b];
    s->head[b] = EMPTY;
    struct hhh_act *f = s->fr;
    /* Fresh or stale is the data's whim (on cc1's code stream one entry in
     * five is stale), so the walk does not branch on it: every entry is
     * written to both lists and counted in one; the stale ids wait in act[]
     * (rewritten below) to be filed again. */
    uint32_t *st = s->act;
    const uint64_t base = s->base;
    /* the bits in which the keys differ from the first one's: every fresh
     * key agrees with it above the highest */
    const uint64_t key0 = key_of(s, id);
    uint64_t vary = 0;
    while (id != EMPTY) {
        uint32_t nx = s->next[id];
        const struct ss_ent *x = &s->ent[id + 1];
        uint32_t fresh = x->cnt == base;
        vary |= x->key ^ key0;
        f[n] = (struct hhh_act){ x->key, id };
        st[ns] = id;
        n += fresh;
        ns += fresh ^ 1;
        id = nx;
    }
    s->inb -= n + ns;
    for (uint32_t i = 0; i < ns; i++)
        ss_file(s, st[i], cnt_of(s, st[i]));
    s->apos = 0;
    s->an = n;
    if (n <= 1) {
        if (n)
            s->act[0] = f[0].id;
        return;
    }
    /* hhh_sort_u64 sorts nw >= n words, a multiple of 8 (its runs are then all
     * whole networks, without the branchy insertion sort of a tail): the
     * nw - n extra ones are all ones, not below any entry's word (one word
     * can be all ones too, the last: the same value, so the first n sorted
     * words are the same either way). */
    uint32_t nw = (n + 7) & ~7u;
    unsigned kb = 64 - (unsigned)__builtin_clzll(vary), ib = s->ibits;
    if (kb + ib <= 64) {
        uint64_t *w = s->wk, kmask = kb >= 64 ? ~0ull : (1ull << kb) - 1;
        for (uint32_t i = 0; i < n; i++)
            w[i] = (f[i].key & kmask) << ib | f[i].id;
        if (!hhh_sort_small(w, n)) {
            for (uint32_t i = n; i < nw; i++)
                w[i] = ~0ull;
            hhh_sort_u64(w, w + nw, nw);
        }
        uint64_t imask = (1ull << ib) - 1;
        for (uint32_t i = 0; i < n; i++)
            s->act[i] = (uint32_t)(w[i] & imask);
    } else {
        hhh_sort_act(f, f + s->m, n);
        for (uint32_t i = 0; i < n; i++)
            s->act[i] = f[i].id;
    }
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

/* The entry with the least (count, key): act[apos]. */
static uint32_t ss_min(struct ss *s)
{
    for (;;) {
        while (s->apos < s->an) {
            uint32_t id = s->act[s->apos];
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

/* w (>= 1) updates of key, which is not in the full table: it replaces the
 * minimum.  e is the first free slot of key's probe sequence (from its home
 * hk): the deletion frees one slot, and the key goes there if that slot
 * comes first, else to e. */
static __attribute__((noinline)) void ss_evict(struct ss *s, uint64_t key, uint32_t hk, uint32_t e, uint64_t w)
{
    uint32_t id = ss_min(s);
    s->apos++;
    struct ss_ent *x = &s->ent[id + 1];
    uint64_t c = x->cnt;
    const uint32_t mask = s->mask;
    uint32_t v = home(s, x->key);
    while (s->idx[v] != id + 1)
        v = (v + 1) & mask;
    uint32_t f = ss_index_del(s, v); /* the minimum's key leaves */
    uint32_t j = ((f - hk) & mask) < ((e - hk) & mask) ? f : e;
    s->idx[j] = id + 1;
    *x = (struct ss_ent){ key, c + w };
    s->err[id] = c;
    ss_file(s, id, c + w);
}

/* w (>= 1) updates of key, not found at its home slot hk. */
static void ss_add_at(struct ss *s, uint64_t key, uint32_t hk, uint64_t w)
{
    uint32_t j = hk;
    for (;; j = (j + 1) & s->mask) {
        const uint32_t v = s->idx[j];
        if (!v)
            break;
        struct ss_ent *x = &s->ent[v];
        if (x->key == key) {
            x->cnt += w; /* filed lazily (ss_min) */
            return;
        }
    }
    if (s->n == s->m) {
        ss_evict(s, key, hk, j, w);
        return;
    }
    uint32_t id = s->n++;
    s->idx[j] = id + 1;
    s->ent[id + 1] = (struct ss_ent){ key, w };
    s->err[id] = 0;
    ss_file(s, id, w);
}

/* w (>= 1) updates of key. */
static inline void ss_add(struct ss *s, uint64_t key, uint64_t w)
{
    uint32_t j = home(s, key);
    const uint32_t v = s->idx[j];
    struct ss_ent *x = &s->ent[v];
    if (x->key == key && v)
        x->cnt += w; /* in the table, at its home slot */
    else
        ss_add_at(s, key, j, w);
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
    h->mask = h->bits >= 64 ? ~0ull : (1ull << h->bits) - 1;
    h->t = calloc(h->levels, sizeof *h->t);
    h->lv = calloc(h->levels, sizeof *h->lv);
    h->run_key = calloc(h->levels, sizeof *h->run_key);
    h->run_len = calloc(h->levels, sizeof *h->run_len);
    h->kb = calloc(HB + 1, sizeof *h->kb); /* rhhh: hhh_keys_space's */
    if (h->variant != HHH_RHHH) {
        h->rl = malloc((HB + 8) * sizeof *h->rl); /* hhh_run_ends stores 8 at a time */
        h->fresh = 1;
    }
    if (!h->t || !h->lv || !h->run_key || !h->run_len || !h->kb || (h->variant != HHH_RHHH && !h->rl)) {
        hhh_free(h);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    for (unsigned l = 0; l < h->levels; l++) {
        unsigned plen = l * h->k < h->bits ? l * h->k : h->bits;
        unsigned drop = h->bits - plen;
        h->lv[l].shift = drop >= 64 ? 0 : drop;
        h->lv[l].pmask = drop >= 64 ? 0 : h->mask >> drop << drop;
    }
    for (unsigned l = 0; l < h->levels; l++)
        if (ss_init(&h->t[l], (uint32_t)per, h->lv[l].pmask) != 0) {
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
    free(h->lv);
    free(h->run_key);
    free(h->run_len);
    free(h->kb);
    free(h->rl);
    free(h);
}

static unsigned plen_of(const struct hhh *h, unsigned level)
{
    unsigned p = level * h->k;
    return p < h->bits ? p : h->bits;
}

static inline uint64_t prefix(const struct hhh *h, uint64_t key, unsigned level)
{
    return key & h->lv[level].pmask;
}

/* The run ends rl[0, nr) of the batch kb at level l > 0, in order: the run
 * that ends at position i is the prefix of kb[i - 1], begun at the run end
 * before (a run is never empty: see hhh_add).  Keeps in rl, in order, the
 * run ends of level l - 1 (those whose first differing level is below l)
 * and returns how many.  run_start is kept relative to the batch: kb[i] is
 * event e0 + i. */
static inline __attribute__((always_inline)) uint32_t level_batch_t(struct ss *s, struct lvl *v, unsigned l,
                                                                     const uint64_t *kb, uint64_t e0, uint32_t *rl,
                                                                     uint32_t nr, const int nokey_ok)
{
    const uint32_t *const idx = s->idx;
    struct ss_ent *const ent = s->ent;
    const unsigned hs = s->hshift;
    const uint64_t pm = v->pmask;
    uint64_t rs = v->run_start - e0; /* <= the first run end's position */
    const uint32_t *rp = rl, *end = rl + nr;
    uint32_t k = 0;
    for (;;) {
        /* updates of keys in the table at their home slots, up to another */
        uint64_t p = 0, w = 0;
        uint32_t j0 = 0, r = 0;
        for (; rp < end; rp++) {
            r = *rp;
            uint32_t i = r >> 8;
            w = i - rs;
            rs = i;
            p = kb[i - 1] & pm;
            j0 = (uint32_t)((p * HMUL) >> hs);
            const uint32_t slot = idx[j0];
            struct ss_ent *x = &ent[slot];
            if (x->key != p || (!nokey_ok && !slot)) /* a free slot names ent[0], whose key is nokey */
                break;
            x->cnt += w;
            rl[k] = r;
            k += (r & 0xff) < l;
        }
        if (rp == end)
            break;
        ss_add_at(s, p, j0, w);
        rl[k] = r;
        k += (r & 0xff) < l;
        rp++;
    }
    v->run_start = e0 + rs;
    return k;
}

/* level_batch_t compiled twice: a hit needs one comparison when a free
 * slot's ent[0] holds nokey. */
static uint32_t level_batch(struct ss *s, struct lvl *v, unsigned l, const uint64_t *kb, uint64_t e0, uint32_t *rl,
                            uint32_t nr)
{
    return s->nokey_ok ? level_batch_t(s, v, l, kb, e0, rl, nr, 1) : level_batch_t(s, v, l, kb, e0, rl, nr, 0);
}

/* Levels l and l - 1 (l >= 2) together, run end by run end: the run ends
 * rl[0, nr) of level l, and of level l - 1 those whose first differing
 * level is below l.  Keeps in rl those of level l - 2 and returns how
 * many.  Each level gets its updates in the order level_batch gives them,
 * so its table is the same; but a key that misses at level l mostly
 * misses at l - 1 too (cc1's code stream, level 31 after a miss at 32:
 * 3.23M misses, 0.30M hits), and there the second level's branch follows
 * the first's outcome, which a branch predictor sees.  oka, okb: the
 * levels' nokey_ok (a hit needs one comparison), compiled in. */
static inline __attribute__((always_inline)) uint32_t level_pair_t(struct ss *sa, struct lvl *va, struct ss *sb,
                                                                    struct lvl *vb, unsigned l, const uint64_t *kb,
                                                                    uint64_t e0, uint32_t *rl, uint32_t nr,
                                                                    const int oka, const int okb)
{
    const uint32_t *const ia = sa->idx, *const ib = sb->idx;
    struct ss_ent *const ea = sa->ent, *const eb = sb->ent;
    const unsigned ha = sa->hshift, hb = sb->hshift;
    const uint64_t pa = va->pmask, pb = vb->pmask;
    uint64_t ra = va->run_start - e0, rb = vb->run_start - e0;
    uint32_t k = 0;
    for (uint32_t t = 0; t < nr; t++) {
        const uint32_t r = rl[t], i = r >> 8;
        const uint64_t key = kb[i - 1];
        uint64_t p = key & pa;
        uint32_t j = (uint32_t)((p * HMUL) >> ha);
        uint32_t v = ia[j];
        struct ss_ent *x = &ea[v];
        if (x->key == p && (oka || v))
            x->cnt += i - ra;
        else
            ss_add_at(sa, p, j, i - ra);
        ra = i;
        if ((r & 0xff) < l) {
            p = key & pb;
            j = (uint32_t)((p * HMUL) >> hb);
            v = ib[j];
            x = &eb[v];
            if (x->key == p && (okb || v))
                x->cnt += i - rb;
            else
                ss_add_at(sb, p, j, i - rb);
            rb = i;
            rl[k] = r;
            k += (r & 0xff) < l - 1;
        }
    }
    va->run_start = e0 + ra;
    vb->run_start = e0 + rb;
    return k;
}

/* level_pair_t compiled for the levels' kinds of free slot: the deepest
 * level of 64-bit keys has no key that no prefix can be, every other level
 * has. */
static uint32_t level_pair(struct ss *sa, struct lvl *va, struct ss *sb, struct lvl *vb, unsigned l,
                           const uint64_t *kb, uint64_t e0, uint32_t *rl, uint32_t nr)
{
    if (sa->nokey_ok && sb->nokey_ok)
        return level_pair_t(sa, va, sb, vb, l, kb, e0, rl, nr, 1, 1);
    if (sb->nokey_ok)
        return level_pair_t(sa, va, sb, vb, l, kb, e0, rl, nr, 0, 1);
    return level_pair_t(sa, va, sb, vb, l, kb, e0, rl, nr, sa->nokey_ok, 0);
}

/* Apply the batch kb[1 .. nb] (mst), level by level (see the top of the
 * file).  A key that differs from the one before in its top c bits ends
 * the runs of levels c / k + 1 .. L (hhh_runs.h): the list of the deepest
 * level holds every such key, and each level up keeps those whose first
 * differing level is at most its own. */
static void mst_batch(struct hhh *h)
{
    const uint32_t nb = h->nb;
    if (!nb)
        return;
    const uint64_t *kb = h->kb;
    uint32_t *rl = h->rl;
    uint32_t nr = hhh_run_ends(kb, nb, h->bits - 64, h->k, rl);
    /* level 0 never ends a run here (a first differing level >= 1); two levels at a
     * time, and a last one alone */
    unsigned l = h->levels - 1;
    for (; l > 1 && nr; l -= 2)
        nr = level_pair(&h->t[l], &h->lv[l], &h->t[l - 1], &h->lv[l - 1], l, kb, h->n - nb - 1, rl, nr);
    if (l == 1 && nr)
        nr = level_batch(&h->t[1], &h->lv[1], 1, kb, h->n - nb - 1, rl, nr);
    h->kb[0] = kb[nb];
    h->nb = 0;
}

/* mst: key (masked) joins the batch. */
static inline void mst_push(struct hhh *h, uint64_t key)
{
    if (h->fresh) {
        /* the runs are empty (no events yet, or just flushed): they begin
         * with this key, and none ends here */
        h->kb[h->nb] = key;
        h->fresh = 0;
    }
    h->kb[++h->nb] = key;
    h->n++;
    if (h->nb == HB)
        mst_batch(h);
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
    mst_push(h, key);
}

void hhh_add_keys(struct hhh *h, const uint64_t *keys, size_t n)
{
    if (h->variant == HHH_RHHH) {
        for (size_t i = 0; i < n; i++)
            hhh_add(h, keys[i]);
        return;
    }
    if (n && h->fresh) { /* the first key after a flush: mst_push's own case */
        mst_push(h, keys[0] & h->mask);
        keys++;
        n--;
    }
    /* the others as mst_push would, a batch's worth at a time: a loop of
     * loads, masks and stores, without its tests per key */
    while (n) {
        size_t take = HB - h->nb < n ? HB - h->nb : n;
        uint64_t *d = h->kb + h->nb + 1;
        const uint64_t mask = h->mask;
        for (size_t i = 0; i < take; i++)
            d[i] = keys[i] & mask;
        h->nb += (uint32_t)take;
        h->n += take;
        keys += take;
        n -= take;
        if (h->nb == HB)
            mst_batch(h);
    }
}

uint64_t *hhh_keys_space(struct hhh *h, size_t *room)
{
    if (h->variant == HHH_RHHH) {
        *room = HB;
        return h->kb;
    }
    *room = HB - h->nb;
    return h->kb + h->nb + 1;
}

void hhh_keys_done(struct hhh *h, size_t n)
{
    if (h->variant == HHH_RHHH) {
        for (size_t i = 0; i < n; i++)
            hhh_add(h, h->kb[i]);
        return;
    }
    if (!n)
        return;
    if (h->fresh) { /* mst_push's first key: the runs begin with it */
        h->kb[h->nb] = h->kb[h->nb + 1];
        h->fresh = 0;
    }
    h->nb += (uint32_t)n;
    h->n += n;
    if (h->nb == HB)
        mst_batch(h);
}

void hhh_flush(struct hhh *h)
{
    if (h->variant != HHH_RHHH)
        mst_batch(h);
    for (unsigned l = 0; l < h->levels; l++) {
        if (h->variant == HHH_RHHH) {
            if (h->run_len[l])
                ss_add(&h->t[l], h->run_key[l], h->run_len[l]);
            h->run_len[l] = 0;
        } else {
            uint64_t w = h->n - h->lv[l].run_start;
            if (w)
                ss_add(&h->t[l], prefix(h, h->kb[0], l), w);
            h->lv[l].run_start = h->n;
        }
    }
    h->fresh = 1;
}

size_t hhh_table(struct hhh *h, unsigned level, uint64_t *key, uint64_t *count, uint64_t *error)
{
    hhh_flush(h);
    const struct ss *s = &h->t[level];
    for (uint32_t id = 0; id < s->n; id++) {
        key[id] = key_of(s, id) >> h->lv[level].shift;
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
            x.lo = key_of(s, id); /* left-aligned: the range's first key */
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
