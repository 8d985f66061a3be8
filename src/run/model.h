/* model.h - the one interface every profiler model implements (v2).
 *
 * A model is one file under src/models/ that fills a struct model_desc and
 * registers it with MODEL_REGISTER(desc): no central list to edit.  The
 * descriptor says everything the rest of the harness needs to know:
 *
 *   parameters   P_INT/P_REAL/P_BOOL/P_ENUM rows (params.h): type, default,
 *                inclusive bounds, meaning; the config validator, the CSV
 *                columns and docs/params.md all read this table;
 *   metrics      METRIC(name, doc) rows: one CSV column each; report() sets
 *                every one of them (the runner checks: a metric left unset
 *                is an error of the model, NaN says "not applicable");
 *   tables       named per-instance tables, TABLE(name, doc, columns) rows
 *                with COL(name, type, doc) columns; rows go to
 *                results/<paper>/<fig>.<table>.csv (the table "series" to
 *                <fig>.series.csv) through out_row();
 *   inputs       what feed() receives: decoded events of the kinds in
 *                event_mask, or (plan != NULL) the records of a stage
 *                (stage.h) such as the loads that miss a cache level, the
 *                events inside bursts, or the tuples of an exact interval
 *                profile; stages are shared by every instance of a job that
 *                asks for the same stage with the same parameters.
 *
 * Life cycle, per instance and job (one workload window):
 *   plan(pv) -> create(ctx) -> feed(records)... with mark() at the input
 *   stage's boundaries -> finish() -> report(out) -> free()
 * feed() must not modify the records and must be cheap: no allocation, no
 * I/O, no string work (size tables in create()).  A model or stage that
 * reads decoded events gets at least the kinds of its mask, possibly others
 * too (the engine does not copy out a filtered batch when most events are
 * of those kinds anyway): ignore the kinds you do not use.  Analytic models (no
 * trace: event_mask 0 and plan NULL) go straight from create to finish.
 *
 * Writing a model: docs/adding-a-model.md.
 */
#ifndef MODEL_H
#define MODEL_H

#include <stddef.h>
#include <stdint.h>
#include "core/params.h"
#include "trace/event.h"

struct stage_desc;

/* ---- outputs ----------------------------------------------------------- */

struct metric_spec {
    const char *name; /* CSV column */
    const char *doc;  /* meaning and unit, shown by `hwprof models` and docs */
};
#define METRIC(name, doc) { name, doc }
#define METRIC_END { NULL, NULL }

enum col_type {
    COL_REAL, /* double: integers as integers, else %.10g, NaN = empty */
    COL_INT,  /* int64 */
    COL_HEX,  /* uint64 as 0x... (addresses, keys) */
    COL_TEXT  /* string (copied by out_row) */
};
struct col_spec {
    const char *name;
    enum col_type type;
    const char *doc;
};
#define COL(name, type, doc) { name, type, doc }
#define COL_END { NULL, COL_REAL, NULL }

struct table_spec {
    const char *name; /* file suffix: <fig>.<name>.csv ("series": <fig>.series.csv) */
    const char *doc;
    const struct col_spec *cols; /* COL_END-terminated */
};
#define TABLE(name, doc, cols) { name, doc, cols }
#define TABLE_END { NULL, NULL, NULL }

union cell {
    double r;
    int64_t i;
    uint64_t u;
    const char *s;
};

/* Where an instance's metrics and table rows go (owned by the runner). */
struct model_out;
/* Set metric `index` (position in the model's metric table). */
void out_metric(struct model_out *o, size_t index, double value);
/* Append a row to table `table` (position in the model's table list); cells
 * has one value per declared column.  May be called from create() to
 * report(); amortised O(1), allocates (call it per interval, not per event). */
void out_row(struct model_out *o, size_t table, const union cell *cells);

/* ---- inputs -------------------------------------------------------------- */

/* A plan is built once per instance from its resolved parameters; the
 * runner deduplicates the stages of all instances of a job. */
struct plan;
typedef int plan_node;
#define PLAN_NONE (-1)
/* Decoded trace events of these kinds (EV_BIT()s), in program order. */
plan_node plan_events(struct plan *p, unsigned kind_mask);
/* Stage s with parameters spv (NULL: the stage's defaults), reading the
 * records of node `input` (PLAN_NONE: the decoded events of the kinds the
 * stage declares).  Returns PLAN_NONE (and the plan fails with a message)
 * when s cannot read that input. */
