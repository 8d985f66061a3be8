/* conte_tsel.c - trace selection / superblock formation and its comparison
 * metrics (see conte_tsel.h for the algorithm and metric definitions).
 */
#include "families/conte_tsel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct seed_key {
    double w;
    uint64_t start;
    uint32_t block;
};

static int seed_cmp(const void *pa, const void *pb)
{
    const struct seed_key *a = pa, *b = pb;
    if (a->w != b->w)
        return a->w > b->w ? -1 : 1;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    return (a->block > b->block) - (a->block < b->block);
}

/* Heaviest followable forward arc among idx[lo..hi); CONTE_NONE if none has weight > 0.
 * Ties: the arc whose other end has the lower start address. */
static uint32_t best_arc(const struct conte_graph *g, const double *arc_w, const uint32_t *idx, uint32_t lo,
                         uint32_t hi, int forward)
{
    uint32_t best = CONTE_NONE;
    for (uint32_t k = lo; k < hi; k++) {
        uint32_t a = idx[k];
        if (!g->arcs[a].follow || !(arc_w[a] > 0))
            continue;
        /* back edge by address (loop-closing arc): never inside a superblock */
        if (g->blocks[g->arcs[a].dst].start <= g->blocks[g->arcs[a].src].start)
            continue;
        if (best == CONTE_NONE || arc_w[a] > arc_w[best]) {
            best = a;
        } else if (arc_w[a] == arc_w[best]) {
            uint32_t ea = forward ? g->arcs[a].dst : g->arcs[a].src;
            uint32_t eb = forward ? g->arcs[best].dst : g->arcs[best].src;
            if (g->blocks[ea].start < g->blocks[eb].start)
                best = a;
        }
    }
    return best;
}

int conte_tsel_select(const struct conte_graph *g, const double *node_w, const double *arc_w, double threshold,
                      struct conte_traces *out)
{
    size_t nb = g->nblocks;
    memset(out, 0, sizeof *out);
    out->trace_of = malloc((nb + 1) * sizeof *out->trace_of);
    out->start = malloc((nb + 2) * sizeof *out->start);
    out->order = malloc((nb + 1) * sizeof *out->order);
    struct seed_key *seeds = malloc((nb + 1) * sizeof *seeds);
    uint32_t *back = malloc((nb + 1) * sizeof *back);
    if (!out->trace_of || !out->start || !out->order || !seeds || !back) {
        free(seeds);
        free(back);
        conte_traces_free(out);
        return -1;
    }
    size_t ns = 0;
    for (size_t b = 0; b < nb; b++) {
        out->trace_of[b] = CONTE_NONE;
        if (node_w[b] > 0) {
            seeds[ns].w = node_w[b];
            seeds[ns].start = g->blocks[b].start;
            seeds[ns].block = (uint32_t)b;
            ns++;
        }
    }
    qsort(seeds, ns, sizeof *seeds, seed_cmp);

    size_t nt = 0, pos = 0;
    for (size_t s = 0; s <= ns + nb; s++) {
        uint32_t seed;
        if (s < ns)
            seed = seeds[s].block;
        else if (s - ns < nb)
            seed = (uint32_t)(s - ns); /* leftovers: single-block traces */
        else
            break;
        if (out->trace_of[seed] != CONTE_NONE)
            continue;
        uint32_t t = (uint32_t)nt++;
        out->trace_of[seed] = t;
        int grow = s < ns;
        /* backward growth, collected in reverse */
        size_t nback = 0;
        uint32_t cur = seed;
        while (grow) {
            uint32_t a = best_arc(g, arc_w, g->in_idx, g->in_off[cur], g->in_off[cur + 1], 0);
            if (a == CONTE_NONE)
                break;
            uint32_t p = g->arcs[a].src;
            if (out->trace_of[p] != CONTE_NONE || arc_w[a] < threshold * node_w[cur] ||
                arc_w[a] < threshold * node_w[p])
                break;
            out->trace_of[p] = t;
            back[nback++] = p;
            cur = p;
        }
        out->start[t] = (uint32_t)pos;
        while (nback)
            out->order[pos++] = back[--nback];
        out->order[pos++] = seed;
        cur = seed;
        while (grow) {
            uint32_t a = best_arc(g, arc_w, g->out_idx, g->out_off[cur], g->out_off[cur + 1], 1);
            if (a == CONTE_NONE)
                break;
            uint32_t d = g->arcs[a].dst;
            if (out->trace_of[d] != CONTE_NONE || arc_w[a] < threshold * node_w[cur] ||
                arc_w[a] < threshold * node_w[d])
                break;
            out->trace_of[d] = t;
            out->order[pos++] = d;
            cur = d;
        }
    }
    out->ntraces = nt;
    out->start[nt] = (uint32_t)pos;
    free(seeds);
    free(back);
    return 0;
}

