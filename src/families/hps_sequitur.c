/* hps_sequitur.c - SEQUITUR grammar construction; see hps_sequitur.h.
 *
 * Representation: every rule is a circular doubly linked list through a
 * guard symbol (value SQ_GUARD | rule); symbols and rules live in arrays and
 * are recycled through free lists.  The digram index maps the 64-bit pair
 * (value, next value) to the first symbol of the occurrence it remembers.
 *
 * Index invariant: an entry key -> s always describes s's current digram.
 * Every change of a symbol's successor goes through forget() first, and a
 * deleted symbol forgets both the digram it starts and the one it ends.
 * The index need not be complete: in a run "a a a" only the first of the
 * two overlapping digrams is indexed, and when that one goes, forget()
 * indexes the survivor (the triple case).
 *
 * The algorithm (appending symbol y to the start rule):
 *   check(last, y): a digram seen nowhere else is indexed; one seen at m
 *   (not overlapping) is matched: if m's digram is a whole rule body, the
 *   new occurrence is replaced by that rule; otherwise a new rule takes the
 *   digram and both occurrences are replaced.  Each replacement checks the
 *   two digrams it creates (recursively).  A rule left with one use
 *   (rule utility) is inlined where it is used.
 * Defensive paths (an occurrence gone after the first replacement of a
 * match) are counted in `anomalies`; the tests require 0 on random strings.
 */
#include "families/hps_sequitur.h"

#include <stdlib.h>
#include <string.h>

#include "families/hps_table.h"

#define TAG 0xc0000000u
#define GUARD 0xc0000000u
#define FREE_SYM 0xffffffffu
#define NONE 0xffffffffu
#define MAX_RULES 0x3ffffffeu

struct sym {
    uint32_t val, prev, next;
};

struct rule {
    uint32_t guard; /* NONE: free (uses then links the free list) */
    uint32_t uses;
};

struct dg {
    uint64_t key;
    uint32_t sym; /* NONE: empty slot */
    uint32_t pad_;
};

struct sq_grammar {
    struct sym *s;
    uint32_t ns, caps, free_s;
    uint64_t live_s;
    struct rule *r;
    uint32_t nr, capr, free_r;
    uint64_t live_r;
    struct dg *d;
    size_t dmask, dused;
    uint64_t appended, anomalies, peak;
};

static void note_peak(struct sq_grammar *g)
{
    uint64_t b = (uint64_t)g->caps * sizeof(struct sym) + (uint64_t)g->capr * sizeof(struct rule) +
                 (uint64_t)(g->dmask + 1) * sizeof(struct dg);
    if (b > g->peak)
        g->peak = b;
}

/* ---- digram index ------------------------------------------------------- */

static inline size_t dg_home(const struct sq_grammar *g, uint64_t key) { return (size_t)mix64(key) & g->dmask; }

static size_t dg_find(const struct sq_grammar *g, uint64_t key)
{
    size_t i = dg_home(g, key);
    while (g->d[i].sym != NONE) {
        if (g->d[i].key == key)
            return i;
        i = (i + 1) & g->dmask;
    }
    return SIZE_MAX;
}

static void dg_alloc(struct sq_grammar *g, size_t cap)
{
    g->d = hps_xrealloc(NULL, cap * sizeof *g->d, "sequitur digram index");
    for (size_t i = 0; i < cap; i++)
        g->d[i].sym = NONE;
    g->dmask = cap - 1;
    g->dused = 0;
}

static void dg_put(struct sq_grammar *g, uint64_t key, uint32_t sym);

static void dg_grow(struct sq_grammar *g)
{
    struct dg *old = g->d;
    size_t oldcap = g->dmask + 1;
    dg_alloc(g, oldcap * 2);
    for (size_t i = 0; i < oldcap; i++)
        if (old[i].sym != NONE)
            dg_put(g, old[i].key, old[i].sym);
    free(old);
    note_peak(g);
}

/* Insert key -> sym (key absent). */
static void dg_put(struct sq_grammar *g, uint64_t key, uint32_t sym)
{
    if ((g->dused + 1) * 2 > g->dmask + 1)
        dg_grow(g);
    size_t i = dg_home(g, key);
    while (g->d[i].sym != NONE)
        i = (i + 1) & g->dmask;
    g->d[i].key = key;
    g->d[i].sym = sym;
    g->dused++;
}

