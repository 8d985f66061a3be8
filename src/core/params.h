/* params.h - declared model parameters: one table per model gives every
 * parameter's type, default, inclusive bounds and meaning.  The config
 * validator, the resolved-parameter values handed to models and the generated
 * parameter docs (`hwprof params`) all read these tables, so they cannot drift.
 */
#ifndef PARAMS_H
#define PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum param_type { PARAM_INT, PARAM_REAL, PARAM_BOOL, PARAM_ENUM };

struct param_spec {
    const char *name;
    enum param_type type;
    double def;                 /* INT/REAL/BOOL default; ENUM: index into choices */
    double min, max;            /* inclusive bounds (INT/REAL) */
    const char *const *choices; /* ENUM: NULL-terminated list of accepted strings */
    const char *doc;            /* one-line meaning, shown in docs and errors */
};
/* A model's table ends with an entry whose name is NULL. */
#define PARAM_END { NULL, PARAM_INT, 0, 0, 0, NULL, NULL }
/* The compact form every table uses. */
#define P_INT(name, def, min, max, doc) { name, PARAM_INT, def, min, max, NULL, doc }
#define P_REAL(name, def, min, max, doc) { name, PARAM_REAL, def, min, max, NULL, doc }
#define P_BOOL(name, def, doc) { name, PARAM_BOOL, def, 0, 1, NULL, doc }
#define P_ENUM(name, def, choices, doc) { name, PARAM_ENUM, def, 0, 0, choices, doc }

#define PARAMS_MAX 48

struct param_value {
    int64_t i; /* INT, BOOL (0/1), ENUM (index) */
    double r;  /* REAL (and INT as double) */
};

/* Fully resolved parameters for one model instance: every declared parameter
 * has a value (given or default).  Look-ups are by name and meant for create()
 * time, not for the per-event path. */
struct param_values {
    const struct param_spec *spec;
    size_t n;
    struct param_value v[PARAMS_MAX];
};

void params_defaults(struct param_values *pv, const struct param_spec *spec);
const struct param_spec *params_find(const struct param_spec *spec, const char *name, size_t *index);
/* Typed getters; abort() on an undeclared name (a programming error). */
int64_t pv_int(const struct param_values *pv, const char *name);
double pv_real(const struct param_values *pv, const char *name);
bool pv_bool(const struct param_values *pv, const char *name);
int pv_enum(const struct param_values *pv, const char *name);
const char *pv_enum_str(const struct param_values *pv, const char *name);
/* Setters (building a stage's parameters in a model's plan()); abort() on
 * an undeclared name or a value out of bounds (programming errors). */
void pv_set_int(struct param_values *pv, const char *name, int64_t v);
void pv_set_real(struct param_values *pv, const char *name, double v);
void pv_set_bool(struct param_values *pv, const char *name, bool v);
void pv_set_enum(struct param_values *pv, const char *name, int index);
/* Equal values for every parameter (same spec). */
bool pv_equal(const struct param_values *a, const struct param_values *b);
/* Format a value as it appears in CSV ("%.10g" for numbers, the string for enums). */
void pv_format(const struct param_values *pv, size_t index, char *buf, size_t len);

#endif
