/* conte_cfg.c - weighted CFG from the dynamic stream (see conte_cfg.h).
 *
 * Hot-path tables are open-addressing hashes of uint32 record indices (slot
 * value = index + 1, 0 = empty) over struct-of-array records; all growth
 * happens in conte_cfg_reserve(), called once per batch before any event of
 * the batch is fed, with room for one new record per event.
 */
#include "families/conte_cfg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mix64.h"

/* ---- allocation (abort on OOM: feed() has no error path) ---- */

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        fprintf(stderr, "conte_cfg: out of memory (%zu bytes)\n", n);
        abort();
    }
    return q;
}

static void *xcalloc(size_t n, size_t size)
{
    void *q = calloc(n ? n : 1, size);
    if (!q) {
        fprintf(stderr, "conte_cfg: out of memory (%zu x %zu bytes)\n", n, size);
        abort();
    }
    return q;
}

/* ---- index hash ---- */

struct imap {
    uint32_t *slot;
    size_t cap; /* power of two */
};

static void imap_init(struct imap *m, size_t cap)
{
    size_t c = 16;
    while (c < cap)
        c <<= 1;
    m->slot = xcalloc(c, sizeof *m->slot);
    m->cap = c;
}

/* Rehash n records into a table of newcap slots; hash_of(ctx, i) gives record i's hash. */
static void imap_rehash(struct imap *m, size_t newcap, size_t n, uint64_t (*hash_of)(const void *, uint32_t),
                        const void *ctx)
{
    free(m->slot);
    imap_init(m, newcap);
    size_t mask = m->cap - 1;
    for (uint32_t i = 0; i < n; i++) {
        size_t h = (size_t)hash_of(ctx, i) & mask;
        while (m->slot[h])
            h = (h + 1) & mask;
        m->slot[h] = i + 1;
    }
}

/* ---- builder ---- */

struct conte_cfg {
    struct conte_cfg_fast fast; /* first: the inline fast path's view (conte_cfg.h) */
    /* runs */
    size_t nruns, cap_runs;
    uint64_t *run_start, *run_count, *run_termpc;
    size_t *run_lenoff;
    uint32_t *run_ninsn, *run_branch;
    uint32_t *run_last_arc; /* hot-path cache: last arc taken out of the run (CONTE_NONE) */
    uint32_t *run_bslot;    /* hot-path cache: branch slot last seen ending the run (CONTE_NONE) */
    uint8_t *run_term;
    struct imap run_map;
    /* instruction lengths of each run's first execution */
    uint8_t *lens;
    size_t nlens, cap_lens;
    /* run arcs (run index, destination address) */
    size_t narcs, cap_arcs;
    uint32_t *arc_run;
    uint64_t *arc_dst, *arc_count;
    uint32_t *arc_next; /* hot-path cache: run starting at arc_dst (CONTE_NONE: unknown) */
    struct imap arc_map;
    /* conditional branches */
    size_t nbr, cap_br;
    struct conte_branch *br;
    struct imap br_map;
    /* stream state (and in `fast`: cur, recording, last_pc, last_len,
     * have_last, pend, insns) */
    int started;        /* a control transfer has been seen: runs are blocks */
    uint64_t pend_pc, pend_dest;
    uint32_t pend_slot;
    uint32_t last_arc;  /* arc counted by the last close_run, or CONTE_NONE */
    uint64_t conds;
    int refs;           /* owners (conte_cfg_ref / conte_cfg_free) */
};



static uint64_t run_hash(const void *ctx, uint32_t i)
{
    const struct conte_cfg *c = ctx;
    return mix64(c->run_start[i]);
}

static uint64_t arc_hash(const void *ctx, uint32_t i)
{
    const struct conte_cfg *c = ctx;
    return mix64_pair(c->arc_run[i], c->arc_dst[i]);
}

static uint64_t br_hash(const void *ctx, uint32_t i)
{
    const struct conte_cfg *c = ctx;
    return mix64(c->br[i].pc);
}