static void dg_del(struct sq_grammar *g, size_t i)
{
    size_t hole = i, j = i;
    for (;;) {
        j = (j + 1) & g->dmask;
        if (g->d[j].sym == NONE)
            break;
        size_t home = dg_home(g, g->d[j].key);
        if (((j - home) & g->dmask) >= ((j - hole) & g->dmask)) {
            g->d[hole] = g->d[j];
            hole = j;
        }
    }
    g->d[hole].sym = NONE;
    g->dused--;
}

/* ---- symbols and rules -------------------------------------------------- */

static inline int is_guard_val(uint32_t v) { return (v & TAG) == GUARD; }
static inline int is_nt_val(uint32_t v) { return (v & TAG) == SQ_NT; }
static inline uint32_t rule_of(uint32_t v) { return v & ~TAG; }

static uint32_t sym_new(struct sq_grammar *g, uint32_t val)
{
    uint32_t i;
    if (g->free_s != NONE) {
        i = g->free_s;
        g->free_s = g->s[i].next;
    } else {
        if (g->ns == g->caps) {
            uint32_t cap = g->caps ? g->caps * 2 : 1024;
            if (g->caps >= 0x7fffffffu) {
                /* 2^31 symbols: far beyond any window we analyse */
                hps_die("sequitur symbols (2^31 exceeded)");
            }
            g->s = hps_xrealloc(g->s, (size_t)cap * sizeof *g->s, "sequitur symbols");
            g->caps = cap;
            note_peak(g);
        }
        i = g->ns++;
    }
    g->s[i].val = val;
    g->s[i].prev = g->s[i].next = NONE;
    g->live_s++;
    return i;
}

static void sym_release(struct sq_grammar *g, uint32_t i)
{
    g->s[i].val = FREE_SYM;
    g->s[i].prev = NONE;
    g->s[i].next = g->free_s;
    g->free_s = i;
    g->live_s--;
}

static inline void link2(struct sq_grammar *g, uint32_t a, uint32_t b)
{
    g->s[a].next = b;
    g->s[b].prev = a;
}

static uint32_t rule_new(struct sq_grammar *g)
{
    uint32_t r;
    if (g->free_r != NONE) {
        r = g->free_r;
        g->free_r = g->r[r].uses;
    } else {
        if (g->nr == g->capr) {
            uint32_t cap = g->capr ? g->capr * 2 : 256;
            if (cap > MAX_RULES)
                hps_die("sequitur rules (2^30 exceeded)");
            g->r = hps_xrealloc(g->r, (size_t)cap * sizeof *g->r, "sequitur rules");
            g->capr = cap;
            note_peak(g);
        }
        r = g->nr++;
    }
    uint32_t gs = sym_new(g, GUARD | r);
    link2(g, gs, gs);
    g->r[r].guard = gs;
    g->r[r].uses = 0;
    g->live_r++;
    return r;
}

static void rule_release(struct sq_grammar *g, uint32_t r)
{
    g->r[r].guard = NONE;
    g->r[r].uses = g->free_r;
    g->free_r = r;
    g->live_r--;
}

static inline int rule_alive(const struct sq_grammar *g, uint32_t r) { return g->r[r].guard != NONE; }

/* Does symbol i start a digram that may be indexed?  Sets *key. */
static inline int digram_of(const struct sq_grammar *g, uint32_t i, uint64_t *key)
{
    uint32_t a = g->s[i].val, n = g->s[i].next;
    if (n == NONE || a == FREE_SYM)
        return 0;
    uint32_t b = g->s[n].val;
    if (is_guard_val(a) || is_guard_val(b) || a == SQ_SEP || b == SQ_SEP)
        return 0;
    *key = ((uint64_t)a << 32) | b;
    return 1;
}

/* i's digram is about to change or vanish: drop its index entry. */
static void forget(struct sq_grammar *g, uint32_t i)
{
    uint64_t key;
    if (!digram_of(g, i, &key))
        return;
    size_t slot = dg_find(g, key);
    if (slot == SIZE_MAX || g->d[slot].sym != i)
        return;
    dg_del(g, slot);
    /* triple "a a a": the overlapping digram after i was not indexed; it
     * survives i's, so it takes the entry */
    uint32_t n = g->s[i].next, nn = g->s[n].next;
    if (nn != NONE && g->s[nn].val == g->s[i].val && g->s[n].val == g->s[i].val)
        dg_put(g, key, n);
}

