/* config_runs.c - the runs of a config (see config.h): each run's model,
 * its parameters (typed and range-checked from JSON) and sweep axes, and
 * every sweep point built once so that the models' own checks of
 * parameter combinations are errors of the config.  config.c calls it.
 */
#include "run/config_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/engine.h"

/* ---- parameters ------------------------------------------------------------ */

/* A NULL-terminated array of the names of a parameter table. */
static const char **param_names(const struct param_spec *spec)
{
    size_t n = 0;
    while (spec && spec[n].name)
        n++;
    const char **names = calloc(n + 1, sizeof *names);
    for (size_t i = 0; names && i < n; i++)
        names[i] = spec[i].name;
    return names;
}

void cfg_unknown_param(struct diag *d, const struct diag_path *p, const char *k, const struct model_desc *m)
{
    const char **names = param_names(m->params);
    char msg[512];
    snprintf(msg, sizeof msg, "unknown parameter '%s' for model '%s'", k, m->name);
    diag_did_you_mean(msg, sizeof msg, names ? diag_suggest(k, names) : NULL);
    free(names);
    diag_path_error(d, p, 1, "%s (see `hwprof params %s`)", msg, m->name);
}

/* Convert one JSON value to a parameter value, checking type and bounds. */
static int param_from_json(struct diag *d, const struct param_spec *s, json_t *v, struct param_value *out,
                           const struct diag_path *p)
{
    switch (s->type) {
    case PARAM_INT: {
        double x;
        if (json_is_integer(v))
            x = (double)json_integer_value(v);
        else if (json_is_real(v) && floor(json_real_value(v)) == json_real_value(v))
            x = json_real_value(v);
        else
            goto type_error;
        if (x < s->min || x > s->max)
            goto range_error;
        out->i = json_is_integer(v) ? (int64_t)json_integer_value(v) : (int64_t)x;
        out->r = (double)out->i;
        return 0;
    }
    case PARAM_REAL:
        if (!json_is_number(v))
            goto type_error;
        out->r = json_number_value(v);
        if (isnan(out->r) || out->r < s->min || out->r > s->max)
            goto range_error;
        out->i = (int64_t)out->r; /* in range: the bounds fit an int64 */
        return 0;
    case PARAM_BOOL:
        /* JSON true or false only: 0 and 1 are numbers (the CSV writes
         * booleans as 0/1, but a config says what it means). */
        if (!json_is_boolean(v))
            goto type_error;
        out->i = json_is_true(v);
        out->r = (double)out->i;
        return 0;
    case PARAM_ENUM: {
        if (!json_is_string(v))
            goto type_error;
        for (size_t i = 0; s->choices[i]; i++)
            if (strcmp(s->choices[i], json_string_value(v)) == 0) {
                out->i = (int64_t)i;
                out->r = (double)i;
                return 0;
            }
        char msg[512];
        size_t o = (size_t)snprintf(msg, sizeof msg, "'%s' must be one of", s->name);
        for (size_t i = 0; s->choices[i] && o < sizeof msg; i++)
            o += (size_t)snprintf(msg + o, sizeof msg - o, "%s '%s'", i ? "," : "", s->choices[i]);
        diag_did_you_mean(msg, sizeof msg, diag_suggest(json_string_value(v), s->choices));
        diag_path_error(d, p, 0, "%s", msg);
        return -1;
    }
    }
type_error:
    if (s->type == PARAM_INT || s->type == PARAM_REAL)
        diag_path_error(d, p, 0, "'%s' must be %s in [%.10g, %.10g]", s->name,
                        s->type == PARAM_INT ? "an integer" : "a number", s->min, s->max);
    else if (s->type == PARAM_BOOL && json_is_number(v))
        diag_path_error(d, p, 0, "'%s' must be true or false (a JSON boolean), not the number %.10g", s->name,
                        json_number_value(v));
    else
        diag_path_error(d, p, 0, "'%s' must be %s", s->name, s->type == PARAM_BOOL ? "true or false" : "a string");
    return -1;
range_error:
    diag_path_error(d, p, 0, "'%s' must be %s in [%.10g, %.10g] (%s)", s->name,
                    s->type == PARAM_INT ? "an integer" : "a number", s->min, s->max, s->doc);
    return -1;
}

/* ---- runs ----------------------------------------------------------------- */

static int same_value(const struct param_spec *s, const struct param_value *a, const struct param_value *b)
{
    return s->type == PARAM_REAL ? a->r == b->r : a->i == b->i;
}

/* Sorting a sweep's values (check_distinct). */
struct sorted_value {
    const struct param_value *v;
    size_t index;
    int real;
};