static void grow_runs(struct conte_cfg *c, size_t cap)
{
    c->run_start = xrealloc(c->run_start, cap * sizeof *c->run_start);
    c->run_count = xrealloc(c->run_count, cap * sizeof *c->run_count);
    c->run_termpc = xrealloc(c->run_termpc, cap * sizeof *c->run_termpc);
    c->run_lenoff = xrealloc(c->run_lenoff, cap * sizeof *c->run_lenoff);
    c->run_ninsn = xrealloc(c->run_ninsn, cap * sizeof *c->run_ninsn);
    c->run_branch = xrealloc(c->run_branch, cap * sizeof *c->run_branch);
    c->run_last_arc = xrealloc(c->run_last_arc, cap * sizeof *c->run_last_arc);
    c->run_bslot = xrealloc(c->run_bslot, cap * sizeof *c->run_bslot);
    c->run_term = xrealloc(c->run_term, cap * sizeof *c->run_term);
    c->cap_runs = cap;
}

static void grow_arcs(struct conte_cfg *c, size_t cap)
{
    c->arc_run = xrealloc(c->arc_run, cap * sizeof *c->arc_run);
    c->arc_dst = xrealloc(c->arc_dst, cap * sizeof *c->arc_dst);
    c->arc_count = xrealloc(c->arc_count, cap * sizeof *c->arc_count);
    c->arc_next = xrealloc(c->arc_next, cap * sizeof *c->arc_next);
    c->cap_arcs = cap;
}

struct conte_cfg *conte_cfg_create(size_t capacity_hint)
{
    struct conte_cfg *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    if (capacity_hint < 64)
        capacity_hint = 64;
    grow_runs(c, capacity_hint);
    grow_arcs(c, capacity_hint);
    c->br = xcalloc(capacity_hint, sizeof *c->br);
    c->cap_br = capacity_hint;
    c->lens = xrealloc(NULL, capacity_hint * 4);
    c->cap_lens = capacity_hint * 4;
    imap_init(&c->run_map, capacity_hint * 2);
    imap_init(&c->arc_map, capacity_hint * 2);
    imap_init(&c->br_map, capacity_hint * 2);
    c->fast.cur = CONTE_NONE;
    c->last_arc = CONTE_NONE;
    c->refs = 1;
    return c;
}

void conte_cfg_free(struct conte_cfg *c)
{
    if (!c || --c->refs > 0)
        return;
    free(c->run_start);
    free(c->run_count);
    free(c->run_termpc);
    free(c->run_lenoff);
    free(c->run_ninsn);
    free(c->run_branch);
    free(c->run_last_arc);
    free(c->run_bslot);
    free(c->run_term);
    free(c->run_map.slot);
    free(c->lens);
    free(c->arc_run);
    free(c->arc_dst);
    free(c->arc_count);
    free(c->arc_next);
    free(c->arc_map.slot);
    free(c->br);
    free(c->br_map.slot);
    free(c);
}

struct conte_cfg *conte_cfg_ref(struct conte_cfg *c)
{
    c->refs++;
    return c;
}

static size_t grown(size_t cap, size_t need)
{
    while (cap < need)
        cap *= 2;
    return cap;
}

void conte_cfg_reserve(struct conte_cfg *c, size_t n)
{
    /* Each event creates at most one run, one run arc, one branch and one length byte. */
    if (c->nruns + n > c->cap_runs)
        grow_runs(c, grown(c->cap_runs, c->nruns + n));
    if (2 * (c->nruns + n) > c->run_map.cap)
        imap_rehash(&c->run_map, grown(c->run_map.cap, 2 * (c->nruns + n)), c->nruns, run_hash, c);
    if (c->narcs + n > c->cap_arcs)
        grow_arcs(c, grown(c->cap_arcs, c->narcs + n));
    if (2 * (c->narcs + n) > c->arc_map.cap)
        imap_rehash(&c->arc_map, grown(c->arc_map.cap, 2 * (c->narcs + n)), c->narcs, arc_hash, c);
    if (c->nbr + n > c->cap_br) {
        size_t cap = grown(c->cap_br, c->nbr + n);
        c->br = xrealloc(c->br, cap * sizeof *c->br);
        c->cap_br = cap;
    }
    if (2 * (c->nbr + n) > c->br_map.cap)
        imap_rehash(&c->br_map, grown(c->br_map.cap, 2 * (c->nbr + n)), c->nbr, br_hash, c);
    if (c->nlens + n > c->cap_lens) {
        size_t cap = grown(c->cap_lens, c->nlens + n);
        c->lens = xrealloc(c->lens, cap);
        c->cap_lens = cap;
    }
}

