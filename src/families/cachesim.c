/* cachesim.c - set-associative LRU cache hierarchy (see cachesim.h). */
#include "families/cachesim.h"

#include <stdio.h>
#include <stdlib.h>

#define INVALID UINT64_MAX

struct level {
    uint64_t *tag;     /* line number, INVALID when empty; sets * ways */
    uint64_t *stamp;   /* last use, for LRU */
    uint8_t *dirty;
    uint64_t sets, clock;
    unsigned ways, line_shift;
};

struct cachesim {
    struct level l1d, l2, l1i;
    int ifetch;
    struct cache_stats st;
};

static int is_pow2(uint64_t x) { return x && !(x & (x - 1)); }

static int level_init(struct level *lv, const struct cache_geom *g, const char *name, char *err, size_t errlen)
{
    if (!is_pow2(g->line) || g->line > (1u << 20)) {
        snprintf(err, errlen, "%s line size must be a power of two up to 1 MB (got %u)", name, g->line);
        return -1;
    }
    if (g->ways < 1 || g->ways > 1024) {
        snprintf(err, errlen, "%s ways must be in [1, 1024] (got %u)", name, g->ways);
        return -1;
    }
    uint64_t set_bytes = (uint64_t)g->ways * g->line;
    if (g->size < set_bytes || g->size % set_bytes || !is_pow2(g->size / set_bytes)) {
        snprintf(err, errlen, "%s size %llu must be ways * line * a power of two (ways %u, line %u)", name,
                 (unsigned long long)g->size, g->ways, g->line);
        return -1;
    }
    lv->sets = g->size / set_bytes;
    lv->ways = g->ways;
    lv->line_shift = 0;
    while ((1u << lv->line_shift) < g->line)
        lv->line_shift++;
    size_t n = (size_t)(lv->sets * lv->ways);
    lv->tag = malloc(n * sizeof *lv->tag);
    lv->stamp = calloc(n, sizeof *lv->stamp);
    lv->dirty = calloc(n, 1);
    if (!lv->tag || !lv->stamp || !lv->dirty) {
        snprintf(err, errlen, "out of memory (%s of %llu bytes)", name, (unsigned long long)g->size);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        lv->tag[i] = INVALID;
    return 0;
}

static void level_free(struct level *lv)
{
    free(lv->tag);
    free(lv->stamp);
    free(lv->dirty);
}

struct cachesim *cachesim_create(const struct cachesim_cfg *cfg, char *err, size_t errlen)
{
    struct cachesim *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    c->ifetch = cfg->ifetch;
    if (level_init(&c->l1d, &cfg->l1d, "l1", err, errlen) != 0 || level_init(&c->l2, &cfg->l2, "l2", err, errlen) != 0 ||
        (c->ifetch && level_init(&c->l1i, &cfg->l1i, "il1", err, errlen) != 0)) {
        cachesim_free(c);
        return NULL;
    }
    if (cfg->l2.line < cfg->l1d.line || (c->ifetch && cfg->l2.line < cfg->l1i.line)) {
        snprintf(err, errlen, "l2 line (%u) must be at least the l1 line (%u)", cfg->l2.line,
                 cfg->l2.line < cfg->l1d.line ? cfg->l1d.line : cfg->l1i.line);
        cachesim_free(c);
        return NULL;
    }
    return c;
}

void cachesim_free(struct cachesim *c)
{
    if (!c)
        return;
    level_free(&c->l1d);
    level_free(&c->l2);
    level_free(&c->l1i);
    free(c);
}

const struct cache_stats *cachesim_stats(const struct cachesim *c) { return &c->st; }

/* Access line number `line`; on a miss the line is installed (write:
 * dirty).  Returns 1 on a hit; *victim gets a dirty line evicted to make
 * room, or INVALID. */
static int level_access(struct level *lv, uint64_t line, int write, uint64_t *victim)
{
    uint64_t *tag = &lv->tag[(line & (lv->sets - 1)) * lv->ways];
    uint64_t *stamp = tag - lv->tag + lv->stamp;
    uint8_t *dirty = tag - lv->tag + lv->dirty;
    uint64_t now = ++lv->clock;
    *victim = INVALID;
    unsigned lru = 0;
    for (unsigned w = 0; w < lv->ways; w++) {
        if (tag[w] == line) {
            stamp[w] = now;
            dirty[w] |= (uint8_t)write;
            return 1;
        }
        /* an empty way has stamp 0 and so is taken before any valid one
         * (ties: the lowest way) */
        if (stamp[w] < stamp[lru])
            lru = w;
    }
    if (tag[lru] != INVALID && dirty[lru])
        *victim = tag[lru];
    tag[lru] = line;
    stamp[lru] = now;
    dirty[lru] = (uint8_t)write;
    return 0;
}

/* Read the L2 line holding byte address addr (an L1 miss).  1 if it missed. */
static int l2_read(struct cachesim *c, uint64_t addr)
{
    uint64_t victim;
    c->st.l2_reads++;
    if (level_access(&c->l2, addr >> c->l2.line_shift, 0, &victim))
        return 0;
    c->st.l2_read_misses++;
    if (victim != INVALID)
        c->st.l2_writebacks++;
    return 1;
}

static void l2_write(struct cachesim *c, uint64_t addr)
{
    uint64_t victim;
    c->st.l2_writes++;
    if (!level_access(&c->l2, addr >> c->l2.line_shift, 1, &victim)) {
        c->st.l2_write_misses++;
        if (victim != INVALID)
            c->st.l2_writebacks++;
    }
}

/* Every L1 line of [addr, addr + size): returns CACHE_* bits. */
static unsigned l1_access(struct cachesim *c, struct level *l1, uint64_t addr, uint32_t size, int write, int data)
{
    unsigned sh = l1->line_shift, r = 0;
    uint64_t first = addr >> sh, last = (addr + (size ? size : 1) - 1) >> sh;
    if (last < first) /* wrapped past 2^64: the lines up to the top */
        last = UINT64_MAX >> sh;
    if (last != first)
        c->st.spans++;
    for (uint64_t line = first;; line++) {
        uint64_t victim;
        if (data)
            c->st.l1d_lines++;
        if (!level_access(l1, line, write, &victim)) {
            r |= CACHE_L1_MISS;
            if (data)
                c->st.l1d_line_misses++;
            if (l2_read(c, line << sh))
                r |= CACHE_L2_MISS;
            if (victim != INVALID) {
                c->st.l1d_writebacks++;
                l2_write(c, victim << sh);
            }
        }
        if (line == last)
            break;
    }
    return r;
}

unsigned cachesim_load(struct cachesim *c, uint64_t addr, uint32_t size)
{
    c->st.loads++;
    unsigned r = l1_access(c, &c->l1d, addr, size, 0, 1);
    c->st.load_l1_misses += (r & CACHE_L1_MISS) != 0;
    c->st.load_l2_misses += (r & CACHE_L2_MISS) != 0;
    return r;
}

unsigned cachesim_store(struct cachesim *c, uint64_t addr, uint32_t size)
{
    c->st.stores++;
    unsigned r = l1_access(c, &c->l1d, addr, size, 1, 1);
    c->st.store_l1_misses += (r & CACHE_L1_MISS) != 0;
    return r;
}

unsigned cachesim_ifetch(struct cachesim *c, uint64_t pc, uint32_t size)
{
    if (!c->ifetch)
        return 0;
    c->st.ifetches++;
    unsigned r = l1_access(c, &c->l1i, pc, size, 0, 0);
    c->st.ifetch_l1_misses += (r & CACHE_L1_MISS) != 0;
    c->st.ifetch_l2_misses += (r & CACHE_L2_MISS) != 0;
    return r;
}
