/* mh_member.h - what every scored multihash-family model (exact,
 * singlehash, multihash, cms_cu, spacesaving, stratified) shares: its
 * input plan and the bookkeeping of the stream it reads.
 *
 * Every such model reads the records of the "mh_interval" stage
 * (src/stages/mh_interval.c): tuples in chunks that never cross an interval
 * boundary, and MARK_INTERVAL at each boundary, with the exact profile of
 * the interval as the stage's shared result.  All instances of a job that
 * agree on stream, edge set and interval length (and on scoring) read one
 * stage, so the exact profile is built once for a whole sweep.  A model's
 * feed() runs its hardware over a chunk, its mark() closes the interval:
 * scores against *exact (reading counts and the table's marks only, see
 * mh_exact_table.stamp), resets the hardware, then iv.index++, iv.pos = 0.
 *
 * A model's instance struct starts with a struct mh_member.
 */
#ifndef MH_MEMBER_H
#define MH_MEMBER_H

#include "families/mh_common.h"
#include "run/model.h"
#include "stages/mh_interval.h"

struct mh_member {
    struct mh_source src;          /* stream, edges; tuples seen (skipped loads at finish) */
    struct mh_interval iv;
    struct mh_exact_table *exact;  /* the stage's table; NULL: not scored */
    const struct mh_interval_view *view;
    struct model_out *out;         /* series rows */
};

/* The plan of every member model: the decoded loads and control-flow events
 * through an mh_interval stage (stream, edges, interval; exact = score). */
void mh_member_plan(const struct param_values *pv, struct plan *p, bool score);
/* Reads the common parameters and takes the stage's view from ctx. */
void mh_member_init(struct mh_member *m, const struct model_ctx *ctx);
/* Before and after a model's hardware runs over n tuples. */
static inline void mh_member_begin(struct mh_member *m, size_t n) { m->src.tuples += n; }
static inline void mh_member_end(struct mh_member *m, size_t n) { m->iv.pos += n; }
/* End of window: close the last, partial interval with close() if the
 * instance counts it; take the skipped-load count from the stage. */
void mh_member_finish(struct mh_member *m, void (*close)(struct mh_member *m));

/* Inspection for unit tests: the Space-Saving count of a tuple in the
 * current interval (0 when absent); m is a "spacesaving" instance
 * (models/mh_spacesaving.c). */
uint32_t mh_spacesaving_count(const void *m, uint64_t a, uint64_t b);

#endif
