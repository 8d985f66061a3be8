/* rap_out.h - what the RAP models (rap.c, rap2d.c) share on the v2 model
 * interface: the streams and how they are planned, the tree parameters,
 * the common metrics and the nodes-over-time series.
 *
 * Streams and their plans (every instance also reads the exact_keys stage
 * over the same records, as a side input, for exact counts):
 *   code        bbstart stage over EV_INSN + control events; key pc
 *   values      EV_LOAD events with a value; key value
 *   addresses   EV_LOAD events; key address
 *   loads       EV_LOAD events (2-D)
 *   dl1_miss    cache stage over EV_LOAD + EV_STORE (+ EV_INSN with ifetch): every load it emits; key address
 *   l2_miss     the same, only loads flagged EVF_L2MISS; key address
 *   zero_loads  EV_LOAD events that loaded 0; key address
 * The key can be overridden (key = pc | address | value).  All instances of
 * a job with the same stream share its stages.
 */
#ifndef RAP_OUT_H
#define RAP_OUT_H

#include "families/rap_prof.h"
#include "run/model.h"
#include "stages/cache.h"

enum rap_stream { RS_CODE, RS_VALUES, RS_ADDRESSES, RS_DL1, RS_L2, RS_ZERO, RS_LOADS };

/* Records, filter and natural key of a stream (for keysel). */
int rap_stream_filter(int stream);
int rap_stream_key(int stream);
/* Trace flags a stream (and key) needs. */
unsigned rap_stream_needs(int stream, int uses_value);

/* Plan the stream's records (the feed node) and the exact_keys side node
 * for keys field/field2 modulo key_bits.  pv holds the cache geometry
 * parameters (CACHE_GEOMETRY_PARAMS). */
void rap_plan_stream(struct plan *p, const struct param_values *pv, int stream, int field, int field2, unsigned key_bits);

/* Parameters of the tree and its feeding, common to both models. */
extern const char *const rap_agg_choices[];
extern const char *const rap_split_choices[]; /* in enum rap_split's order: before, after */
#define RAP_TREE_PARAMS                                                                                            \
    P_REAL("eps", 0.01, 1e-6, 1, "error bound as a fraction of the stream: split threshold eps * n / L"),        \
    P_REAL("q", 2, 1.001, 1e6, "merge period ratio: merges after merge_first * q^i events"),                      \
    P_INT("merge_first", 1024, 0, 1099511627776.0, "events before the first merge; 0 = never merge"),           \
    P_ENUM("aggregation", 0, rap_agg_choices,                                                                    \
           "none: one tree update per event; buffer: merging event buffer; full: offline aggregation of the window"), \
    P_INT("buffer_entries", 1024, 1, 16777216, "merging buffer entries (aggregation = buffer)"),                 \
    P_REAL("hot", 0.10, 0.0001, 1, "hot range threshold as a fraction of the events (section 5.1)"),            \
    P_INT("max_bytes", 0, 0, 68719476736.0, "node memory cap in bytes (16 per node); 0 = none; splits past it are refused"), \
    P_INT("series_every", 0, 0, 1099511627776.0, "sample the node count every this many events (0: at merges only)"), \
    RAP_SPLIT_PARAM

/* The split rule (rap_tree.h), shared with model rap_bound. */
#define RAP_SPLIT_PARAM                                                                                          \
    P_ENUM("split", 0, rap_split_choices,                                                                        \
           "before: split a node before the event that would pass the threshold, error <= eps n (the paper's "  \
           "bound); after: increment, then split (error <= eps n + L; the only rule until issue 23)")

/* Fill cfg->tree and aggregation from those parameters. */
void rap_tree_params(const struct param_values *pv, struct rap_prof_cfg *cfg);

