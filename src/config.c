/* config.c - load, validate and expand sweep configs (see config.h).
 * The JSON is parsed by jansson with duplicate keys rejected; every other
 * check is done here so that the message can name the exact key path, and
 * jsonpos finds its line and column in the text. */
#define _POSIX_C_SOURCE 200809L
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "jsonpos.h"
#include "mdtable.h"
#include "plotspec.h"

struct ctx {
    const char *path;
    char *text;
    char *err;
    size_t errlen;
};

/* Report an error located at a key path given as an array of keys ("#n" =
 * index n); the position of the key when want_key is set. */
static int fail_at_path(struct ctx *cx, int want_key, const char *msg, int depth, const char *const *keys)
{
    struct jpath_step steps[8];
    if (depth > 8)
        depth = 8;
    for (int i = 0; i < depth; i++) {
        const char *k = keys[i];
        if (k[0] == '#') {
            steps[i].key = NULL;
            steps[i].index = (size_t)strtoul(k + 1, NULL, 10);
        } else {
            steps[i].key = k;
            steps[i].index = 0;
        }
    }
    int line = 1, col = 1;
    /* The longest prefix of the path found in the text. */
    while (depth > 0 && jsonpos_find(cx->text, steps, (size_t)depth, want_key, &line, &col) != 0)
        depth--;
    if (depth == 0) {
        line = 1;
        col = 1;
    }
    snprintf(cx->err, cx->errlen, "%s:%d:%d: %s", cx->path, line, col, msg);
    return -1;
}

/* Report an error located at a key path (keys as strings; "#n" = index n). */
static int fail_at(struct ctx *cx, int want_key, const char *msg, int depth, ...)
{
    const char *keys[8];
    va_list ap;
    va_start(ap, depth);
    for (int i = 0; i < depth && i < 8; i++)
        keys[i] = va_arg(ap, const char *);
    va_end(ap);
    return fail_at_path(cx, want_key, msg, depth, keys);
}

