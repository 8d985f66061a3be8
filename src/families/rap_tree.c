/* rap_tree.c - the RAP tree as a multibit trie (see rap_tree.h for the
 * algorithm, the error bound and the memory rules).
 *
 * Layout: node 0 is the root; every other node lives in a block of b nodes
 * that are the children of one parent, in slot order (a node's `first` is
 * the index of its block).  A slot whose child does not exist (never
 * created, or folded by a merge) holds a node with present = 0.  So the
 * walk reads one node per level: child = first + slot, then that node's
 * `present` and `first` on the same 16 bytes.  Keys are held left-aligned
 * in 128 bits: the slot at every level is the key's top `stride` bits and
 * the walk shifts the key left by `stride` per level; on a last level of
 * s < stride bits only the slots that are multiples of 2^(stride - s) are
 * used.
 *
 * The update walk starts below the root when it can (an exact shortcut, no
 * effect on any result): the tree keeps the root path of the last key it
 * walked (path[0..pdepth], the node at every depth down to that key's
 * deepest match).  Between two merges nodes are only ever added (a split
 * fills empty slots; only a merge folds nodes and frees blocks), so every
 * node on that path is still present and still covers the same range; if
 * the new key shares its top d * stride bits with the last one, the node
 * at depth min(d, pdepth) of that path covers the new key too, and the
 * deepest match of the new key lies in its subtree: the walk resumes there
 * and reads the same nodes from that depth down as a walk from the root.
 * A merge resets the path to the root.  Consecutive keys of a stream
 * usually differ only in their low bits (block starts of one function,
 * nearby addresses), so most walks read one or two nodes instead of L.
 * For the same reason a direct-mapped leaf cache (key -> the node its last
 * walk ended at, stamped with the merge epoch) gives a key seen since the
 * last merge its node at once; that node still covers the key, and the
 * walk continues below it only if it has been split since.  Neither
 * shortcut changes which node an update reaches, nor stats.visits (depth +
 * 1 of the node reached); rap_tree_set_cache(t, 0) turns both off.
 *
 * Pair trees (rap2d_create, rap_tree_set_pairs) never interleave a pair to
 * find its node (only a split's walk down does):
 *   - the leaf cache is keyed by the pair (x, y) instead of the
 *     interleaved key: the interleaving is a bijection between masked pairs
 *     and keys, so an entry still names the node the last walk of that
 *     very key ended at;
 *   - walks read the slot at depth d straight from the pair (xy_slot: the
 *     next stride bits of x and of y, x's first - the top k bits of the
 *     aligned key shifted by d k), and the cached root path is kept as its
 *     pair: two keys share min(2 cx, 2 cy + 1) leading interleaved bits
 *     when their xs share cx leading bits and their ys cy, the depth
 *     lpm_resume would compute;
 *   - an x cache keeps, per x (hashed), the last pair of that x that
 *     missed the leaf cache and the node its walk ended at, stamped with
 *     the epoch.  Keys of the same x agree down to the highest bit where
 *     their ys differ; when that depth is at least the node's, the node
 *     (still present: between merges nodes are only added) holds the new
 *     key too, and the walk goes on below it - to the deepest match, the
 *     node a root walk reaches.  Otherwise the walk resumes on the root
 *     path as above.
 * Updates by key (rap_tree_add_wide) de-interleave it to use the same
 * caches.  Pair trees meet far more distinct keys than 1-D ones (a
 * profile's pairs), so their leaf cache has 2^LC_PAIR_BITS entries.
 * Which node an update reaches, and so every result, is unchanged.
 */
#include "families/rap_tree.h"
#include "families/rap2d_tree.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "families/rap_tree_impl.h"

/* ---- threshold and schedules -------------------------------------------- */

uint64_t rap_tree_threshold_at(const struct rap_tree *t, uint64_t n)
{
    return (uint64_t)((u128)n * t->eps_num / t->thr_den);
}

static void schedule_sample(struct rap_tree *t);

static void update_threshold(struct rap_tree *t)
{
    t->thr = rap_tree_threshold_at(t, t->n);
    /* smallest n' with floor(n' a / c) >= thr + 1, i.e. n' = ceil((thr + 1) c / a) */
    u128 need = ((u128)(t->thr + 1) * t->thr_den + t->eps_num - 1) / t->eps_num;
    t->thr_next = need > UINT64_MAX ? UINT64_MAX : (uint64_t)need;
}

static void schedule_merge(struct rap_tree *t)
{
    if (t->m0 == 0) {
        t->next_merge = UINT64_MAX;
        return;
    }
    double p = ceil((double)t->m0 * pow(t->q, (double)t->merge_i));
    uint64_t next = p >= 18446744073709549568.0 ? UINT64_MAX : (uint64_t)p;
    if (next <= t->n)
        next = t->n + 1;
    t->next_merge = next;
}

/* ---- pool ------------------------------------------------------------------ */