/* The common metrics, in this order, at the start of a model's metric table. */
#define RAP_COMMON_METRICS                                                                                         \
    METRIC("events", "records profiled (the stream's events in the window)"),                                    \
    METRIC("distinct_keys", "distinct keys (pairs) in the stream, exact"),                                       \
    METRIC("nodes_max", "most tree nodes at any time (always just before a merge or at the end)"),                \
    METRIC("nodes_max_steady", "most tree nodes after the first merge (without the start-up transient, when the threshold is still ~0)"), \
    METRIC("nodes_avg", "tree nodes averaged over the events"),                                                  \
    METRIC("nodes_final", "tree nodes at the end of the window"),                                                \
    METRIC("memory_max_bytes", "nodes_max * 16 (the paper's 128-bit node)"),                                     \
    METRIC("memory_avg_bytes", "nodes_avg * 16"),                                                                \
    METRIC("hot_ranges", "hot ranges at the end (section 5.1: count + non-hot sub-ranges > hot * events)"),      \
    METRIC("err_max_pct", "largest percent error of a hot range's estimate vs its exact count (NaN: none hot)"), \
    METRIC("err_avg_pct", "average percent error over the hot ranges (NaN: none hot)"),                          \
    METRIC("err_max_eps", "largest (exact - estimate) / events over the hot ranges"),                           \
    METRIC("err_all_eps", "largest (exact - estimate) / events over every node: the eps guarantee measured"),    \
    METRIC("hot_coverage_pct", "percent of the events in hot ranges (own counts)"),                              \
    METRIC("splits", "node splits"),                                                                             \
    METRIC("merges", "merge batches"),                                                                           \
    METRIC("nodes_merged", "nodes folded into their parents by merges"),                                         \
    METRIC("splits_refused", "split attempts refused at max_bytes"),                                             \
    METRIC("tree_updates", "updates that reached the tree (walks): events / this = aggregation factor"),         \
    METRIC("agg_factor", "events / tree_updates: events per tree update (1 without aggregation; Figure 4's work saving)"), \
    METRIC("tree_visits", "trie nodes read by the update walks (depth + 1 per walk): the tree's work (Figure 4)"), \
    METRIC("threshold", "split threshold at the end, floor(eps * events / L)"),                                  \
    METRIC("levels", "L = ceil(key_bits / log2 b): tree height"),                                               \
    METRIC("bound_nodes", "worst-case nodes over this window's events for its key_bits, b, eps, q, merge_first (rap_bound.h, Figures 2-3); nodes_max never exceeds it"), \
    METRIC("dl1_miss_pct", "percent of loads that missed DL1 (cache streams; NaN otherwise)"),                  \
    METRIC("l2_miss_pct", "percent of loads that missed DL1 and L2 (cache streams; NaN otherwise)")
#define RAP_COMMON_METRIC_COUNT 26

/* Set the common metrics 0 .. RAP_COMMON_METRIC_COUNT-1.  cs may be NULL. */
void rap_out_common(struct model_out *o, const struct rap_prof *p, const struct keycount *exact, double hot,
                    const struct cache_stats *cs);

/* The series table (Figure 9): the tree size over events, one row per
 * distinct event count, in order: a sample after events 1, 2, 4, ...
 * below the first merge (the start-up growth) and every series_every
 * events, the tree just before each merge (merge = 1;
 * the merge follows event n) and just after it - placed at n + 1, the tree
 * that event n + 1 meets, so that every row has its own x (a sample at n or
 * n + 1 is not repeated) - and the end of the window.  bound is
 * rap_bound_batched at that event count: the worst case the tree can reach
 * by then (Figure 3, checked against the measured size). */
#define RAP_SERIES_COLS                                                                                            \
    COL("index", COL_INT, "row number, 0-based"),                                                               \
    COL("events", COL_INT, "events so far (after a merge: n + 1, the tree the next event meets)"),             \
    COL("nodes", COL_INT, "live tree nodes"),                                                                    \
    COL("point", COL_INT, "0 sample, 1 just before a merge, 2 just after it, 3 end of the window"),          \
    COL("merge", COL_INT, "1 on the row just before a merge (Figure 9's merge marks), else 0"),                \
    COL("bound", COL_REAL, "worst-case nodes after this many events, batched merges (rap_bound.h)")
void rap_out_series(struct model_out *o, size_t table, const struct rap_prof *p);

/* The hot-range label of Figure 7 and 12: "[lo, hi]" in hexadecimal without
 * 0x, as the paper writes them ("[0, fe]").  buf holds at least 48 bytes. */
void rap_range_label(char *buf, size_t len, uint64_t lo, uint64_t hi);

/* The coverage table (Figure 11): for every width w = 0 .. key_bits, the
 * hot ranges no wider than 2^w and the share of the events they hold
 * (their own weights: a range without its hot sub-ranges, so nested ranges
 * are not counted twice), estimated and exact. */
#define RAP_COVERAGE_COLS                                                                                          \
    COL("width_log2", COL_INT, "w: hot ranges of width <= 2^w"),                                                \
    COL("hot_ranges", COL_INT, "hot ranges of width <= 2^w"),                                                   \
    COL("coverage_pct", COL_REAL, "their estimate_own / events * 100 (Figure 11's y)"),                         \
    COL("exact_coverage_pct", COL_REAL, "their exact_own / events * 100")
void rap_out_coverage(struct model_out *o, size_t table, const struct rap_hot *h, size_t nh, double events,
                      unsigned key_bits);
/* One row of it: the percent of the events held (own weights, estimated)
 * by the hot ranges no wider than 2^width_log2; NaN without events. */
double rap_coverage_pct(const struct rap_hot *h, size_t nh, double events, unsigned width_log2);

#endif
