/* claims.c - reading and checking claims files (see claims.h). */
#define _POSIX_C_SOURCE 200809L
#include "report/claims.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/jsonpos.h"
#include "core/sbuf.h"
#include "report/readfile.h"

static const char *const kind_names[] = {"paired", "lowest", "highest", "ordering", "trend", "bound", "level",
                                         "not_testable", NULL};
static const char *const expect_names[] = {"", "less", "greater", "increasing", "decreasing", "at_most", "at_least",
                                           NULL};
static const char *const rule_names[] = {"most", "all", "some", "mean", NULL};

static const char *const top_keys[] = {"paper", "claims", NULL};
static const char *const claim_keys[] = {"id", "figure", "claim", "paper_says", "rule", "workloads", "parts", NULL};
static const char *const test_keys[] = {"kind", "query", "a",     "b",     "others", "runs",  "expect",
                                        "x",    "bound", "bound_col", "paper", "tol", "tol_rel", "match",
                                        "scope", "min_diff", "reason", "log_x", "op", NULL};
/* the keys of each kind (beside "kind"), and those it requires */
static const char *const kind_keys[] = {
    "query a b expect match scope min_diff",      /* paired */
    "query a others expect match min_diff",       /* lowest */
    "query a others expect match min_diff",       /* highest */
    "query runs expect match min_diff",           /* ordering */
    "query x expect log_x",                       /* trend */
    "query expect bound bound_col a b op match",  /* bound */
    "query paper tol tol_rel scope a b op match", /* level */
    "reason",                                     /* not_testable */
};
static const char *const kind_required[] = {
    "query a b expect", "query a others", "query a others", "query runs expect", "query x expect",
    "query expect",     "query paper",    "reason",
};

const char *claim_kind_name(enum claim_kind k)
{
    return (size_t)k <= KIND_NOT_TESTABLE ? kind_names[k] : "?";
}

const char *claim_expect_name(enum claim_expect e)
{
    return (size_t)e <= EXPECT_AT_LEAST ? expect_names[e] : "?";
}

/* ---- the loader ---------------------------------------------------------------- */

struct loader {
    const char *path, *text;
    struct diag *d;
    const struct claimset *s; /* the claims of the files before (ids) */
    struct claim *claims;     /* this file's */
    size_t n;
};

static bool in_list(const char *s, const char *const *list)
{
    for (size_t i = 0; list[i]; i++)
        if (strcmp(s, list[i]) == 0)
            return true;
    return false;
}

/* Is word one of the space-separated words of list? */
static bool in_words(const char *word, const char *list)
{
    size_t n = strlen(word);
    for (const char *p = list; *p;) {
        size_t k = strcspn(p, " ");
        if (k == n && strncmp(p, word, n) == 0)
            return true;
        p += k;
        p += *p == ' ';
    }
    return false;
}

