/* plotspec.c - the "plot" section: schema, validation and parsed form (see
 * plotspec.h; user documentation in docs/plots.md).
 *
 * One table lists every key with the plot types it applies to, so that the
 * unknown-key check, the "did you mean" suggestion and the "only for type"
 * check read the same list.  Validation goes on after an error, so that a
 * config with three mistakes gets three messages.
 */
#include "report/plotspec.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/aggregate.h"
#include "run/config.h"

#define KB(k) (1u << (k))
#define K_ALL 0x7fu
#define K_LINES KB(PLOT_LINES)
#define K_BARS KB(PLOT_BARS)
#define K_STACKED KB(PLOT_STACKED)
#define K_SCATTER KB(PLOT_SCATTER)
#define K_HEATMAP KB(PLOT_HEATMAP)
#define K_TIME KB(PLOT_TIMESERIES)
#define K_CDF KB(PLOT_CDF)
/* Figures with one value per workload and point, which error bars,
 * aggregates and normalisation apply to. */
#define K_PER_WORKLOAD (K_LINES | K_BARS | K_STACKED | K_SCATTER)

static const char *const kind_names[] = {"lines", "bars", "stacked", "scatter", "heatmap", "timeseries", "cdf", NULL};

struct keydef {
    const char *name;
    unsigned kinds;
};

static const struct keydef keydefs[] = {
    {"type", K_ALL},
    {"source", K_ALL},
    {"x", K_ALL},
    {"y", K_ALL & ~K_CDF},
    {"z", K_HEATMAP},
    {"x_end", K_HEATMAP},
    {"y_end", K_HEATMAP},
    {"label", K_SCATTER},
    {"marker", K_TIME},
    {"total", K_STACKED},
    {"group", K_ALL & ~K_HEATMAP},
    {"panels", K_ALL},
    {"where", K_ALL},
    {"labels", K_ALL},
    {"logx", K_ALL & ~(K_BARS | K_STACKED)},
    {"logy", K_ALL & ~K_CDF},
    {"logz", K_HEATMAP},
    {"xlabel", K_ALL},
    {"ylabel", K_ALL},
    {"title", K_ALL},
    {"xrange", K_ALL & ~(K_BARS | K_STACKED)},
    {"yrange", K_ALL},
    {"shared_y", K_ALL},
    {"errorbars", K_PER_WORKLOAD | K_TIME},
    {"aggregate", K_PER_WORKLOAD},
    {"normalize", K_PER_WORKLOAD},
};
#define NKEYS (sizeof keydefs / sizeof keydefs[0])

static const char *const agg_keys[] = {"fn", "over", "only", NULL};

const char *plot_kind_name(enum plot_kind k)
{
    return kind_names[k];
}

const char *plotspec_label(const struct plotspec *spec, const char *name)
{
    json_t *v = spec && spec->labels ? json_object_get(spec->labels, name) : NULL;
    return json_is_string(v) ? json_string_value(v) : name;
}

static struct diag_path at_key(const char *key)
{
    return diag_path_of(2, "plot", key);
}

static int lookup(const char *const *names, const char *s)
{
    for (int i = 0; names[i]; i++)
        if (strcmp(names[i], s) == 0)
            return i;
    return -1;
}

static void kinds_text(unsigned kinds, char *buf, size_t len)
{
    size_t o = 0;
    buf[0] = '\0';
    for (int k = 0; kind_names[k] && o < len; k++)
        if (kinds & KB(k))
            o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? ", " : "", kind_names[k]);
}

/* A column name: a non-empty string.  NULL when absent or wrong (error added). */
static const char *get_column(json_t *plot, const char *key, bool required, const char *what, struct diag *d)
{
    json_t *v = json_object_get(plot, key);
    struct diag_path p = at_key(key);
    if (!v) {
        if (required)
            diag_path_error(d, &p, 0, "'%s' is required (%s)", key, what);
        return NULL;
    }
    if (!json_is_string(v) || json_string_length(v) == 0) {
        diag_path_error(d, &p, 0, "'%s' must be a column name (a non-empty string)", key);
        return NULL;
    }
    return json_string_value(v);
}