void conte_traces_free(struct conte_traces *t)
{
    if (!t)
        return;
    free(t->trace_of);
    free(t->start);
    free(t->order);
    memset(t, 0, sizeof *t);
}

/* Exact weight of arc b -> d (0 if absent). */
static double exact_arc(const struct conte_graph *g, uint32_t b, uint32_t d)
{
    for (uint32_t k = g->out_off[b]; k < g->out_off[b + 1]; k++) {
        const struct conte_arc *a = &g->arcs[g->out_idx[k]];
        if (a->dst == d)
            return (double)a->count;
    }
    return 0;
}

/* Neighbour of block b inside its trace: dir -1 predecessor, +1 successor. */
static uint32_t neighbour(const struct conte_traces *t, const uint32_t *pos_of, uint32_t b, int dir)
{
    uint32_t tr = t->trace_of[b], p = pos_of[b];
    if (dir < 0)
        return p > t->start[tr] ? t->order[p - 1] : CONTE_NONE;
    return p + 1 < t->start[tr + 1] ? t->order[p + 1] : CONTE_NONE;
}

void conte_tsel_evaluate(const struct conte_graph *g, const struct conte_traces *t, const struct conte_traces *ref,
                         struct conte_tsel_eval *out)
{
    size_t nb = g->nblocks;
    double total = 0, same = 0, link = 0;
    double comp_num = 0, comp_den = 0, len_num = 0, len_den = 0;
    out->multi = 0;
    for (size_t b = 0; b < nb; b++)
        total += (double)g->blocks[b].count * g->blocks[b].ninsn;

    for (size_t tr = 0; tr < t->ntraces; tr++) {
        uint32_t lo = t->start[tr], hi = t->start[tr + 1];
        uint32_t head = t->order[lo];
        double hc = (double)g->blocks[head].count;
        double reach = 1, expect = 0;
        for (uint32_t k = lo; k < hi; k++) {
            uint32_t b = t->order[k];
            expect += reach * g->blocks[b].ninsn;
            if (k + 1 < hi) {
                double c = (double)g->blocks[b].count;
                reach *= c > 0 ? exact_arc(g, b, t->order[k + 1]) / c : 0;
            }
        }
        len_num += hc * expect;
        len_den += hc;
        if (hi - lo >= 2) {
            out->multi++;
            comp_num += hc * reach;
            comp_den += hc;
        }
        if (ref) {
            uint32_t rt = ref->trace_of[head];
            uint32_t rlo = ref->start[rt], rhi = ref->start[rt + 1];
            int identical = rhi - rlo == hi - lo && memcmp(ref->order + rlo, t->order + lo,
                                                           (hi - lo) * sizeof *t->order) == 0;
            if (identical)
                for (uint32_t k = lo; k < hi; k++) {
                    uint32_t b = t->order[k];
                    same += (double)g->blocks[b].count * g->blocks[b].ninsn;
                }
        }
    }
    if (ref) {
        uint32_t *pos_t = malloc((nb + 1) * sizeof *pos_t), *pos_r = malloc((nb + 1) * sizeof *pos_r);
        if (pos_t && pos_r) {
            for (size_t k = 0; k < nb; k++) {
                pos_t[t->order[k]] = (uint32_t)k;
                pos_r[ref->order[k]] = (uint32_t)k;
            }
            for (size_t b = 0; b < nb; b++) {
                uint32_t bb = (uint32_t)b;
                if (neighbour(t, pos_t, bb, -1) == neighbour(ref, pos_r, bb, -1) &&
                    neighbour(t, pos_t, bb, 1) == neighbour(ref, pos_r, bb, 1))
                    link += (double)g->blocks[b].count * g->blocks[b].ninsn;
            }
        } else {
            link = NAN;
        }
        free(pos_t);
        free(pos_r);
    }
    out->same_pct = ref ? (total > 0 ? 100.0 * same / total : NAN) : NAN;
    out->link_pct = ref ? (total > 0 ? 100.0 * link / total : NAN) : NAN;
    out->completion_pct = comp_den > 0 ? 100.0 * comp_num / comp_den : NAN;
    out->len_dyn = len_den > 0 ? len_num / len_den : NAN;
}