static int cmp_sorted_value(const void *pa, const void *pb)
{
    const struct sorted_value *a = pa, *b = pb;
    if (a->real ? a->v->r < b->v->r : a->v->i < b->v->i)
        return -1;
    if (a->real ? a->v->r > b->v->r : a->v->i > b->v->i)
        return 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

/* Every value of a sweep axis listed once: one error per repeated item,
 * naming the first item with that value, in item order.  Sorting keeps a
 * 10,000-value list quick (comparing every pair took seconds). */
static int check_distinct(struct diag *d, const struct param_spec *s, const struct sweep_axis *ax,
                          const struct diag_path *pk, const char *k)
{
    size_t n = ax->nvals;
    struct sorted_value *sv = calloc(n, sizeof *sv);
    size_t *first = calloc(n, sizeof *first);
    if (!sv || !first) {
        free(sv);
        free(first);
        diag_path_error(d, pk, 0, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        sv[i] = (struct sorted_value){ &ax->vals[i], i, s->type == PARAM_REAL };
    qsort(sv, n, sizeof *sv, cmp_sorted_value);
    for (size_t i = 0, g = 0; i < n; i++) {
        if (i > 0 && !same_value(s, sv[i - 1].v, sv[i].v))
            g = i;
        first[sv[i].index] = sv[g].index; /* the group's smallest item */
    }
    int dup = 0;
    for (size_t i = 0; i < n; i++)
        if (first[i] != i) {
            struct diag_path pv = path_idx(pk, i);
            diag_path_error(d, &pv, 0, "sweep '%s' lists the same value twice (items %zu and %zu)", k, first[i], i);
            dup = 1;
        }
    free(sv);
    free(first);
    return dup ? -1 : 0;
}

static const char **model_names(void)
{
    const struct model_desc *const *all = model_all();
    size_t n = 0;
    while (all[n])
        n++;
    const char **names = calloc(n + 1, sizeof *names);
    for (size_t i = 0; names && i < n; i++)
        names[i] = all[i]->name;
    return names;
}

/* Fill r from a run object (or the top level, at path `at`).  top_params
 * are the top-level "params", applied when the run's model declares them.
 * Returns 0, or -1 when the run cannot be used (errors in d). */
int cfg_load_run(struct diag *d, struct run_spec *r, json_t *obj, json_t *top_params, const struct diag_path *at,
                 int is_top)
{
    int bad = 0;
    json_t *m = json_object_get(obj, "model");
    if (!m || !json_is_string(m)) {
        diag_path_error(d, at, 0, is_top ? "missing required key 'model' (or a 'runs' list)"
                                         : "each run needs a \"model\" string");
        return -1;
    }
    r->model = model_find(json_string_value(m));
    if (!r->model) {
        struct diag_path pm = path_key(at, "model");
        const char **names = model_names();
        char msg[512];
        snprintf(msg, sizeof msg, "unknown model '%s'", json_string_value(m));
        diag_did_you_mean(msg, sizeof msg, names ? diag_suggest(json_string_value(m), names) : NULL);
        free(names);
        diag_path_error(d, &pm, 0, "%s (see `hwprof models`)", msg);
        return -1;
    }
    json_t *label = json_object_get(obj, "label");
    if (label && (!json_is_string(label) || json_string_length(label) == 0 ||
                  json_string_length(label) >= sizeof r->label)) {
        struct diag_path pl = path_key(at, "label");
        diag_path_error(d, &pl, 0, "'label' must be a string of 1 to %zu characters", sizeof r->label - 1);
        bad = 1;
    }
    snprintf(r->label, sizeof r->label, "%s", label && json_is_string(label) ? json_string_value(label) : r->model->name);
    params_defaults(&r->base, r->model->params);
    const struct model_desc *md = r->model;

    /* Top-level params: defaults for every run whose model declares them. */
    if (top_params && json_is_object(top_params) && top_params != json_object_get(obj, "params")) {
        const char *k;
        json_t *v;
        json_object_foreach(top_params, k, v) {
            size_t pi;
            const struct param_spec *s = params_find(md->params, k, &pi);
            struct diag_path pp = diag_path_of(2, "params", k);
            if (s && param_from_json(d, s, v, &r->base.v[pi], &pp) < 0)
                bad = 1;
        }
    }
    json_t *params = json_object_get(obj, "params");
    struct diag_path pparams = path_key(at, "params");
    if (params) {
        if (!json_is_object(params)) {
            diag_path_error(d, &pparams, 0, "'params' must be an object");
            bad = 1;
        } else {
            const char *k;
            json_t *v;
            json_object_foreach(params, k, v) {
                size_t pi;
                const struct param_spec *s = params_find(md->params, k, &pi);
                struct diag_path pk = path_key(&pparams, k);
                if (!s) {
                    if (!is_top) { /* top-level params are checked against every run by the caller */
                        cfg_unknown_param(d, &pk, k, md);
                        bad = 1;
                    }
                    continue;
                }
                if (param_from_json(d, s, v, &r->base.v[pi], &pk) < 0)
                    bad = 1;
            }
        }
    }
    json_t *sweep = json_object_get(obj, "sweep");
    r->npoints = 1;
    if (sweep) {
        struct diag_path psw = path_key(at, "sweep");
        if (!json_is_object(sweep)) {
            diag_path_error(d, &psw, 0, "'sweep' must be an object of lists");
            return -1;
        }
        const char *k;
        json_t *v;
        json_object_foreach(sweep, k, v) {
            size_t pi;
            const struct param_spec *s = params_find(md->params, k, &pi);
            struct diag_path pk = path_key(&psw, k);
            if (!s) {
                cfg_unknown_param(d, &pk, k, md);
                bad = 1;
                continue;
            }
            if (!json_is_array(v) || json_array_size(v) == 0) {
                diag_path_error(d, &pk, 0, "sweep '%s' must be a non-empty list of values", k);
                bad = 1;
                continue;
            }
            if (params && json_is_object(params) && json_object_get(params, k)) {
                diag_path_error(d, &pk, 1, "'%s' is both fixed in 'params' and swept: give it once", k);
                bad = 1;
                continue;
            }
            if (r->naxes == PARAMS_MAX) {
                diag_path_error(d, &pk, 1, "more than %d swept parameters", PARAMS_MAX);
                bad = 1;
                continue;
            }
            struct sweep_axis *ax = &r->axes[r->naxes++];
            ax->param = pi;
            ax->nvals = json_array_size(v);
            ax->vals = calloc(ax->nvals, sizeof *ax->vals);
            if (!ax->vals) {
                diag_path_error(d, &pk, 0, "out of memory");
                return -1;
            }
            int values_ok = 1;
            for (size_t i = 0; i < ax->nvals; i++) {
                struct diag_path pv = path_idx(&pk, i);
                if (param_from_json(d, s, json_array_get(v, i), &ax->vals[i], &pv) < 0)
                    values_ok = 0;
            }
            if (!values_ok)
                bad = 1;
            else if (check_distinct(d, s, ax, &pk, k) != 0)
                bad = 1;
            if (r->npoints > CONFIG_MAX_POINTS / ax->nvals) {
                diag_path_error(d, &pk, 1, "the sweep has more than %d points", CONFIG_MAX_POINTS);
                bad = 1;
                r->npoints = 1;
                continue;
            }
            r->npoints *= ax->nvals;
        }
    }
    return bad ? -1 : 0;
}

/* The location of run r's sweep (its params without one). */
static struct diag_path run_sweep_path(const struct run_spec *rs, int has_runs)
{
    struct diag_path pp = path0();
    if (has_runs) {
        diag_path_key(&pp, "runs");
        diag_path_index(&pp, rs->index);
    }
    diag_path_key(&pp, rs->naxes ? "sweep" : "params");
    return pp;
}

/* Build every sweep point's instance once (with its stages) and free it:
 * the models' own checks of parameter combinations ('btb_assoc' must divide
 * 'btb_entries', ...) are errors of the config, found before any trace is
 * read.  Only the runs whose parameters all loaded (run_ok) are built.
 * Every failing point is an error; the first CONFIG_MAX_POINT_ERRORS are
 * listed, the rest counted in one more error.  The caller bounds the
 * number of points (CONFIG_MAX_INSTANCES): each build allocates the
 * model's tables. */
void cfg_check_points(struct diag *d, const struct config *c, int has_runs, const bool *run_ok)
{
    size_t listed = 0, more = 0;
    const struct run_spec *more_at = NULL;
    for (size_t r = 0; r < c->nruns; r++) {
        const struct run_spec *rs = &c->runs[r];
        if (!run_ok[r])
            continue;
        for (size_t p = 0; p < rs->npoints; p++) {
            struct param_values pv;
            char err[512] = "", msg[1024];
            config_point(rs, p, &pv);
            if (engine_check_instance(rs->model, &pv, err, sizeof err) == 0)
                continue;
            if (listed == CONFIG_MAX_POINT_ERRORS) {
                if (!more_at)
                    more_at = rs;
                more++;
                continue;
            }
            size_t o = (size_t)snprintf(msg, sizeof msg, "run '%s'", rs->label);
            for (size_t a = 0; a < rs->naxes && o < sizeof msg; a++) {
                char v[128];
                pv_format(&pv, rs->axes[a].param, v, sizeof v);
                o += (size_t)snprintf(msg + o, sizeof msg - o, "%s%s=%s", a ? ", " : " at ",
                                      rs->model->params[rs->axes[a].param].name, v);
            }
            struct diag_path pp = run_sweep_path(rs, has_runs);
            diag_path_error(d, &pp, 1, "%s: %s", msg, err);
            listed++;
        }
    }
    if (more) {
        struct diag_path pp = run_sweep_path(more_at, has_runs);
        diag_path_error(d, &pp, 1, "and %zu more sweep point%s that fail%s (the first %d are listed)", more,
                        more == 1 ? "" : "s", more == 1 ? "s" : "", CONFIG_MAX_POINT_ERRORS);
    }
}

void config_point(const struct run_spec *r, size_t point, struct param_values *out)
{
    *out = r->base;
    for (size_t a = r->naxes; a-- > 0;) {
        const struct sweep_axis *ax = &r->axes[a];
        out->v[ax->param] = ax->vals[point % ax->nvals];
        point /= ax->nvals;
    }
}
