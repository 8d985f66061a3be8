/* hps_streams.c - hot data streams from a reference string via SEQUITUR and
 * the cold-uses analysis; see hps_streams.h. */
#include "families/hps_streams.h"

#include <stdlib.h>
#include <string.h>

#include "families/hps_sequitur.h"

const char *const hps_refs_choices[] = { "loads", "memory", NULL };
const char *const hps_refkey_choices[] = { "pc_addr", "addr", NULL };

#define P61 ((1ULL << 61) - 1)
#define BASE 0x1d8e4e27c47d124fULL % P61 /* any fixed value in [2, P61) */

static inline uint64_t mulmod61(uint64_t a, uint64_t b)
{
    unsigned __int128 p = (unsigned __int128)a * b;
    uint64_t lo = (uint64_t)(p & P61), hi = (uint64_t)(p >> 61);
    uint64_t r = lo + hi;
    return r >= P61 ? r - P61 : r;
}

static inline uint64_t addmod61(uint64_t a, uint64_t b)
{
    uint64_t r = a + b;
    return r >= P61 ? r - P61 : r;
}

/* A reference's value in the polynomial hash. */
static inline uint64_t ref_value(uint64_t pc, uint64_t addr, int key)
{
    uint64_t v = key == HPS_KEY_ADDR ? mix64(addr) : mix64(addr ^ mix64(pc + 0x632be59bd9b4e019ULL));
    return v % P61;
}

uint64_t hps_stream_hash(const uint64_t *pc, const uint64_t *addr, size_t n, int key)
{
    uint64_t h = 0;
    for (size_t i = 0; i < n; i++)
        h = addmod61(mulmod61(h, BASE), ref_value(key == HPS_KEY_ADDR ? 0 : pc[i], addr[i], key));
    return h;
}

struct ref {
    uint64_t pc, addr;
};

struct hps_streams {
    struct hps_stream_cfg cfg;
    struct hps_table intern; /* (pc, addr) -> id + 1 */
    struct ref *ref;         /* by id */
    size_t capref;
    uint32_t *seq;           /* the string: ids and SQ_SEP */
    size_t nseq, capseq;
    int open;                /* a reference since the last cut */
    int finished;
    struct hps_member *members;
    size_t nmembers;
    struct hps_streams_stats st;
};

struct hps_streams *hps_streams_create(const struct hps_stream_cfg *cfg)
{
    struct hps_streams *s = hps_xrealloc(NULL, sizeof *s, "hot data streams");
    memset(s, 0, sizeof *s);
    s->cfg = *cfg;
    hps_table_init(&s->intern, 1024, "data stream reference interner");
    return s;
}

void hps_streams_free(struct hps_streams *s)
{
    if (!s)
        return;
    hps_table_free(&s->intern);
    free(s->ref);
    free(s->seq);
    free(s->members);
    free(s);
}

static inline void push(struct hps_streams *s, uint32_t v)
{
    if (s->nseq == s->capseq) {
        s->capseq = s->capseq ? s->capseq * 2 : 4096;
        s->seq = hps_xrealloc(s->seq, s->capseq * sizeof *s->seq, "data reference string");
    }
    s->seq[s->nseq++] = v;
}

void hps_streams_add(struct hps_streams *s, uint64_t pc, uint64_t addr)
{
    if (s->cfg.key == HPS_KEY_ADDR)
        pc = 0;
    uint64_t *slot = hps_table_slot(&s->intern, pc, addr);
    if (*slot == 0) {
        uint64_t id = s->st.distinct++;
        if (id >= SQ_MAX_TERMINAL)
            hps_die("data stream references (2^31 distinct exceeded)");
        if (id == s->capref) {
            s->capref = s->capref ? s->capref * 2 : 1024;
            s->ref = hps_xrealloc(s->ref, s->capref * sizeof *s->ref, "data stream references");
        }
        s->ref[id].pc = pc;
        s->ref[id].addr = addr;
        *slot = id + 1;
    }
    push(s, (uint32_t)(*slot - 1));
    s->st.refs++;
    s->open = 1;
}

void hps_streams_cut(struct hps_streams *s)
{
    if (!s->open)
        return; /* nothing since the last cut: one separator is enough */
    push(s, SQ_SEP);
    s->st.cuts++;
    s->open = 0;
}

/* Per-rule results of the analysis. */
struct rinfo {
    uint64_t len, hash, pow, cold;
    uint64_t first; /* id of the first reference */
};