/* Unlink and free body symbol x. */
static void sym_delete(struct sq_grammar *g, uint32_t x)
{
    uint32_t p = g->s[x].prev, n = g->s[x].next;
    forget(g, p);
    forget(g, x);
    link2(g, p, n);
    if (is_nt_val(g->s[x].val))
        g->r[rule_of(g->s[x].val)].uses--;
    sym_release(g, x);
}

/* Insert fresh symbol y after q. */
static void insert_after(struct sq_grammar *g, uint32_t q, uint32_t y)
{
    uint32_t n = g->s[q].next;
    forget(g, q);
    link2(g, y, n);
    link2(g, q, y);
}

static void expand(struct sq_grammar *g, uint32_t x);
static void match(struct sq_grammar *g, uint32_t ss, uint32_t m);

/* Index or match the digram starting at i; 1 when a match happened. */
static int check(struct sq_grammar *g, uint32_t i)
{
    uint64_t key;
    if (!digram_of(g, i, &key))
        return 0;
    size_t slot = dg_find(g, key);
    if (slot == SIZE_MAX) {
        dg_put(g, key, i);
        return 0;
    }
    uint32_t m = g->d[slot].sym;
    if (m == i || g->s[m].next == i || g->s[i].next == m)
        return 0; /* itself, or overlapping occurrences */
    match(g, i, m);
    return 1;
}

/* Replace the digram starting at x with nonterminal r. */
static void substitute(struct sq_grammar *g, uint32_t x, uint32_t r)
{
    uint32_t q = g->s[x].prev;
    sym_delete(g, g->s[x].next);
    sym_delete(g, x);
    uint32_t y = sym_new(g, SQ_NT | r);
    g->r[r].uses++;
    insert_after(g, q, y);
    if (!check(g, q))
        check(g, y);
}

static void match(struct sq_grammar *g, uint32_t ss, uint32_t m)
{
    uint32_t r;
    uint32_t mp = g->s[m].prev, mn = g->s[m].next;
    if (is_guard_val(g->s[mp].val) && is_guard_val(g->s[g->s[mn].next].val) && rule_of(g->s[mp].val) != 0) {
        r = rule_of(g->s[mp].val); /* m's digram is the whole body of r */
        substitute(g, ss, r);
    } else {
        uint32_t va = g->s[m].val, vb = g->s[mn].val;
        r = rule_new(g);
        uint32_t a = sym_new(g, va), b = sym_new(g, vb), gr = g->r[r].guard;
        if (is_nt_val(va))
            g->r[rule_of(va)].uses++;
        if (is_nt_val(vb))
            g->r[rule_of(vb)].uses++;
        link2(g, gr, a);
        link2(g, a, b);
        link2(g, b, gr);
        substitute(g, m, r);
        /* ss is the newest occurrence; the first replacement works on m's
         * neighbourhood and should not touch it */
        uint32_t sn = g->s[ss].next;
        if (g->s[ss].val == va && sn != NONE && g->s[sn].val == vb)
            substitute(g, ss, r);
        else
            g->anomalies++;
        if (rule_alive(g, r)) {
            uint64_t key;
            uint32_t f = g->s[g->r[r].guard].next;
            if (digram_of(g, f, &key) && dg_find(g, key) == SIZE_MAX)
                dg_put(g, key, f);
        }
    }
    /* rule utility: the digram's nonterminals lost a use each */
    if (rule_alive(g, r)) {
        uint32_t f = g->s[g->r[r].guard].next;
        if (is_nt_val(g->s[f].val) && g->r[rule_of(g->s[f].val)].uses == 1)
            expand(g, f);
    }
    if (rule_alive(g, r)) {
        uint32_t l = g->s[g->r[r].guard].prev;
        if (is_nt_val(g->s[l].val) && g->r[rule_of(g->s[l].val)].uses == 1)
            expand(g, l);
    }
    if (rule_alive(g, r) && g->r[r].uses < 2 && r != 0)
        g->anomalies++; /* should not happen: r was just used twice */
}