/* A column or a list of columns (at most PLOT_MAX_COLS) into out. */
static void get_columns(json_t *plot, const char *key, bool required, const char **out, size_t *n,
                        struct diag *d)
{
    json_t *v = json_object_get(plot, key), *e;
    struct diag_path p = at_key(key);
    size_t i;
    *n = 0;
    if (!v) {
        if (required)
            diag_path_error(d, &p, 0, "'%s' is required (a column name or a list of them)", key);
        return;
    }
    if (json_is_string(v)) {
        if (json_string_length(v) == 0)
            diag_path_error(d, &p, 0, "'%s' must be a column name (a non-empty string)", key);
        else
            out[(*n)++] = json_string_value(v);
        return;
    }
    if (!json_is_array(v)) {
        diag_path_error(d, &p, 0, "'%s' must be a column name or a list of column names", key);
        return;
    }
    if (required && json_array_size(v) == 0)
        diag_path_error(d, &p, 0, "'%s' must name at least one column", key);
    if (json_array_size(v) > PLOT_MAX_COLS) {
        diag_path_error(d, &p, 0, "'%s' names %zu columns, at most %d", key, json_array_size(v), PLOT_MAX_COLS);
        return;
    }
    json_array_foreach(v, i, e) {
        if (!json_is_string(e) || json_string_length(e) == 0) {
            struct diag_path pi = p;
            diag_path_index(&pi, i);
            diag_path_error(d, &pi, 0, "must be a column name (a non-empty string)");
            continue;
        }
        for (size_t j = 0; j < *n; j++)
            if (strcmp(out[j], json_string_value(e)) == 0) {
                struct diag_path pi = p;
                diag_path_index(&pi, i);
                diag_path_error(d, &pi, 0, "column '%s' is listed twice", json_string_value(e));
            }
        out[(*n)++] = json_string_value(e);
    }
}

static bool get_bool(json_t *plot, const char *key, struct diag *d)
{
    json_t *v = json_object_get(plot, key);
    if (v && !json_is_boolean(v)) {
        struct diag_path p = at_key(key);
        diag_path_error(d, &p, 0, "'%s' must be true or false", key);
    }
    return json_is_true(v);
}

static const char *get_string(json_t *plot, const char *key, struct diag *d)
{
    json_t *v = json_object_get(plot, key);
    if (v && !json_is_string(v)) {
        struct diag_path p = at_key(key);
        diag_path_error(d, &p, 0, "'%s' must be a string", key);
        return NULL;
    }
    return v ? json_string_value(v) : NULL;
}

static void get_range(json_t *plot, const char *key, bool logscale, bool *has_lo, bool *has_hi, double *lo,
                      double *hi, struct diag *d)
{
    json_t *v = json_object_get(plot, key);
    struct diag_path p = at_key(key);
    json_t *a, *b;
    *has_lo = *has_hi = false;
    *lo = *hi = 0;
    if (!v)
        return;
    a = json_array_get(v, 0);
    b = json_array_get(v, 1);
    if (!json_is_array(v) || json_array_size(v) != 2 || !(json_is_number(a) || json_is_null(a)) ||
        !(json_is_number(b) || json_is_null(b))) {
        diag_path_error(d, &p, 0, "'%s' must be [min, max] (numbers; null for automatic)", key);
        return;
    }
    *has_lo = json_is_number(a);
    *has_hi = json_is_number(b);
    *lo = *has_lo ? json_number_value(a) : 0;
    *hi = *has_hi ? json_number_value(b) : 0;
    if (*has_lo && *has_hi && !(*lo < *hi))
        diag_path_error(d, &p, 0, "'%s': min (%g) must be less than max (%g)", key, *lo, *hi);
    if (logscale && *has_lo && *lo <= 0)
        diag_path_error(d, &p, 0, "'%s': min must be above 0 on a logarithmic axis", key);
}