/* Find a run by start address; CONTE_NONE if absent. */
static uint32_t run_find(const struct conte_cfg *c, uint64_t pc)
{
    size_t mask = c->run_map.cap - 1, h = (size_t)mix64(pc) & mask;
    uint32_t s;
    while ((s = c->run_map.slot[h]) != 0) {
        if (c->run_start[s - 1] == pc)
            return s - 1;
        h = (h + 1) & mask;
    }
    return CONTE_NONE;
}

static void start_run(struct conte_cfg *c, uint64_t pc, uint32_t len)
{
    c->fast.pend = CT_NONE;
    /* The arc just counted usually leads here: its cached run skips the hash. */
    uint32_t la = c->last_arc;
    if (la != CONTE_NONE && c->arc_dst[la] != pc)
        la = CONTE_NONE;
    if (la != CONTE_NONE && c->arc_next[la] != CONTE_NONE) {
        c->fast.cur = c->arc_next[la];
        c->fast.recording = 0;
        return;
    }
    size_t mask = c->run_map.cap - 1, h = (size_t)mix64(pc) & mask;
    uint32_t s;
    while ((s = c->run_map.slot[h]) != 0) {
        if (c->run_start[s - 1] == pc) {
            c->fast.cur = s - 1;
            c->fast.recording = 0;
            if (la != CONTE_NONE)
                c->arc_next[la] = s - 1;
            return;
        }
        h = (h + 1) & mask;
    }
    uint32_t r = (uint32_t)c->nruns++;
    if (la != CONTE_NONE)
        c->arc_next[la] = r;
    c->run_map.slot[h] = r + 1;
    c->run_start[r] = pc;
    c->run_count[r] = 0;
    c->run_termpc[r] = 0;
    c->run_lenoff[r] = c->nlens;
    c->run_ninsn[r] = 1;
    c->run_branch[r] = CONTE_NONE;
    c->run_last_arc[r] = CONTE_NONE;
    c->run_bslot[r] = CONTE_NONE;
    c->run_term[r] = CT_NONE;
    c->lens[c->nlens++] = (uint8_t)(len > 255 ? 255 : len);
    c->fast.cur = r;
    c->fast.recording = 1;
}

static void add_run_arc(struct conte_cfg *c, uint32_t r, uint64_t dst)
{
    uint32_t la = c->run_last_arc[r];
    if (la != CONTE_NONE && c->arc_dst[la] == dst) {
        c->arc_count[la]++;
        c->last_arc = la;
        return;
    }
    size_t mask = c->arc_map.cap - 1, h = (size_t)mix64_pair(r, dst) & mask;
    uint32_t s;
    while ((s = c->arc_map.slot[h]) != 0) {
        if (c->arc_run[s - 1] == r && c->arc_dst[s - 1] == dst) {
            c->arc_count[s - 1]++;
            c->run_last_arc[r] = s - 1;
            c->last_arc = s - 1;
            return;
        }
        h = (h + 1) & mask;
    }
    uint32_t a = (uint32_t)c->narcs++;
    c->arc_map.slot[h] = a + 1;
    c->arc_run[a] = r;
    c->arc_dst[a] = dst;
    c->arc_count[a] = 1;
    c->arc_next[a] = CONTE_NONE;
    c->run_last_arc[r] = a;
    c->last_arc = a;
}

/* Close the open run with terminator kind/pc; has_dest: count an arc to dest. */
static void close_run(struct conte_cfg *c, uint8_t kind, uint64_t termpc, uint32_t slot, int has_dest, uint64_t dest)
{
    uint32_t r = c->fast.cur;
    c->last_arc = CONTE_NONE;
    if (r == CONTE_NONE)
        return;
    if (c->run_term[r] == CT_NONE) {
        c->run_term[r] = kind;
        c->run_termpc[r] = termpc;
        c->run_branch[r] = slot;
    }
    c->run_count[r]++;
    if (has_dest)
        add_run_arc(c, r, dest);
    c->fast.cur = CONTE_NONE;
    c->fast.recording = 0;
}

