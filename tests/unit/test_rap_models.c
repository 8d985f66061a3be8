/* test_rap_models.c - the stages (bbstart, cache, exact_keys) through their
 * descriptors, and the models rap, rap2d, rap_bound and hhh through the
 * engine on synthetic event streams: record counts per
 * stream checked against independent computations, hot ranges against
 * exact counts, the eps guarantee, series, aggregation modes, determinism
 * and parameter errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "families/cachesim.h"
#include "families/keycount.h"
#include "families/rap_bound.h"
#include "models/shared/rap_out.h"
#include "stages/bbstart.h"
#include "stages/cache.h"
#include "stages/exact_keys.h"
#include <stdio.h>
#include "run/engine.h"
#include "param_testutil.h"
#include "event_testutil.h"

/* Run one instance over an event array through the production engine and
 * keep its metrics and tables (the shape the tests were written against). */
struct v2_table {
    size_t ncols, rows;
    const union cell *cells; /* rows x ncols */
};
struct v2res {
    struct model_out *out;
    const struct model_desc *m;
    size_t nmetrics;
    double metrics[128];
    struct v2_table tables[8];
};

static int v2_run(const struct model_desc *m, const struct param_values *pv, const struct event *ev, size_t n,
                  size_t batch, struct v2res *o, char *err, size_t errlen)
{
    static const bool all[8] = { true, true, true, true, true, true, true, true };
    memset(o, 0, sizeof *o);
    o->m = m;
    struct engine_inst in;
    memset(&in, 0, sizeof in);
    in.m = m;
    in.pv = *pv;
    in.wanted_tables = all;
    in.out = o->out = model_out_create(m, all);
    struct engine_job j;
    memset(&j, 0, sizeof j);
    j.mem_events = n ? ev : NULL;
    j.mem_n = n;
    j.batch = batch;
    j.inst = &in;
    j.ninst = 1;
    struct engine_options eo = { 1, 1, FILTER_AUTO, NULL, NULL };
    if (engine_run(&j, 1, &eo) != 0) {
        snprintf(err, errlen, "%s", j.err);
        model_out_free(o->out);
        o->out = NULL;
        return -1;
    }
    o->nmetrics = model_count_metrics(m);
    for (size_t k = 0; k < o->nmetrics && k < 128; k++)
        o->metrics[k] = model_out_metric(o->out, k);
    for (size_t t = 0; t < model_count_tables(m) && t < 8; t++) {
        o->tables[t].ncols = table_count_cols(&m->tables[t]);
        o->tables[t].rows = model_out_rows(o->out, t);
        o->tables[t].cells = o->tables[t].rows ? model_out_row(o->out, t, 0) : NULL;
    }
    return 0;
}

static void v2_out_free(struct v2res *o)
{
    model_out_free(o->out);
    o->out = NULL;
}

static double v2_metric(const struct v2res *o, const char *name)
{
    for (size_t k = 0; k < o->nmetrics; k++)
        if (!strcmp(o->m->metrics[k].name, name))
            return o->metrics[k];
    fail_msg("no metric %s", name);
    return NAN;
}

static size_t v2_col(const struct model_desc *m, size_t table, const char *name)
{
    for (size_t c = 0; m->tables[table].cols[c].name; c++)
        if (!strcmp(m->tables[table].cols[c].name, name))
            return c;
    fail_msg("no column %s", name);
    return 0;
}

extern const struct model_desc rap_model, rap2d_model, rap_bound_model, hhh_model;

/* ---- a synthetic program ------------------------------------------------- */