plan_node plan_stage(struct plan *p, plan_node input, const struct stage_desc *s, const struct param_values *spv);
/* feed() receives node n's records and mark() its boundaries (exactly one
 * feed node per plan). */
void plan_feed(struct plan *p, plan_node n);
/* The model also reads node n's shared result (model_ctx.side[k], k in the
 * order of plan_side calls) without its records. */
void plan_side(struct plan *p, plan_node n);
/* Fail the plan (a parameter combination the model cannot serve). */
void plan_fail(struct plan *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define MODEL_MAX_SIDES 4

/* What create() gets. */
struct model_ctx {
    const struct param_values *pv;
    struct model_out *out;          /* for out_row() during the run (never NULL) */
    /* Shared results (stage.h `shared`): of the feed node's stage (NULL:
     * none, or decoded events) and of the plan_side nodes.  Instances of a
     * job that read one stage run on one thread, one after the other, so a
     * model may update scratch fields the stage documents as such. */
    void *input;
    void *side[MODEL_MAX_SIDES];
    char *err;                      /* create() failure message (names the parameter) */
    size_t errlen;
};

struct model_desc {
    const char *name;     /* used in configs; [a-z0-9_] */
    const char *summary;  /* one line for `hwprof models` and docs */
    const struct param_spec *params;   /* PARAM_END-terminated */
    const struct metric_spec *metrics; /* METRIC_END-terminated */
    const struct table_spec *tables;   /* TABLE_END-terminated, or NULL */
    /* Inputs: with plan == NULL, feed() gets the decoded events of these
     * kinds (0 and no plan: an analytic model that reads no trace). */
    unsigned event_mask;
    void (*plan)(const struct param_values *pv, struct plan *p);
    /* Build an instance; NULL with ctx->err filled on failure. */
    void *(*create)(const struct model_ctx *ctx);
    void (*feed)(void *m, const void *recs, size_t n);
    /* Optional: the feed node's stage signalled a boundary (stage.h) after
     * the records fed so far. */
    void (*mark)(void *m, uint32_t mark);
    void (*finish)(void *m);   /* end of the window */
    void (*report)(void *m, struct model_out *out);
    /* (trace_needs and cost below are optional) */
    void (*free)(void *m);     /* accepts NULL */
    /* Optional: trace header flags (TRF_HAS_VALUES, TRF_HAS_BRANCHES) an
     * instance with these parameters needs; the runner refuses a trace
     * without them instead of reporting a profile of nothing. */
    unsigned (*trace_needs)(const struct param_values *pv);
    /* Relative cost per input record (1 = about a hash-table update), used
     * only to balance instances over threads; 0 means 1. */
    double cost;
};

/* ---- registry -------------------------------------------------------------- */

#define MODEL_REGISTER(desc)                                                                           \
    static const struct model_desc *const hwprof_model_reg_##desc                                     \
        __attribute__((used, section("hwprof_models"), aligned(sizeof(void *)))) = &desc

const struct model_desc *model_find(const char *name);
/* Every registered model, sorted by name; NULL-terminated. */
const struct model_desc *const *model_all(void);
size_t model_count_metrics(const struct model_desc *m);
size_t model_count_tables(const struct model_desc *m);
size_t table_count_cols(const struct table_spec *t);
/* Does the model (or analytic) read a trace? */
int model_reads_trace(const struct model_desc *m);
/* What makes a descriptor unusable whatever a config asks for: a name that
 * is not [a-z0-9_]+, a parameter, metric, table or table column named twice,
 * a parameter or metric named like a column of the runner (workload,
 * window, weight, run, model, windows), a table column named like a column
 * the runner puts before it (workload, window, run, model), a table called
 * 'windows' (<fig>.windows.csv is the runner's).  Returns 0, or -1 with
 * the reason in err.  The registry refuses such a model at start-up.
 * Clashes that depend on what a config writes (a parameter and a table
 * column of one name, a metric named like a parameter) are the config
 * loader's (outcols.h). */
int model_desc_check(const struct model_desc *m, char *err, size_t errlen);

#endif
