/* params.c - resolved parameter values and typed look-ups (see params.h). */
#include "core/params.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void params_defaults(struct param_values *pv, const struct param_spec *spec)
{
    memset(pv, 0, sizeof *pv);
    pv->spec = spec;
    size_t n = 0;
    for (; spec && spec[n].name; n++) {
        if (n >= PARAMS_MAX) {
            fprintf(stderr, "params: more than %d parameters declared\n", PARAMS_MAX);
            abort();
        }
        pv->v[n].r = spec[n].def;
        pv->v[n].i = (int64_t)spec[n].def;
    }
    pv->n = n;
}

const struct param_spec *params_find(const struct param_spec *spec, const char *name, size_t *index)
{
    for (size_t i = 0; spec && spec[i].name; i++)
        if (strcmp(spec[i].name, name) == 0) {
            if (index)
                *index = i;
            return &spec[i];
        }
    return NULL;
}

static const struct param_value *lookup(const struct param_values *pv, const char *name, enum param_type want)
{
    size_t i;
    const struct param_spec *s = params_find(pv->spec, name, &i);
    if (!s || (s->type != want && !(want == PARAM_REAL && s->type == PARAM_INT))) {
        fprintf(stderr, "internal error: parameter '%s' not declared with that type\n", name);
        abort();
    }
    return &pv->v[i];
}

int64_t pv_int(const struct param_values *pv, const char *name) { return lookup(pv, name, PARAM_INT)->i; }
double pv_real(const struct param_values *pv, const char *name) { return lookup(pv, name, PARAM_REAL)->r; }
bool pv_bool(const struct param_values *pv, const char *name) { return lookup(pv, name, PARAM_BOOL)->i != 0; }
int pv_enum(const struct param_values *pv, const char *name) { return (int)lookup(pv, name, PARAM_ENUM)->i; }

const char *pv_enum_str(const struct param_values *pv, const char *name)
{
    /* lookup() aborts on an undeclared name, so the index is always valid. */
    const struct param_value *v = lookup(pv, name, PARAM_ENUM);
    return pv->spec[v - pv->v].choices[v->i];
}

void pv_format(const struct param_values *pv, size_t index, char *buf, size_t len)
{
    const struct param_spec *s = &pv->spec[index];
    const struct param_value *v = &pv->v[index];
    switch (s->type) {
    case PARAM_INT:
    case PARAM_BOOL:
        snprintf(buf, len, "%" PRId64, v->i);
        break;
    case PARAM_REAL:
        snprintf(buf, len, "%.10g", v->r);
        break;
    case PARAM_ENUM:
        snprintf(buf, len, "%s", s->choices[v->i]);
        break;
    }
}

static struct param_value *lookup_mut(struct param_values *pv, const char *name, enum param_type want)
{
    return (struct param_value *)lookup(pv, name, want);
}

static void check_bounds(const struct param_values *pv, const char *name, double v)
{
    const struct param_spec *s = params_find(pv->spec, name, NULL);
    if (s->type != PARAM_ENUM && (v < s->min || v > s->max)) {
        fprintf(stderr, "internal error: parameter '%s' set to %.17g, outside [%.17g, %.17g]\n", name, v, s->min,
                s->max);
        abort();
    }
}

void pv_set_int(struct param_values *pv, const char *name, int64_t v)
{
    check_bounds(pv, name, (double)v);
    struct param_value *x = lookup_mut(pv, name, PARAM_INT);
    x->i = v;
    x->r = (double)v;
}

void pv_set_real(struct param_values *pv, const char *name, double v)
{
    check_bounds(pv, name, v);
    struct param_value *x = lookup_mut(pv, name, PARAM_REAL);
    x->r = v;
    x->i = (int64_t)v;
}

void pv_set_bool(struct param_values *pv, const char *name, bool v)
{
    struct param_value *x = lookup_mut(pv, name, PARAM_BOOL);
    x->i = v;
    x->r = v;
}

void pv_set_enum(struct param_values *pv, const char *name, int index)
{
    struct param_value *x = lookup_mut(pv, name, PARAM_ENUM);
    size_t n = 0;
    const struct param_spec *s = params_find(pv->spec, name, NULL);
    while (s->choices[n])
        n++;
    if (index < 0 || (size_t)index >= n) {
        fprintf(stderr, "internal error: parameter '%s' set to choice %d of %zu\n", name, index, n);
        abort();
    }
    x->i = index;
    x->r = index;
}

bool pv_equal(const struct param_values *a, const struct param_values *b)
{
    if (a->spec != b->spec || a->n != b->n)
        return false;
    for (size_t i = 0; i < a->n; i++) {
        if (a->spec[i].type == PARAM_REAL ? a->v[i].r != b->v[i].r : a->v[i].i != b->v[i].i)
            return false;
    }
    return true;
}
