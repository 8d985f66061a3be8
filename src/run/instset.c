/* instset.c - the deduplicated instances of a window (see instset.h): an
 * array of entries and an open-addressing index by key hash. */
#include "run/instset.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/mix64.h"

struct entry {
    bool *tables;   /* the union of the askers' wanted tables (NULL: the model has none) */
    unsigned users; /* askers */
    unsigned refs;  /* askers not released yet */
};

struct instset {
    struct engine_inst *inst;
    struct entry *e;
    size_t n, cap, asked;
    size_t *index; /* slot -> entry + 1, 0 empty; power of two */
    size_t nslots;
    int built;
};

static uint64_t key_hash(const struct model_desc *m, const struct param_values *pv)
{
    uint64_t h = mix64_pair((uint64_t)(uintptr_t)m, (uint64_t)pv->n);
    for (size_t i = 0; i < pv->n; i++) {
        uint64_t v;
        if (pv->spec[i].type == PARAM_REAL)
            memcpy(&v, &pv->v[i].r, sizeof v);
        else
            v = (uint64_t)pv->v[i].i;
        h = mix64_pair(h, v);
    }
    return h;
}

/* pv_equal, but REAL values bit for bit (-0.0 is not 0.0 here). */
static bool key_equal(const struct engine_inst *a, const struct model_desc *m, const struct param_values *pv)
{
    if (a->m != m || a->pv.spec != pv->spec || a->pv.n != pv->n)
        return false;
    for (size_t i = 0; i < pv->n; i++) {
        if (pv->spec[i].type == PARAM_REAL) {
            if (memcmp(&a->pv.v[i].r, &pv->v[i].r, sizeof pv->v[i].r) != 0)
                return false;
        } else if (a->pv.v[i].i != pv->v[i].i) {
            return false;
        }
    }
    return true;
}

struct instset *instset_create(void) { return calloc(1, sizeof(struct instset)); }

void instset_free(struct instset *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++) {
        model_out_free(s->inst[i].out);
        free(s->e[i].tables);
    }
    free(s->inst);
    free(s->e);
    free(s->index);
    free(s);
}

static int grow_index(struct instset *s)
{
    size_t ns = s->nslots ? s->nslots * 2 : 64;
    size_t *ix = calloc(ns, sizeof *ix);
    if (!ix)
        return -1;
    for (size_t i = 0; i < s->n; i++) {
        size_t k = (size_t)key_hash(s->inst[i].m, &s->inst[i].pv) & (ns - 1);
        while (ix[k])
            k = (k + 1) & (ns - 1);
        ix[k] = i + 1;
    }
    free(s->index);
    s->index = ix;
    s->nslots = ns;
    return 0;
}

size_t instset_add(struct instset *s, const struct model_desc *m, const struct param_values *pv,
                   const bool *wanted_tables)
{
    if (s->built)
        return SIZE_MAX;
    if (2 * (s->n + 1) > s->nslots && grow_index(s) != 0)
        return SIZE_MAX;
    size_t nt = model_count_tables(m);
    size_t k = (size_t)key_hash(m, pv) & (s->nslots - 1);
    while (s->index[k]) {
        size_t i = s->index[k] - 1;
        if (key_equal(&s->inst[i], m, pv)) {
            for (size_t t = 0; wanted_tables && t < nt; t++)
                s->e[i].tables[t] |= wanted_tables[t];
            s->e[i].users++;
            s->e[i].refs++;
            s->asked++;
            return i;
        }
        k = (k + 1) & (s->nslots - 1);
    }
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 32;
        struct engine_inst *ni = realloc(s->inst, cap * sizeof *ni);
        if (!ni)
            return SIZE_MAX;
        s->inst = ni;
        struct entry *ne = realloc(s->e, cap * sizeof *ne);
        if (!ne)
            return SIZE_MAX;
        s->e = ne;
        s->cap = cap;
    }
    struct entry *e = &s->e[s->n];
    memset(e, 0, sizeof *e);
    if (nt) {
        e->tables = calloc(nt, sizeof *e->tables);
        if (!e->tables)
            return SIZE_MAX;
        for (size_t t = 0; wanted_tables && t < nt; t++)
            e->tables[t] = wanted_tables[t];
    }
    e->users = e->refs = 1;
    struct engine_inst *in = &s->inst[s->n];
    memset(in, 0, sizeof *in);
    in->m = m;
    in->pv = *pv;
    in->wanted_tables = e->tables;
    s->index[k] = s->n + 1;
    s->asked++;
    return s->n++;
}

size_t instset_count(const struct instset *s) { return s->n; }
size_t instset_asked(const struct instset *s) { return s->asked; }
unsigned instset_users(const struct instset *s, size_t i) { return s->e[i].users; }

struct engine_inst *instset_insts(struct instset *s)
{
    if (!s->built) {
        for (size_t i = 0; i < s->n; i++) {
            s->inst[i].out = model_out_create(s->inst[i].m, s->inst[i].wanted_tables);
            if (!s->inst[i].out)
                return NULL;
        }
        s->built = 1;
    }
    return s->inst;
}

void instset_release(struct instset *s, size_t i)
{
    if (i >= s->n || s->e[i].refs == 0)
        return;
    if (--s->e[i].refs == 0) {
        model_out_free(s->inst[i].out);
        s->inst[i].out = NULL;
    }
}