static uint64_t rs;
static uint64_t rnd(void)
{
    uint64_t z = (rs += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Blocks of 1-6 instructions in a few hot loops and a cold tail; loads with
 * skewed values (many zeros) and addresses in a hot array, a big table and
 * the stack; some stores; a branch or call ends each block. */
static struct event *program(size_t blocks, size_t *n)
{
    size_t cap = blocks * 16, k = 0;
    struct event *ev = malloc(cap * sizeof *ev);
    assert_non_null(ev);
    rs = 2024;
    for (size_t b = 0; b < blocks; b++) {
        uint64_t r = rnd();
        uint64_t start = (r & 3) ? 0x401000 + ((r >> 8) % 8) * 0x40 : 0x420000 + ((r >> 8) % 2000) * 0x20;
        unsigned len = 1 + (unsigned)((r >> 20) % 6);
        uint64_t pc = start;
        for (unsigned i = 0; i < len; i++) {
            ev[k++] = mkev(EV_INSN, pc, 0, 0, 4);
            uint64_t q = rnd();
            if ((q & 3) == 0) {
                uint64_t addr = (q >> 2) % 3 == 0 ? 0x601000 + (q >> 40) % 512 * 8
                              : (q >> 2) % 3 == 1 ? 0x10000000 + (q >> 20) % (1 << 20) * 8
                                                  : 0x7ffd0000 + (q >> 50) % 64 * 8;
                uint64_t val = (q >> 8) % 3 == 0 ? 0 : (q >> 8) % 3 == 1 ? (q >> 30) % 100 : q >> 16;
                ev[k++] = mkev(EV_LOAD, pc, addr, val, 8);
            } else if ((q & 7) == 1) {
                ev[k++] = mkev(EV_STORE, pc, 0x10000000 + (q >> 20) % (1 << 20) * 8, 0, 8);
            }
            pc += 4;
        }
        if (r >> 63)
            ev[k++] = mkev(EV_BRANCH, pc - 4, start, pc, 0);
        else
            ev[k++] = mkev(EV_CALL, pc - 4, 0x401000, 0, 0);
    }
    *n = k;
    return ev;
}

/* ---- stages ------------------------------------------------------------------ */

struct stage_run {
    struct event *out;
    size_t n, cap, calls;
};

static void feed_stage(const struct stage_desc *s, void *st, const struct event *in, size_t n, struct stage_run *r)
{
    while (n) {
        struct chunk c = { NULL, 0, 0 };
        size_t k = s->feed(st, in, n, &c);
        assert_true(k > 0 || c.n > 0);
        r->calls++;
        if (c.n && s->rec_size) {
            if (r->n + c.n > r->cap) {
                r->cap = 2 * (r->n + c.n);
                r->out = realloc(r->out, r->cap * sizeof *r->out);
            }
            memcpy(r->out + r->n, c.recs, c.n * sizeof *r->out);
            r->n += c.n;
        }
        in += k;
        n -= k;
    }
}

static void test_bbstart_stage(void **state)
{
    (void)state;
    const struct event in[] = {
        mkev(EV_INSN, 0x100, 0, 0, 4),  /* first of the window: start */
        mkev(EV_INSN, 0x104, 0, 0, 4),
        mkev(EV_BRANCH, 0x104, 0x200, 0x108, 0), /* not taken: still ends the block */
        mkev(EV_INSN, 0x108, 0, 0, 4),  /* after a control event: start */
        mkev(EV_LOAD, 0x108, 0x5000, 1, 8),
        mkev(EV_INSN, 0x10c, 0, 0, 2),
        mkev(EV_INSN, 0x200, 0, 0, 4),  /* discontinuity (a direct jump): start */
        mkev(EV_CALL, 0x200, 0x300, 0, 0),
        mkev(EV_INSN, 0x300, 0, 0, 4),  /* after a call: start */
        mkev(EV_INSN, 0x304, 0, 0, 3),
        mkev(EV_INSN, 0x304, 0, 0, 3),  /* rep iteration: pc repeats, a start */
        mkev(EV_INSN, 0x307, 0, 0, 1),
    };
    char err[100];
    void *st = bbstart_stage.create(NULL, err, sizeof err);
    assert_non_null(st);
    struct stage_run r = { 0 };
    feed_stage(&bbstart_stage, st, in, 6, &r); /* across two feeds */
    feed_stage(&bbstart_stage, st, in + 6, 6, &r);
    const uint64_t want[] = { 0x100, 0x108, 0x200, 0x300, 0x304 };
    assert_int_equal(r.n, 5);
    for (int i = 0; i < 5; i++) {
        assert_int_equal(r.out[i].pc, want[i]);
        assert_int_equal(r.out[i].kind, EV_INSN);
    }
    bbstart_stage.free(st);
    /* 2000 one-instruction blocks in one feed: chunks of at most 512 */
    struct event *many = malloc(4000 * sizeof *many);
    for (int i = 0; i < 2000; i++) {
        many[2 * i] = mkev(EV_INSN, 0x1000 + 16 * (uint64_t)i, 0, 0, 4);
        many[2 * i + 1] = mkev(EV_IJUMP, 0x1000 + 16 * (uint64_t)i, 0, 0, 0);
    }
    st = bbstart_stage.create(NULL, err, sizeof err);
    struct stage_run r2 = { 0 };
    feed_stage(&bbstart_stage, st, many, 4000, &r2);
    assert_int_equal(r2.n, 2000);
    assert_int_equal(r2.calls, 4);
    bbstart_stage.free(st);
    bbstart_stage.free(NULL);
    free(many);
    free(r.out);
    free(r2.out);
}

/* A tiny DL1 (2 sets x 2 ways) and L2 (4 sets x 2 ways): the stage emits
 * the DL1-missing loads only, flagged when they miss L2; stores emit
 * nothing. */
static void test_cache_stage(void **state)
{
    (void)state;
    struct param_values pv;
    params_defaults(&pv, cache_stage.params);
    pv_set_int(&pv, "l1_size", 256);
    pv_set_int(&pv, "l1_ways", 2);
    pv_set_int(&pv, "l2_size", 512);
    pv_set_int(&pv, "l2_ways", 2);
    char err[200];
    void *st = cache_stage.create(&pv, err, sizeof err);
    assert_non_null(st);
    const struct event in[] = {
        mkev(EV_LOAD, 1, 0x000, 5, 8),   /* miss both */
        mkev(EV_STORE, 2, 0x080, 0, 8),  /* store miss: allocates, no record */
        mkev(EV_LOAD, 3, 0x008, 6, 8),   /* hit */
        mkev(EV_LOAD, 4, 0x080, 7, 8),   /* hit (the store allocated it) */
        mkev(EV_LOAD, 5, 0x100, 8, 8),   /* line 4, DL1 set 0 again: miss both, evicts line 0 (LRU) */
        mkev(EV_INSN, 6, 0, 0, 4),       /* ignored without ifetch */
    };
    struct stage_run r = { 0 };
    feed_stage(&cache_stage, st, in, 6, &r);
    /* DL1 set = line % 2: lines 0, 2 (0x80) and 4 (0x100) share set 0 */
    assert_int_equal(r.n, 2);
    assert_int_equal(r.out[0].pc, 1);
    assert_true(r.out[0].flags & EVF_L2MISS);
    assert_int_equal(r.out[1].pc, 5);
    const struct cache_stats *cs = cache_stage.shared(st);
    assert_int_equal(cs->loads, 4);
    assert_int_equal(cs->stores, 1);
    assert_int_equal(cs->load_l1_misses, 2);
    /* line 0 was evicted from DL1 but not from L2 (4 sets: line 4 took the
     * other way of set 0): reloading it misses DL1 only */
    const struct event again = mkev(EV_LOAD, 9, 0x000, 5, 8);
    feed_stage(&cache_stage, st, &again, 1, &r);
    assert_int_equal(r.n, 3);
    assert_int_equal(r.out[2].flags & EVF_L2MISS, 0);
    cache_stage.free(st);

    pv_set_int(&pv, "l2_line", 32);
    assert_null(cache_stage.create(&pv, err, sizeof err));
    assert_non_null(strstr(err, "l2 line"));
    free(r.out);
}

/* bbstart against the rule as the paper's definition reads, one event at a
 * time (docs/rap.md): random streams of every kind, fed in random pieces. */
static void test_bbstart_vs_rule(void **state)
{
    (void)state;
    const size_t n = 200000;
    struct event *in = malloc(n * sizeof *in);
    uint64_t pc = 0x1000;
    for (size_t i = 0; i < n; i++) {
        uint64_t r = rnd();
        int kind = r % 10 < 6 ? EV_INSN : (int)(r % 7);
        uint32_t size = 1 + (uint32_t)((r >> 8) % 15);
        if (kind == EV_INSN && (r >> 20) % 16 == 0)
            pc = 0x1000 + (r >> 24) % 4096; /* a jump the trace does not record */
        in[i] = mkev(kind, pc, r >> 30, r >> 40, kind == EV_INSN ? size : 8);
        if (kind == EV_INSN && (r >> 20) % 16 != 1) /* else the same pc again (a rep iteration) */
            pc += size;
    }
    size_t nref = 0;
    uint64_t *ref = malloc(n * sizeof *ref), next = 0;
    int newb = 1;
    for (size_t i = 0; i < n; i++) {
        if (in[i].kind == EV_INSN) {
            if (newb || in[i].pc != next)
                ref[nref++] = i;
            next = in[i].pc + in[i].size;
            newb = 0;
        } else if (in[i].kind == EV_BRANCH || in[i].kind == EV_CALL || in[i].kind == EV_RET || in[i].kind == EV_IJUMP) {
            newb = 1;
        }
    }
    char err[100];
    void *st = bbstart_stage.create(NULL, err, sizeof err);
    struct stage_run r = { 0 };
    for (size_t i = 0; i < n;) {
        size_t k = 1 + rnd() % 3000;
        if (k > n - i)
            k = n - i;
        feed_stage(&bbstart_stage, st, in + i, k, &r);
        i += k;
    }
    assert_int_equal(r.n, nref);
    for (size_t i = 0; i < nref; i++)
        assert_memory_equal(&r.out[i], &in[ref[i]], sizeof *r.out);
    bbstart_stage.free(st);
    free(r.out);
    free(ref);
    free(in);
}

/* The exact_keys stage counts through a small cache in front of its table:
 * many keys sharing cache entries (pairs too), against keycount fed every
 * record directly - the same sorted table, entry by entry. */
static void test_exact_keys_front_cache(void **state)
{
    (void)state;
    for (int pairs = 0; pairs <= 1; pairs++) {
        struct param_values pv;
        params_defaults(&pv, exact_keys_stage.params);
        tu_set_enum(&pv, "filter", "loads");
        tu_set_enum(&pv, "key", "address");
        if (pairs)
            tu_set_enum(&pv, "key2", "pc");
        pv_set_int(&pv, "key_bits", 30);
        char err[100];
        void *st = exact_keys_stage.create(&pv, err, sizeof err);
        assert_non_null(st);
        struct keycount *ref = keycount_create(0);
        const size_t n = 100000;
        struct event *in = malloc(n * sizeof *in);
        for (size_t i = 0; i < n; i++) {
            uint64_t r = rnd();
            uint64_t addr = r % 4 == 0 ? 0x5000 + (r >> 40) % 8 : r % 4 == 1 ? (r >> 12) % 20000 : r >> 20;
            uint64_t pc = pairs ? 0x400000 + (r >> 50) % 3 : 0;
            in[i] = mkev(r % 16 == 0 ? EV_STORE : EV_LOAD, pc, addr, 0, 8);
            if (in[i].kind == EV_LOAD)
                keycount_add(ref, addr & ((1ull << 30) - 1), pairs ? pc : 0, 1);
        }
        struct stage_run r = { 0 };
        for (size_t i = 0; i < n; i += 777)
            feed_stage(&exact_keys_stage, st, in + i, n - i < 777 ? n - i : 777, &r);
        struct chunk c = { NULL, 0, 0 };
        exact_keys_stage.finish(st, &c);
        const struct keycount *kc = exact_keys_stage.shared(st);
        assert_int_equal(keycount_sort(ref), 0);
        assert_true(keycount_sorted(kc));
        assert_int_equal(keycount_distinct(kc), keycount_distinct(ref));
        assert_int_equal(keycount_total(kc), keycount_total(ref));
        assert_true(keycount_distinct(kc) > 20000);
        for (size_t i = 0; i < keycount_distinct(ref); i++)
            assert_memory_equal(keycount_entry(kc, i), keycount_entry(ref, i), sizeof(struct keycount_entry));
        exact_keys_stage.free(st);
        keycount_free(ref);
        free(in);
    }
}

/* ---- models ------------------------------------------------------------------ */

static struct event *prog;
static size_t nprog;

static int setup(void **state)
{
    (void)state;
    prog = program(60000, &nprog);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    free(prog);
    return 0;
}

static void run(const struct model_desc *m, struct param_values *pv, struct v2res *o)
{
    char err[300] = "";
    if (v2_run(m, pv, prog, nprog, 4096, o, err, sizeof err) != 0)
        fail_msg("run: %s", err);
}

/* values: hot ranges carry exact counts equal to an independent count;
 * estimates are lower bounds within eps n (split before, the default:
 * strictly); the series is consistent. */
static void test_rap_values(void **state)
{
    (void)state;
    struct param_values pv;
    params_defaults(&pv, rap_model.params);
    tu_set_enum(&pv, "stream", "values");
    struct v2res o;
    run(&rap_model, &pv, &o);
    struct keycount *kc = keycount_create(0);
    for (size_t i = 0; i < nprog; i++)
        if (prog[i].kind == EV_LOAD)
            keycount_add(kc, prog[i].value, 0, 1);
    keycount_sort(kc);
    double n = v2_metric(&o, "events");
    assert_true(n == (double)keycount_total(kc));
    assert_true(v2_metric(&o, "distinct_keys") == (double)keycount_distinct(kc));
    const struct v2_table *h = &o.tables[0];
    assert_true(h->rows >= 2);
    assert_true(v2_metric(&o, "hot_ranges") == (double)h->rows);
    size_t clo = v2_col(&rap_model, 0, "lo"), chi = v2_col(&rap_model, 0, "hi"), cest = v2_col(&rap_model, 0, "estimate"),
           cex = v2_col(&rap_model, 0, "exact"), cerr = v2_col(&rap_model, 0, "error_pct");
    double maxerr = 0;
    for (size_t r = 0; r < h->rows; r++) {
        const union cell *c = &h->cells[r * h->ncols];
        uint64_t exact = keycount_range(kc, c[clo].u, c[chi].u);
        assert_true(c[cex].r == (double)exact);
        assert_true((uint64_t)c[cest].i <= exact);
        assert_true((double)(exact - (uint64_t)c[cest].i) <= 0.01 * n);
        assert_true(fabs(c[cerr].r - 100.0 * (double)(exact - (uint64_t)c[cest].i) / (double)exact) < 1e-9);
        if (c[cerr].r > maxerr)
            maxerr = c[cerr].r;
    }
    assert_true(v2_metric(&o, "err_max_pct") == maxerr);
    assert_true(v2_metric(&o, "err_all_eps") <= 0.01);
    /* the value 0 (a third of the loads) is a hot single key */
    const union cell *first_zero = NULL;
    for (size_t r = 0; r < h->rows; r++)
        if (h->cells[r * h->ncols + chi].u == 0)
            first_zero = &h->cells[r * h->ncols];
    assert_non_null(first_zero);
    /* series: starts after the first event (threshold 0: split before,
     * the event went down to depth L = 32, 1 + b L nodes), doubles n up to
     * the first merge, ends at (events,
     * nodes_final); nodes_max is its peak; one row per event count; merge
     * marks on the rows before merges; the worst-case bound above every row */
    const struct v2_table *s = &o.tables[1];
    size_t sidx = v2_col(&rap_model, 1, "index"), sev = v2_col(&rap_model, 1, "events"),
           snod = v2_col(&rap_model, 1, "nodes"), spt = v2_col(&rap_model, 1, "point"),
           smg = v2_col(&rap_model, 1, "merge"), sbd = v2_col(&rap_model, 1, "bound");
    assert_true(s->rows >= 14);
    for (size_t r = 0; r < 10; r++) /* n = 1, 2, ..., 512, then the first merge at 1024 */
        assert_int_equal(s->cells[r * s->ncols + sev].i, 1ll << r);
    assert_int_equal(s->cells[snod].i, 1 + 4 * 32);
    assert_int_equal(s->cells[10 * s->ncols + sev].i, 1024);
    assert_int_equal(s->cells[10 * s->ncols + smg].i, 1);
    const union cell *last = &s->cells[(s->rows - 1) * s->ncols];
    assert_true((double)last[sev].i == n);
    assert_true((double)last[snod].i == v2_metric(&o, "nodes_final"));
    assert_int_equal(last[spt].i, 3);
    struct rap_bound_cfg bc = { 64, 2, 0.01, 2, 1024, RAP_SPLIT_BEFORE };
    int64_t peak = 0, merges = 0, steady = last[snod].i;
    for (size_t r = 0; r < s->rows; r++) {
        const union cell *x = &s->cells[r * s->ncols];
        assert_int_equal(x[sidx].i, (int64_t)r);
        if (r > 0)
            assert_true(x[sev].i > x[sev - s->ncols].i);
        if (x[snod].i > peak)
            peak = x[snod].i;
        assert_int_equal(x[smg].i, x[spt].i == 1);
        if (x[spt].i == 2) /* the tree the next event meets after the merge of the row before */
            assert_int_equal(x[sev].i, x[sev - s->ncols].i + 1);
        if (x[spt].i == 1 && merges++ > 0 && x[snod].i > steady)
            steady = x[snod].i;
        assert_true(x[sbd].r == rap_bound_batched(&bc, (uint64_t)x[sev].i));
        assert_true((double)x[snod].i <= x[sbd].r);
    }
    assert_true((double)peak == v2_metric(&o, "nodes_max"));
    assert_true((double)steady == v2_metric(&o, "nodes_max_steady"));
    assert_true(steady <= peak);
    assert_true((double)merges == v2_metric(&o, "merges"));
    assert_true(v2_metric(&o, "bound_nodes") == rap_bound_batched_max(&bc, (uint64_t)n));
    assert_true(v2_metric(&o, "nodes_max") <= v2_metric(&o, "bound_nodes"));
    /* no aggregation: one walk per event, reading at least the root */
    assert_true(v2_metric(&o, "agg_factor") == 1);
    assert_true(v2_metric(&o, "tree_visits") > n);
    assert_true(v2_metric(&o, "tree_visits") <= n * (v2_metric(&o, "levels") + 1));
    /* hot ranges: labels and shares */
    size_t clab = v2_col(&rap_model, 0, "range"), cpct = v2_col(&rap_model, 0, "pct"),
           cown = v2_col(&rap_model, 0, "own_pct"), cw = v2_col(&rap_model, 0, "width_log2");
    for (size_t r = 0; r < h->rows; r++) {
        const union cell *c = &h->cells[r * h->ncols];
        char want[64];
        snprintf(want, sizeof want, "[%llx, %llx]", (unsigned long long)c[clo].u, (unsigned long long)c[chi].u);
        assert_string_equal(c[clab].s, want);
        assert_true(c[cpct].r == 100.0 * (double)c[cest].i / n);
        assert_true(c[cown].r <= c[cpct].r);
    }
    /* coverage: for every w, the hot ranges no wider than 2^w and their own shares */
    const struct v2_table *cv = &o.tables[2];
    assert_int_equal(cv->rows, 65);
    size_t vw = v2_col(&rap_model, 2, "width_log2"), vn = v2_col(&rap_model, 2, "hot_ranges"),
           vc = v2_col(&rap_model, 2, "coverage_pct");
    for (size_t w = 0; w < cv->rows; w++) {
        const union cell *x = &cv->cells[w * cv->ncols];
        assert_int_equal(x[vw].i, (int64_t)w);
        double own = 0;
        int64_t k = 0;
        for (size_t r = 0; r < h->rows; r++)
            if (h->cells[r * h->ncols + cw].i <= (int64_t)w) {
                own += h->cells[r * h->ncols + cown].r;
                k++;
            }
        assert_int_equal(x[vn].i, k);
        assert_true(fabs(x[vc].r - own) < 1e-9);
        if (w > 0)
            assert_true(x[vc].r >= x[vc - cv->ncols].r);
    }
    assert_true(fabs(cv->cells[64 * cv->ncols + vc].r - v2_metric(&o, "hot_coverage_pct")) < 1e-9);
    /* the metric coverage_pct is the row w = coverage_width (default 16) */
    assert_true(v2_metric(&o, "coverage_pct") == cv->cells[16 * cv->ncols + vc].r);
    double cov3 = cv->cells[3 * cv->ncols + vc].r;
    assert_true(v2_metric(&o, "memory_max_bytes") == 16 * v2_metric(&o, "nodes_max"));
    assert_true(isnan(v2_metric(&o, "dl1_miss_pct")));
    v2_out_free(&o);
    keycount_free(kc);
    /* the same run read at w = 3 */
    pv_set_int(&pv, "coverage_width", 3);
    run(&rap_model, &pv, &o);
    assert_true(v2_metric(&o, "coverage_pct") == cov3);
    v2_out_free(&o);
}

/* By hand, split after (the old rule): 1000 loads of the values 0, 0, 0,
 * 5, 5, 0, 0, 0, 5, 5, ... (600 zeros, 400 fives), R = 2^8, b = 4 (L = 4),
 * eps = 1% (threshold floor(n / 400) = 0 until n = 400, and no merge before
 * 1024 events).  The first events split the path down: 0 splits the root, [0,63] and
 * [0,15]; 5 splits [4,7]; the next 5 is counted at [5,5]; the next 0
 * splits [0,3]; every later event reaches its leaf.  So [0,0] estimates
 * 600 - 4 = 596 and [5,5] 400 - 1 = 399; the five ancestors hold one event
 * each, too few to be hot at 10%.  Coverage is then 99.5% at every width
 * (both hot ranges are single keys), exactly 100%. */
static void test_rap_by_hand(void **state)
{
    (void)state;
    struct event ev[1000];
    for (int i = 0; i < 1000; i++)
        ev[i] = mkev(EV_LOAD, 0x400000, 0x601000, i % 5 < 3 ? 0 : 5, 8);
    struct param_values pv;
    params_defaults(&pv, rap_model.params);
    tu_set_enum(&pv, "stream", "values");
    tu_set_enum(&pv, "split", "after");
    pv_set_int(&pv, "key_bits", 8);
    struct v2res o;
    char err[200];
    assert_int_equal(v2_run(&rap_model, &pv, ev, 1000, 64, &o, err, sizeof err), 0);
    assert_true(v2_metric(&o, "events") == 1000);
    assert_true(v2_metric(&o, "hot_ranges") == 2);
    assert_true(v2_metric(&o, "nodes_final") == 1 + 5 * 4);
    assert_true(v2_metric(&o, "splits") == 5);
    assert_true(fabs(v2_metric(&o, "err_max_pct") - 400.0 / 600) < 1e-12);
    assert_true(fabs(v2_metric(&o, "err_avg_pct") - (400.0 / 600 + 100.0 / 400) / 2) < 1e-12);
    assert_true(fabs(v2_metric(&o, "hot_coverage_pct") - 99.5) < 1e-12);
    /* coverage_width 16 > key_bits 8 reads the last row: both single keys */
    assert_true(fabs(v2_metric(&o, "coverage_pct") - 99.5) < 1e-12);
    /* every event walks to a leaf at depth 4 but the first seven */
    assert_true(v2_metric(&o, "tree_visits") == 1 + 2 + 3 + 4 + 5 + 4 + 5 + 993 * 5);
    const struct v2_table *h = &o.tables[0];
    size_t clab = v2_col(&rap_model, 0, "range"), cest = v2_col(&rap_model, 0, "estimate"),
           cpct = v2_col(&rap_model, 0, "pct");
    assert_int_equal(h->rows, 2);
    assert_string_equal(h->cells[clab].s, "[0, 0]");
    assert_int_equal(h->cells[cest].i, 596);
    assert_true(fabs(h->cells[cpct].r - 59.6) < 1e-12);
    assert_string_equal(h->cells[h->ncols + clab].s, "[5, 5]");
    assert_int_equal(h->cells[h->ncols + cest].i, 399);
    const struct v2_table *cv = &o.tables[2];
    assert_int_equal(cv->rows, 9);
    for (size_t w = 0; w < 9; w++) {
        const union cell *x = &cv->cells[w * cv->ncols];
        assert_int_equal(x[0].i, (int64_t)w);
        assert_int_equal(x[1].i, 2);
        assert_true(fabs(x[2].r - 99.5) < 1e-12);
        assert_true(x[3].r == 100);
    }
    v2_out_free(&o);

    char label[48];
    rap_range_label(label, sizeof label, 0, 0xfe);
    assert_string_equal(label, "[0, fe]");
    rap_range_label(label, sizeof label, 0x11fd00000ull, UINT64_MAX);
    assert_string_equal(label, "[11fd00000, ffffffffffffffff]");
}

/* Each stream profiles the records its definition says. */
static void test_rap_streams(void **state)
{
    (void)state;
    uint64_t starts = 0, loads = 0, zeros = 0;
    uint64_t next = 0;
    int newb = 1;
    struct cachesim_cfg cc = { { 32768, 8, 64 }, { 1 << 20, 16, 64 }, { 32768, 8, 64 }, 0 };
    char err[100];
    struct cachesim *cs = cachesim_create(&cc, err, sizeof err);
    for (size_t i = 0; i < nprog; i++) {
        const struct event *e = &prog[i];
        if (e->kind == EV_INSN) {
            starts += newb || e->pc != next;
            next = e->pc + e->size;
            newb = 0;
        } else if (e->kind == EV_BRANCH || e->kind == EV_CALL) {
            newb = 1;
        } else if (e->kind == EV_LOAD) {
            loads++;
            zeros += e->value == 0;
            cachesim_load(cs, e->addr, e->size);
        } else if (e->kind == EV_STORE) {
            cachesim_store(cs, e->addr, e->size);
        }
    }
    const struct cache_stats *st = cachesim_stats(cs);
    const struct { const char *stream; double events; } want[] = {
        { "code", (double)starts }, { "values", (double)loads }, { "addresses", (double)loads },
        { "zero_loads", (double)zeros }, { "dl1_miss", (double)st->load_l1_misses }, { "l2_miss", (double)st->load_l2_misses },
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        struct param_values pv;
        params_defaults(&pv, rap_model.params);
        tu_set_enum(&pv, "stream", want[i].stream);
        pv_set_real(&pv, "eps", 0.05);
        struct v2res o;
        run(&rap_model, &pv, &o);
        assert_true(v2_metric(&o, "events") == want[i].events);
        assert_true(v2_metric(&o, "err_all_eps") <= 0.05 + 64.0 / want[i].events);
        if (i >= 4) {
            assert_true(v2_metric(&o, "dl1_miss_pct") == 100.0 * (double)st->load_l1_misses / (double)loads);
            assert_true(v2_metric(&o, "l2_miss_pct") == 100.0 * (double)st->load_l2_misses / (double)loads);
        }
        v2_out_free(&o);
    }
    assert_true(st->load_l2_misses > 0 && st->load_l2_misses < st->load_l1_misses);
    cachesim_free(cs);
}

/* The merging buffer and full aggregation: same events and exact counts,
 * fewer tree walks; 8 KB / 64 KB memory caps hold. */
static void test_rap_aggregation_and_cap(void **state)
{
    (void)state;
    double events = -1, updates_none = 0, visits_none = 0;
    const char *modes[] = { "none", "buffer", "full" };
    for (int a = 0; a < 3; a++) {
        struct param_values pv;
        params_defaults(&pv, rap_model.params);
        tu_set_enum(&pv, "stream", "code");
        tu_set_enum(&pv, "aggregation", modes[a]);
        struct v2res o;
        run(&rap_model, &pv, &o);
        if (a == 0) {
            events = v2_metric(&o, "events");
            updates_none = v2_metric(&o, "tree_updates");
            visits_none = v2_metric(&o, "tree_visits");
            assert_true(updates_none == events);
        } else {
            assert_true(v2_metric(&o, "events") == events);
            assert_true(v2_metric(&o, "tree_updates") < updates_none / 4);
            assert_true(v2_metric(&o, "agg_factor") == events / v2_metric(&o, "tree_updates"));
            assert_true(v2_metric(&o, "tree_visits") < visits_none / 4);
            assert_true(v2_metric(&o, "err_all_eps") <= 0.01 + 64 / events);
        }
        v2_out_free(&o);
    }
    struct param_values pv;
    params_defaults(&pv, rap_model.params);
    tu_set_enum(&pv, "stream", "addresses");
    pv_set_int(&pv, "max_bytes", 8192);
    pv_set_real(&pv, "eps", 0.001);
    struct v2res o;
    run(&rap_model, &pv, &o);
    assert_true(v2_metric(&o, "memory_max_bytes") <= 8192);
    assert_true(v2_metric(&o, "splits_refused") > 0);
    v2_out_free(&o);
}

static void test_rap2d(void **state)
{
    (void)state;
    struct param_values pv;
    params_defaults(&pv, rap2d_model.params);
    pv_set_real(&pv, "eps", 0.02);
    struct v2res o;
    run(&rap2d_model, &pv, &o);
    struct keycount *kc = keycount_create(0);
    for (size_t i = 0; i < nprog; i++)
        if (prog[i].kind == EV_LOAD)
            keycount_add(kc, prog[i].pc, prog[i].addr, 1);
    keycount_sort(kc);
    assert_true(v2_metric(&o, "events") == (double)keycount_total(kc));
    const struct v2_table *h = &o.tables[0];
    assert_true(h->rows >= 1);
    for (size_t r = 0; r < h->rows; r++) {
        const union cell *c = &h->cells[r * h->ncols];
        uint64_t exact = keycount_rect(kc, c[0].u, c[1].u, c[2].u, c[3].u);
        assert_true(c[v2_col(&rap2d_model, 0, "exact")].r == (double)exact);
        assert_true((uint64_t)c[v2_col(&rap2d_model, 0, "estimate")].i <= exact);
    }
    /* cells: one per node, own counters summing to the events */
    const struct v2_table *cells = &o.tables[1];
    assert_true((double)cells->rows == v2_metric(&o, "nodes_final"));
    int64_t sum = 0;
    for (size_t r = 0; r < cells->rows; r++)
        sum += cells->cells[r * cells->ncols + 5].i;
    assert_true((double)sum == v2_metric(&o, "events"));
    assert_true(v2_metric(&o, "err_all_eps") <= 0.02); /* split before: strictly eps n */
    v2_out_free(&o);
    keycount_free(kc);
    pv_set_int(&pv, "b", 8);
    char err[100];
    assert_int_equal(v2_run(&rap2d_model, &pv, prog, nprog, 4096, &o, err, sizeof err), -1);
    assert_non_null(strstr(err, "power of 4"));
    v2_out_free(&o);
}

/* By hand, split before (the default), the stream of test_rap_by_hand: the
 * first 0 (threshold 0) splits the root, [0,63], [0,15] and [0,3] before
 * it is counted and lands on [0,0]; the first 5 meets [4,7] (count 0,
 * threshold 0), splits it and lands on [5,5]; every later event reaches its
 * leaf.  So both keys are counted exactly (600 and 400), the ancestors hold
 * nothing, 5 splits, 1 + 5 * 4 nodes, and every range is exact. */
static void test_rap_by_hand_before(void **state)
{
    (void)state;
    struct event ev[1000];
    for (int i = 0; i < 1000; i++)
        ev[i] = mkev(EV_LOAD, 0x400000, 0x601000, i % 5 < 3 ? 0 : 5, 8);
    struct param_values pv;
    params_defaults(&pv, rap_model.params);
    tu_set_enum(&pv, "stream", "values");
    pv_set_int(&pv, "key_bits", 8);
    struct v2res o;
    char err[200];
    assert_int_equal(v2_run(&rap_model, &pv, ev, 1000, 64, &o, err, sizeof err), 0);
    assert_true(v2_metric(&o, "events") == 1000);
    assert_true(v2_metric(&o, "hot_ranges") == 2);
    assert_true(v2_metric(&o, "nodes_final") == 1 + 5 * 4);
    assert_true(v2_metric(&o, "splits") == 5);
    assert_true(v2_metric(&o, "err_max_pct") == 0);
    assert_true(v2_metric(&o, "err_all_eps") == 0);
    assert_true(v2_metric(&o, "hot_coverage_pct") == 100);
    /* every event counts depth + 1 of the node it is counted at: all at depth 4 */
    assert_true(v2_metric(&o, "tree_visits") == 1000 * 5);
    const struct v2_table *h = &o.tables[0];
    size_t clab = v2_col(&rap_model, 0, "range"), cest = v2_col(&rap_model, 0, "estimate");
    assert_int_equal(h->rows, 2);
    assert_string_equal(h->cells[clab].s, "[0, 0]");
    assert_int_equal(h->cells[cest].i, 600);
    assert_string_equal(h->cells[h->ncols + clab].s, "[5, 5]");
    assert_int_equal(h->cells[h->ncols + cest].i, 400);
    v2_out_free(&o);
}

static void test_rap_bound_model(void **state)
{
    (void)state;
    struct param_values pv;
    params_defaults(&pv, rap_bound_model.params);
    struct v2res o;
    char err[100];
    /* the default, split before: one event may split L = 16 times while the
     * threshold is 0, so continuous_max is the shape of 1599 families plus
     * 16 b instead of b (69,425 under after, below) */
    assert_int_equal(v2_run(&rap_bound_model, &pv, NULL, 0, 1, &o, err, sizeof err), 0);
    struct rap_bound_cfg cb = { 32, 2, 0.01, 2, 1024, RAP_SPLIT_BEFORE };
    assert_true(v2_metric(&o, "continuous_max") == 69425 - 4 + 16 * 4);
    assert_true(v2_metric(&o, "batched_max") == rap_bound_batched_max(&cb, 1ull << 32));
    v2_out_free(&o);
    tu_set_enum(&pv, "split", "after");
    assert_int_equal(v2_run(&rap_bound_model, &pv, NULL, 0, 1, &o, err, sizeof err), 0);
    struct rap_bound_cfg c = { 32, 2, 0.01, 2, 1024, RAP_SPLIT_AFTER };
    assert_true(v2_metric(&o, "continuous_max") == 69425);
    assert_true(v2_metric(&o, "batched_max") == rap_bound_batched_max(&c, 1ull << 32));
    assert_true(v2_metric(&o, "batched_max_bytes") == 16 * rap_bound_batched_max(&c, 1ull << 32));
    assert_true(v2_metric(&o, "merges") == 23);
    const struct v2_table *s = &o.tables[0];
    int merges = 0;
    int64_t prev = 0;
    for (size_t r = 0; r < s->rows; r++) {
        const union cell *x = &s->cells[r * s->ncols];
        assert_int_equal(x[0].i, (int64_t)r);
        assert_true(x[1].i > prev); /* events ascending */
        prev = x[1].i;
        assert_true(x[2].r == rap_bound_continuous(&c, (uint64_t)x[1].i));
        assert_true(x[3].r == rap_bound_batched(&c, (uint64_t)x[1].i));
        if (x[4].i) {
            merges++;
            assert_int_equal(x[1].i, 1024ll << (merges - 1));
        }
    }
    assert_int_equal(merges, 23);
    v2_out_free(&o);
    pv_set_int(&pv, "b", 12);
    assert_int_equal(v2_run(&rap_bound_model, &pv, NULL, 0, 1, &o, err, sizeof err), -1);
    assert_non_null(strstr(err, "power of two"));
}

/* Same inputs, same outputs; the batch size the runner uses does not matter. */
static void test_determinism(void **state)
{
    (void)state;
    struct param_values pv;
    params_defaults(&pv, rap_model.params);
    tu_set_enum(&pv, "stream", "dl1_miss");
    pv_set_int(&pv, "series_every", 1000);
    struct v2res a, b;
    char err[100];
    assert_int_equal(v2_run(&rap_model, &pv, prog, nprog, 4096, &a, err, sizeof err), 0);
    assert_int_equal(v2_run(&rap_model, &pv, prog, nprog, 777, &b, err, sizeof err), 0);
    assert_memory_equal(a.metrics, b.metrics, a.nmetrics * sizeof *a.metrics);
    for (int t = 0; t < 3; t++) {
        assert_int_equal(a.tables[t].rows, b.tables[t].rows);
        for (size_t k = 0; k < a.tables[t].rows * a.tables[t].ncols; k++) {
            const struct col_spec *col = &rap_model.tables[t].cols[k % a.tables[t].ncols];
            if (col->type == COL_TEXT)
                assert_string_equal(a.tables[t].cells[k].s, b.tables[t].cells[k].s);
            else
                assert_memory_equal(&a.tables[t].cells[k], &b.tables[t].cells[k], sizeof(union cell));
        }
    }
    assert_true(a.tables[1].rows > 20);
    v2_out_free(&a);
    v2_out_free(&b);
    pv_set_int(&pv, "b", 6);
    assert_int_equal(v2_run(&rap_model, &pv, prog, nprog, 4096, &a, err, sizeof err), -1);
    assert_non_null(strstr(err, "b must be a power of two"));
}

/* The HHH baseline on the same stream: Space-Saving overestimates, exact
 * counts from the shared exact_keys stage, memory as configured. */
static void test_hhh_model(void **state)
{
    (void)state;
    struct param_values pv;
    params_defaults(&pv, hhh_model.params);
    tu_set_enum(&pv, "stream", "values");
    pv_set_int(&pv, "bytes", 8192);
    struct v2res o;
    run(&hhh_model, &pv, &o);
    struct keycount *kc = keycount_create(0);
    for (size_t i = 0; i < nprog; i++)
        if (prog[i].kind == EV_LOAD)
            keycount_add(kc, prog[i].value, 0, 1);
    keycount_sort(kc);
    assert_true(v2_metric(&o, "events") == (double)keycount_total(kc));
    assert_true(v2_metric(&o, "levels") == 33);
    assert_true(v2_metric(&o, "memory_bytes") <= 8192);
    assert_true(v2_metric(&o, "entries_per_level") == 8192 / 16 / 33);
    const struct v2_table *h = &o.tables[0];
    assert_true(h->rows >= 1 && (double)h->rows == v2_metric(&o, "hot_ranges"));
    int zero = 0;
    for (size_t r = 0; r < h->rows; r++) {
        const union cell *c = &h->cells[r * h->ncols];
        uint64_t exact = keycount_range(kc, c[0].u, c[1].u);
        assert_true(c[6].r == (double)exact);
        assert_true((uint64_t)c[3].i >= exact);
        zero |= c[0].u == 0 && c[1].u == 0;
    }
    assert_true(zero); /* a third of the loads load 0 */
    v2_out_free(&o);
    keycount_free(kc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bbstart_stage),
        cmocka_unit_test(test_cache_stage),
        cmocka_unit_test(test_bbstart_vs_rule),
        cmocka_unit_test(test_exact_keys_front_cache),
        cmocka_unit_test(test_rap_values),
        cmocka_unit_test(test_rap_by_hand),
        cmocka_unit_test(test_rap_by_hand_before),
        cmocka_unit_test(test_rap_streams),
        cmocka_unit_test(test_rap_aggregation_and_cap),
        cmocka_unit_test(test_rap2d),
        cmocka_unit_test(test_rap_bound_model),
        cmocka_unit_test(test_determinism),
        cmocka_unit_test(test_hhh_model),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