static void err(struct loader *L, const struct diag_path *p, int want_key, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void err(struct loader *L, const struct diag_path *p, int want_key, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_path_verror(L->d, p, want_key, fmt, ap);
    va_end(ap);
}

static struct diag_path sub_key(const struct diag_path *p, const char *key)
{
    struct diag_path q = *p;
    diag_path_key(&q, key);
    return q;
}

static struct diag_path sub_index(const struct diag_path *p, size_t i)
{
    struct diag_path q = *p;
    diag_path_index(&q, i);
    return q;
}

/* line:column of the value at p (the opening quote of a string). */
static struct doc_pos pos_of(const struct loader *L, const struct diag_path *p)
{
    struct jpath_step st[DIAG_PATH_MAX];
    for (size_t i = 0; i < p->depth; i++) {
        st[i].key = p->step[i].key;
        st[i].index = p->step[i].index;
    }
    struct doc_pos pos = {1, 1};
    if (jsonpos_find(L->text, st, p->depth, 0, &pos.line, &pos.column) != 0)
        pos = (struct doc_pos){1, 1};
    return pos;
}

/* The first character inside the string at p. */
static struct doc_pos inside(const struct loader *L, const struct diag_path *p)
{
    struct doc_pos pos = pos_of(L, p);
    pos.column++;
    return pos;
}

/* A non-empty string at key of obj (malloc'd), NULL when absent (an error
 * when required) or not one. */
static char *get_string(struct loader *L, json_t *obj, const struct diag_path *at, const char *key, bool required,
                        const char *what)
{
    json_t *v = json_object_get(obj, key);
    struct diag_path p = sub_key(at, key);
    if (!v) {
        if (required)
            err(L, at, 0, "missing key '%s' (%s)", key, what);
        return NULL;
    }
    if (!json_is_string(v) || json_string_length(v) == 0) {
        err(L, &p, 0, "'%s' must be a non-empty string (%s)", key, what);
        return NULL;
    }
    return mem_strdup(json_string_value(v));
}

/* A number at key of obj into *out; false when absent or not one (an error). */
static bool get_number(struct loader *L, json_t *obj, const struct diag_path *at, const char *key, double min,
                       double *out)
{
    json_t *v = json_object_get(obj, key);
    if (!v)
        return false;
    struct diag_path p = sub_key(at, key);
    if (!json_is_number(v) || !isfinite(json_number_value(v)) || json_number_value(v) < min) {
        err(L, &p, 0, "'%s' must be a number%s", key, min == 0 ? " >= 0" : "");
        return false;
    }
    *out = json_number_value(v);
    return true;
}

/* A list of non-empty strings at key (min items at least); NULL (an error)
 * when it is not one. */
static char **get_strings(struct loader *L, json_t *obj, const struct diag_path *at, const char *key, size_t min,
                          size_t *n, const char *what)
{
    json_t *v = json_object_get(obj, key);
    struct diag_path p = sub_key(at, key);
    *n = 0;
    if (!v)
        return NULL;
    if (!json_is_array(v) || json_array_size(v) < min) {
        err(L, &p, 0, "'%s' must be a list of %s%s", key, what, min > 1 ? " (at least two)" : min ? " (at least one)" : "");
        return NULL;
    }
    size_t i;
    json_t *e;
    char **out = mem_array(json_array_size(v) + 1, sizeof *out);
    bool ok = true;
    json_array_foreach(v, i, e) {
        struct diag_path pi = sub_index(&p, i);
        if (!json_is_string(e) || json_string_length(e) == 0) {
            err(L, &pi, 0, "'%s' must be a list of %s: a non-empty string here", key, what);
            ok = false;
            continue;
        }
        for (size_t k = 0; k < *n; k++)
            if (strcmp(out[k], json_string_value(e)) == 0) {
                err(L, &pi, 0, "'%s' lists '%s' twice", key, json_string_value(e));
                ok = false;
            }
        out[(*n)++] = mem_strdup(json_string_value(e));
    }
    if (!ok) {
        rowfilter_split_free(out, *n);
        *n = 0;
        return NULL;
    }
    return out;
}

/* One of names (NULL-terminated, from index first) at key: its index, or
 * -1 when absent (-2 and an error when not one of them). */
static int get_enum(struct loader *L, json_t *obj, const struct diag_path *at, const char *key,
                    const char *const *names, int first, const char *allowed)
{
    json_t *v = json_object_get(obj, key);
    if (!v)
        return -1;
    struct diag_path p = sub_key(at, key);
    const char *s = json_is_string(v) ? json_string_value(v) : NULL;
    for (int i = first; s && names[i]; i++)
        if (strcmp(s, names[i]) == 0 && in_words(s, allowed))
            return i;
    char msg[96] = "";
    if (s) {
        const char *cands[16];
        size_t k = 0;
        for (int i = first; names[i] && k < 15; i++)
            if (in_words(names[i], allowed))
                cands[k++] = names[i];
        cands[k] = NULL;
        diag_did_you_mean(msg, sizeof msg, diag_suggest(s, cands));
    }
    err(L, &p, 0, "'%s' must be one of %s%s", key, allowed, msg);
    return -2;
}

/* A where= condition list at p (a string) into c. */
static bool get_cond(struct loader *L, json_t *v, const struct diag_path *p, const char *key, struct claim_cond *c)
{
    memset(c, 0, sizeof *c);
    if (!json_is_string(v) || json_string_length(v) == 0) {
        err(L, p, 0, "'%s' must be where= conditions in a string (\"run:R1P1\")", key);
        return false;
    }
    c->text = mem_strdup(json_string_value(v));
    c->pos = inside(L, p);
    return rowfilter_parse(c->text, &c->f, L->d, L->path, c->pos.line, c->pos.column);
}

static void cond_free(struct claim_cond *c)
{
    free(c->text);
    rowfilter_free(&c->f);
}

static void add_cond(struct claim_test *t, const struct claim_cond *c)
{
    t->runs = mem_realloc(t->runs, (t->nruns + 1) * sizeof *t->runs);
    t->runs[t->nruns++] = *c;
}

static void test_free(struct claim_test *t)
{
    free(t->name);
    docmark_query_free(&t->q);
    for (size_t i = 0; i < t->nruns; i++)
        cond_free(&t->runs[i]);
    free(t->runs);
    free(t->x);
    free(t->bound_col);
    rowfilter_split_free(t->match, t->nmatch);
    free(t->reason);
    memset(t, 0, sizeof *t);
}

static void claim_free(struct claim *c)
{
    free(c->id);
    free(c->figure);
    free(c->claim);
    free(c->paper_says);
    rowfilter_split_free(c->workloads, c->nworkloads);
    for (size_t i = 0; i < c->ntests; i++)
        test_free(&c->tests[i]);
    free(c->tests);
    memset(c, 0, sizeof *c);
}

/* ---- a test -------------------------------------------------------------------------- */

/* Every key of obj is known here: the claim's (claim_level), the test's
 * (tests: the keys of a test stand here), a part's name (part). */
static void check_keys(struct loader *L, json_t *obj, const struct diag_path *at, bool claim_level, bool tests,
                       bool part, int kind)
{
    const char *known[64];
    size_t n = 0;
    for (size_t i = 0; claim_level && claim_keys[i]; i++)
        known[n++] = claim_keys[i];
    for (size_t i = 0; tests && test_keys[i]; i++)
        known[n++] = test_keys[i];
    if (part)
        known[n++] = "name";
    known[n] = NULL;
    const char *k;
    json_t *v;
    json_object_foreach(obj, k, v) {
        struct diag_path p = sub_key(at, k);
        if (in_list(k, known)) {
            if (tests && kind >= 0 && in_list(k, test_keys) && strcmp(k, "kind") != 0 && !in_words(k, kind_keys[kind]))
                err(L, &p, 1, "'%s' does not apply to a %s test (its keys: kind %s)", k, kind_names[kind],
                    kind_keys[kind]);
            continue;
        }
        if (!tests && in_list(k, test_keys)) {
            err(L, &p, 1, "'%s' belongs to a test: this claim has parts, put it in each part", k);
            continue;
        }
        char msg[96] = "";
        diag_did_you_mean(msg, sizeof msg, diag_suggest(k, known));
        err(L, &p, 1, "unknown key '%s' in a %s%s", k, part ? "part" : "claim", msg);
    }
}

/* The required keys of the kind, and one of each pair that excludes the other. */
static void check_required(struct loader *L, json_t *obj, const struct diag_path *at, int kind)
{
    const char *req = kind_required[kind];
    for (const char *p = req; *p;) {
        size_t k = strcspn(p, " ");
        char key[32];
        snprintf(key, sizeof key, "%.*s", (int)k, p);
        if (!json_object_get(obj, key))
            err(L, at, 0, "a %s test needs '%s'", kind_names[kind], key);
        p += k;
        p += *p == ' ';
    }
    static const char *const pairs[][2] = {{"bound", "bound_col"}, {"tol", "tol_rel"}};
    for (size_t i = 0; i < 2; i++) {
        if (!in_words(pairs[i][0], kind_keys[kind]))
            continue;
        bool a = json_object_get(obj, pairs[i][0]) != NULL, b = json_object_get(obj, pairs[i][1]) != NULL;
        if (a && b) {
            struct diag_path p = sub_key(at, pairs[i][1]);
            err(L, &p, 1, "give '%s' or '%s', not both", pairs[i][0], pairs[i][1]);
        } else if (!a && !b) {
            err(L, at, 0, "a %s test needs '%s' or '%s'", kind_names[kind], pairs[i][0], pairs[i][1]);
        }
    }
}

/* The conditions of a, b, others, runs, in the test's order. */
static void parse_runs(struct loader *L, json_t *obj, const struct diag_path *at, struct claim_test *t)
{
    static const char *const singles[] = {"a", "b"};
    for (size_t i = 0; i < 2; i++) {
        json_t *v = json_object_get(obj, singles[i]);
        if (!v || !in_words(singles[i], kind_keys[t->kind]))
            continue;
        struct diag_path p = sub_key(at, singles[i]);
        struct claim_cond c;
        get_cond(L, v, &p, singles[i], &c);
        add_cond(t, &c);
    }
    static const char *const lists[] = {"others", "runs"};
    for (size_t i = 0; i < 2; i++) {
        json_t *v = json_object_get(obj, lists[i]);
        if (!v || !in_words(lists[i], kind_keys[t->kind]))
            continue;
        struct diag_path p = sub_key(at, lists[i]);
        size_t min = i == 0 ? 1 : 2;
        if (!json_is_array(v) || json_array_size(v) < min) {
            err(L, &p, 0, "'%s' must be a list of where= conditions (\"run:R0P0\"), at least %s", lists[i],
                min == 1 ? "one" : "two");
            continue;
        }
        size_t k;
        json_t *e;
        json_array_foreach(v, k, e) {
            struct diag_path pk = sub_index(&p, k);
            struct claim_cond c;
            get_cond(L, e, &pk, lists[i], &c);
            for (size_t j = 0; j < t->nruns && c.text; j++)
                if (t->runs[j].text && strcmp(t->runs[j].text, c.text) == 0)
                    err(L, &pk, 0, "'%s' names the run '%s' twice", lists[i], c.text);
            add_cond(t, &c);
        }
    }
}

/* A level or bound of a paired a - b or a / b: "a" and "b" together; "op"
 * and "match" only with them; a bound by a number (a column of which of
 * the two rows?). */
static void parse_op(struct loader *L, json_t *obj, const struct diag_path *at, struct claim_test *t)
{
    bool a = json_object_get(obj, "a") != NULL, b = json_object_get(obj, "b") != NULL;
    if (a != b) {
        struct diag_path p = sub_key(at, a ? "a" : "b");
        err(L, &p, 1, "'%s' goes with '%s': a %s test of a paired a - b (or a / b with \"op\": \"ratio\") needs both",
            a ? "a" : "b", a ? "b" : "a", kind_names[t->kind]);
    }
    static const char *const alone[] = {"op", "match"};
    for (size_t i = 0; i < 2 && !a && !b; i++)
        if (json_object_get(obj, alone[i])) {
            struct diag_path p = sub_key(at, alone[i]);
            err(L, &p, 1, "'%s' applies to a %s test of a paired a - b or a / b: give 'a' and 'b'", alone[i],
                kind_names[t->kind]);
        }
    if (a && b && json_object_get(obj, "bound_col")) {
        struct diag_path p = sub_key(at, "bound_col");
        err(L, &p, 1, "'bound_col' does not apply to a bound of a paired a - b or a / b (a column of which row?): "
                      "use 'bound'");
    }
    t->ratio = get_enum(L, obj, at, "op", (const char *const[]){"minus", "ratio", NULL}, 0, "minus ratio") == 1;
}

/* The test of obj (a claim without parts, or a part). */
static void parse_test(struct loader *L, json_t *obj, const struct diag_path *at, bool part, struct claim_test *t)
{
    memset(t, 0, sizeof *t);
    t->kind = KIND_NOT_TESTABLE;
    struct diag_path pk = sub_key(at, "kind");
    t->pos = json_object_get(obj, "kind") ? pos_of(L, &pk) : pos_of(L, at);
    int kind = get_enum(L, obj, at, "kind", kind_names, 0,
                        "paired lowest highest ordering trend bound level not_testable");
    if (kind == -1)
        err(L, at, 0, "missing key 'kind' (paired, lowest, highest, ordering, trend, bound, level or not_testable)");
    check_keys(L, obj, at, !part, true, part, kind < 0 ? -1 : kind);
    if (kind < 0)
        return;
    t->kind = (enum claim_kind)kind;
    check_required(L, obj, at, kind);
    json_t *v;
    if (in_words("query", kind_keys[kind]) && (v = json_object_get(obj, "query")) != NULL) {
        struct diag_path p = sub_key(at, "query");
        if (!json_is_string(v))
            err(L, &p, 0, "'query' must be a string: src=... where=... col=...");
        else
            docmark_parse_query(json_string_value(v), L->path, inside(L, &p), &t->q, L->d);
        t->qpos = pos_of(L, &p);
    }
    parse_runs(L, obj, at, t);
    static const char *const expects[] = {"less greater", "less greater", "less greater", "less greater",
                                          "increasing decreasing", "at_most at_least", "", ""};
    if (expects[kind][0]) {
        int e = get_enum(L, obj, at, "expect", expect_names, 1, expects[kind]);
        if (e > 0)
            t->expect = (enum claim_expect)e;
        if (t->kind == KIND_LOWEST || t->kind == KIND_HIGHEST) {
            enum claim_expect want = t->kind == KIND_LOWEST ? EXPECT_LESS : EXPECT_GREATER;
            if (e > 0 && t->expect != want) {
                struct diag_path p = sub_key(at, "expect");
                err(L, &p, 0, "a %s test expects '%s' (a %s every other run): use kind '%s'", kind_names[kind],
                    expect_names[want], want == EXPECT_LESS ? "below" : "above",
                    kind == KIND_LOWEST ? "highest" : "lowest");
            }
            t->expect = want;
        }
    }
    if (kind == KIND_TREND) {
        t->x = get_string(L, obj, at, "x", false, "the sweep column");
        struct diag_path p = sub_key(at, "x");
        t->xpos = inside(L, &p);
        json_t *lx = json_object_get(obj, "log_x");
        if (lx && !json_is_boolean(lx)) {
            struct diag_path pl = sub_key(at, "log_x");
            err(L, &pl, 0, "'log_x' must be true or false");
        }
        t->log_x = json_is_true(lx);
    }
    if (kind == KIND_BOUND) {
        t->has_bound = get_number(L, obj, at, "bound", -INFINITY, &t->bound);
        t->bound_col = get_string(L, obj, at, "bound_col", false, "a column of the same row");
        struct diag_path p = sub_key(at, t->bound_col ? "bound_col" : "bound");
        t->bpos = t->bound_col ? inside(L, &p) : pos_of(L, &p);
    }
    if (kind == KIND_LEVEL || kind == KIND_BOUND)
        parse_op(L, obj, at, t);
    if (kind == KIND_LEVEL) {
        double rel = 0;
        get_number(L, obj, at, "paper", -INFINITY, &t->paper);
        if (!get_number(L, obj, at, "tol", 0, &t->tol) && get_number(L, obj, at, "tol_rel", 0, &rel))
            t->tol = rel * fabs(t->paper);
    }
    if (in_words("match", kind_keys[kind])) {
        t->match = get_strings(L, obj, at, "match", 1, &t->nmatch, "column names");
        struct diag_path p = sub_key(at, "match");
        t->mpos = pos_of(L, &p);
    }
    if (in_words("scope", kind_keys[kind]))
        t->scope_mean = get_enum(L, obj, at, "scope", (const char *const[]){"workload", "mean", NULL}, 0,
                                 "workload mean") == 1;
    if (in_words("min_diff", kind_keys[kind]))
        get_number(L, obj, at, "min_diff", 0, &t->min_diff);
    if (kind == KIND_NOT_TESTABLE)
        t->reason = get_string(L, obj, at, "reason", false, "why the claim cannot be tested");
}

/* ---- a claim ------------------------------------------------------------------------- */

static bool id_ok(const char *id)
{
    for (const char *p = id; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '-'))
            return false;
    return id[0] && !strstr(id, "--");
}