static void parse_aggregate(json_t *plot, struct plotspec *spec, struct diag *d)
{
    static const char *const fns[] = {"mean", "geomean", NULL};
    json_t *v = json_object_get(plot, "aggregate"), *fn = NULL;
    struct diag_path p = at_key("aggregate");
    int i;
    spec->agg_over = "workload";
    if (!v)
        return;
    if (json_is_string(v)) {
        fn = v;
    } else if (json_is_object(v)) {
        const char *key;
        json_t *e;
        json_object_foreach(v, key, e) {
            if (lookup(agg_keys, key) < 0) {
                struct diag_path pk = p;
                char msg[128] = "";
                diag_path_key(&pk, key);
                diag_did_you_mean(msg, sizeof msg, diag_suggest(key, agg_keys));
                diag_path_error(d, &pk, 1, "unknown key '%s' of 'aggregate' (known: fn, over, only)%s", key, msg);
            }
        }
        fn = json_object_get(v, "fn");
        if (!fn) {
            diag_path_error(d, &p, 0, "'aggregate' needs \"fn\": \"mean\" or \"geomean\"");
            return;
        }
        e = json_object_get(v, "over");
        if (e && (!json_is_string(e) || json_string_length(e) == 0)) {
            struct diag_path pk = p;
            diag_path_key(&pk, "over");
            diag_path_error(d, &pk, 0, "'over' must be a column name");
        } else if (e) {
            spec->agg_over = json_string_value(e);
        }
        e = json_object_get(v, "only");
        if (e && !json_is_boolean(e)) {
            struct diag_path pk = p;
            diag_path_key(&pk, "only");
            diag_path_error(d, &pk, 0, "'only' must be true or false");
        }
        spec->agg_only = json_is_true(e);
    } else {
        diag_path_error(d, &p, 0,
                        "'aggregate' must be \"mean\", \"geomean\" or {\"fn\": ..., \"over\": column, \"only\": bool}");
        return;
    }
    if (json_is_object(v))
        diag_path_key(&p, "fn");
    if (!json_is_string(fn) || (i = lookup(fns, json_string_value(fn))) < 0) {
        char msg[128] = "";
        if (json_is_string(fn))
            diag_did_you_mean(msg, sizeof msg, diag_suggest(json_string_value(fn), fns));
        diag_path_error(d, &p, 0, "aggregate function must be \"mean\" or \"geomean\"%s", msg);
        return;
    }
    spec->agg = i == 0 ? AGG_MEAN : AGG_GEOMEAN;
}

static void parse_normalize(json_t *plot, struct plotspec *spec, struct diag *d)
{
    json_t *v = json_object_get(plot, "normalize");
    struct diag_path p = at_key("normalize");
    const char *key;
    json_t *e;
    if (!v)
        return;
    if (!json_is_object(v) || json_object_size(v) != 1) {
        diag_path_error(d, &p, 0, "'normalize' must be {column: baseline value}, e.g. {\"run\": \"BSH\"}");
        return;
    }
    json_object_foreach(v, key, e) {
        if (!(json_is_string(e) || json_is_number(e) || json_is_boolean(e))) {
            diag_path_key(&p, key);
            diag_path_error(d, &p, 0, "the baseline must be a string, number or boolean");
            return;
        }
        spec->norm_col = key;
        spec->norm_value = e;
        filter_cond_from_json(&spec->norm, key, e);
    }
}