static char *slurp(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 14, len = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (len + 1 == cap) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb) {
                free(buf);
                buf = NULL;
            }
            buf = nb;
        }
    }
    fclose(f);
    if (!buf) {
        snprintf(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    buf[len] = '\0';
    return buf;
}

static int copy_string(struct ctx *cx, json_t *root, const char *key, char *dst, size_t len, int required)
{
    json_t *v = json_object_get(root, key);
    if (!v) {
        if (required) {
            char msg[128];
            snprintf(msg, sizeof msg, "missing required key '%s'", key);
            return fail_at(cx, 0, msg, 0);
        }
        return 0;
    }
    if (!json_is_string(v)) {
        char msg[128];
        snprintf(msg, sizeof msg, "'%s' must be a string", key);
        return fail_at(cx, 0, msg, 1, key);
    }
    if (json_string_length(v) >= len) {
        char msg[128];
        snprintf(msg, sizeof msg, "'%s' is longer than %zu characters", key, len - 1);
        return fail_at(cx, 0, msg, 1, key);
    }
    snprintf(dst, len, "%s", json_string_value(v));
    return 0;
}

/* Convert one JSON value to a parameter value, checking type and bounds.
 * path (depth keys) locates the value for the error position. */
static int param_from_json(struct ctx *cx, const struct param_spec *s, json_t *v, struct param_value *out,
                           int depth, const char *const *path)
{
    char msg[512];
    switch (s->type) {
    case PARAM_INT: {
        double d;
        if (json_is_integer(v))
            d = (double)json_integer_value(v);
        else if (json_is_real(v) && floor(json_real_value(v)) == json_real_value(v))
            d = json_real_value(v);
        else
            goto type_error;
        if (d < s->min || d > s->max)
            goto range_error;
        out->i = json_is_integer(v) ? (int64_t)json_integer_value(v) : (int64_t)d;
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
        if (json_is_boolean(v))
            out->i = json_is_true(v);
        else if (json_is_integer(v) && (json_integer_value(v) == 0 || json_integer_value(v) == 1))
            out->i = json_integer_value(v);
        else
            goto type_error;
        out->r = (double)out->i;
        return 0;
    case PARAM_ENUM:
        if (!json_is_string(v))
            goto type_error;
        for (size_t i = 0; s->choices[i]; i++)
            if (strcmp(s->choices[i], json_string_value(v)) == 0) {
                out->i = (int64_t)i;
                out->r = (double)i;
                return 0;
            }
        {
            size_t o = (size_t)snprintf(msg, sizeof msg, "'%s' must be one of", s->name);
            for (size_t i = 0; s->choices[i] && o < sizeof msg; i++)
                o += (size_t)snprintf(msg + o, sizeof msg - o, "%s '%s'", i ? "," : "", s->choices[i]);
        }
        goto report;
    }
type_error:
    snprintf(msg, sizeof msg, "'%s' must be %s", s->name,
             s->type == PARAM_INT ? "an integer" : s->type == PARAM_REAL ? "a number" : s->type == PARAM_BOOL ? "true or false" : "a string");
    if (s->type == PARAM_INT || s->type == PARAM_REAL)
        snprintf(msg + strlen(msg), sizeof msg - strlen(msg), " in [%.10g, %.10g]", s->min, s->max);
    goto report;
range_error:
    snprintf(msg, sizeof msg, "'%s' must be %s in [%.10g, %.10g] (%s)", s->name,
             s->type == PARAM_INT ? "an integer" : "a number", s->min, s->max, s->doc);
report:
    return fail_at_path(cx, 0, msg, depth, path);
}

static int known_workload(const char *dir, const char *name)
{
    char p[1024];
    snprintf(p, sizeof p, "%s/%s.wl", dir, name);
    FILE *f = fopen(p, "r");
    if (f)
        fclose(f);
    return f != NULL;
}

static int cmp_str(const void *a, const void *b) { return strcmp((const char *)a, (const char *)b); }

static int load_workloads(struct ctx *cx, struct config *c, json_t *root, const char *wdir)
{
    json_t *w = json_object_get(root, "workloads");
    if (!w)
        return fail_at(cx, 0, "missing required key 'workloads' (\"all\", a list of names, or [] for analytic figures)", 0);
    if (json_is_string(w) && strcmp(json_string_value(w), "all") == 0) {
        if (!wdir)
            return fail_at(cx, 0, "'workloads': \"all\" needs the experiments directory", 1, "workloads");
        DIR *d = opendir(wdir);
        if (!d)
            return fail_at(cx, 0, "'workloads': cannot list the experiments directory", 1, "workloads");
        struct dirent *de;
        while ((de = readdir(d)) != NULL) {
            size_t n = strlen(de->d_name);
            if (n > 3 && strcmp(de->d_name + n - 3, ".wl") == 0 && n - 3 < 64 && c->nworkloads < CONFIG_MAX_WORKLOADS) {
                memcpy(c->workloads[c->nworkloads], de->d_name, n - 3);
                c->workloads[c->nworkloads][n - 3] = '\0';
                c->nworkloads++;
            }
        }
        closedir(d);
        qsort(c->workloads, c->nworkloads, sizeof c->workloads[0], cmp_str);
        if (c->nworkloads == 0)
            return fail_at(cx, 0, "'workloads': \"all\" but no experiments/*.wl found", 1, "workloads");
        return 0;
    }
    if (!json_is_array(w))
        return fail_at(cx, 0, "'workloads' must be \"all\" or a list of workload names", 1, "workloads");
    size_t i;
    json_t *v;
    json_array_foreach(w, i, v) {
        char idx[32];
        snprintf(idx, sizeof idx, "#%zu", i);
        if (!json_is_string(v) || json_string_length(v) == 0 || json_string_length(v) >= 64)
            return fail_at(cx, 0, "workload names must be non-empty strings", 2, "workloads", idx);
        if (wdir && !known_workload(wdir, json_string_value(v))) {
            char msg[256];
            snprintf(msg, sizeof msg, "unknown workload '%s' (no %s/%s.wl)", json_string_value(v), wdir, json_string_value(v));
            return fail_at(cx, 0, msg, 2, "workloads", idx);
        }
        if (c->nworkloads == CONFIG_MAX_WORKLOADS)
            return fail_at(cx, 0, "too many workloads", 2, "workloads", idx);
        for (size_t k = 0; k < c->nworkloads; k++)
            if (!strcmp(c->workloads[k], json_string_value(v))) {
                char msg[256];
                snprintf(msg, sizeof msg, "workload '%s' is listed twice", json_string_value(v));
                return fail_at(cx, 0, msg, 2, "workloads", idx);
            }
        snprintf(c->workloads[c->nworkloads++], 64, "%s", json_string_value(v));
    }
    return 0;
}

static int same_value(const struct param_spec *s, const struct param_value *a, const struct param_value *b)
{
    return s->type == PARAM_REAL ? a->r == b->r : a->i == b->i;
}

/* Fill run r from a run object (or the top level).  top_params are the
 * top-level "params", applied when the run's model declares them. */
static int load_run(struct ctx *cx, struct run_spec *r, json_t *obj, json_t *top_params, const char *runkey,
                    const char *runidx, json_t *stream)
{
    int d0 = runkey ? 2 : 0; /* path depth of obj */
    const char *path[6] = { runkey, runidx };
    const char *const *at = d0 ? path : path + 2; /* paths relative to obj */
    char msg[512];
    json_t *m = json_object_get(obj, "model");
    if (!m || !json_is_string(m))
        return runkey ? fail_at(cx, 0, "each run needs a \"model\" string", 2, runkey, runidx)
                      : fail_at(cx, 0, "missing required key 'model' (or a 'runs' list)", 0);
    r->ops = model_find(json_string_value(m));
    if (!r->ops) {
        size_t o = (size_t)snprintf(msg, sizeof msg, "unknown model '%s'; known:", json_string_value(m));
        for (const struct model_ops *const *op = model_all(); *op && o < sizeof msg; op++)
            o += (size_t)snprintf(msg + o, sizeof msg - o, " %s", (*op)->name);
        path[2] = "model";
        return fail_at_path(cx, 0, msg, d0 + 1, at);
    }
    json_t *label = json_object_get(obj, "label");
    if (label && (!json_is_string(label) || json_string_length(label) == 0 ||
                  json_string_length(label) >= sizeof r->label)) {
        path[2] = "label";
        snprintf(msg, sizeof msg, "'label' must be a string of 1 to %zu characters", sizeof r->label - 1);
        return fail_at_path(cx, 0, msg, d0 + 1, at);
    }
    snprintf(r->label, sizeof r->label, "%s", label ? json_string_value(label) : r->ops->name);
    params_defaults(&r->base, r->ops->params);

    /* Top-level stream shorthand. */
    if (stream) {
        size_t pi;
        const struct param_spec *s = params_find(r->ops->params, "stream", &pi);
        const char *sp[] = { "stream" };
        if (s && param_from_json(cx, s, stream, &r->base.v[pi], 1, sp) < 0)
            return -1;
    }
    /* Top-level params: defaults for every run whose model declares them. */
    if (top_params && top_params != json_object_get(obj, "params")) {
        const char *k;
        json_t *v;
        json_object_foreach(top_params, k, v) {
            size_t pi;
            const struct param_spec *s = params_find(r->ops->params, k, &pi);
            const char *pp[] = { "params", k };
            if (s && param_from_json(cx, s, v, &r->base.v[pi], 2, pp) < 0)
                return -1;
        }
    }
    json_t *params = json_object_get(obj, "params");
    if (params) {
        path[2] = "params";
        if (!json_is_object(params))
            return fail_at_path(cx, 0, "'params' must be an object", d0 + 1, at);
        const char *k;
        json_t *v;
        json_object_foreach(params, k, v) {
            size_t pi;
            const struct param_spec *s = params_find(r->ops->params, k, &pi);
            path[2] = "params";
            path[3] = k;
            if (!s) {
                if (!d0)
                    continue; /* checked against all runs' models by the caller */
                snprintf(msg, sizeof msg, "unknown parameter '%s' for model '%s' (see `hwprof params %s`)", k,
                         r->ops->name, r->ops->name);
                return fail_at_path(cx, 1, msg, 4, at);
            }
            if (stream && !strcmp(k, "stream"))
                return fail_at_path(cx, 1, "'stream' is given at the top level and in 'params': give it once",
                                    d0 + 2, at);
            if (param_from_json(cx, s, v, &r->base.v[pi], d0 + 2, at) < 0)
                return -1;
        }
    }
    json_t *sweep = json_object_get(obj, "sweep");
    r->npoints = 1;
    if (sweep) {
        path[2] = "sweep";
        if (!json_is_object(sweep))
            return fail_at_path(cx, 0, "'sweep' must be an object of lists", d0 + 1, at);
        const char *k;
        json_t *v;
        json_object_foreach(sweep, k, v) {
            size_t pi;
            const struct param_spec *s = params_find(r->ops->params, k, &pi);
            path[2] = "sweep";
            path[3] = k;
            if (!s) {
                snprintf(msg, sizeof msg, "unknown parameter '%s' for model '%s' (see `hwprof params %s`)", k,
                         r->ops->name, r->ops->name);
                return fail_at_path(cx, 1, msg, d0 + 2, at);
            }
            if (stream && !strcmp(k, "stream"))
                return fail_at_path(cx, 1, "'stream' is given at the top level and swept: give it once",
                                    d0 + 2, at);
            if (!json_is_array(v) || json_array_size(v) == 0) {
                snprintf(msg, sizeof msg, "sweep '%s' must be a non-empty list of values", k);
                return fail_at_path(cx, 0, msg, d0 + 2, at);
            }
            if (params && json_object_get(params, k)) {
                snprintf(msg, sizeof msg, "'%s' is both fixed in 'params' and swept: give it once", k);
                return fail_at_path(cx, 1, msg, d0 + 2, at);
            }
            struct sweep_axis *ax = &r->axes[r->naxes++];
            ax->param = pi;
            ax->nvals = json_array_size(v);
            ax->vals = calloc(ax->nvals, sizeof *ax->vals);
            if (!ax->vals)
                return fail_at(cx, 0, "out of memory", 0);
            for (size_t i = 0; i < ax->nvals; i++) {
                char idx[32];
                snprintf(idx, sizeof idx, "#%zu", i);
                path[2] = "sweep";
                path[3] = k;
                path[4] = idx;
                if (param_from_json(cx, s, json_array_get(v, i), &ax->vals[i], d0 + 3, at) < 0)
                    return -1;
                for (size_t j = 0; j < i; j++)
                    if (same_value(s, &ax->vals[j], &ax->vals[i])) {
                        snprintf(msg, sizeof msg, "sweep '%s' lists the same value twice (items %zu and %zu)", k, j,
                                 i);
                        return fail_at_path(cx, 0, msg, d0 + 3, at);
                    }
            }
            if (r->npoints > CONFIG_MAX_POINTS / ax->nvals) {
                path[3] = k;
                snprintf(msg, sizeof msg, "the sweep has more than %d points", CONFIG_MAX_POINTS);
                return fail_at_path(cx, 1, msg, d0 + 2, at);
            }
            r->npoints *= ax->nvals;
        }
    }
    return 0;
}

/* Build every sweep point's instance once (series off) and free it: the
 * models' own checks of parameter combinations ('btb_assoc' must divide
 * 'btb_entries', ...) are errors of the config, found before any trace is
 * read. */
static int check_points(struct ctx *cx, const struct config *c, int has_runs)
{
    for (size_t r = 0; r < c->nruns; r++) {
        const struct run_spec *rs = &c->runs[r];
        for (size_t p = 0; p < rs->npoints; p++) {
            struct param_values pv;
            char err[512] = "", msg[1024], idx[32];
            config_point(rs, p, &pv);
            void *m = rs->ops->create(&pv, NULL, err, sizeof err);
            if (m) {
                rs->ops->free(m);
                continue;
            }
            size_t o = (size_t)snprintf(msg, sizeof msg, "run '%s'", rs->label);
            for (size_t a = 0; a < rs->naxes && o < sizeof msg; a++) {
                char v[128];
                pv_format(&pv, rs->axes[a].param, v, sizeof v);
                o += (size_t)snprintf(msg + o, sizeof msg - o, "%s%s=%s", a ? ", " : " at ",
                                      rs->ops->params[rs->axes[a].param].name, v);
            }
            if (o < sizeof msg)
                snprintf(msg + o, sizeof msg - o, ": %s", err);
            const char *key = rs->naxes ? "sweep" : "params";
            snprintf(idx, sizeof idx, "#%zu", r);
            const char *path[] = { "runs", idx, key };
            return has_runs ? fail_at_path(cx, 1, msg, 3, path) : fail_at_path(cx, 1, msg, 1, path + 2);
        }
    }
    return 0;
}

static const char *const top_keys[] = { "name", "paper", "figure", "caption", "workloads", "stream", "model",
                                        "params", "sweep", "runs", "metrics", "series", "plot", "table", "notes", NULL };
static const char *const run_keys[] = { "label", "model", "params", "sweep", NULL };

static int in_list(const char *const *list, const char *k)
{
    for (size_t i = 0; list[i]; i++)
        if (strcmp(list[i], k) == 0)
            return 1;
    return 0;
}

static int model_has_metric(const struct model_ops *ops, const char *m)
{
    for (size_t i = 0; ops->metrics && ops->metrics[i]; i++)
        if (strcmp(ops->metrics[i], m) == 0)
            return 1;
    return 0;
}

/* Is `col` a column of this config's CSV (series CSV when series != 0)? */
static int config_has_column(const struct config *c, const char *col, int series)
{
    if (!strcmp(col, "workload") || !strcmp(col, "run") || !strcmp(col, "model"))
        return 1;
    if (series && !strcmp(col, "index"))
        return 1;
    for (size_t r = 0; r < c->nruns; r++) {
        const struct model_ops *ops = c->runs[r].ops;
        for (const struct param_spec *ps = ops->params; ps && ps->name; ps++)
            if (!strcmp(ps->name, col))
                return 1;
        if (series) {
            for (size_t i = 0; ops->series_cols && ops->series_cols[i]; i++)
                if (!strcmp(ops->series_cols[i], col))
                    return 1;
        } else if (c->nmetrics) {
            for (size_t i = 0; i < c->nmetrics; i++)
                if (!strcmp(c->metrics[i], col))
                    return 1;
        } else if (model_has_metric(ops, col)) {
            return 1;
        }
    }
    return 0;
}

/* The plot and table sections name columns the CSV will have; they are
 * checked (with plotspec_check / mdtable_check) before any run, so a typo
 * does not cost a sweep. */
struct plot_ctx {
    const struct config *c;
    const char *varying[CONFIG_MAX_RUNS * PARAMS_MAX + 3];
};

static int plot_has_column(void *ctx, const char *source, const char *col)
{
    const struct config *c = ((const struct plot_ctx *)ctx)->c;
    if (!strcmp(source, "main"))
        return config_has_column(c, col, 0);
    if (!strcmp(source, "series"))
        return c->series && config_has_column(c, col, 1);
    return 0; /* the windows CSV and model tables come with the v2 runner */
}

static void add_varying(struct plot_ctx *pc, size_t *n, const char *name)
{
    for (size_t i = 0; i < *n; i++)
        if (!strcmp(pc->varying[i], name))
            return;
    pc->varying[(*n)++] = name;
}

static int check_plot_and_table(struct ctx *cx, const struct config *c, json_t *plot, json_t *table)
{
    struct plot_ctx pc;
    struct plot_columns cols = { plot_has_column, pc.varying, &pc };
    struct diag d;
    size_t n = 0;
    pc.c = c;
    if (c->nworkloads > 1)
        add_varying(&pc, &n, "workload");
    if (c->nruns > 1)
        add_varying(&pc, &n, "run");
    for (size_t r = 0; r < c->nruns; r++)
        for (size_t a = 0; a < c->runs[r].naxes; a++)
            if (c->runs[r].axes[a].nvals > 1)
                add_varying(&pc, &n, c->runs[r].ops->params[c->runs[r].axes[a].param].name);
    pc.varying[n] = NULL;
    diag_init(&d, cx->path);
    if (plot) {
        json_t *src = json_object_get(plot, "source");
        if (json_is_string(src) && !strcmp(json_string_value(src), "series") && !c->series) {
            diag_free(&d);
            return fail_at(cx, 0, "plot.source: \"series\" plots the series CSV, which only \"series\": true writes", 2,
                           "plot", "source");
        }
        plotspec_check(plot, &cols, &d);
    }
    if (table)
        mdtable_check(table, &cols, &d);
    if (diag_ok(&d)) {
        diag_free(&d);
        return 0;
    }
    diag_resolve(&d, cx->path, cx->text);
    diag_first(&d, cx->err, cx->errlen);
    diag_free(&d);
    return -1;
}

struct config *config_load(const char *path, const char *workloads_dir, char *err, size_t errlen)
{
    struct ctx cx = { path, NULL, err, errlen };
    struct config *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    snprintf(c->path, sizeof c->path, "%s", path);
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    snprintf(c->stem, sizeof c->stem, "%s", base);
    char *dot = strrchr(c->stem, '.');
    if (dot && strcmp(dot, ".json") == 0)
        *dot = '\0';
    cx.text = slurp(path, err, errlen);
    if (!cx.text)
        goto fail;
    json_error_t je;
    c->root = json_loads(cx.text, JSON_REJECT_DUPLICATES, &je);
    if (!c->root) {
        snprintf(err, errlen, "%s:%d:%d: %s", path, je.line < 1 ? 1 : je.line, je.column < 1 ? 1 : je.column,
                 je.text);
        goto fail;
    }
    json_t *root = c->root;
    if (!json_is_object(root)) {
        fail_at(&cx, 0, "a config must be a JSON object", 0);
        goto fail;
    }
    const char *k;
    json_t *v;
    json_object_foreach(root, k, v) {
        if (!in_list(top_keys, k)) {
            char msg[256];
            snprintf(msg, sizeof msg, "unknown key '%s' (known: name, paper, figure, caption, workloads, stream, "
                     "model, params, sweep, runs, metrics, series, plot, table, notes)", k);
            fail_at(&cx, 1, msg, 1, k);
            goto fail;
        }
    }
    if (copy_string(&cx, root, "paper", c->paper, sizeof c->paper, 1) < 0 ||
        copy_string(&cx, root, "figure", c->figure, sizeof c->figure, 0) < 0 ||
        copy_string(&cx, root, "caption", c->caption, sizeof c->caption, 0) < 0 ||
        copy_string(&cx, root, "name", c->name, sizeof c->name, 0) < 0)
        goto fail;
    if (!c->name[0])
        snprintf(c->name, sizeof c->name, "%s", c->stem);
    for (const char *p = c->paper; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-' || *p == '_')) {
            fail_at(&cx, 0, "'paper' must be a lower-case name ([a-z0-9_-]), used as the results folder", 1, "paper");
            goto fail;
        }
    /* configs/<paper>/<stem>.json: the folder must be the paper (results go to results/<paper>/). */
    {
        char dir[1024];
        snprintf(dir, sizeof dir, "%s", path);
        char *slash = strrchr(dir, '/');
        if (slash) {
            *slash = '\0';
            char *pslash = strrchr(dir, '/');
            const char *parent = pslash ? pslash + 1 : dir;
            size_t plen = pslash ? (size_t)(pslash - dir) : 0;
            int under_configs = pslash && plen >= 7 && strncmp(pslash - 7, "configs", 7) == 0 &&
                                (plen == 7 || pslash[-8] == '/');
            if (under_configs && strcmp(parent, c->paper) != 0) {
                char msg[1200];
                snprintf(msg, sizeof msg, "'paper' is '%s' but the config is in configs/%s/", c->paper, parent);
                fail_at(&cx, 0, msg, 1, "paper");
                goto fail;
            }
        }
    }
    if (load_workloads(&cx, c, root, workloads_dir) < 0)
        goto fail;
    json_t *stream = json_object_get(root, "stream");
    if (stream && !json_is_string(stream)) {
        fail_at(&cx, 0, "'stream' must be a string", 1, "stream");
        goto fail;
    }
    json_t *top_params = json_object_get(root, "params");
    if (top_params && !json_is_object(top_params)) {
        fail_at(&cx, 0, "'params' must be an object", 1, "params");
        goto fail;
    }
    json_t *runs = json_object_get(root, "runs");
    if (runs) {
        if (json_object_get(root, "model") || json_object_get(root, "sweep")) {
            fail_at(&cx, 1, "give either 'runs' or 'model'/'sweep', not both", 1, "runs");
            goto fail;
        }
        if (!json_is_array(runs) || json_array_size(runs) == 0 || json_array_size(runs) > CONFIG_MAX_RUNS) {
            fail_at(&cx, 0, "'runs' must be a non-empty list of {label, model, params, sweep} (at most 32)", 1, "runs");
            goto fail;
        }
        size_t i;
        json_t *ro;
        json_array_foreach(runs, i, ro) {
            char idx[32];
            snprintf(idx, sizeof idx, "#%zu", i);
            if (!json_is_object(ro)) {
                fail_at(&cx, 0, "each run must be an object", 2, "runs", idx);
                goto fail;
            }
            json_object_foreach(ro, k, v) {
                if (!in_list(run_keys, k)) {
                    char msg[256];
                    snprintf(msg, sizeof msg, "unknown key '%s' in run (known: label, model, params, sweep)", k);
                    fail_at(&cx, 1, msg, 3, "runs", idx, k);
                    goto fail;
                }
            }
            if (load_run(&cx, &c->runs[c->nruns++], ro, top_params, "runs", idx, stream) < 0)
                goto fail;
        }
    } else {
        if (load_run(&cx, &c->runs[c->nruns++], root, top_params, NULL, NULL, stream) < 0)
            goto fail;
    }
    for (size_t r = 0; r < c->nruns; r++)
        for (size_t q = 0; q < r; q++)
            if (!strcmp(c->runs[q].label, c->runs[r].label)) {
                char msg[256], idx[32];
                snprintf(msg, sizeof msg, "runs %zu and %zu are both labelled '%s': give each run its own 'label'", q,
                         r, c->runs[r].label);
                snprintf(idx, sizeof idx, "#%zu", r);
                fail_at(&cx, 0, msg, 2, "runs", idx);
                goto fail;
            }
    if (c->nworkloads == 0)
        for (size_t r = 0; r < c->nruns; r++)
            if (c->runs[r].ops->event_mask) {
                char msg[256];
                snprintf(msg, sizeof msg,
                         "'workloads' is [] (an analytic figure) but model '%s' reads a trace: name workloads",
                         c->runs[r].ops->name);
                fail_at(&cx, 0, msg, 1, "workloads");
                goto fail;
            }
    /* Every top-level param must belong to at least one run's model. */
    if (top_params) {
        json_object_foreach(top_params, k, v) {
            int found = 0;
            for (size_t r = 0; r < c->nruns; r++)
                found |= params_find(c->runs[r].ops->params, k, NULL) != NULL;
            if (!found) {
                char msg[256];
                snprintf(msg, sizeof msg, "unknown parameter '%s' for model '%s' (see `hwprof params %s`)", k,
                         c->runs[0].ops->name, c->runs[0].ops->name);
                fail_at(&cx, 1, msg, 2, "params", k);
                goto fail;
            }
        }
    }
    if (stream) {
        int found = 0;
        for (size_t r = 0; r < c->nruns; r++)
            found |= params_find(c->runs[r].ops->params, "stream", NULL) != NULL;
        if (!found) {
            fail_at(&cx, 1, "'stream' given but no model of this config has a stream parameter", 1, "stream");
            goto fail;
        }
    }
    json_t *metrics = json_object_get(root, "metrics");
    if (metrics) {
        if (!json_is_array(metrics) || json_array_size(metrics) == 0 || json_array_size(metrics) > 64) {
            fail_at(&cx, 0, "'metrics' must be a non-empty list of metric names", 1, "metrics");
            goto fail;
        }
        size_t i;
        json_array_foreach(metrics, i, v) {
            char idx[32];
            snprintf(idx, sizeof idx, "#%zu", i);
            int found = 0;
            if (json_is_string(v))
                for (size_t r = 0; r < c->nruns; r++)
                    found |= model_has_metric(c->runs[r].ops, json_string_value(v));
            if (!found) {
                char msg[256];
                snprintf(msg, sizeof msg, "unknown metric %s%s%s for this config's models (see `hwprof models`)",
                         json_is_string(v) ? "'" : "", json_is_string(v) ? json_string_value(v) : "(not a string)",
                         json_is_string(v) ? "'" : "");
                fail_at(&cx, 0, msg, 2, "metrics", idx);
                goto fail;
            }
            snprintf(c->metrics[c->nmetrics++], 64, "%s", json_string_value(v));
        }
    }
    json_t *series = json_object_get(root, "series");
    if (series) {
        if (!json_is_boolean(series)) {
            fail_at(&cx, 0, "'series' must be true or false", 1, "series");
            goto fail;
        }
        c->series = json_is_true(series);
    }
    if (check_plot_and_table(&cx, c, json_object_get(root, "plot"), json_object_get(root, "table")) != 0)
        goto fail;
    if (check_points(&cx, c, runs != NULL) != 0)
        goto fail;
    free(cx.text);
    return c;
fail:
    free(cx.text);
    config_free(c);
    return NULL;
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

void config_free(struct config *c)
{
    if (!c)
        return;
    for (size_t r = 0; r < c->nruns; r++)
        for (size_t a = 0; a < c->runs[r].naxes; a++)
            free(c->runs[r].axes[a].vals);
    json_decref(c->root);
    free(c);
}