void conte_cfg_insn(struct conte_cfg *c, uint64_t pc, uint32_t len)
{
    c->fast.insns++;
    if (c->fast.cur != CONTE_NONE) {
        if (c->fast.pend != CT_NONE) {
            uint8_t k = c->fast.pend;
            if (k == CT_RET)
                close_run(c, k, c->pend_pc, CONTE_NONE, 0, 0);
            else if (k == CT_CALL)
                close_run(c, k, c->pend_pc, CONTE_NONE, c->pend_dest != 0, c->pend_dest);
            else
                close_run(c, k, c->pend_pc, c->pend_slot, 1, pc);
        } else if (pc != c->fast.last_pc + c->fast.last_len) {
            close_run(c, CT_JUMP, c->fast.last_pc, CONTE_NONE, 1, pc);
        } else {
            if (c->fast.recording) {
                c->lens[c->nlens++] = (uint8_t)(len > 255 ? 255 : len);
                c->run_ninsn[c->fast.cur]++;
            }
        }
    }
    if (c->fast.cur == CONTE_NONE) {
        /* The window starts anywhere, usually inside a block: its first
         * address is no leader.  Runs (and so blocks) start at the first
         * control transfer or pc discontinuity; the instructions before it
         * (less than one block) are counted in insns only. */
        if (!c->started && c->fast.have_last && (c->fast.pend != CT_NONE || pc != c->fast.last_pc + c->fast.last_len))
            c->started = 1;
        if (c->started)
            start_run(c, pc, len);
        else
            c->fast.pend = CT_NONE;
    }
    c->fast.last_pc = pc;
    c->fast.last_len = len;
    c->fast.have_last = 1;
}

uint32_t conte_cfg_cond(struct conte_cfg *c, uint64_t pc, uint64_t target, uint64_t fallthru, int taken)
{
    /* The open run usually ends at the same branch as last time. */
    uint32_t r = c->fast.cur, b = r != CONTE_NONE ? c->run_bslot[r] : CONTE_NONE;
    if (b != CONTE_NONE && c->br[b].pc == pc)
        goto found;
    b = CONTE_NONE;
    size_t mask = c->br_map.cap - 1, h = (size_t)mix64(pc) & mask;
    uint32_t s;
    while ((s = c->br_map.slot[h]) != 0) {
        if (c->br[s - 1].pc == pc) {
            b = s - 1;
            break;
        }
        h = (h + 1) & mask;
    }
    if (b == CONTE_NONE) {
        b = (uint32_t)c->nbr++;
        c->br_map.slot[h] = b + 1;
        memset(&c->br[b], 0, sizeof c->br[b]);
        c->br[b].pc = pc;
        c->br[b].target = target;
        c->br[b].fallthru = fallthru;
    }
    if (r != CONTE_NONE)
        c->run_bslot[r] = b;
found:
    c->br[b].exec++;
    c->br[b].taken += taken != 0;
    c->conds++;
    c->fast.pend = CT_COND;
    c->pend_pc = pc;
    c->pend_slot = b;
    return b;
}

void conte_cfg_call(struct conte_cfg *c, uint64_t pc)
{
    c->fast.pend = CT_CALL;
    c->pend_pc = pc;
    c->pend_dest = (c->fast.have_last && c->fast.last_pc == pc) ? pc + c->fast.last_len : 0;
}

void conte_cfg_ret(struct conte_cfg *c, uint64_t pc)
{
    c->fast.pend = CT_RET;
    c->pend_pc = pc;
}

void conte_cfg_ijump(struct conte_cfg *c, uint64_t pc)
{
    c->fast.pend = CT_IJUMP;
    c->pend_pc = pc;
    c->pend_slot = CONTE_NONE;
}

void conte_cfg_end(struct conte_cfg *c)
{
    if (c->fast.cur == CONTE_NONE)
        return;
    if (c->fast.pend == CT_NONE) {
        /* The window ends inside the open run: that execution of it is
         * incomplete and not counted (a run seen for the first time keeps
         * count 0 and the instructions recorded so far). */
        c->fast.cur = CONTE_NONE;
        c->fast.recording = 0;
        return;
    }
    uint8_t k = c->fast.pend;
    uint32_t slot = k == CT_COND ? c->pend_slot : CONTE_NONE;
    if (k == CT_CALL)
        close_run(c, k, c->pend_pc, slot, c->pend_dest != 0, c->pend_dest);
    else
        close_run(c, k, c->pend_pc, slot, 0, 0);
    c->fast.pend = CT_NONE;
}

