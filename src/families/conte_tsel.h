/* conte_tsel.h - superblock formation by trace selection (Hwu and Chang's
 * algorithm as used by IMPACT, with the 0.60 threshold of Conte et al.
 * section 4.2) on a weighted CFG, and the comparison metrics that stand in
 * for the paper's Figures 7/8 (which needed the IMPACT compiler and a
 * scheduler).
 *
 * Selection: blocks with positive weight are taken as seeds in decreasing
 * node weight (ties: lower start address).  From a seed the trace grows
 * forward along the heaviest followable out-arc of its tail and backward
 * along the heaviest followable in-arc of its head while that arc carries at
 * least `threshold` of both its source's and its destination's node weight
 * and the block reached is not yet in any trace.  Arcs that go backward in
 * the address space (dst start <= src start: loop back edges, in the usual
 * layout) are never followed, so a superblock never contains a back edge and
 * a loop header heads its superblock.  The first failing best arc
 * stops growth (the second best is not tried).  Remaining blocks become
 * single-block traces.  Tail duplication is implied: a superblock is
 * entered at its head only.
 */
#ifndef CONTE_TSEL_H
#define CONTE_TSEL_H

#include <stddef.h>
#include <stdint.h>
#include "families/conte_cfg.h"

struct conte_traces {
    size_t ntraces;
    uint32_t *trace_of; /* per block: trace index */
    uint32_t *start;    /* ntraces + 1 offsets into order */
    uint32_t *order;    /* blocks, trace by trace, head first */
};

/* Select traces.  node_w/arc_w indexed like g->blocks/g->arcs.  Returns 0, -1 on OOM. */
int conte_tsel_select(const struct conte_graph *g, const double *node_w, const double *arc_w, double threshold,
                      struct conte_traces *out);
void conte_traces_free(struct conte_traces *t); /* accepts zeroed struct */

/* Evaluate selection t against reference selection ref (the one from the
 * exact profile), using exact weights from g:
 *   same_pct       % of dynamic instructions in blocks whose superblock in t is
 *                  identical (same blocks, same order) to its superblock in ref
 *   link_pct       % of dynamic instructions in blocks with the same
 *                  predecessor and successor inside their superblock in t and ref
 *   completion_pct over superblocks of t with >= 2 blocks, weighted by head
 *                  executions: % of entries expected to reach the last block
 *                  (product of the exact branch probabilities along it)
 *   len_dyn        expected instructions executed per superblock entry, head-
 *                  weighted, over all superblocks of t (scheduling scope)
 *   multi          number of superblocks of t with >= 2 blocks
 * ref may be NULL (then same_pct/link_pct are NaN). */
struct conte_tsel_eval {
    double same_pct, link_pct, completion_pct, len_dyn;
    size_t multi;
};
void conte_tsel_evaluate(const struct conte_graph *g, const struct conte_traces *t, const struct conte_traces *ref,
                         struct conte_tsel_eval *out);

#endif
