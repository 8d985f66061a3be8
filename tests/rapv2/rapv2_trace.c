/* rapv2_trace.c - run one RAP model (rap, rap2d, rap_bound) on a trace
 * file through the stand-in v2 runner and print its metrics and one table,
 * until the real runner can run configs with these models.
 *
 *   build/rapv2/rapv2_trace MODEL TRACE|- [name=value ...] [table=NAME]
 *
 * `-` runs an analytic model without a trace.  Output: "metric value"
 * lines, then the table (default: the model's first) as CSV with a header.
 * Example:
 *   build/rapv2/rapv2_trace rap traces/default/gzip.trace stream=values eps=0.01
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "trace.h"
#include "v2_fake.h"

extern const struct model_desc rap_model, rap2d_model, rap_bound_model, hhh_model;

static int set_param(struct param_values *pv, const char *arg)
{
    const char *eq = strchr(arg, '=');
    if (!eq)
        return -1;
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)(eq - arg), arg);
    size_t i;
    const struct param_spec *s = params_find(pv->spec, name, &i);
    if (!s) {
        fprintf(stderr, "rapv2_trace: no parameter %s\n", name);
        return -1;
    }
    if (s->type == PARAM_ENUM) {
        for (int k = 0; s->choices[k]; k++)
            if (strcmp(s->choices[k], eq + 1) == 0) {
                pv->v[i].i = k;
                return 0;
            }
        fprintf(stderr, "rapv2_trace: %s: no choice %s\n", name, eq + 1);
        return -1;
    }
    char *end;
    double v = strtod(eq + 1, &end);
    if (*end || v < s->min || v > s->max) {
        fprintf(stderr, "rapv2_trace: %s: bad value %s\n", name, eq + 1);
        return -1;
    }
    pv->v[i].r = v;
    pv->v[i].i = (int64_t)v;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: rapv2_trace MODEL TRACE|- [name=value ...] [table=NAME]\n");
        return 2;
    }
    const struct model_desc *all[] = { &rap_model, &rap2d_model, &rap_bound_model, &hhh_model };
    const struct model_desc *m = NULL;
    for (int i = 0; i < 4; i++)
        if (strcmp(all[i]->name, argv[1]) == 0)
            m = all[i];
    if (!m) {
        fprintf(stderr, "rapv2_trace: no model %s\n", argv[1]);
        return 2;
    }
    struct param_values pv;
    params_defaults(&pv, m->params);
    size_t table = 0;
    for (int a = 3; a < argc; a++) {
        if (strncmp(argv[a], "table=", 6) == 0) {
            for (table = 0; m->tables[table].name && strcmp(m->tables[table].name, argv[a] + 6); table++)
                ;
            if (!m->tables[table].name) {
                fprintf(stderr, "rapv2_trace: no table %s\n", argv[a] + 6);
                return 2;
            }
        } else if (set_param(&pv, argv[a]) != 0) {
            return 2;
        }
    }
    char err[512];
    struct model_out out;
    struct v2_job *j = v2_begin(m, &pv, &out, err, sizeof err);
    if (!j) {
        fprintf(stderr, "rapv2_trace: %s\n", err);
        return 1;
    }
    if (strcmp(argv[2], "-") != 0) {
        struct trace_reader *r = trace_reader_open(argv[2], err, sizeof err);
        if (!r) {
            fprintf(stderr, "rapv2_trace: %s\n", err);
            return 1;
        }
        enum { BATCH = 65536 };
        struct event *buf = malloc(BATCH * sizeof *buf);
        long got;
        while ((got = trace_reader_read(r, buf, BATCH)) > 0)
            v2_push(j, buf, (size_t)got);
        if (got < 0) {
            fprintf(stderr, "rapv2_trace: %s\n", trace_reader_error(r));
            return 1;
        }
        free(buf);
        trace_reader_close(r);
    }
    if (v2_end(j) != 0) {
        fprintf(stderr, "rapv2_trace: %s\n", err);
        return 1;
    }
    for (size_t i = 0; m->metrics[i].name; i++)
        printf("%-20s %.10g\n", m->metrics[i].name, out.metrics[i]);
    const struct v2_table *t = &out.tables[table];
    const struct col_spec *c = m->tables[table].cols;
    printf("\n# table %s: %zu rows\n", m->tables[table].name, t->rows);
    for (size_t k = 0; k < t->ncols; k++)
        printf("%s%s", k ? "," : "", c[k].name);
    printf("\n");
    for (size_t r = 0; r < t->rows; r++) {
        for (size_t k = 0; k < t->ncols; k++) {
            const union cell *x = &t->cells[r * t->ncols + k];
            if (k)
                printf(",");
            if (c[k].type == COL_HEX)
                printf("0x%llx", (unsigned long long)x->u);
            else if (c[k].type == COL_INT)
                printf("%lld", (long long)x->i);
            else if (!isnan(x->r))
                printf("%.10g", x->r);
        }
        printf("\n");
    }
    v2_out_free(&out);
    return 0;
}