struct conte_branch *conte_cfg_branch(struct conte_cfg *c, uint32_t slot)
{
    return &c->br[slot];
}

size_t conte_cfg_nbranches(const struct conte_cfg *c)
{
    return c->nbr;
}

uint64_t conte_cfg_insns(const struct conte_cfg *c)
{
    return c->fast.insns;
}

uint64_t conte_cfg_conds(const struct conte_cfg *c)
{
    return c->conds;
}

/* ---- graph ---- */

struct gbuild {
    /* blocks */
    size_t nb, capb;
    struct conte_block *b;
    struct imap bmap;
    /* arcs keyed by (src block, destination start) */
    size_t na, capa;
    uint32_t *src;
    uint64_t *dst_start, *count;
    struct imap amap;
};

static uint64_t gb_block_hash(const void *ctx, uint32_t i)
{
    const struct gbuild *g = ctx;
    return mix64(g->b[i].start);
}

static uint64_t gb_arc_hash(const void *ctx, uint32_t i)
{
    const struct gbuild *g = ctx;
    return mix64_pair(g->src[i], g->dst_start[i]);
}

static uint32_t gb_block_find(const struct gbuild *g, uint64_t start)
{
    size_t mask = g->bmap.cap - 1, h = (size_t)mix64(start) & mask;
    uint32_t s;
    while ((s = g->bmap.slot[h]) != 0) {
        if (g->b[s - 1].start == start)
            return s - 1;
        h = (h + 1) & mask;
    }
    return CONTE_NONE;
}

static uint32_t gb_block_get(struct gbuild *g, uint64_t start, uint32_t ninsn, uint8_t term, uint32_t branch)
{
    uint32_t i = gb_block_find(g, start);
    if (i != CONTE_NONE)
        return i;
    if (g->nb == g->capb) {
        g->capb *= 2;
        g->b = xrealloc(g->b, g->capb * sizeof *g->b);
    }
    if (2 * (g->nb + 1) > g->bmap.cap)
        imap_rehash(&g->bmap, g->bmap.cap * 2, g->nb, gb_block_hash, g);
    i = (uint32_t)g->nb++;
    g->b[i].start = start;
    g->b[i].count = 0;
    g->b[i].ninsn = ninsn;
    g->b[i].term = term;
    g->b[i].branch = branch;
    size_t mask = g->bmap.cap - 1, h = (size_t)mix64(start) & mask;
    while (g->bmap.slot[h])
        h = (h + 1) & mask;
    g->bmap.slot[h] = i + 1;
    return i;
}

static void gb_arc_add(struct gbuild *g, uint32_t src, uint64_t dst_start, uint64_t count)
{
    size_t mask = g->amap.cap - 1, h = (size_t)mix64_pair(src, dst_start) & mask;
    uint32_t s;
    while ((s = g->amap.slot[h]) != 0) {
        if (g->src[s - 1] == src && g->dst_start[s - 1] == dst_start) {
            g->count[s - 1] += count;
            return;
        }
        h = (h + 1) & mask;
    }
    if (g->na == g->capa) {
        g->capa *= 2;
        g->src = xrealloc(g->src, g->capa * sizeof *g->src);
        g->dst_start = xrealloc(g->dst_start, g->capa * sizeof *g->dst_start);
        g->count = xrealloc(g->count, g->capa * sizeof *g->count);
    }
    if (2 * (g->na + 1) > g->amap.cap) {
        imap_rehash(&g->amap, g->amap.cap * 2, g->na, gb_arc_hash, g);
        mask = g->amap.cap - 1;
        h = (size_t)mix64_pair(src, dst_start) & mask;
        while (g->amap.slot[h])
            h = (h + 1) & mask;
    }
    uint32_t a = (uint32_t)g->na++;
    g->src[a] = src;
    g->dst_start[a] = dst_start;
    g->count[a] = count;
    g->amap.slot[h] = a + 1;
}

static int term_follows(uint8_t term)
{
    return term == CT_FALL || term == CT_COND || term == CT_CALL || term == CT_JUMP;
}