static void note_live_upto(struct rap_tree *t, uint64_t n)
{
    /* Events up to n arrived with the old live count. */
    t->node_time += (u128)t->live * (n - t->node_time_n);
    t->node_time_n = n;
}

static void note_live(struct rap_tree *t) { note_live_upto(t, t->n); }

static int grow_blocks(struct rap_tree *t, uint64_t want)
{
    uint64_t limit = (UINT32_MAX - 1) / t->b - 1;
    if (want > limit)
        want = limit;
    if (want <= t->bcap)
        return 0;
    struct rnode *nn = realloc(t->node, (size_t)(1 + want * t->b) * sizeof *nn);
    if (!nn)
        return -1;
    t->node = nn;
    t->bcap = (uint32_t)want;
    return 0;
}

static uint32_t alloc_block(struct rap_tree *t)
{
    uint32_t blk;
    if (t->free_blk != NONE) {
        blk = t->free_blk;
        t->free_blk = t->node[1 + (size_t)blk * t->b].first;
    } else {
        blk = t->bused++; /* capacity checked by the caller */
    }
    uint32_t first = 1 + blk * t->b;
    memset(&t->node[first], 0, t->b * sizeof *t->node);
    return first;
}

static void free_block(struct rap_tree *t, uint32_t first)
{
    uint32_t blk = (first - 1) / t->b;
    t->node[first].first = t->free_blk;
    t->free_blk = blk;
}

/* Room for `more` nodes (max_nodes) and, if need_block, a free block
 * (doubling the pool).  0 on success. */
static int reserve(struct rap_tree *t, uint64_t more, int need_block)
{
    if (t->max_nodes && t->live + more > t->max_nodes)
        return -1;
    if (!need_block || t->free_blk != NONE || t->bused < t->bcap)
        return 0;
    if (grow_blocks(t, 2 * (uint64_t)t->bcap + 1) != 0 || t->bused >= t->bcap)
        return -1;
    t->pool_grows++;
    return 0;
}

/* ---- create / free --------------------------------------------------------- */

struct rap_tree *rap_tree_create(const struct rap_tree_cfg *cfg, char *err, size_t errlen)
{
    if (cfg->key_bits < 1 || cfg->key_bits > RAP_MAX_KEY_BITS) {
        snprintf(err, errlen, "key_bits must be in [1, %d] (got %u)", RAP_MAX_KEY_BITS, cfg->key_bits);
        return NULL;
    }
    if (cfg->stride < 1 || cfg->stride > RAP_MAX_STRIDE) {
        snprintf(err, errlen, "branching factor must be 2^1 .. 2^%d (stride %u)", RAP_MAX_STRIDE, cfg->stride);
        return NULL;
    }
    if (!(cfg->eps > 0 && cfg->eps <= 1) || llround(cfg->eps * (double)EPS_SCALE) < 1) {
        snprintf(err, errlen, "eps must be in [1e-9, 1] (got %g)", cfg->eps);
        return NULL;
    }
    if (cfg->split != RAP_SPLIT_BEFORE && cfg->split != RAP_SPLIT_AFTER) {
        snprintf(err, errlen, "split must be before or after (got %d)", (int)cfg->split);
        return NULL;
    }
    if (cfg->merge_first && !(cfg->q > 1 && cfg->q <= 1e6)) {
        snprintf(err, errlen, "q (merge period ratio) must be in (1, 1e6] (got %g)", cfg->q);
        return NULL;
    }
    struct rap_tree *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    t->bits = cfg->key_bits;
    t->k = cfg->stride;
    t->b = 1u << cfg->stride;
    t->levels = (cfg->key_bits + cfg->stride - 1) / cfg->stride;
    t->align = 128 - cfg->key_bits;
    t->eps_num = (uint64_t)llround(cfg->eps * (double)EPS_SCALE);
    t->thr_den = (uint64_t)t->levels * EPS_SCALE;
    t->q = cfg->q;
    t->m0 = cfg->merge_first;
    t->max_nodes = cfg->max_nodes > UINT32_MAX - 1 ? UINT32_MAX - 1 : cfg->max_nodes;
    t->sample_every = cfg->sample_every;
    t->split_before = cfg->split == RAP_SPLIT_BEFORE;