/* Inline the rule that nonterminal x (its only use) stands for. */
static void expand(struct sq_grammar *g, uint32_t x)
{
    uint32_t q = rule_of(g->s[x].val);
    uint32_t p = g->s[x].prev, n = g->s[x].next;
    uint32_t gq = g->r[q].guard, f = g->s[gq].next, l = g->s[gq].prev;
    forget(g, p);
    forget(g, x);
    link2(g, p, f);
    link2(g, l, n);
    sym_release(g, x);
    sym_release(g, gq);
    rule_release(g, q);
    uint64_t key;
    if (digram_of(g, p, &key) && dg_find(g, key) == SIZE_MAX)
        dg_put(g, key, p);
    if (digram_of(g, l, &key) && dg_find(g, key) == SIZE_MAX)
        dg_put(g, key, l);
}

/* ---- interface ---------------------------------------------------------- */

struct sq_grammar *sq_create(size_t expected_symbols)
{
    struct sq_grammar *g = hps_xrealloc(NULL, sizeof *g, "sequitur");
    memset(g, 0, sizeof *g);
    g->free_s = g->free_r = NONE;
    size_t cap = 1024;
    while (cap < expected_symbols / 2 && cap < ((size_t)1 << 30))
        cap *= 2;
    dg_alloc(g, cap);
    rule_new(g); /* rule 0: the start rule */
    note_peak(g);
    return g;
}

void sq_free(struct sq_grammar *g)
{
    if (!g)
        return;
    free(g->s);
    free(g->r);
    free(g->d);
    free(g);
}

void sq_append(struct sq_grammar *g, uint32_t t)
{
    uint32_t g0 = g->r[0].guard, last = g->s[g0].prev;
    uint32_t y = sym_new(g, t);
    insert_after(g, last, y);
    g->appended++;
    check(g, last);
}

void sq_get_stats(const struct sq_grammar *g, struct sq_stats *st)
{
    st->appended = g->appended;
    st->rules = g->live_r;
    st->symbols = g->live_s - g->live_r;
    st->peak_bytes = g->peak;
    st->anomalies = g->anomalies;
}

int sq_export(const struct sq_grammar *g, struct sq_compact *c)
{
    memset(c, 0, sizeof *c);
    uint32_t *map = malloc((size_t)(g->nr ? g->nr : 1) * sizeof *map);
    c->start = malloc(((size_t)g->live_r + 1) * sizeof *c->start);
    uint64_t nsym = g->live_s - g->live_r;
    c->body = malloc((size_t)(nsym ? nsym : 1) * sizeof *c->body);
    if (!map || !c->start || !c->body) {
        free(map);
        sq_compact_free(c);
        return -1;
    }
    uint32_t k = 0;
    for (uint32_t r = 0; r < g->nr; r++)
        map[r] = rule_alive(g, r) ? k++ : NONE;
    c->nrules = k;
    uint64_t pos = 0;
    k = 0;
    for (uint32_t r = 0; r < g->nr; r++) {
        if (!rule_alive(g, r))
            continue;
        c->start[k++] = pos;
        uint32_t gs = g->r[r].guard;
        for (uint32_t i = g->s[gs].next; i != gs; i = g->s[i].next) {
            uint32_t v = g->s[i].val;
            c->body[pos++] = is_nt_val(v) ? (SQ_NT | map[rule_of(v)]) : v;
        }
    }
    c->start[k] = pos;
    free(map);
    return 0;
}

void sq_compact_free(struct sq_compact *c)
{
    if (!c)
        return;
    free(c->start);
    free(c->body);
    memset(c, 0, sizeof *c);
}

uint64_t sq_compact_expand(const struct sq_compact *c, uint32_t *out, uint64_t cap)
{
    if (!c->nrules)
        return 0;
    struct frame {
        uint32_t rule;
        uint64_t pos;
    } *st = hps_xrealloc(NULL, 64 * sizeof *st, "sequitur expansion stack");
    size_t depth = 1, capst = 64;
    st[0].rule = 0;
    st[0].pos = c->start[0];
    uint64_t n = 0;
    while (depth) {
        struct frame *f = &st[depth - 1];
        if (f->pos == c->start[f->rule + 1]) {
            depth--;
            continue;
        }
        uint32_t v = c->body[f->pos++];
        if (v & SQ_NT) {
            if (depth == capst) {
                capst *= 2;
                st = hps_xrealloc(st, capst * sizeof *st, "sequitur expansion stack");
            }
            uint32_t r = v & ~SQ_NT;
            st[depth].rule = r;
            st[depth].pos = c->start[r];
            depth++;
        } else {
            if (n < cap)
                out[n] = v;
            n++;
        }
    }
    free(st);
    return n;
}
