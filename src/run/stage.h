/* stage.h - shared derived streams and reference computations.
 *
 * A stage reads the records of one input (the decoded events of some kinds,
 * or another stage's records) and produces records of its own, a shared
 * result that models read, or both: the cache hierarchy emits the loads that
 * miss each level; the bursty sampler emits the events inside bursts, each
 * tagged with its samplers and the bursts that ended before it; the exact
 * interval profile emits tuples and marks
 * each interval's end, and its shared result is the interval's exact counts;
 * the WCFG stage emits one record per conditional branch and its shared
 * result is the weighted control-flow graph.
 *
 * Within a job (one trace window) a stage is computed once however many
 * model instances read it: the runner deduplicates stages by their key,
 * which is structural - the stage descriptor, its resolved parameter values
 * and its input node - never a string.  Everything the output depends on
 * must therefore be a parameter.
 *
 * Feeding protocol (the runner's push loop, per decoded batch):
 *
 *     while input records remain:
 *         k = feed(st, in, n, &chunk)      // consumes k >= 0 records
 *         deliver chunk.recs[0..chunk.n) to every consumer, in plan order
 *         if chunk.mark: deliver mark(chunk.mark) to every consumer
 *         in += k, n -= k
 *
 * A call must consume at least one record or produce a record or a mark.
 * A stage that has boundaries (an interval's end) stops consuming at the
 * boundary and returns the chunk with the mark, so that its consumers see
 * the shared result exactly as it is at the boundary; it starts the next
 * epoch (e.g. clears the exact table) lazily, on its next feed() call.  A
 * chunk holds at most `chunk` records (the stage sizes its buffer in
 * create()), so that consumers run over a chunk while their tables are hot.
 * feed() has the model feed() rules: no allocation (amortised growth of a
 * result table once per call at most), no I/O, no strings.
 *
 * A stage is one file under src/stages/ registered with STAGE_REGISTER.
 */
#ifndef STAGE_H
#define STAGE_H

#include <stddef.h>
#include <stdint.h>
#include "core/params.h"
#include "trace/event.h"

/* Marks (boundaries) a stage may signal; consumers know which stage they
 * read and so which marks to expect. */
enum stage_mark {
    MARK_NONE = 0,
    MARK_INTERVAL = 1   /* an interval of the exact profile ended */
};

struct chunk {
    const void *recs; /* n records of the stage's record type (may point into its input) */
    size_t n;
    uint32_t mark;    /* MARK_NONE or a boundary after these records */
};

struct stage_desc {
    const char *name;
    const char *summary;
    const struct param_spec *params;   /* PARAM_END-terminated */
    /* Input: the record type it reads ("event": struct event, from the
     * decoded trace or from a stage that emits events), and the event kinds
     * it needs when it reads the decoded trace (plan_stage with input
     * PLAN_NONE). */
    const char *input_rec;
    unsigned event_mask;
    /* Output record type: a name consumers check ("event" for struct event
     * arrays) and its size; size 0: the stage emits no records. */
    const char *rec_type;
    size_t rec_size;
    void *(*create)(const struct param_values *pv, char *err, size_t errlen);
    size_t (*feed)(void *st, const void *in, size_t n, struct chunk *out);
    /* Optional: the input stage's mark; may emit a chunk (e.g. pass it on). */
    void (*mark)(void *st, uint32_t mark, struct chunk *out);
    /* Optional: end of the window, before consumers finish; may emit a last
     * chunk (out->n = 0, mark 0 when nothing). */
    void (*finish)(void *st, struct chunk *out);
    /* Optional: the result consumers read (model_ctx.input / side[]). */
    void *(*shared)(void *st);
    void (*free)(void *st);
    double cost; /* relative cost per input record (balancing only); 0 means 1 */
};

#define STAGE_REGISTER(desc)                                                                           \
    static const struct stage_desc *const hwprof_stage_reg_##desc                                     \
        __attribute__((used, section("hwprof_stages"), aligned(sizeof(void *)))) = &desc

const struct stage_desc *stage_find(const char *name);
const struct stage_desc *const *stage_all(void); /* sorted by name, NULL-terminated */

#endif