/* Fill CSR adjacency of g (arcs already in place). */
static void graph_csr(struct conte_graph *g)
{
    size_t nb = g->nblocks, na = g->narcs;
    g->out_off = xcalloc(nb + 1, sizeof *g->out_off);
    g->in_off = xcalloc(nb + 1, sizeof *g->in_off);
    g->out_idx = xcalloc(na, sizeof *g->out_idx);
    g->in_idx = xcalloc(na, sizeof *g->in_idx);
    for (size_t a = 0; a < na; a++) {
        g->out_off[g->arcs[a].src + 1]++;
        g->in_off[g->arcs[a].dst + 1]++;
    }
    for (size_t b = 0; b < nb; b++) {
        g->out_off[b + 1] += g->out_off[b];
        g->in_off[b + 1] += g->in_off[b];
    }
    uint32_t *fo = xcalloc(nb + 1, sizeof *fo), *fi = xcalloc(nb + 1, sizeof *fi);
    for (size_t a = 0; a < na; a++) {
        uint32_t s = g->arcs[a].src, d = g->arcs[a].dst;
        g->out_idx[g->out_off[s] + fo[s]++] = (uint32_t)a;
        g->in_idx[g->in_off[d] + fi[d]++] = (uint32_t)a;
    }
    free(fo);
    free(fi);
}

struct conte_graph *conte_graph_build(const struct conte_cfg *c)
{
    struct gbuild gb;
    memset(&gb, 0, sizeof gb);
    gb.capb = c->nruns + 16;
    gb.b = xrealloc(NULL, gb.capb * sizeof *gb.b);
    imap_init(&gb.bmap, gb.capb * 2);
    gb.capa = c->narcs + c->nruns + 16;
    gb.src = xrealloc(NULL, gb.capa * sizeof *gb.src);
    gb.dst_start = xrealloc(NULL, gb.capa * sizeof *gb.dst_start);
    gb.count = xrealloc(NULL, gb.capa * sizeof *gb.count);
    imap_init(&gb.amap, gb.capa * 2);
    uint32_t *last_block = xcalloc(c->nruns + 1, sizeof *last_block);

    /* Split every run at the leaders (run starts) inside it. */
    for (size_t r = 0; r < c->nruns; r++) {
        uint64_t cnt = c->run_count[r], addr = c->run_start[r], pstart = addr;
        uint32_t pn = 0, prev = CONTE_NONE, n = c->run_ninsn[r];
        const uint8_t *len = c->lens + c->run_lenoff[r];
        for (uint32_t i = 0; i < n; i++) {
            if (i > 0 && run_find(c, addr) != CONTE_NONE) {
                uint32_t b = gb_block_get(&gb, pstart, pn, CT_FALL, CONTE_NONE);
                gb.b[b].count += cnt;
                if (prev != CONTE_NONE)
                    gb_arc_add(&gb, prev, pstart, cnt);
                prev = b;
                pstart = addr;
                pn = 0;
            }
            pn++;
            addr += len[i];
        }
        uint8_t term = c->run_term[r] == CT_NONE ? CT_END : c->run_term[r];
        uint32_t b = gb_block_get(&gb, pstart, pn, term, term == CT_COND ? c->run_branch[r] : CONTE_NONE);
        gb.b[b].count += cnt;
        if (prev != CONTE_NONE)
            gb_arc_add(&gb, prev, pstart, cnt);
        last_block[r] = b;
    }
    for (size_t a = 0; a < c->narcs; a++)
        gb_arc_add(&gb, last_block[c->arc_run[a]], c->arc_dst[a], c->arc_count[a]);

    struct conte_graph *g = xcalloc(1, sizeof *g);
    g->nblocks = gb.nb;
    g->blocks = gb.b;
    g->arcs = xcalloc(gb.na, sizeof *g->arcs);
    size_t na = 0;
    for (size_t a = 0; a < gb.na; a++) {
        uint32_t d = gb_block_find(&gb, gb.dst_start[a]);
        if (d == CONTE_NONE)
            continue; /* e.g. a call whose return point never ran */
        g->arcs[na].src = gb.src[a];
        g->arcs[na].dst = d;
        g->arcs[na].count = gb.count[a];
        g->arcs[na].follow = (uint8_t)term_follows(gb.b[gb.src[a]].term);
        na++;
    }
    g->narcs = na;
    free(gb.bmap.slot);
    free(gb.amap.slot);
    free(gb.src);
    free(gb.dst_start);
    free(gb.count);
    free(last_block);
    graph_csr(g);
    return g;
}