size_t plotspec_parse(json_t *plot, struct plotspec *spec, struct diag *d)
{
    size_t before = diag_count(d);
    struct diag_path root = diag_path_of(1, "plot");
    const char *key, *names[NKEYS + 1];
    json_t *v;
    int kind = -1;

    memset(spec, 0, sizeof *spec);
    spec->source = "main";
    spec->agg_over = "workload";
    if (!json_is_object(plot)) {
        diag_path_error(d, &root, 0, "'plot' must be an object");
        return diag_count(d) - before;
    }
    for (size_t i = 0; i < NKEYS; i++)
        names[i] = keydefs[i].name;
    names[NKEYS] = NULL;

    v = json_object_get(plot, "type");
    if (!v) {
        diag_path_error(d, &root, 0, "'type' is required (one of lines, bars, stacked, scatter, heatmap, timeseries, cdf)");
    } else if (!json_is_string(v) || (kind = lookup(kind_names, json_string_value(v))) < 0) {
        struct diag_path p = at_key("type");
        char msg[128] = "";
        if (json_is_string(v))
            diag_did_you_mean(msg, sizeof msg, diag_suggest(json_string_value(v), kind_names));
        diag_path_error(d, &p, 0, "unknown plot type %s%s%s (known: lines, bars, stacked, scatter, heatmap, timeseries, cdf)%s",
                        json_is_string(v) ? "'" : "", json_is_string(v) ? json_string_value(v) : "(not a string)",
                        json_is_string(v) ? "'" : "", msg);
    }
    spec->kind = kind < 0 ? PLOT_LINES : (enum plot_kind)kind;

    json_object_foreach(plot, key, v) {
        int k = lookup(names, key);
        struct diag_path p = at_key(key);
        if (k < 0) {
            char msg[128] = "";
            diag_did_you_mean(msg, sizeof msg, diag_suggest(key, names));
            diag_path_error(d, &p, 1, "unknown key '%s' in 'plot'%s (docs/plots.md lists every key)", key, msg);
        } else if (kind >= 0 && !(keydefs[k].kinds & KB(kind))) {
            char kinds[128];
            kinds_text(keydefs[k].kinds, kinds, sizeof kinds);
            diag_path_error(d, &p, 1, "'%s' does not apply to type %s (only to %s)", key, kind_names[kind], kinds);
        }
    }

    v = json_object_get(plot, "source");
    if (v && (!json_is_string(v) || json_string_length(v) == 0)) {
        struct diag_path p = at_key("source");
        diag_path_error(d, &p, 0, "'source' must be \"main\", \"series\", \"windows\" or a model table name");
    } else if (v) {
        spec->source = json_string_value(v);
    }

    spec->x = get_column(plot, "x", true,
                         spec->kind == PLOT_CDF ? "the column whose distribution is drawn" : "the column on the x axis", d);
    get_columns(plot, "y", spec->kind != PLOT_CDF, spec->y, &spec->ny, d);
    if ((spec->kind == PLOT_SCATTER || spec->kind == PLOT_HEATMAP) && spec->ny > 1) {
        struct diag_path p = at_key("y");
        diag_path_error(d, &p, 0, "type %s takes one 'y' column, not %zu", kind_names[spec->kind], spec->ny);
    }
    get_columns(plot, "group", false, spec->group, &spec->ngroup, d);
    v = json_object_get(plot, "panels");
    if (v && !json_is_null(v))
        spec->panels = get_column(plot, "panels", false, "", d);
    spec->z = get_column(plot, "z", spec->kind == PLOT_HEATMAP, "the column that colours each cell", d);
    spec->x_end = get_column(plot, "x_end", false, "", d);
    spec->y_end = get_column(plot, "y_end", false, "", d);
    spec->label = get_column(plot, "label", false, "", d);
    spec->marker = get_column(plot, "marker", false, "", d);
    spec->total = get_column(plot, "total", false, "", d);

    v = json_object_get(plot, "where");
    if (v) {
        struct diag_path p = at_key("where");
        if (rowfilter_from_json(v, &p, &spec->where, d) == 0)
            spec->has_where = true;
    }
    v = json_object_get(plot, "labels");
    if (v) {
        struct diag_path p = at_key("labels");
        if (!json_is_object(v)) {
            diag_path_error(d, &p, 0, "'labels' must be an object {\"column or value\": \"text\"}");
        } else {
            json_t *e;
            bool ok = true;
            json_object_foreach(v, key, e) {
                if (!json_is_string(e)) {
                    struct diag_path pk = p;
                    diag_path_key(&pk, key);
                    diag_path_error(d, &pk, 0, "a label must be a string");
                    ok = false;
                }
            }
            if (ok)
                spec->labels = v;
        }
    }
    spec->logx = get_bool(plot, "logx", d);
    spec->logy = get_bool(plot, "logy", d);
    spec->logz = get_bool(plot, "logz", d);
    spec->shared_y = get_bool(plot, "shared_y", d);
    if (spec->shared_y && !spec->panels) {
        struct diag_path p = at_key("shared_y");
        diag_path_error(d, &p, 0, "'shared_y' needs 'panels' (one y range for all panels)");
    }
    spec->xlabel = get_string(plot, "xlabel", d);
    spec->ylabel = get_string(plot, "ylabel", d);
    spec->title = get_string(plot, "title", d);
    get_range(plot, "xrange", spec->logx, &spec->has_xmin, &spec->has_xmax, &spec->xmin, &spec->xmax, d);
    get_range(plot, "yrange", spec->logy, &spec->has_ymin, &spec->has_ymax, &spec->ymin, &spec->ymax, d);

    v = json_object_get(plot, "errorbars");
    if (v) {
        static const char *const modes[] = {"ci", "minmax", "none", NULL};
        int m = json_is_string(v) ? lookup(modes, json_string_value(v)) : -1;
        struct diag_path p = at_key("errorbars");
        if (m < 0) {
            char msg[128] = "";
            if (json_is_string(v))
                diag_did_you_mean(msg, sizeof msg, diag_suggest(json_string_value(v), modes));
            diag_path_error(d, &p, 0, "'errorbars' must be \"ci\", \"minmax\" or \"none\"%s", msg);
        } else {
            spec->errorbars = m == 0 ? EB_CI : m == 1 ? EB_MINMAX : EB_NONE;
        }
        if (spec->kind == PLOT_STACKED && !spec->total && (spec->errorbars == EB_CI || spec->errorbars == EB_MINMAX))
            diag_path_error(d, &p, 0,
                            "error bars on stacked bars are drawn on the total: name its column in 'total' "
                            "(e.g. \"total\": \"error_pct\")");
    }
    parse_aggregate(plot, spec, d);
    if (spec->agg == AGG_GEOMEAN && spec->kind == PLOT_STACKED) {
        struct diag_path p = at_key("aggregate");
        diag_path_error(d, &p, 0, "geometric means of stacked segments do not add up to the total: use \"mean\"");
    }
    if (spec->agg != AGG_NONE && spec->x && spec->agg_over && strcmp(spec->agg_over, spec->x) == 0 &&
        (spec->kind == PLOT_LINES || spec->kind == PLOT_SCATTER)) {
        struct diag_path p = at_key("aggregate");
        diag_path_error(d, &p, 0, "cannot aggregate over '%s', the numeric x axis of a %s plot", spec->x,
                        kind_names[spec->kind]);
    }
    parse_normalize(plot, spec, d);
    if (spec->norm_col) {
        bool dim = (spec->x && strcmp(spec->norm_col, spec->x) == 0) ||
                   (spec->panels && strcmp(spec->norm_col, spec->panels) == 0) ||
                   (spec->label && strcmp(spec->norm_col, spec->label) == 0);
        for (size_t i = 0; i < spec->ngroup; i++)
            dim = dim || strcmp(spec->group[i], spec->norm_col) == 0;
        if (!dim) {
            struct diag_path p = at_key("normalize");
            diag_path_key(&p, spec->norm_col);
            diag_path_error(d, &p, 1,
                            "the baseline column '%s' must be 'x', a 'group' column or 'panels' "
                            "(the rows it divides are told apart by it)",
                            spec->norm_col);
        }
    }
    return diag_count(d) - before;
}

