/* param_testutil.h - build a model's parameter values in a test: its
 * defaults, then values by name (an enum by its choice's string).  Every
 * unit test that sets parameters uses these (engine_testutil.h includes
 * this file). */
#ifndef PARAM_TESTUTIL_H
#define PARAM_TESTUTIL_H

#include <string.h>

#include "core/params.h"
#include "run/model.h"

/* Defaults of a registered model's parameters. */
static inline struct param_values tu_params(const char *model)
{
    const struct model_desc *m = model_find(model);
    if (!m)
        fail_msg("no model '%s'", model);
    struct param_values pv;
    params_defaults(&pv, m->params);
    return pv;
}

static inline void tu_set_enum(struct param_values *pv, const char *name, const char *choice)
{
    const struct param_spec *s = params_find(pv->spec, name, NULL);
    assert_non_null(s);
    for (int k = 0; s->choices[k]; k++)
        if (strcmp(s->choices[k], choice) == 0) {
            pv_set_enum(pv, name, k);
            return;
        }
    fail_msg("no choice %s for %s", choice, name);
}

/* Set an int, real or bool parameter by value. */
static inline void tu_set(struct param_values *pv, const char *name, double v)
{
    size_t i;
    const struct param_spec *s = params_find(pv->spec, name, &i);
    assert_non_null(s);
    if (s->type == PARAM_REAL)
        pv_set_real(pv, name, v);
    else if (s->type == PARAM_BOOL)
        pv_set_bool(pv, name, v != 0);
    else
        pv_set_int(pv, name, (int64_t)v);
}

#endif
