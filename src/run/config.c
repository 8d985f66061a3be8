/* config.c - load, validate and expand sweep configs (see config.h).
 *
 * jansson parses the text (duplicate keys rejected); every other check is
 * done here and reported through struct diag at the key path it is about,
 * so that diag_resolve can find its line and column in the text.  Checks go
 * on after an error wherever the rest of the config can still be read, so
 * `hwprof validate` lists every problem at once.
 */
#define _POSIX_C_SOURCE 200809L
#include "run/config.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "run/config_int.h"
#include "run/outcols.h"
#include "run/wlnames.h"

static char *slurp(const char *path, struct diag *d)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        diag_error(d, path, 0, 0, "cannot open: %s", strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 14, len = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (len + 1 == cap) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb)
                free(buf);
            buf = nb;
        }
    }
    int bad = ferror(f);
    fclose(f);
    if (!buf || bad) {
        free(buf);
        diag_error(d, path, 0, 0, bad ? "cannot read" : "out of memory");
        return NULL;
    }
    buf[len] = '\0';
    return buf;
}

/* ---- small helpers ------------------------------------------------------ */

/* n with thousands separators: 5120000 -> "5,120,000". */
static const char *thousands(size_t n, char *buf, size_t len)
{
    char digits[32];
    int nd = snprintf(digits, sizeof digits, "%zu", n);
    size_t o = 0;
    for (int i = 0; i < nd && o + 2 < len; i++) {
        if (i > 0 && (nd - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = digits[i];
    }
    buf[o] = '\0';
    return buf;
}

static int copy_string(struct diag *d, json_t *root, const char *key, char *dst, size_t len, int required)
{
    json_t *v = json_object_get(root, key);
    struct diag_path p = diag_path_of(1, key);
    if (!v) {
        if (required) {
            struct diag_path top = path0();
            diag_path_error(d, &top, 0, "missing required key '%s'", key);
            return -1;
        }
        return 0;
    }
    if (!json_is_string(v)) {
        diag_path_error(d, &p, 0, "'%s' must be a string", key);
        return -1;
    }
    if (json_string_length(v) >= len) {
        diag_path_error(d, &p, 0, "'%s' is longer than %zu characters", key, len - 1);
        return -1;
    }
    snprintf(dst, len, "%s", json_string_value(v));
    return 0;
}

/* ---- workloads ------------------------------------------------------------ */

/* The config's own traces folder ("traces"): its traces are the config's
 * workloads, and the runner reads them there instead of --traces.  0, or
 * -1 when the key is given but unusable (errors in d). */
static int load_traces_key(struct diag *d, struct config *c, json_t *root)
{
    json_t *t = json_object_get(root, "traces");
    struct diag_path pt = diag_path_of(1, "traces");
    if (!t)
        return 0;
    if (!json_is_string(t) || json_string_length(t) == 0 || json_string_length(t) >= sizeof c->traces) {
        diag_path_error(d, &pt, 0, "'traces' must be a folder name (a string of 1 to %zu characters)",
                        sizeof c->traces - 1);
        return -1;
    }
    const char *dir = json_string_value(t);
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        diag_path_error(d, &pt, 0,
                        "'traces': no folder '%s' (relative to the current directory; it holds the config's "
                        "<workload>.trace or <workload>.w<K>.trace files)",
                        dir);
        return -1;
    }
    snprintf(c->traces, sizeof c->traces, "%s", dir);
    return 0;
}

/* "workloads": names of src (NULL: not checked). */
static void load_workloads(struct diag *d, struct config *c, json_t *root, const struct wlnames *src)
{
    json_t *w = json_object_get(root, "workloads");
    struct diag_path top = path0(), pw = diag_path_of(1, "workloads");
    if (!w) {
        diag_path_error(d, &top, 0,
                        "missing required key 'workloads' (\"all\", a list of names, or [] for analytic figures)");
        return;
    }
    if (json_is_string(w) && strcmp(json_string_value(w), "all") == 0) {
        if (!src) {
            if (!c->traces[0] && !json_object_get(root, "traces"))
                diag_path_error(d, &pw, 0, "'workloads': \"all\" needs the experiments directory");
            return;
        }
        c->nworkloads = wlnames_list(src, c->workloads, CONFIG_MAX_WORKLOADS);
        if (c->nworkloads == 0)
            diag_path_error(d, &pw, 0, "'workloads': \"all\" but no %s found in %s",
                            src->traces ? "<workload>.trace or <workload>.w<K>.trace" : "*.wl", src->dir);
        return;
    }
    if (!json_is_array(w)) {
        diag_path_error(d, &pw, 0, "'workloads' must be \"all\" or a list of workload names");
        return;
    }
    char known[CONFIG_MAX_WORKLOADS][64];
    const char *known_ptr[CONFIG_MAX_WORKLOADS + 1];
    size_t nknown = src ? wlnames_list(src, known, CONFIG_MAX_WORKLOADS) : 0;
    for (size_t k = 0; k < nknown; k++)
        known_ptr[k] = known[k];
    known_ptr[nknown] = NULL;
    size_t i;
    json_t *v;
    json_array_foreach(w, i, v) {
        struct diag_path pi = path_idx(&pw, i);
        if (!json_is_string(v) || json_string_length(v) == 0 || json_string_length(v) >= 64) {
            diag_path_error(d, &pi, 0, "workload names must be non-empty strings of at most 63 characters");
            continue;
        }
        const char *name = json_string_value(v);
        if (src && !wlnames_known(src, name)) {
            char msg[1600], what[1400];
            wlnames_what(src, name, what, sizeof what);
            snprintf(msg, sizeof msg, "unknown workload '%s' (no %s)", name, what);
            diag_did_you_mean(msg, sizeof msg, diag_suggest(name, known_ptr));
            diag_path_error(d, &pi, 0, "%s", msg);
            continue;
        }
        if (c->nworkloads == CONFIG_MAX_WORKLOADS) {
            diag_path_error(d, &pi, 0, "too many workloads (at most %d)", CONFIG_MAX_WORKLOADS);
            return;
        }
        int dup = 0;
        for (size_t k = 0; k < c->nworkloads && !dup; k++)
            dup = !strcmp(c->workloads[k], name);
        if (dup) {
            diag_path_error(d, &pi, 0, "workload '%s' is listed twice", name);
            continue;
        }
        snprintf(c->workloads[c->nworkloads++], 64, "%s", name);
    }
}

/* "plot" and "table" hold what the reporting code reads; it checks them
 * (check_sections), this file only knows their names. */
/* "plot" and "table" hold what the reporting code reads; it checks them
 * (check_sections), this file only knows their names. */
static const char *const top_keys[] = { "name",   "paper",  "figure", "caption", "workloads", "traces", "model",
                                        "params", "sweep",  "runs",   "metrics", "series",    "tables", "plot",
                                        "table",  "notes",  NULL };
static const char *const run_keys[] = { "label", "model", "params", "sweep", NULL };

static int in_list(const char *const *list, const char *k)
{
    for (size_t i = 0; list[i]; i++)
        if (strcmp(list[i], k) == 0)
            return 1;
    return 0;
}

static void unknown_key(struct diag *d, const struct diag_path *p, const char *k, const char *const *known,
                        const char *where)
{
    char msg[512];
    size_t o = (size_t)snprintf(msg, sizeof msg, "unknown key '%s'%s", k, where);
    diag_did_you_mean(msg, sizeof msg, diag_suggest(k, known));
    o = strlen(msg);
    o += (size_t)snprintf(msg + o, sizeof msg - o, " (known:");
    for (size_t i = 0; known[i] && o < sizeof msg; i++)
        o += (size_t)snprintf(msg + o, sizeof msg - o, "%s %s", i ? "," : "", known[i]);
    if (o < sizeof msg)
        snprintf(msg + o, sizeof msg - o, ")");
    diag_path_error(d, p, 1, "%s", msg);
}

static int model_has_metric(const struct model_desc *m, const char *name)
{
    for (size_t i = 0; m->metrics && m->metrics[i].name; i++)
        if (strcmp(m->metrics[i].name, name) == 0)
            return 1;
    return 0;
}

static const struct table_spec *model_table(const struct model_desc *m, const char *name, size_t *index)
{
    for (size_t i = 0; m->tables && m->tables[i].name; i++)
        if (strcmp(m->tables[i].name, name) == 0) {
            if (index)
                *index = i;
            return &m->tables[i];
        }
    return NULL;
}

/* Is col a metric column of the main CSV (m, m_min, m_max, m_lo, m_hi)? */
static int is_metric_column(const struct config *c, const struct model_desc *m, const char *col, int stats)
{
    char base[128];
    snprintf(base, sizeof base, "%s", col);
    size_t n = strlen(base);
    static const char *const sfx[] = { "_min", "_max", "_lo", "_hi" };
    for (int k = 0; stats && k < 4; k++) {
        size_t l = strlen(sfx[k]);
        if (n > l && !strcmp(base + n - l, sfx[k])) {
            base[n - l] = '\0';
            break;
        }
    }
    if (c->nmetrics) {
        for (size_t i = 0; i < c->nmetrics; i++)
            if (!strcmp(c->metrics[i], base) || !strcmp(c->metrics[i], col))
                return 1;
        return 0;
    }
    return model_has_metric(m, base) || model_has_metric(m, col);
}

int config_has_column(const struct config *c, const char *source, const char *col)
{
    int is_main = !strcmp(source, "main"), is_windows = !strcmp(source, "windows");
    if (!strcmp(source, "series") && !c->series)
        return 0; /* the series CSV is written only with "series": true */
    if (!strcmp(col, "workload") || !strcmp(col, "run") || !strcmp(col, "model"))
        return 1;
    if (is_main && !strcmp(col, "windows"))
        return 1;
    if (!is_main && !strcmp(col, "window"))
        return 1;
    if (is_windows && !strcmp(col, "weight"))
        return 1;
    for (size_t r = 0; r < c->nruns; r++) {
        const struct model_desc *m = c->runs[r].model;
        for (const struct param_spec *ps = m->params; ps && ps->name; ps++)
            if (!strcmp(ps->name, col))
                return 1;
        if (is_main || is_windows) {
            if (is_metric_column(c, m, col, is_main))
                return 1;
        } else {
            const struct table_spec *t = model_table(m, source, NULL);
            for (size_t i = 0; t && t->cols[i].name; i++)
                if (!strcmp(t->cols[i].name, col))
                    return 1;
        }
    }
    return 0;
}

static int has_column_cb(void *ctx, const char *source, const char *col)
{
    return config_has_column(ctx, source, col);
}

/* Does some run's model have a table of this name? */
static int config_has_table(const struct config *c, const char *name)
{
    for (size_t r = 0; r < c->nruns; r++)
        if (model_table(c->runs[r].model, name, NULL))
            return 1;
    return 0;
}

/* "tables": names of model tables.  Without models_known a name is not
 * checked against the models (it may be the broken run's table). */
static void check_tables_key(struct diag *d, struct config *c, json_t *tables, int models_known)
{
    struct diag_path pt = diag_path_of(1, "tables");
    if (!json_is_array(tables)) {
        diag_path_error(d, &pt, 0, "'tables' must be a list of model table names");
        return;
    }
    size_t i;
    json_t *v;
    json_array_foreach(tables, i, v) {
        struct diag_path pi = path_idx(&pt, i);
        if (!json_is_string(v) || !json_string_length(v) || json_string_length(v) >= 64) {
            diag_path_error(d, &pi, 0, "table names must be non-empty strings");
            continue;
        }
        const char *name = json_string_value(v);
        if (!strcmp(name, "series")) {
            diag_path_error(d, &pi, 0, "the series table is asked for with \"series\": true");
            continue;
        }
        if (!config_has_table(c, name) && !models_known)
            continue;
        if (!config_has_table(c, name)) {
            const char *names[64];
            size_t n = 0;
            for (size_t r = 0; r < c->nruns; r++)
                for (size_t t = 0; c->runs[r].model->tables && c->runs[r].model->tables[t].name && n < 63; t++)
                    names[n++] = c->runs[r].model->tables[t].name;
            names[n] = NULL;
            char msg[512];
            snprintf(msg, sizeof msg, "no model of this config has a table '%s'", name);
            diag_did_you_mean(msg, sizeof msg, diag_suggest(name, names));
            diag_path_error(d, &pi, 0, "%s (see `hwprof models`)", msg);
            continue;
        }
        if (c->ntables == CONFIG_MAX_TABLES) {
            diag_path_error(d, &pi, 0, "at most %d tables", CONFIG_MAX_TABLES);
            return;
        }
        snprintf(c->tables[c->ntables++], 64, "%s", name);
    }
}

/* The same two things clash (in another CSV). */
static int same_clash(const struct outcol_clash *a, const struct outcol_clash *b)
{
    return !strcmp(a->name, b->name) && !strcmp(a->first, b->first) && !strcmp(a->second, b->second);
}

/* Two different things of one name in an output CSV (outcols.h): a
 * parameter and a column of a table the config asks for, a metric it
 * writes and a parameter, ...  Located at the model of the run that brings
 * the second one. */
static void check_column_clashes(struct diag *d, const struct config *c, int has_runs)
{
    const struct model_desc *models[CONFIG_MAX_RUNS];
    const char *metrics[65], *tables[CONFIG_MAX_TABLES + 2];
    size_t nt = 0;
    for (size_t r = 0; r < c->nruns; r++)
        models[r] = c->runs[r].model;
    for (size_t i = 0; i < c->nmetrics; i++)
        metrics[i] = c->metrics[i];
    metrics[c->nmetrics] = NULL;
    for (size_t i = 0; i < c->ntables; i++)
        tables[nt++] = c->tables[i];
    if (c->series)
        tables[nt++] = "series";
    tables[nt] = NULL;
    struct outcol_clash clash[8];
    long n = outcols_clashes(models, c->nruns, c->nmetrics ? metrics : NULL, tables, clash, 8);
    if (n < 0) {
        struct diag_path top = path0();
        diag_path_error(d, &top, 0, "out of memory");
        return;
    }
    for (long i = 0; i < n && i < 8; i++) {
        const struct outcol_clash *x = &clash[i];
        /* the main and windows CSVs share parameters and metrics: say it once */
        int also_windows = 0, said = 0;
        for (long j = 0; j < n && j < 8; j++) {
            if (!same_clash(x, &clash[j]))
                continue;
            also_windows |= !strcmp(x->csv, "main") && !strcmp(clash[j].csv, "windows");
            said |= !strcmp(x->csv, "windows") && !strcmp(clash[j].csv, "main");
        }
        if (said)
            continue;
        const struct run_spec *rs = &c->runs[x->model < c->nruns ? x->model : 0];
        struct diag_path p = path0();
        if (has_runs) {
            diag_path_key(&p, "runs");
            diag_path_index(&p, rs->index);
        }
        diag_path_key(&p, "model");
        char csv[700], hint[200] = "";
        if (!strcmp(x->csv, "main"))
            snprintf(csv, sizeof csv, "%.255s.csv%s%.255s%s", c->stem, also_windows ? " and " : "",
                     also_windows ? c->stem : "", also_windows ? ".windows.csv" : "");
        else
            snprintf(csv, sizeof csv, "%.255s.%.79s.csv", c->stem, x->csv);
        if (x->hint_table && !strcmp(x->csv, "series"))
            snprintf(hint, sizeof hint, ", or leave out \"series\": true");
        else if (x->hint_table)
            snprintf(hint, sizeof hint, ", or leave table '%.79s' out of \"tables\"", x->csv);
        else if (x->hint_metric)
            snprintf(hint, sizeof hint, ", or leave the metric out of \"metrics\"");
        diag_path_error(d, &p, 0, "%s and %s would both be column '%s' of %s: rename one in the model%s", x->first,
                        x->second, x->name, csv, hint);
    }
    if (n > 8) {
        struct diag_path top = path0();
        diag_path_error(d, &top, 0, "and %ld more clashing column names", n - 8);
    }
}

/* Which of each run's model tables are written. */
static int resolve_wanted_tables(struct config *c)
{
    for (size_t r = 0; r < c->nruns; r++) {
        const struct model_desc *m = c->runs[r].model;
        size_t nt = model_count_tables(m);
        c->runs[r].wanted_tables = calloc(nt + 1, sizeof(bool));
        if (!c->runs[r].wanted_tables)
            return -1;
        for (size_t t = 0; t < nt; t++) {
            const char *name = m->tables[t].name;
            bool want = !strcmp(name, "series") ? c->series : false;
            for (size_t k = 0; k < c->ntables && !want; k++)
                want = !strcmp(c->tables[k], name);
            c->runs[r].wanted_tables[t] = want;
        }
    }
    return 0;
}

/* The file's JSON into c->root (c->text keeps the text) and the config's
 * names, each error into d; with keys, every top-level key must be known.
 * -1 when nothing else can be read (no file, no JSON object). */
static int load_names(struct config *c, const char *path, int keys, struct diag *d)
{
    snprintf(c->path, sizeof c->path, "%s", path);
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    snprintf(c->stem, sizeof c->stem, "%s", base);
    char *dot = strrchr(c->stem, '.');
    if (dot && strcmp(dot, ".json") == 0)
        *dot = '\0';
    c->text = slurp(path, d);
    if (!c->text)
        return -1;
    json_error_t je;
    c->root = json_loads(c->text, JSON_REJECT_DUPLICATES, &je);
    if (!c->root) {
        diag_error(d, path, je.line < 1 ? 1 : je.line, je.column < 1 ? 1 : je.column, "%s", je.text);
        return -1;
    }
    json_t *root = c->root;
    struct diag_path top = path0();
    if (!json_is_object(root)) {
        diag_path_error(d, &top, 0, "a config must be a JSON object");
        return -1;
    }
    const char *k;
    json_t *v;
    json_object_foreach(root, k, v) {
        if (keys && !in_list(top_keys, k)) {
            struct diag_path pk = diag_path_of(1, k);
            unknown_key(d, &pk, k, top_keys, "");
        }
    }
    copy_string(d, root, "paper", c->paper, sizeof c->paper, 1);
    copy_string(d, root, "figure", c->figure, sizeof c->figure, 0);
    copy_string(d, root, "caption", c->caption, sizeof c->caption, 0);
    copy_string(d, root, "name", c->name, sizeof c->name, 0);
    if (!c->name[0])
        snprintf(c->name, sizeof c->name, "%s", c->stem);
    for (const char *p = c->paper; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-' || *p == '_')) {
            struct diag_path pp = diag_path_of(1, "paper");
            diag_path_error(d, &pp, 0, "'paper' must be a lower-case name ([a-z0-9_-]), used as the results folder");
            break;
        }
    /* configs/<paper>/<stem>.json: the folder must be the paper (results go to results/<paper>/). */
    {
        char dir[1024];
        snprintf(dir, sizeof dir, "%s", path);
        char *slash = strrchr(dir, '/');
        if (slash && c->paper[0]) {
            *slash = '\0';
            char *pslash = strrchr(dir, '/');
            const char *parent = pslash ? pslash + 1 : dir;
            size_t plen = pslash ? (size_t)(pslash - dir) : 0;
            int under_configs = pslash && plen >= 7 && strncmp(pslash - 7, "configs", 7) == 0 &&
                                (plen == 7 || pslash[-8] == '/');
            if (under_configs && strcmp(parent, c->paper) != 0) {
                struct diag_path pp = diag_path_of(1, "paper");
                diag_path_error(d, &pp, 0, "'paper' is '%s' but the config is in configs/%s/", c->paper, parent);
            }
        }
    }
    return 0;
}

/* The end of config_read and config_load: the errors located in the
 * text, d's file restored; the config, or NULL after an error. */
static struct config *loaded(struct config *c, const char *path, const char *saved_file, size_t errors_before,
                             struct diag *d)
{
    if (c && c->text)
        diag_resolve(d, path, c->text);
    d->file = saved_file;
    if (diag_count(d) != errors_before) {
        config_free(c);
        return NULL;
    }
    return c;
}

struct config *config_read(const char *path, struct diag *d)
{
    size_t errors_before = diag_count(d);
    const char *saved_file = d->file;
    d->file = path;
    struct config *c = calloc(1, sizeof *c);
    if (!c)
        diag_error(d, path, 0, 0, "out of memory");
    else if (load_names(c, path, 0, d) == 0 && !c->paper[0] && json_object_get(c->root, "paper")) {
        /* a reader of the results needs the folder they are in */
        struct diag_path pp = diag_path_of(1, "paper");
        diag_path_error(d, &pp, 0, "'paper' must be a lower-case name ([a-z0-9_-]), used as the results folder");
    }
    return loaded(c, path, saved_file, errors_before, d);
}

/* The checkers of the sections other layers read (CONFIG_SECTION_REGISTER),
 * in the order of their keys. */
extern const struct config_section *const __start_hwprof_config_sections[] __attribute__((weak));
extern const struct config_section *const __stop_hwprof_config_sections[] __attribute__((weak));

static void check_sections(struct diag *d, const struct config *c, const struct config_columns *cols)
{
    size_t n = __start_hwprof_config_sections
                   ? (size_t)(__stop_hwprof_config_sections - __start_hwprof_config_sections)
                   : 0;
    const struct config_section *done = NULL;
    for (size_t k = 0; k < n; k++) {
        /* the next key after the last one checked (a handful: no sorting) */
        const struct config_section *next = NULL;
        for (size_t i = 0; i < n; i++) {
            const struct config_section *s = __start_hwprof_config_sections[i];
            if ((!done || strcmp(s->key, done->key) > 0) && (!next || strcmp(s->key, next->key) < 0))
                next = s;
        }
        if (!next)
            break;
        json_t *v = json_object_get(c->root, next->key);
        if (v)
            next->check(v, c, cols, d);
        done = next;
    }
}

struct config *config_load(const char *path, const char *workloads_dir, struct diag *d)
{
    size_t errors_before = diag_count(d);
    const char *saved_file = d->file;
    d->file = path;
    struct config *c = calloc(1, sizeof *c);
    if (!c) {
        diag_error(d, path, 0, 0, "out of memory");
        goto done;
    }
    if (load_names(c, path, 1, d) != 0)
        goto done;
    json_t *root = c->root;
    struct diag_path top = path0();
    const char *k;
    json_t *v;
    /* Workload names: the traces folder's, or the suite's .wl files (a
     * broken "traces" key leaves them unchecked: its error says why). */
    {
        int traces_ok = load_traces_key(d, c, root) == 0;
        struct wlnames src = { c->traces[0] ? c->traces : workloads_dir, c->traces[0] != 0 };
        load_workloads(d, c, root, traces_ok && src.dir ? &src : NULL);
    }
    json_t *top_params = json_object_get(root, "params");
    if (top_params && !json_is_object(top_params)) {
        struct diag_path pp = diag_path_of(1, "params");
        diag_path_error(d, &pp, 0, "'params' must be an object");
        top_params = NULL;
    }
    /* models_known: every run names a known model, so the columns of the
     * outputs are known and checks that depend on them (top-level params,
     * metrics, tables, plot and table columns) give no false errors;
     * run_ok[r]: run r's parameters all loaded, so its points can be built. */
    int models_known = 1;
    bool run_ok[CONFIG_MAX_RUNS] = { false };
    json_t *runs = json_object_get(root, "runs");
    if (runs) {
        struct diag_path pr = diag_path_of(1, "runs");
        if (json_object_get(root, "model") || json_object_get(root, "sweep")) {
            diag_path_error(d, &pr, 1, "give either 'runs' or 'model'/'sweep', not both");
            models_known = 0;
        } else if (!json_is_array(runs) || json_array_size(runs) == 0 || json_array_size(runs) > CONFIG_MAX_RUNS) {
            diag_path_error(d, &pr, 0, "'runs' must be a non-empty list of {label, model, params, sweep} (at most %d)",
                            CONFIG_MAX_RUNS);
            models_known = 0;
        } else {
            size_t i;
            json_t *ro;
            json_array_foreach(runs, i, ro) {
                struct diag_path pi = path_idx(&pr, i);
                if (!json_is_object(ro)) {
                    diag_path_error(d, &pi, 0, "each run must be an object");
                    models_known = 0;
                    continue;
                }
                json_object_foreach(ro, k, v) {
                    if (!in_list(run_keys, k)) {
                        struct diag_path pk = path_key(&pi, k);
                        unknown_key(d, &pk, k, run_keys, " in run");
                    }
                }
                struct run_spec *rs = &c->runs[c->nruns];
                rs->index = i;
                int ok = cfg_load_run(d, rs, ro, top_params, &pi, 0) == 0;
                if (rs->model)
                    run_ok[c->nruns++] = ok;
                else
                    models_known = 0;
            }
        }
    } else {
        int ok = cfg_load_run(d, &c->runs[0], root, top_params, &top, 1) == 0;
        if (c->runs[0].model)
            run_ok[c->nruns++] = ok;
        else
            models_known = 0;
    }
    for (size_t r = 0; r < c->nruns; r++)
        for (size_t q = 0; q < r; q++)
            if (!strcmp(c->runs[q].label, c->runs[r].label)) {
                struct diag_path pi = diag_path_of(1, "runs");
                diag_path_index(&pi, c->runs[r].index);
                diag_path_error(d, &pi, 0, "runs %zu and %zu are both labelled '%s': give each run its own 'label'",
                                c->runs[q].index, c->runs[r].index, c->runs[r].label);
            }
    /* [] itself, not a list whose names were all refused (already errors). */
    json_t *wl = json_object_get(root, "workloads");
    if (json_is_array(wl) && json_array_size(wl) == 0)
        for (size_t r = 0; r < c->nruns; r++)
            if (model_reads_trace(c->runs[r].model)) {
                struct diag_path pw = diag_path_of(1, "workloads");
                diag_path_error(d, &pw, 0, "'workloads' is [] (an analytic figure) but model '%s' reads a trace: name workloads",
                                c->runs[r].model->name);
                break;
            }
    /* Every top-level param must belong to at least one run's model. */
    if (top_params && c->nruns && models_known) {
        json_object_foreach(top_params, k, v) {
            int found = 0;
            for (size_t r = 0; r < c->nruns; r++)
                found |= params_find(c->runs[r].model->params, k, NULL) != NULL;
            if (!found) {
                struct diag_path pk = diag_path_of(2, "params", k);
                cfg_unknown_param(d, &pk, k, c->runs[0].model);
            }
        }
    }
    json_t *metrics = json_object_get(root, "metrics");
    if (metrics) {
        struct diag_path pm = diag_path_of(1, "metrics");
        if (!json_is_array(metrics) || json_array_size(metrics) == 0 || json_array_size(metrics) > 64) {
            diag_path_error(d, &pm, 0, "'metrics' must be a non-empty list of metric names");
        } else {
            size_t i;
            json_array_foreach(metrics, i, v) {
                struct diag_path pi = path_idx(&pm, i);
                int found = 0;
                if (json_is_string(v))
                    for (size_t r = 0; r < c->nruns; r++)
                        found |= model_has_metric(c->runs[r].model, json_string_value(v));
                if (!found && json_is_string(v) && !models_known)
                    continue; /* a metric of the run whose model is unknown, maybe */
                if (!found) {
                    const char *names[512];
                    size_t n = 0;
                    for (size_t r = 0; r < c->nruns; r++)
                        for (size_t q = 0; c->runs[r].model->metrics[q].name && n < 511; q++)
                            names[n++] = c->runs[r].model->metrics[q].name;
                    names[n] = NULL;
                    char msg[512];
                    snprintf(msg, sizeof msg, "unknown metric %s%s%s for this config's models",
                             json_is_string(v) ? "'" : "", json_is_string(v) ? json_string_value(v) : "(not a string)",
                             json_is_string(v) ? "'" : "");
                    if (json_is_string(v))
                        diag_did_you_mean(msg, sizeof msg, diag_suggest(json_string_value(v), names));
                    diag_path_error(d, &pi, 0, "%s (see `hwprof models`)", msg);
                    continue;
                }
                snprintf(c->metrics[c->nmetrics++], 64, "%s", json_string_value(v));
            }
        }
    }
    json_t *series = json_object_get(root, "series");
    if (series) {
        if (!json_is_boolean(series)) {
            struct diag_path ps = diag_path_of(1, "series");
            diag_path_error(d, &ps, 0, "'series' must be true or false");
        } else {
            c->series = json_is_true(series);
        }
    }
    json_t *tables = json_object_get(root, "tables");
    if (tables)
        check_tables_key(d, c, tables, models_known);
    if (models_known && c->nruns)
        check_column_clashes(d, c, runs != NULL);
    /* Model instances: sweep points x workloads, known without building
     * any of them.  Over the limit, no point is built. */
    size_t points = 0;
    for (size_t r = 0; r < c->nruns; r++)
        points += c->runs[r].npoints;
    size_t instances = points * (c->nworkloads ? c->nworkloads : 1);
    int too_many = instances > CONFIG_MAX_INSTANCES;
    if (too_many) {
        struct diag_path pi = runs ? diag_path_of(1, "runs") : diag_path_of(1, "sweep");
        char n1[32], n2[32], n3[32];
        diag_path_error(d, &pi, 1,
                        "the config has %s model instances (%zu run%s, %s sweep points in all, x %zu workload%s), more "
                        "than the limit of %s: split it into several configs or sweep fewer values",
                        thousands(instances, n1, sizeof n1), c->nruns, c->nruns == 1 ? "" : "s",
                        thousands(points, n2, sizeof n2), c->nworkloads ? c->nworkloads : 1,
                        c->nworkloads == 1 ? "" : "s", thousands(CONFIG_MAX_INSTANCES, n3, sizeof n3));
    }
    /* The sections other layers read (the reporting code's plot and
     * table): their own keys always; their columns only when every run's
     * model is known (else every column the broken run would bring is a
     * false error). */
    {
        const char *varying[PARAMS_MAX * CONFIG_MAX_RUNS + 4];
        size_t nv = 0;
        if (c->nworkloads > 1)
            varying[nv++] = "workload";
        if (c->nruns > 1)
            varying[nv++] = "run";
        for (size_t r = 0; r < c->nruns; r++)
            for (size_t a = 0; a < c->runs[r].naxes; a++) {
                if (c->runs[r].axes[a].nvals < 2)
                    continue;
                const char *name = c->runs[r].model->params[c->runs[r].axes[a].param].name;
                int seen = 0;
                for (size_t q = 0; q < nv && !seen; q++)
                    seen = !strcmp(varying[q], name);
                if (!seen)
                    varying[nv++] = name;
            }
        varying[nv] = NULL;
        struct config_columns cols = { has_column_cb, varying, c };
        check_sections(d, c, models_known && c->nruns ? &cols : NULL);
    }
    if (!too_many)
        cfg_check_points(d, c, runs != NULL, run_ok);
    if (diag_count(d) == errors_before && resolve_wanted_tables(c) != 0)
        diag_error(d, path, 0, 0, "out of memory");
done:
    return loaded(c, path, saved_file, errors_before, d);
}

void config_free(struct config *c)
{
    if (!c)
        return;
    for (size_t r = 0; r < CONFIG_MAX_RUNS; r++) {
        for (size_t a = 0; a < c->runs[r].naxes; a++)
            free(c->runs[r].axes[a].vals);
        free(c->runs[r].wanted_tables);
    }
    json_decref(c->root);
    free(c->text);
    free(c);
}