static void analyse(struct hps_streams *s, const struct sq_compact *c)
{
    uint32_t R = c->nrules;
    struct rinfo *ri = hps_xrealloc(NULL, (size_t)R * sizeof *ri, "data stream analysis");
    uint32_t *order = hps_xrealloc(NULL, (size_t)R * sizeof *order, "data stream analysis");
    uint8_t *state = hps_xrealloc(NULL, R, "data stream analysis"); /* 0 new, 1 on stack, 2 done */
    memset(state, 0, R);
    memset(ri, 0, (size_t)R * sizeof *ri);

    /* Postorder from the start rule (children before parents): iterative
     * DFS; a rule is finished when its body has been scanned. */
    struct frame {
        uint32_t r;
        uint64_t pos;
    } *st = hps_xrealloc(NULL, 64 * sizeof *st, "data stream analysis");
    size_t depth = 0, capst = 64, norder = 0;
    st[depth].r = 0;
    st[depth].pos = c->start[0];
    depth++;
    state[0] = 1;
    while (depth) {
        struct frame *f = &st[depth - 1];
        if (f->pos == c->start[f->r + 1]) {
            state[f->r] = 2;
            order[norder++] = f->r;
            depth--;
            continue;
        }
        uint32_t v = c->body[f->pos++];
        if (!(v & SQ_NT))
            continue;
        uint32_t q = v & ~SQ_NT;
        if (state[q])
            continue; /* a DAG: already done (never on the stack: no cycles) */
        if (depth == capst) {
            capst *= 2;
            st = hps_xrealloc(st, capst * sizeof *st, "data stream analysis");
        }
        state[q] = 1;
        st[depth].r = q;
        st[depth].pos = c->start[q];
        depth++;
    }
    free(st);

    /* Lengths, content hashes and B^length, children first. */
    for (size_t k = 0; k < norder; k++) {
        uint32_t r = order[k];
        uint64_t len = 0, h = 0, pw = 1, first = UINT64_MAX;
        for (uint64_t i = c->start[r]; i < c->start[r + 1]; i++) {
            uint32_t v = c->body[i];
            if (v & SQ_NT) {
                const struct rinfo *q = &ri[v & ~SQ_NT];
                if (first == UINT64_MAX)
                    first = q->first;
                len += q->len;
                h = addmod61(mulmod61(h, q->pow), q->hash);
                pw = mulmod61(pw, q->pow);
            } else if (v != SQ_SEP) {
                if (first == UINT64_MAX)
                    first = v;
                len++;
                h = addmod61(mulmod61(h, BASE), ref_value(s->ref[v].pc, s->ref[v].addr, s->cfg.key));
                pw = mulmod61(pw, BASE);
            }
        }
        ri[r].len = len;
        ri[r].hash = h;
        ri[r].pow = pw;
        ri[r].first = first;
    }

    /* Cold uses, parents first (reverse postorder). */
    double H = s->cfg.heat_frac * (double)s->st.refs;
    s->st.heat_min = H;
    ri[0].cold = 1;
    size_t nhot = 0, caphot = 0;
    struct hps_member *hot = NULL;
    double covered = 0;
    for (size_t k = norder; k-- > 0;) {
        uint32_t r = order[k];
        struct rinfo *x = &ri[r];
        int is_hot = 0;
        if (r != 0 && x->len >= s->cfg.min_len && x->len <= s->cfg.max_len && x->cold >= 2) {
            double heat = (double)x->len * (double)x->cold;
            if (heat >= H) {
                is_hot = 1;
                if (nhot == caphot) {
                    caphot = caphot ? caphot * 2 : 64;
                    hot = hps_xrealloc(hot, caphot * sizeof *hot, "hot data streams");
                }
                struct hps_member *m = &hot[nhot++];
                m->a = x->hash;
                m->b = x->len;
                m->w = heat;
                m->x = s->ref[x->first].pc;
                m->y = s->ref[x->first].addr;
                covered += heat;
            }
        }
        uint64_t pass = is_hot ? 0 : x->cold;
        if (!pass)
            continue;
        for (uint64_t i = c->start[r]; i < c->start[r + 1]; i++)
            if (c->body[i] & SQ_NT)
                ri[c->body[i] & ~SQ_NT].cold += pass;
    }
    /* Two rules can expand to the same string ((a b) c and a (b c)): one
     * stream, so their members merge (heats add) and keys stay unique. */
    if (nhot > 1) {
        qsort(hot, nhot, sizeof *hot, hps_member_order);
        struct hps_table seen;
        hps_table_init(&seen, nhot, "hot data streams");
        size_t w = 0;
        for (size_t i = 0; i < nhot; i++) {
            uint64_t *slot = hps_table_slot(&seen, hot[i].a, hot[i].b);
            if (*slot) {
                hot[*slot - 1].w += hot[i].w;
                continue;
            }
            *slot = w + 1;
            hot[w++] = hot[i];
        }
        hps_table_free(&seen);
        nhot = w;
        qsort(hot, nhot, sizeof *hot, hps_member_order);
    }
    s->members = hot;
    s->nmembers = nhot;
    s->st.hot = nhot;
    s->st.coverage = s->st.refs ? covered / (double)s->st.refs : 0;
    free(ri);
    free(order);
    free(state);
}

void hps_streams_finish(struct hps_streams *s)
{
    if (s->finished)
        return;
    s->finished = 1;
    hps_table_free(&s->intern); /* ids are final; ref[] keeps what the analysis needs */
    struct sq_grammar *g = sq_create(s->nseq);
    for (size_t i = 0; i < s->nseq; i++)
        sq_append(g, s->seq[i]);
    free(s->seq); /* the grammar holds the string now */
    s->seq = NULL;
    s->capseq = 0;
    struct sq_stats gs;
    sq_get_stats(g, &gs);
    s->st.rules = gs.rules;
    s->st.symbols = gs.symbols;
    s->st.peak_bytes = gs.peak_bytes;
    s->st.anomalies = gs.anomalies;
    struct sq_compact c;
    if (sq_export(g, &c) != 0)
        hps_die("out of memory (sequitur grammar export)");
    sq_free(g);
    analyse(s, &c);
    sq_compact_free(&c);
}

const struct hps_member *hps_streams_members(const struct hps_streams *s, size_t *n)
{
    *n = s->nmembers;
    return s->members;
}

void hps_streams_get_stats(const struct hps_streams *s, struct hps_streams_stats *st) { *st = s->st; }