/* Where id was declared before (this file or an earlier one), or NULL. */
static const struct claim *find_id(const struct loader *L, const char *id, const char **file)
{
    for (size_t i = 0; i + 1 < L->n; i++) /* the last is the claim being read */
        if (L->claims[i].id && strcmp(L->claims[i].id, id) == 0) {
            *file = L->path;
            return &L->claims[i];
        }
    for (size_t i = 0; i < L->s->n; i++)
        if (strcmp(L->s->claims[i].id, id) == 0) {
            *file = L->s->files[L->s->claims[i].file];
            return &L->s->claims[i];
        }
    return NULL;
}

/* The claim's rule and each test's, checked against the tests' scopes. */
static void settle_rules(struct loader *L, const struct diag_path *at, struct claim *c, int rule)
{
    size_t tested = 0, means = 0;
    for (size_t i = 0; i < c->ntests; i++) {
        tested += c->tests[i].kind != KIND_NOT_TESTABLE;
        means += c->tests[i].kind != KIND_NOT_TESTABLE && c->tests[i].scope_mean;
    }
    struct diag_path p = sub_key(at, "rule");
    if (rule == RULE_MEAN && means < tested)
        err(L, &p, 0, "rule 'mean' goes with \"scope\": \"mean\" on every test of the claim");
    else if (rule >= 0 && rule != RULE_MEAN && tested && means == tested)
        err(L, &p, 0, "rule '%s' does not apply: every test has \"scope\": \"mean\" (rule mean)", rule_names[rule]);
    c->rule = rule >= 0 ? (enum claim_rule)rule : tested && means == tested ? RULE_MEAN : RULE_MOST;
    for (size_t i = 0; i < c->ntests; i++)
        c->tests[i].rule = c->tests[i].scope_mean ? RULE_MEAN : c->rule == RULE_MEAN ? RULE_MOST : c->rule;
}