static const char *source_text(const char *source, char *buf, size_t len)
{
    if (strcmp(source, "main") == 0)
        snprintf(buf, len, "this config's CSV (columns: workload, run, model, the models' parameters and "
                           "metrics; see `hwprof params` and `hwprof models`)");
    else if (strcmp(source, "series") == 0)
        snprintf(buf, len, "this config's series CSV (columns: workload, run, model, the models' parameters, "
                           "index and the series columns)");
    else if (strcmp(source, "windows") == 0)
        snprintf(buf, len, "this config's windows CSV (the main CSV's columns, window and weight)");
    else
        snprintf(buf, len, "this config's '%s' table CSV", source);
    return buf;
}

static void need_column(const struct config_columns *cols, const char *source, const char *col,
                        const struct diag_path *p, int want_key, struct diag *d)
{
    char where[256];
    if (!col || cols->has(cols->ctx, source, col))
        return;
    diag_path_error(d, p, want_key, "no column '%s' in %s", col, source_text(source, where, sizeof where));
}

static bool covered(const struct plotspec *s, const char *v)
{
    if (s->x && strcmp(v, s->x) == 0)
        return true;
    if (s->panels && strcmp(v, s->panels) == 0)
        return true;
    for (size_t i = 0; i < s->ngroup; i++)
        if (strcmp(v, s->group[i]) == 0)
            return true;
    if (rowfilter_fixes(&s->where, v))
        return true;
    if (s->agg != AGG_NONE && strcmp(v, s->agg_over) == 0)
        return true;
    if (s->label && strcmp(v, s->label) == 0)
        return true; /* scatter: a labelled point each */
    if (s->kind == PLOT_HEATMAP && s->ny > 0) {
        if (strcmp(v, s->y[0]) == 0 || (s->x_end && strcmp(v, s->x_end) == 0) ||
            (s->y_end && strcmp(v, s->y_end) == 0))
            return true;
    }
    return false;
}