struct conte_graph *conte_graph_from_arrays(size_t nblocks, const uint64_t *count, const uint32_t *ninsn,
                                            const uint8_t *term, size_t narcs, const uint32_t *src,
                                            const uint32_t *dst, const uint64_t *arc_count)
{
    struct conte_graph *g = xcalloc(1, sizeof *g);
    g->nblocks = nblocks;
    g->narcs = narcs;
    g->blocks = xcalloc(nblocks, sizeof *g->blocks);
    g->arcs = xcalloc(narcs, sizeof *g->arcs);
    for (size_t b = 0; b < nblocks; b++) {
        g->blocks[b].start = 0x1000 + 0x10 * b;
        g->blocks[b].count = count[b];
        g->blocks[b].ninsn = ninsn ? ninsn[b] : 1;
        g->blocks[b].term = term ? term[b] : CT_FALL;
        g->blocks[b].branch = CONTE_NONE;
    }
    for (size_t a = 0; a < narcs; a++) {
        g->arcs[a].src = src[a];
        g->arcs[a].dst = dst[a];
        g->arcs[a].count = arc_count[a];
        g->arcs[a].follow = (uint8_t)term_follows(g->blocks[src[a]].term);
    }
    graph_csr(g);
    return g;
}

void conte_graph_free(struct conte_graph *g)
{
    if (!g)
        return;
    free(g->blocks);
    free(g->arcs);
    free(g->out_off);
    free(g->out_idx);
    free(g->in_off);
    free(g->in_idx);
    free(g);
}

void conte_graph_exact(const struct conte_graph *g, double *node_w, double *arc_w)
{
    for (size_t b = 0; b < g->nblocks; b++)
        node_w[b] = (double)g->blocks[b].count;
    for (size_t a = 0; a < g->narcs; a++)
        arc_w[a] = (double)g->arcs[a].count;
}

static void node_flows(const struct conte_graph *g, const double *arc_w, double *node_w)
{
    for (size_t b = 0; b < g->nblocks; b++) {
        double in = 0, out = 0;
        for (uint32_t k = g->in_off[b]; k < g->in_off[b + 1]; k++)
            in += arc_w[g->in_idx[k]];
        for (uint32_t k = g->out_off[b]; k < g->out_off[b + 1]; k++)
            out += arc_w[g->out_idx[k]];
        node_w[b] = in > out ? in : out;
    }
}

int conte_graph_estimate(const struct conte_graph *g, const struct conte_cfg *c, double *node_w, double *arc_w)
{
    for (size_t a = 0; a < g->narcs; a++) {
        const struct conte_arc *arc = &g->arcs[a];
        const struct conte_block *s = &g->blocks[arc->src];
        arc_w[a] = 0;
        if (s->term == CT_COND && s->branch != CONTE_NONE && c) {
            const struct conte_branch *br = &c->br[s->branch];
            uint64_t d = g->blocks[arc->dst].start;
            if (d == br->target)
                arc_w[a] += br->est_taken;
            if (d == br->fallthru)
                arc_w[a] += br->est_fall;
        }
    }
    int rounds = 0;
    for (; rounds < 64; rounds++) {
        int changed = 0;
        node_flows(g, arc_w, node_w);
        for (size_t b = 0; b < g->nblocks; b++) {
            if (g->blocks[b].term == CT_COND || g->out_off[b + 1] - g->out_off[b] != 1)
                continue;
            uint32_t a = g->out_idx[g->out_off[b]];
            uint32_t d = g->arcs[a].dst;
            double v = node_w[b];
            if (g->in_off[d + 1] - g->in_off[d] == 1 && node_w[d] > v)
                v = node_w[d];
            if (v > arc_w[a] * (1 + 1e-12) + 1e-300) {
                arc_w[a] = v;
                changed = 1;
            }
        }
        if (!changed)
            break;
    }
    node_flows(g, arc_w, node_w);
    return rounds;
}