static void parse_parts(struct loader *L, json_t *parts, const struct diag_path *at, struct claim *c)
{
    struct diag_path p = sub_key(at, "parts");
    if (!json_is_array(parts) || json_array_size(parts) == 0) {
        err(L, &p, 0, "'parts' must be a list of tests, each an object with a \"name\"");
        return;
    }
    size_t i;
    json_t *e;
    c->tests = mem_array(json_array_size(parts), sizeof *c->tests);
    json_array_foreach(parts, i, e) {
        struct diag_path pi = sub_index(&p, i);
        if (!json_is_object(e)) {
            err(L, &pi, 0, "a part must be an object: a test with a \"name\"");
            continue;
        }
        struct claim_test *t = &c->tests[c->ntests++];
        parse_test(L, e, &pi, true, t);
        t->name = get_string(L, e, &pi, "name", true, "the part's name, unique in the claim");
        for (size_t k = 0; t->name && k + 1 < c->ntests; k++)
            if (c->tests[k].name && strcmp(c->tests[k].name, t->name) == 0) {
                struct diag_path pn = sub_key(&pi, "name");
                err(L, &pn, 0, "part name '%s' used twice in claim '%s'", t->name, c->id ? c->id : "?");
            }
    }
}

static void parse_claim(struct loader *L, json_t *obj, const struct diag_path *at, struct claim *c)
{
    memset(c, 0, sizeof *c);
    c->pos = pos_of(L, at);
    c->id = get_string(L, obj, at, "id", true, "letters, digits and '-', unique over every claims file");
    if (c->id && !id_ok(c->id)) {
        struct diag_path p = sub_key(at, "id");
        err(L, &p, 0, "id '%s': letters, digits and single '-' only (a marker may not hold \"--\")", c->id);
    } else if (c->id) {
        const char *file = NULL;
        const struct claim *first = find_id(L, c->id, &file);
        if (first) {
            struct diag_path p = sub_key(at, "id");
            err(L, &p, 0, "id '%s' is declared twice (first at %s:%d:%d)", c->id, file, first->pos.line,
                first->pos.column);
        }
    }
    c->figure = get_string(L, obj, at, "figure", true, "the paper's figure or section");
    c->claim = get_string(L, obj, at, "claim", true, "our one-line reading of the claim");
    c->paper_says = get_string(L, obj, at, "paper_says", true, "the paper's statement and numbers, quoted briefly");
    int rule = get_enum(L, obj, at, "rule", rule_names, 0, "most all some mean");
    if (json_object_get(obj, "workloads")) {
        c->workloads = get_strings(L, obj, at, "workloads", 1, &c->nworkloads, "workload names");
        struct diag_path p = sub_key(at, "workloads");
        c->wpos = pos_of(L, &p);
    }
    json_t *parts = json_object_get(obj, "parts");
    if (parts) {
        c->has_parts = true;
        check_keys(L, obj, at, true, false, false, -1);
        parse_parts(L, parts, at, c);
    } else {
        c->tests = mem_array(1, sizeof *c->tests);
        c->ntests = 1;
        parse_test(L, obj, at, false, &c->tests[0]);
    }
    settle_rules(L, at, c, rule < 0 ? -1 : rule);
}