static void check_varying(const struct plotspec *s, const struct config_columns *cols, struct diag *d)
{
    struct diag_path p = diag_path_of(1, "plot");
    const char *extra = strcmp(s->source, "series") == 0 ? "index" : strcmp(s->source, "windows") == 0 ? "window" : NULL;
    bool x_varies = s->kind == PLOT_BARS || s->kind == PLOT_STACKED || s->kind == PLOT_HEATMAP ||
                    (extra && s->x && strcmp(s->x, extra) == 0);
    /* A CDF draws the distribution of x over the rows that share a group
     * and panel: the other columns are what it is a distribution of.  A
     * scatter plot places each row at its measured x and y. */
    if (s->kind == PLOT_CDF || s->kind == PLOT_SCATTER)
        return;
    for (size_t i = 0; cols->varying && cols->varying[i] && !x_varies; i++)
        x_varies = s->x && strcmp(s->x, cols->varying[i]) == 0;
    /* A measured x (a metric such as memory_bytes, a function of swept
     * parameters) tells rows apart by itself; rows that still meet are
     * found when the figure is drawn. */
    if (!x_varies)
        return;
    for (size_t i = 0; cols->varying && cols->varying[i]; i++) {
        const char *v = cols->varying[i];
        if (extra && strcmp(v, extra) == 0)
            extra = NULL;
        if (!cols->has(cols->ctx, s->source, v) || covered(s, v))
            continue;
        diag_path_error(d, &p, 1,
                        "'%s' varies across the rows, so rows that differ only in '%s' would fall on one point: "
                        "add it to 'group' or 'panels', fix it in 'where', or aggregate over it",
                        v, v);
    }
    if (extra && cols->has(cols->ctx, s->source, extra) && !covered(s, extra))
        diag_path_error(d, &p, 1,
                        "'%s' varies across the rows of the %s CSV: make it 'x', add it to 'group' or 'panels', "
                        "or fix it in 'where'",
                        extra, s->source);
}

static size_t check_columns(json_t *plot, const struct plotspec *s, const struct config_columns *cols, bool skip_varying,
                            struct diag *d)
{
    size_t before = diag_count(d);
    struct diag_path p;

