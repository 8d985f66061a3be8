/* rap_prof.h - one RAP profile of an event stream: which records count and
 * their keys (keysel.h), how events reach the tree (one at a time, through
 * the merging buffer, or fully aggregated at the end), the tree itself (1-D
 * rap_tree.h or 2-D rap2d_tree.h), and its hot ranges scored against exact
 * counts.  The model adapters (rap.c, rap2d.c) only translate parameters,
 * plans and outputs; everything they report is computed here.
 *
 * Aggregation (section 3.2.1 and Figure 4):
 *   none    every event is one tree update;
 *   buffer  events go through the merging buffer (rap_buffer.h), which is
 *           flushed at finish;
 *   full    every event is counted in an exact table and the tree gets one
 *           weighted update per distinct key at finish, in order of first
 *           occurrence ("the trace compressed offline to the maximum extent").
 * With buffer or full the tree's event order differs (and so may its
 * shape); its totals are the same.
 */
#ifndef RAP_PROF_H
#define RAP_PROF_H

#include <stddef.h>
#include <stdint.h>
#include "families/keycount.h"
#include "families/keysel.h"
#include "families/rap2d_tree.h"
#include "families/rap_buffer.h"
#include "families/rap_tree.h"
#include "trace/event.h"

enum rap_agg { RAP_AGG_NONE = 0, RAP_AGG_BUFFER = 1, RAP_AGG_FULL = 2 };
#define RAP_AGG_CHOICES { "none", "buffer", "full", NULL }

struct rap_prof_cfg {
    struct keysel sel;      /* records and keys (field2 != KF_NONE for 2-D) */
    int dims;               /* 1 or 2 */
    unsigned key_bits;      /* per dimension */
    unsigned stride;        /* per dimension: b = 2^stride (1-D), 4^stride (2-D) */
    struct rap_tree_cfg tree; /* eps, q, merge_first, max_nodes, sample_every */
    int agg;                /* enum rap_agg */
    size_t buffer_entries;
};

struct rap_prof;

/* One hot range (2-D: rectangle), scored.  exact fields are UINT64_MAX and
 * errors NaN when no exact table was given. */
struct rap_hot {
    uint64_t lo, hi;        /* x range */
    uint64_t ylo, yhi;      /* y range (2-D) */
    unsigned depth;
    unsigned width_log2, ywidth_log2;
    uint64_t estimate;      /* the range's subtree total */
    uint64_t estimate_own;  /* counter + non-hot sub-ranges (section 5.1, Figure 7's labels) */
    uint64_t exact;         /* events in the range */
    uint64_t exact_own;     /* exact minus the exact counts of its largest hot sub-ranges */
    double error_pct;       /* (exact - estimate) / exact * 100 */
};

struct rap_prof *rap_prof_create(const struct rap_prof_cfg *cfg, char *err, size_t errlen);
void rap_prof_free(struct rap_prof *p); /* accepts NULL */
void rap_prof_feed(struct rap_prof *p, const struct event *ev, size_t n);
/* End of the window: commits buffered or aggregated events. */
void rap_prof_finish(struct rap_prof *p);

const struct rap_tree *rap_prof_tree(const struct rap_prof *p);
uint64_t rap_prof_events(const struct rap_prof *p);   /* records that counted */
int rap_prof_dims(const struct rap_prof *p);
unsigned rap_prof_key_bits(const struct rap_prof *p);

/* Hot ranges above hot_frac of the events, in pre-order, scored against
 * exact (sorted keycount of the same stream, or NULL).  *out is malloc'd.
 * Returns how many, or (size_t)-1 out of memory. */
size_t rap_prof_hot(const struct rap_prof *p, double hot_frac, const struct keycount *exact, struct rap_hot **out);

/* Largest (exact - estimate) / n over every node of the tree: the eps
 * guarantee measured (NaN without exact or events). */
double rap_prof_worst_eps(const struct rap_prof *p, const struct keycount *exact);

/* Every node as a rectangle with its own counter (2-D heat-map cells;
 * 1-D: ylo = yhi = 0).  fn gets each; returns the node count. */
size_t rap_prof_cells(const struct rap_prof *p, void (*fn)(void *ctx, const struct rap_rect *r, const struct rap_span *s),
                      void *ctx);

#endif