/* ---- a file ---------------------------------------------------------------------------- */

/* Items of d from `from` on in line:column order (stable), so that a file's
 * errors read top to bottom whichever check found them. */
static void sort_by_position(struct diag *d, size_t from)
{
    for (size_t i = from + 1; i < d->n; i++) {
        struct diag_item it = d->items[i];
        size_t j = i;
        while (j > from && (d->items[j - 1].line > it.line ||
                            (d->items[j - 1].line == it.line && d->items[j - 1].column > it.column))) {
            d->items[j] = d->items[j - 1];
            j--;
        }
        d->items[j] = it;
    }
}

size_t claims_parse(struct claimset *s, const char *text, size_t len, const char *path, struct diag *d)
{
    size_t before = diag_count(d), first = d->n;
    const char *saved = d->file;
    d->file = path;
    struct loader L = {path, text, d, s, NULL, 0};
    json_error_t je;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    char *paper = NULL;
    if (!root) {
        diag_error(d, path, je.line < 1 ? 1 : je.line, je.column < 1 ? 1 : je.column, "%s", je.text);
        goto done;
    }
    struct diag_path top = {0};
    if (!json_is_object(root)) {
        err(&L, &top, 0, "a claims file must be a JSON object {\"paper\": ..., \"claims\": [...]}");
        goto done;
    }
    const char *k;
    json_t *v;
    json_object_foreach(root, k, v) {
        if (in_list(k, top_keys))
            continue;
        char msg[96] = "";
        struct diag_path p = sub_key(&top, k);
        diag_did_you_mean(msg, sizeof msg, diag_suggest(k, top_keys));
        err(&L, &p, 1, "unknown key '%s' at the top of a claims file (known: paper, claims)%s", k, msg);
    }
    paper = get_string(&L, root, &top, "paper", true, "the paper these claims are from");
    for (const char *p = paper; p && *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-' || *p == '_')) {
            struct diag_path pp = sub_key(&top, "paper");
            err(&L, &pp, 0, "'paper' must be a lower-case name ([a-z0-9_-]), as in results/<paper>/");
            break;
        }
    json_t *claims = json_object_get(root, "claims");
    struct diag_path pc = sub_key(&top, "claims");
    if (!claims)
        err(&L, &top, 0, "missing key 'claims' (a list of claims)");
    else if (!json_is_array(claims))
        err(&L, &pc, 0, "'claims' must be a list of claims");
    size_t i;
    json_array_foreach(claims, i, v) {
        struct diag_path pi = sub_index(&pc, i);
        if (!json_is_object(v)) {
            err(&L, &pi, 0, "a claim must be an object");
            continue;
        }
        L.claims = mem_realloc(L.claims, (L.n + 1) * sizeof *L.claims);
        parse_claim(&L, v, &pi, &L.claims[L.n++]);
    }
done:
    diag_resolve(d, path, text);
    sort_by_position(d, first);
    d->file = saved;
    json_decref(root);
    if (diag_count(d) != before) {
        for (size_t c = 0; c < L.n; c++)
            claim_free(&L.claims[c]);
        free(L.claims);
        free(paper);
        return diag_count(d) - before;
    }
    s->files = mem_realloc(s->files, (s->nfiles + 1) * sizeof *s->files);
    s->papers = mem_realloc(s->papers, (s->nfiles + 1) * sizeof *s->papers);
    s->files[s->nfiles] = mem_strdup(path);
    s->papers[s->nfiles] = paper;
    s->claims = mem_realloc(s->claims, (s->n + L.n + 1) * sizeof *s->claims);
    for (size_t c = 0; c < L.n; c++) {
        L.claims[c].file = s->nfiles;
        s->claims[s->n++] = L.claims[c];
    }
    s->nfiles++;
    free(L.claims);
    return 0;
}

size_t claims_load(struct claimset *s, const char *path, struct diag *d)
{
    size_t len;
    char *text = read_file(path, &len);
    if (!text) {
        diag_error(d, path, 0, 0, "cannot read: %s", strerror(errno));
        return 1;
    }
    size_t n = claims_parse(s, text, len, path, d);
    free(text);
    return n;
}

void claimset_free(struct claimset *s)
{
    for (size_t i = 0; i < s->n; i++)
        claim_free(&s->claims[i]);
    free(s->claims);
    for (size_t i = 0; i < s->nfiles; i++) {
        free(s->files[i]);
        free(s->papers[i]);
    }
    free(s->files);
    free(s->papers);
    memset(s, 0, sizeof *s);
}