    p = at_key("x");
    need_column(cols, s->source, s->x, &p, 0, d);
    for (size_t i = 0; i < s->ny; i++) {
        p = at_key("y");
        if (json_is_array(json_object_get(plot, "y")))
            diag_path_index(&p, i);
        need_column(cols, s->source, s->y[i], &p, 0, d);
    }
    for (size_t i = 0; i < s->ngroup; i++) {
        p = at_key("group");
        if (json_is_array(json_object_get(plot, "group")))
            diag_path_index(&p, i);
        need_column(cols, s->source, s->group[i], &p, 0, d);
    }
    {
        const char *keys[] = {"panels", "z", "x_end", "y_end", "label", "marker", "total"};
        const char *vals[] = {s->panels, s->z, s->x_end, s->y_end, s->label, s->marker, s->total};
        for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
            p = at_key(keys[i]);
            need_column(cols, s->source, vals[i], &p, 0, d);
        }
    }
    for (size_t i = 0; i < s->where.n; i++) {
        if (i > 0 && strcmp(s->where.cond[i - 1].key, s->where.cond[i].key) == 0)
            continue; /* the values of one key */
        p = diag_path_of(3, "plot", "where", s->where.cond[i].key);
        need_column(cols, s->source, s->where.cond[i].key, &p, 1, d);
    }
    if (s->agg != AGG_NONE) {
        p = at_key("aggregate");
        if (json_is_object(json_object_get(plot, "aggregate")))
            diag_path_key(&p, "over");
        need_column(cols, s->source, s->agg_over, &p, 0, d);
    }
    if (s->norm_col) {
        p = diag_path_of(3, "plot", "normalize", s->norm_col);
        need_column(cols, s->source, s->norm_col, &p, 1, d);
    }
    if (s->errorbars == EB_CI || s->errorbars == EB_MINMAX) {
        const char *const *ys = s->kind == PLOT_STACKED ? &s->total : s->y;
        size_t n = s->kind == PLOT_STACKED ? (s->total ? 1 : 0) : s->ny;
        p = at_key("errorbars");
        for (size_t i = 0; i < n; i++) {
            char a[160], b[160];
            agg_bound_names(ys[i], s->errorbars == EB_CI ? AGG_BOUNDS_CI : AGG_BOUNDS_MINMAX, a, b, sizeof a);
            if (!cols->has(cols->ctx, s->source, a) || !cols->has(cols->ctx, s->source, b))
                diag_path_error(d, &p, 0,
                                "\"%s\" needs the columns %s and %s, which the runner writes when a workload "
                                "has several windows",
                                s->errorbars == EB_CI ? "ci" : "minmax", a, b);
        }
    }
    if (!skip_varying)
        check_varying(s, cols, d);
    return diag_count(d) - before;
}

size_t plotspec_check_columns(json_t *plot, const struct plotspec *s, const struct config_columns *cols, struct diag *d)
{
    return check_columns(plot, s, cols, false, d);
}

size_t plotspec_check(json_t *plot, const struct config_columns *cols, struct diag *d)
{
    struct plotspec spec;
    size_t n = plotspec_parse(plot, &spec, d);
    /* The column names of a section with other errors are still worth
     * checking; whether the varying columns are placed is not (it depends
     * on what the broken keys meant). */
    if (json_is_object(plot) && cols)
        n += check_columns(plot, &spec, cols, n > 0, d);
    plotspec_free(&spec);
    return n;
}

void plotspec_free(struct plotspec *spec)
{
    rowfilter_free(&spec->where);
    if (spec->norm_col)
        filter_cond_free(&spec->norm);
    spec->has_where = false;
    spec->norm_col = NULL;
}

/* The "plot" section of a config, checked by the config loader (config.h). */
static size_t check_section(json_t *plot, const struct config *c, const struct config_columns *cols, struct diag *d)
{
    size_t n = 0;
    json_t *src = json_is_object(plot) ? json_object_get(plot, "source") : NULL;
    if (json_is_string(src) && !strcmp(json_string_value(src), "series") && !c->series) {
        struct diag_path ps = diag_path_of(2, "plot", "source");
        diag_path_error(d, &ps, 0, "plot.source: \"series\" plots the series CSV, which only \"series\": true writes");
        n++;
        cols = NULL; /* every series column would be missing too */
    }
    return n + plotspec_check(plot, cols, d);
}

static const struct config_section plot_section = {"plot", check_section};
CONFIG_SECTION_REGISTER(plot_section);