    /* Before the first merge every event may split (the threshold is 0 for
     * the first L / eps events) and so need a block: size the pool for that,
     * within reason. */
    uint64_t m = t->m0 ? t->m0 : 1024;
    if (m > 1024)
        m = 1024;
    if (m > 65536 / t->b)
        m = 65536 / t->b;
    t->free_blk = NONE;
    t->scratch = malloc(t->b * sizeof *t->scratch);
    t->path = calloc(t->levels + 1, sizeof *t->path);
    t->lc = calloc((size_t)1 << LC_BITS, sizeof *t->lc);
    t->epoch = 1;
    if (!t->scratch || !t->path || !t->lc || grow_blocks(t, m + 1) != 0) {
        rap_tree_free(t);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    memset(&t->node[0], 0, sizeof t->node[0]);
    t->node[0].first = NONE;
    t->node[0].present = 1;
    t->live = t->live_max = 1;
    for (unsigned c = 0; c <= 128; c++)
        t->lcp_depth[c] = (uint8_t)(c / t->k < t->levels ? c / t->k : t->levels);
    t->pdepth = 0; /* path[0] = 0, the root */
    update_threshold(t);
    schedule_merge(t);
    t->next_periodic = t->sample_every ? t->sample_every : UINT64_MAX;
    schedule_sample(t);
    return t;
}

void rap_tree_free(struct rap_tree *t)
{
    if (!t)
        return;
    free(t->node);
    free(t->scratch);
    free(t->path);
    free(t->lc);
    free(t->xc);
    free(t->mlog);
    free(t->slog);
    free(t);
}

unsigned rap_tree_key_bits(const struct rap_tree *t) { return t->bits; }
unsigned rap_tree_stride(const struct rap_tree *t) { return t->k; }

/* ---- split ---------------------------------------------------------------- */

/* Children a split of v would create. */
static uint32_t missing_children(const struct rap_tree *t, uint32_t v)
{
    unsigned s = level_bits(t, t->node[v].depth);
    uint32_t first = t->node[v].first;
    if (first == NONE)
        return 1u << s;
    uint32_t step = 1u << (t->k - s), miss = 0;
    for (uint32_t i = 0; i < t->b; i += step)
        miss += !t->node[first + i].present;
    return miss;
}

/* Give v all its children (count 0), during event `arrived` (which, like
 * every event before it, arrived with the old live count).  0, or -1 when
 * refused (max_nodes or out of memory). */
static int split_at(struct rap_tree *t, uint32_t v, uint64_t arrived)
{
    uint32_t miss = missing_children(t, v);
    if (reserve(t, miss, t->node[v].first == NONE) != 0)
        return -1;
    note_live_upto(t, arrived);
    uint8_t depth = (uint8_t)(t->node[v].depth + 1);
    unsigned s = level_bits(t, t->node[v].depth);
    uint32_t step = 1u << (t->k - s);
    if (t->node[v].first == NONE)
        t->node[v].first = alloc_block(t);
    struct rnode *c = &t->node[t->node[v].first];
    for (uint32_t i = 0; i < t->b; i += step)
        if (!c[i].present) {
            c[i].count = 0;
            c[i].first = NONE;
            c[i].depth = depth;
            c[i].present = 1;
        }
    t->live += miss;
    if (t->live > t->live_max)
        t->live_max = t->live;
    t->splits++;
    return 0;
}

/* During event n, the last one counted. */
static int split(struct rap_tree *t, uint32_t v) { return split_at(t, v, t->n); }

/* ---- merge ---------------------------------------------------------------- */

static int cmp_leafc(const void *pa, const void *pb)
{
    const struct leafc *x = pa, *y = pb;
    if (x->count != y->count)
        return x->count < y->count ? -1 : 1;
    return x->slot < y->slot ? -1 : x->slot > y->slot;
}

static void merge_node(struct rap_tree *t, uint32_t v)
{
    uint32_t first = t->node[v].first;
    if (first == NONE)
        return;
    for (uint32_t i = 0; i < t->b; i++)
        if (t->node[first + i].present)
            merge_node(t, first + i);
    /* Children below may have become leaves: fold the lightest leaves first. */
    uint32_t m = 0, kids = 0;
    for (uint32_t i = 0; i < t->b; i++) {
        const struct rnode *c = &t->node[first + i];
        if (!c->present)
            continue;
        kids++;
        if (c->first == NONE)
            t->scratch[m++] = (struct leafc){ c->count, i };
    }
    if (m > 1)
        qsort(t->scratch, m, sizeof *t->scratch, cmp_leafc);
    for (uint32_t j = 0; j < m; j++) {
        if (t->node[v].count + t->scratch[j].count > t->thr)
            break;
        t->node[v].count += t->scratch[j].count;
        t->node[first + t->scratch[j].slot].present = 0;
        t->live--;
        t->nodes_merged++;
        kids--;
    }
    if (kids == 0) {
        free_block(t, first);
        t->node[v].first = NONE;
    }
}

static void log_merge(struct rap_tree *t, uint64_t before)
{
    if (t->nmlog == t->capmlog) {
        size_t cap = t->capmlog ? 2 * t->capmlog : 64;
        struct rap_merge_rec *nm = realloc(t->mlog, cap * sizeof *nm);
        if (!nm)
            return; /* the log is a report; the tree is unaffected */
        t->mlog = nm;
        t->capmlog = cap;
    }
    t->mlog[t->nmlog++] = (struct rap_merge_rec){ t->n, before, t->live };
}

/* Drop the cached root path and every cached leaf. */
static void forget_walks(struct rap_tree *t)
{
    t->pdepth = 0;
    if (++t->epoch == 0) { /* wrapped: clear the entries of the old epochs */
        memset(t->lc, 0, ((size_t)1 << (t->pair_bits ? LC_PAIR_BITS : LC_BITS)) * sizeof *t->lc);
        if (t->xc)
            memset(t->xc, 0, ((size_t)1 << XC_BITS) * sizeof *t->xc);
        t->epoch = 1;
    }
}

static void merge_batch(struct rap_tree *t)
{
    note_live(t);
    uint64_t before = t->live;
    merge_node(t, 0);
    forget_walks(t); /* nodes on the cached path and leaves may have been folded */
    t->merges++;
    log_merge(t, before);
    t->merge_i++;
    schedule_merge(t);
    /* Reserve the coming period's worst case now (each split until the next
     * merge needs a counter > thr >= the threshold now, and the counters sum
     * to at most next_merge; a split may need a block), capped so that a
     * tiny eps or a huge b does not reserve gigabytes: the pool then doubles
     * between merges if it must. */
    uint64_t splits = t->next_merge == UINT64_MAX ? 0 : t->next_merge / (t->thr + 1);
    uint64_t cap = 2 * (uint64_t)t->bused + 256;
    if (splits > cap)
        splits = cap;
    if (splits * t->b > ((uint64_t)1 << 22))
        splits = ((uint64_t)1 << 22) / t->b;
    if (t->max_nodes && splits > t->max_nodes)
        splits = t->max_nodes;
    (void)grow_blocks(t, (uint64_t)t->bused + splits); /* failure: the doubling path tries again */
}

/* Samples at every power of two below the first merge (the start-up growth,
 * visible on a log axis) and every sample_every events. */
static void schedule_sample(struct rap_tree *t)
{
    uint64_t early = UINT64_MAX;
    if (t->m0 && t->n < t->m0) {
        uint64_t p = 1;
        while (p <= t->n)
            p <<= 1;
        if (p < t->m0)
            early = p;
    }
    t->next_sample = early < t->next_periodic ? early : t->next_periodic;
}

static void sample(struct rap_tree *t)
{
    if (t->nslog == t->capslog) {
        size_t cap = t->capslog ? 2 * t->capslog : 256;
        struct rap_sample *ns = realloc(t->slog, cap * sizeof *ns);
        if (!ns)
            goto next;
        t->slog = ns;
        t->capslog = cap;
    }
    t->slog[t->nslog++] = (struct rap_sample){ t->n, t->live };
next:
    if (t->n == t->next_periodic)
        t->next_periodic = t->n > UINT64_MAX - t->sample_every ? UINT64_MAX : t->n + t->sample_every;
    schedule_sample(t);
}

/* ---- update ---------------------------------------------------------------- */

static inline unsigned clz128(u128 x) /* x != 0 */
{
    uint64_t hi = (uint64_t)(x >> 64);
    return hi ? (unsigned)__builtin_clzll(hi) : 64u + (unsigned)__builtin_clzll((uint64_t)x);
}

/* The deepest node whose range holds key (aligned), resuming from the root
 * path of the previous key *pkey (path[0 .. *pdepth]; see the top of the
 * file); the path becomes key's. */
static inline uint32_t lpm_resume(const struct rap_tree *t, u128 key, u128 *pkey, uint32_t *path, unsigned *pdepth)
{
    const unsigned k = t->k, top = 128 - k;
    const struct rnode *node = t->node;
    u128 diff = key ^ *pkey;
    unsigned d = t->lcp_depth[diff ? clz128(diff) : 128];
    if (d > *pdepth)
        d = *pdepth;
    *pkey = key;
    uint32_t v = path[d];
    uint32_t first = node[v].first;
    if (first != NONE) {
        /* v was split, so d < levels and d * k < key_bits <= 128 */
        key <<= d * k;
        for (;;) {
            uint32_t c = first + (uint32_t)(key >> top);
            if (!node[c].present)
                break;
            v = c;
            path[++d] = v;
            first = node[v].first;
            if (first == NONE)
                break;
            key <<= k;
        }
    }
    *pdepth = d;
    return v;
}

static inline struct lc_entry *lc_slot(const struct rap_tree *t, uint64_t hi, uint64_t lo)
{
    return &t->lc[((hi * 0xc2b2ae3d27d4eb4full) ^ lo) * 0x9e3779b97f4a7c15ull >> (64 - LC_BITS)];
}

/* The leaf cache entry of a pair (x, y) of a pair tree. */
static inline struct lc_entry *lc_slot_pair(const struct rap_tree *t, uint64_t x, uint64_t y)
{
    return &t->lc[((x * 0xc2b2ae3d27d4eb4full) ^ y) * 0x9e3779b97f4a7c15ull >> (64 - LC_PAIR_BITS)];
}

/* The deepest node whose range holds key (aligned), from v, a node that
 * holds it and has children. */
static inline uint32_t lpm_below(const struct rap_tree *t, uint32_t v, u128 key)
{
    const struct rnode *node = t->node;
    const unsigned k = t->k, top = 128 - k;
    uint32_t first = node[v].first;
    key <<= node[v].depth * k; /* v was split: depth < levels */
    for (;;) {
        uint32_t c = first + (uint32_t)(key >> top);
        if (!node[c].present)
            break;
        v = c;
        first = node[v].first;
        if (first == NONE)
            break;
        key <<= k;
    }
    return v;
}

/* The deepest node whose range holds key (aligned), from the root. */
static uint32_t lpm_root(const struct rap_tree *t, u128 key)
{
    const unsigned k = t->k, top = 128 - k;
    const struct rnode *node = t->node;
    uint32_t v = 0;
    for (;;) {
        uint32_t first = node[v].first;
        if (first == NONE)
            return v;
        uint32_t c = first + (uint32_t)(key >> top);
        if (!node[c].present)
            return v;
        v = c;
        key <<= k;
    }
}

static inline struct xc_entry *xc_slot(const struct rap_tree *t, uint64_t x)
{
    return &t->xc[(x * 0x9e3779b97f4a7c15ull) >> (64 - XC_BITS)];
}

/* Pair trees walk on the pair itself: the slot of (x, y) among the
 * children of a node at depth d < L is the next stride bits of x and of y
 * interleaved, x's first (on a last level of r < stride bits, those r bits
 * each, then zeros) - the top k bits of the aligned key shifted by d * k,
 * the slot lpm_resume and lpm_below read. */
static inline uint64_t spread8(uint64_t v) /* 8 bits -> the even bits of 16 */
{
    v = (v | (v << 4)) & 0x0f0full;
    v = (v | (v << 2)) & 0x3333ull;
    return (v | (v << 1)) & 0x5555ull;
}

static inline uint32_t xy_slot(const struct rap_tree *t, uint64_t x, uint64_t y, unsigned d)
{
    const unsigned s = t->k / 2, r = t->pair_bits - d * s; /* bits left, >= 1 */
    if (s == 1)
        return (uint32_t)((((x >> (r - 1)) & 1) << 1) | ((y >> (r - 1)) & 1));
    if (r >= s) {
        const uint64_t m = (1ull << s) - 1;
        return (uint32_t)((spread8((x >> (r - s)) & m) << 1) | spread8((y >> (r - s)) & m));
    }
    const uint64_t m = (1ull << r) - 1;
    return (uint32_t)(((spread8(x & m) << 1) | spread8(y & m)) << (2 * (s - r)));
}

/* lpm_below of a pair tree. */
static uint32_t lpm_below_xy(const struct rap_tree *t, uint32_t v, uint64_t x, uint64_t y)
{
    const struct rnode *node = t->node;
    unsigned d = node[v].depth;
    uint32_t first = node[v].first;
    for (;;) {
        uint32_t c = first + xy_slot(t, x, y, d);
        if (!node[c].present)
            break;
        v = c;
        d++;
        first = node[v].first;
        if (first == NONE)
            break;
    }
    return v;
}

/* Leading bits where two coordinates (of pair_bits bits) agree. */
static inline unsigned common_bits(const struct rap_tree *t, uint64_t d)
{
    return d ? (unsigned)__builtin_clzll(d) - (64 - t->pair_bits) : t->pair_bits;
}

/* lpm_resume of a pair tree, on the cached root path of the pair (px, py):
 * two keys agree on their top min(2 cx, 2 cy + 1) interleaved bits when
 * their xs agree on cx leading bits and their ys on cy. */
static uint32_t lpm_resume_xy(const struct rap_tree *t, uint64_t x, uint64_t y, uint64_t *px, uint64_t *py,
                              uint32_t *path, unsigned *pdepth)
{
    const struct rnode *node = t->node;
    uint64_t dx = x ^ *px, dy = y ^ *py;
    unsigned d = t->levels;
    if (dx | dy) {
        unsigned cx = 2 * common_bits(t, dx), cy = 2 * common_bits(t, dy) + 1;
        d = t->lcp_depth[cx < cy ? cx : cy];
    }
    if (d > *pdepth)
        d = *pdepth;
    *px = x;
    *py = y;
    uint32_t v = path[d];
    uint32_t first = node[v].first;
    if (first != NONE)
        for (;;) { /* v was split, so d < levels */
            uint32_t c = first + xy_slot(t, x, y, d);
            if (!node[c].present)
                break;
            v = c;
            path[++d] = v;
            first = node[v].first;
            if (first == NONE)
                break;
        }
    *pdepth = d;
    return v;
}

/* lpm of the pair (x, y) (masked) of a pair tree with the cache on, e its
 * leaf cache entry: from the entry, else from the x cache, else from the
 * cached root path; the pair is never interleaved. */
static inline uint32_t lpm_pair(struct rap_tree *t, uint64_t x, uint64_t y, struct lc_entry *e)
{
    uint32_t v;
    if (e->epoch == t->epoch && e->lo == y && e->hi == x) {
        v = e->v;
        if (t->node[v].first != NONE)
            e->v = v = lpm_below_xy(t, v, x, y);
        return v;
    }
    struct xc_entry *xe = xc_slot(t, x);
    v = NONE;
    if (xe->epoch == t->epoch && xe->x == x) {
        /* keys of the same x agree down to the highest bit where the ys differ */
        unsigned c = 2 * common_bits(t, y ^ xe->y) + 1;
        uint32_t w = xe->v;
        if (t->lcp_depth[c < 128 ? c : 128] >= t->node[w].depth)
            v = t->node[w].first == NONE ? w : lpm_below_xy(t, w, x, y);
    }
    if (v == NONE)
        v = lpm_resume_xy(t, x, y, &t->px, &t->py, t->path, &t->pdepth);
    xe->x = x;
    xe->y = y;
    xe->v = v;
    xe->epoch = t->epoch;
    e->hi = x;
    e->lo = y;
    e->v = v;
    e->epoch = t->epoch;
    return v;
}

/* lpm of a key (aligned) of a pair tree: walks and caches on its pair (see
 * rap_tree_add_pairs).  Out of line: the walks of other trees stay tight. */
static __attribute__((noinline)) uint32_t lpm_pair_key(struct rap_tree *t, u128 key)
{
    uint64_t x, y;
    rap2d_unkey(t->pair_bits, (uint64_t)((key >> t->align) >> 64), (uint64_t)(key >> t->align), &x, &y);
    return lpm_pair(t, x, y, lc_slot_pair(t, x, y));
}

/* The deepest node whose range holds key (aligned): from the leaf cache when
 * the key was walked since the last merge, else from the cached root path. */
static inline uint32_t lpm(struct rap_tree *t, u128 key)
{
    if (t->no_cache)
        return lpm_root(t, key);
    if (t->pair_bits)
        return lpm_pair_key(t, key);
    uint64_t hi = (uint64_t)(key >> 64), lo = (uint64_t)key;
    struct lc_entry *e = lc_slot(t, hi, lo);
    if (e->epoch == t->epoch && e->lo == lo && e->hi == hi) {
        /* that node still covers key; it may have been split since */
        uint32_t v = e->v;
        if (t->node[v].first != NONE)
            e->v = v = lpm_below(t, v, key);
        return v;
    }
    uint32_t v = lpm_resume(t, key, &t->pkey, t->path, &t->pdepth);
    e->hi = hi;
    e->lo = lo;
    e->v = v;
    e->epoch = t->epoch;
    return v;
}

void rap_tree_set_cache(struct rap_tree *t, int on)
{
    t->no_cache = !on;
    forget_walks(t);
}

int rap_tree_set_pairs(struct rap_tree *t, unsigned bits)
{
    if (!t->pair_bits) {
        struct lc_entry *lc = calloc((size_t)1 << LC_PAIR_BITS, sizeof *lc);
        if (!lc)
            return -1;
        free(t->lc);
        t->lc = lc;
    }
    if (!t->xc && !(t->xc = calloc((size_t)1 << XC_BITS, sizeof *t->xc)))
        return -1;
    t->pair_bits = bits;
    t->pair_mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    forget_walks(t); /* entries keyed the other way */
    return 0;
}

static inline void after_event(struct rap_tree *t)
{
    if (t->n == t->next_merge)
        merge_batch(t);
    if (t->n == t->next_sample)
        sample(t);
}

/* Rule `before` (see rap_tree.h): the event of key at v (the deepest match,
 * depth < L) would take v's counter past thr; split v and go on to the
 * child that holds key (created by the split, count 0), as long as that one
 * too would pass thr and can split.  Returns the node to increment: v when
 * its split is refused (counted), else a node at depth L or whose counter
 * stays <= thr.  The walk caches stay valid: v and its new children still
 * cover the keys cached on them, and a walk resumed at v goes on below. */
static uint32_t split_down(struct rap_tree *t, uint32_t v, u128 key)
{
    const unsigned k = t->k;
    key <<= t->node[v].depth * k; /* depth < levels: the shift is < key_bits */
    for (;;) {
        if (split(t, v) != 0) {
            t->refused++;
            return v;
        }
        v = t->node[v].first + (uint32_t)(key >> (128 - k));
        /* the new child: count 0 */
        if (1 <= t->thr || t->node[v].depth >= t->levels)
            return v;
        key <<= k;
    }
}

/* The steps of a unit update around its walk: unit_begin before it, then
 * (v the node the walk reached) unit_splits_first says whether v splits
 * before counting (rule before: the caller walks on with split_down and
 * counts there), else unit_count counts at v (rule after: then splits v
 * when its count passed the threshold); unit_end after. */
static inline void unit_begin(struct rap_tree *t)
{
    t->n++;
    t->updates++;
    if (t->n >= t->thr_next)
        update_threshold(t);
}

static inline int unit_over(const struct rap_tree *t, uint32_t v)
{
    return t->node[v].count + 1 > t->thr && t->node[v].depth < t->levels;
}

static inline int unit_splits_first(const struct rap_tree *t, uint32_t v) { return t->split_before && unit_over(t, v); }

static inline void unit_count(struct rap_tree *t, uint32_t v)
{
    int over = unit_over(t, v);
    t->node[v].count++;
    if (over && split(t, v) != 0)
        t->refused++;
}

static inline void unit_end(struct rap_tree *t, uint32_t v)
{
    t->visits += t->node[v].depth + 1u;
    if (t->n == t->next_merge || t->n == t->next_sample)
        after_event(t);
}

static void add_unit(struct rap_tree *t, u128 key)
{
    unit_begin(t);
    uint32_t v = lpm(t, key);
    if (unit_splits_first(t, v)) {
        v = split_down(t, v, key);
        t->node[v].count++;
    } else {
        unit_count(t, v);
    }
    unit_end(t, v);
}

/* The aligned key of the pair (x, y) of a pair tree. */
static inline u128 pair_key(const struct rap_tree *t, uint64_t x, uint64_t y)
{
    uint64_t hi, lo;
    rap2d_key(t->pair_bits, x, y, &hi, &lo);
    return (((u128)hi << 64) | lo) << t->align;
}

/* add_unit of the pair (x, y) (masked) of a pair tree with the cache on, e
 * its leaf cache entry: the same steps, the key interleaved only for a
 * split. */
static inline void add_pair(struct rap_tree *t, uint64_t x, uint64_t y, struct lc_entry *e)
{
    unit_begin(t);
    uint32_t v = lpm_pair(t, x, y, e);
    if (unit_splits_first(t, v)) {
        v = split_down(t, v, pair_key(t, x, y));
        t->node[v].count++;
    } else {
        unit_count(t, v);
    }
    unit_end(t, v);
}

#define LC_AHEAD 16
#define NODE_AHEAD 8
#define PIPE 32 /* > LC_AHEAD + NODE_AHEAD, a power of two */

void rap_tree_add_pairs(struct rap_tree *t, const struct rap_pair *p, size_t n)
{
    if (!t->pair_bits || t->no_cache) {
        /* not a pair tree (then the pair is the key x:y), or every walk from the root */
        for (size_t i = 0; i < n; i++)
            add_unit(t, t->pair_bits ? pair_key(t, p[i].x, p[i].y) : (((u128)p[i].x << 64) | p[i].y) << t->align);
        return;
    }
    /* a software pipeline: event i's leaf cache entry is requested, then
     * (LC_AHEAD events later, the entry cached by then) the node it names,
     * or the xc entry a miss will read, and NODE_AHEAD events later still
     * the event is added.  Hints only: an update may change an entry in
     * between, never its place. */
    const uint64_t mask = t->pair_mask;
    struct lc_entry *ent[PIPE];
    for (size_t i = 0; i < n + LC_AHEAD + NODE_AHEAD; i++) {
        if (i < n) {
            ent[i % PIPE] = lc_slot_pair(t, p[i].x & mask, p[i].y & mask);
            __builtin_prefetch(ent[i % PIPE]);
        }
        if (i >= LC_AHEAD && i - LC_AHEAD < n) {
            size_t j = i - LC_AHEAD;
            const struct lc_entry *e = ent[j % PIPE];
            if (e->epoch == t->epoch && e->hi == (p[j].x & mask) && e->lo == (p[j].y & mask))
                __builtin_prefetch(&t->node[e->v]);
            else
                __builtin_prefetch(xc_slot(t, p[j].x & mask));
        }
        if (i >= LC_AHEAD + NODE_AHEAD) {
            size_t j = i - LC_AHEAD - NODE_AHEAD;
            add_pair(t, p[j].x & mask, p[j].y & mask, ent[j % PIPE]);
        }
    }
}

/* Units that can be added to a counter at c (n events so far) before one
 * makes it exceed the threshold: the smallest j >= 1 with
 * (c + j) * den > (n + j) * num.  UINT64_MAX: never.  (Once true, it stays
 * true for larger j: den >= num.) */
static uint64_t units_to_split(const struct rap_tree *t, uint64_t c)
{
    i128 rhs = (i128)t->n * (i128)t->eps_num - (i128)c * (i128)t->thr_den;
    if (rhs < 0)
        return 1;
    if (t->thr_den == t->eps_num)
        return UINT64_MAX;
    u128 j = (u128)rhs / (t->thr_den - t->eps_num) + 1;
    return j > UINT64_MAX ? UINT64_MAX : (uint64_t)j;
}

/* w units of key in a row, as w calls of add_unit: each round walks to the
 * key's node v and adds the units up to the next merge, sample or split
 * point at once.  `after`: the js-th unit (units_to_split) is the first to
 * pass the threshold; it is added and then v splits.  `before`: the first
 * js - 1 units are added; if js is 1, v splits before the next unit (which
 * the next round's walk takes to the new child), or, when that split is
 * refused, the unit stays on v. */
static void add_weighted(struct rap_tree *t, u128 key, uint64_t w)
{
    if (w == 0)
        return;
    if (w == 1) {
        add_unit(t, key);
        return;
    }
    t->updates++;
    while (w) {
        uint32_t v = lpm(t, key);
        uint64_t c = t->node[v].count;
        uint64_t j = w;
        if (t->next_merge - t->n < j)
            j = t->next_merge - t->n;
        if (t->next_sample - t->n < j)
            j = t->next_sample - t->n;
        int splittable = t->node[v].depth < t->levels;
        int blocked = 0, split_after = 0;
        if (splittable) {
            if (t->max_nodes && t->live + missing_children(t, v) > t->max_nodes &&
                (t->split_before ? units_to_split(t, c) == 1 : c > t->thr)) {
                blocked = 1; /* no room, and every unit would split: each is a refused attempt */
            } else {
                uint64_t js = units_to_split(t, c);
                if (!t->split_before) {
                    if (js <= j) {
                        j = js;
                        split_after = 1; /* the last unit passes thr; it attempts the split */
                    }
                } else if (js == 1) {
                    if (split_at(t, v, t->n + 1) == 0)
                        continue; /* the next unit (event n + 1) goes to the new child */
                    t->refused++;
                    j = 1;        /* refused (out of memory): the unit stays on v */
                } else if (js - 1 < j) {
                    j = js - 1;
                }
            }
        }
        t->visits += t->node[v].depth + 1u;
        t->node[v].count = c + j;
        t->n += j;
        w -= j;
        if (t->n >= t->thr_next)
            update_threshold(t);
        if (blocked)
            t->refused += j;
        else if (split_after && split(t, v) != 0)
            t->refused++;
        after_event(t);
    }
}

static inline u128 align1(const struct rap_tree *t, uint64_t x) { return (u128)x << t->align; }

void rap_tree_add1(struct rap_tree *t, uint64_t x) { add_unit(t, align1(t, x)); }

void rap_tree_add(struct rap_tree *t, uint64_t x, uint64_t w) { add_weighted(t, align1(t, x), w); }

void rap_tree_add_wide(struct rap_tree *t, uint64_t hi, uint64_t lo, uint64_t w)
{
    add_weighted(t, (((u128)hi << 64) | lo) << t->align, w);
}

/* ---- walks over exact keys (the nodes they reach; the sums in rap_tree_report.c) ---- */

size_t rap_tree_walk_keys(const struct rap_tree *t, const struct rap_wkey *keys, size_t nkeys,
                          void (*fn)(void *ctx, const struct rap_span *s, uint64_t inside), void *ctx)
{
    size_t nodes = 1 + (size_t)t->bused * t->b;
    uint64_t *inside = calloc(nodes, sizeof *inside);
    uint32_t *path = calloc(t->levels + 1, sizeof *path);
    size_t r = (size_t)-1;
    if (inside && path) {
        u128 pkey = 0;
        unsigned pdepth = 0; /* path[0] = 0, the root */
        for (size_t i = 0; i < nkeys; i++) {
            u128 key = (((u128)keys[i].hi << 64) | keys[i].lo) << t->align;
            inside[lpm_resume(t, key, &pkey, path, &pdepth)] += keys[i].w;
        }
        r = rap_tree_walk_inside(t, inside, fn, ctx);
    }
    free(inside);
    free(path);
    return r;
}

size_t rap_tree_walk_pairs(const struct rap_tree *t, const void *pairs, size_t npairs, size_t stride,
                           void (*fn)(void *ctx, const struct rap_span *s, uint64_t inside), void *ctx)
{
    size_t nodes = 1 + (size_t)t->bused * t->b;
    uint64_t *inside = calloc(nodes, sizeof *inside);
    uint32_t *path = calloc(t->levels + 1, sizeof *path);
    size_t r = (size_t)-1;
    if (inside && path) {
        uint64_t px = 0, py = 0;
        u128 pkey = 0;
        unsigned pdepth = 0; /* path[0] = 0, the root */
        const char *rec = pairs;
        for (size_t i = 0; i < npairs; i++, rec += stride) {
            uint64_t xyw[3];
            memcpy(xyw, rec, sizeof xyw);
            uint32_t v = t->pair_bits
                             ? lpm_resume_xy(t, xyw[0] & t->pair_mask, xyw[1] & t->pair_mask, &px, &py, path, &pdepth)
                             : lpm_resume(t, (((u128)xyw[0] << 64) | xyw[1]) << t->align, &pkey, path, &pdepth);
            inside[v] += xyw[2];
        }
        r = rap_tree_walk_inside(t, inside, fn, ctx);
    }
    free(inside);
    free(path);
    return r;
}
