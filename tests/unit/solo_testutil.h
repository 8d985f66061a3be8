/* solo_testutil.h - drive one model instance event by event (with its
 * stages, engine_solo) and read its metrics as an array, for the unit tests
 * that check models against hand-computed values. */
#ifndef SOLO_TESTUTIL_H
#define SOLO_TESTUTIL_H

#include <math.h>
#include <string.h>

#include "run/engine.h"
#include "run/model.h"

#define SOLO_MAX 16
static struct {
    void *model;
    struct engine_solo *solo;
    const struct model_desc *desc;
} solo_map[SOLO_MAX];

static inline struct engine_solo *solo_of(void *model)
{
    for (int i = 0; i < SOLO_MAX; i++)
        if (solo_map[i].model == model && model)
            return solo_map[i].solo;
    fail_msg("no solo instance %p", model);
    return NULL;
}

/* The model instance (NULL with err filled on failure). */
static inline void *solo_create(const struct model_desc *m, const struct param_values *pv, char *err, size_t len)
{
    struct engine_solo *s = engine_solo_create(m, pv, err, len);
    if (!s)
        return NULL;
    for (int i = 0; i < SOLO_MAX; i++)
        if (!solo_map[i].model) {
            solo_map[i].model = engine_solo_model(s);
            solo_map[i].solo = s;
            solo_map[i].desc = m;
            return solo_map[i].model;
        }
    fail_msg("too many solo instances");
    return NULL;
}

static inline void solo_feed(void *model, const struct event *ev, size_t n) { engine_solo_feed(solo_of(model), ev, n); }
static inline void solo_finish(void *model) { engine_solo_finish(solo_of(model)); }

/* Every metric, in the model's order (out has room for 64). */
static inline void solo_report(void *model, double *out)
{
    struct model_out *o = engine_solo_report(solo_of(model));
    const struct model_desc *m = NULL;
    for (int i = 0; i < SOLO_MAX; i++)
        if (solo_map[i].model == model)
            m = solo_map[i].desc;
    size_t n = model_count_metrics(m);
    assert_true(n <= 64);
    for (size_t i = 0; i < n; i++)
        out[i] = model_out_metric(o, i);
}

static inline void solo_free(void *model)
{
    if (!model)
        return;
    for (int i = 0; i < SOLO_MAX; i++)
        if (solo_map[i].model == model) {
            engine_solo_free(solo_map[i].solo);
            solo_map[i].model = NULL;
            solo_map[i].solo = NULL;
        }
}

#endif
