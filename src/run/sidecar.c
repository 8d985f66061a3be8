/* sidecar.c - the provenance JSON of a result (see sidecar.h). */
#include "run/sidecar.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/provenance.h"

/* A JSON string of text that may not be valid UTF-8 (a traced command
 * line, cut at a fixed length): bytes that do not form UTF-8 become '?'. */
static json_t *json_text(const char *s)
{
    json_t *j = json_string(s);
    if (j)
        return j;
    size_t n = strlen(s);
    char *t = malloc(n + 1);
    if (!t)
        return json_string("?");
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0, o = 0;
    while (i < n) {
        size_t len = u[i] < 0x80 ? 1 : (u[i] & 0xE0) == 0xC0 ? 2 : (u[i] & 0xF0) == 0xE0 ? 3 : (u[i] & 0xF8) == 0xF0 ? 4 : 0;
        size_t k = 1;
        while (len && k < len && i + k < n && (u[i + k] & 0xC0) == 0x80)
            k++;
        if (len && k == len) {
            json_t *probe = json_stringn(s + i, len); /* rejects overlong forms and surrogates */
            if (probe) {
                json_decref(probe);
                memcpy(t + o, s + i, len);
                o += len;
                i += len;
                continue;
            }
        }
        t[o++] = '?';
        i++;
    }
    t[o] = '\0';
    j = json_string(t);
    free(t);
    return j ? j : json_string("?");
}

json_t *sidecar_param_json(const struct param_values *pv, size_t i)
{
    const struct param_spec *s = &pv->spec[i];
    const struct param_value *v = &pv->v[i];
    switch (s->type) {
    case PARAM_INT:
        return json_integer((json_int_t)v->i);
    case PARAM_REAL:
        return json_real(v->r);
    case PARAM_BOOL:
        return json_boolean(v->i != 0);
    case PARAM_ENUM:
        return json_string(s->choices[v->i]);
    }
    return json_null();
}

static json_t *params_object(const struct param_values *pv)
{
    json_t *o = json_object();
    for (size_t i = 0; i < pv->n; i++)
        json_object_set_new(o, pv->spec[i].name, sidecar_param_json(pv, i));
    return o;
}

/* What a trace window contributes to the numbers. */
static json_t *trace_object(const struct engine_job *j)
{
    json_t *t = json_object();
    json_object_set_new(t, "workload", json_text(j->th.meta.workload));
    json_object_set_new(t, "path", json_text(j->trace_path));
    char hex[65];
    json_object_set_new(t, "sha256", prov_file_sha256(j->trace_path, hex) == 0 ? json_string(hex) : json_null());
    json_object_set_new(t, "producer", json_text(j->th.meta.producer));
    json_object_set_new(t, "command", json_text(j->th.meta.command));
    json_object_set_new(t, "skip", json_integer((json_int_t)j->th.meta.skip));
    json_object_set_new(t, "window", json_integer((json_int_t)j->th.meta.window));
    json_object_set_new(t, "events", json_integer((json_int_t)j->th.events));
    json_t *counts = json_object();
    for (int k = 0; k < EV_KINDS; k++)
        json_object_set_new(counts, ev_kind_name[k], json_integer((json_int_t)j->th.counts[k]));
    json_object_set_new(t, "counts", counts);
    json_object_set_new(t, "events_fed", json_integer((json_int_t)atomic_load(&j->events_done)));
    json_t *meta = json_object(); /* provenance pairs of the trace (format v2) */
    const char *v;
    for (const char *k = trace_meta_next(&j->th.meta, NULL, &v); k; k = trace_meta_next(&j->th.meta, k, &v))
        json_object_set_new(meta, k, json_text(v));
    json_object_set_new(t, "meta", meta);
    return t;
}

int sidecar_write(const struct config *c, const struct engine_job *jobs, size_t njobs, json_t *inputs,
                  json_t *outputs, FILE *f)
{
    json_t *root = json_object();
    json_object_set_new(root, "inputs", inputs ? json_incref(inputs) : json_null());
    json_object_set(root, "outputs", outputs);
    json_object_set(root, "config", c->root);
    json_object_set_new(root, "config_path", json_text(c->path));
    json_t *runs = json_array();
    for (size_t r = 0; r < c->nruns; r++) {
        const struct run_spec *rs = &c->runs[r];
        json_t *ro = json_object();
        json_object_set_new(ro, "label", json_string(rs->label));
        json_object_set_new(ro, "model", json_string(rs->model->name));
        json_object_set_new(ro, "points", json_integer((json_int_t)rs->npoints));
        json_t *pts = json_array();
        for (size_t p = 0; p < rs->npoints; p++) {
            struct param_values pv;
            config_point(rs, p, &pv);
            json_array_append_new(pts, params_object(&pv));
        }
        json_object_set_new(ro, "resolved_params", pts);
        json_array_append_new(runs, ro);
    }
    json_object_set_new(root, "runs", runs);
    json_t *traces = json_array();
    for (size_t i = 0; i < njobs; i++)
        if (jobs[i].trace_path)
            json_array_append_new(traces, trace_object(&jobs[i]));
    json_object_set_new(root, "traces", traces);
    json_object_set_new(root, "build", prov_build(c->path));
    json_t *tools = prov_tools();
    json_object_del(tools, "gnuplot"); /* a property of the drawing host: in the run record */
    json_object_set_new(root, "libraries", tools);
    int rc = json_dumpf(root, f, JSON_INDENT(2) | JSON_SORT_KEYS | JSON_REAL_PRECISION(17));
    fputc('\n', f);
    json_decref(root);
    return rc == 0 ? 0 : -1;
}

int sidecar_write_run(const struct config *c, const struct run_options *o, const struct engine_job *jobs, size_t njobs,
                      double wall, int plan_configs, FILE *f)
{
    json_t *root = json_object();
    json_object_set_new(root, "config_path", json_text(c->path));
    char utc[64];
    prov_utc_now(utc, sizeof utc);
    json_t *rec = json_object();
    json_object_set_new(rec, "created_utc", json_string(utc));
    json_object_set_new(rec, "host", prov_host());
    json_object_set_new(rec, "tools", prov_tools());
    json_t *argv = json_array();
    json_array_append_new(argv, json_string("hwprof"));
    for (int i = 0; i < o->argc; i++)
        json_array_append_new(argv, json_text(o->argv[i]));
    json_object_set_new(rec, "command_line", argv);
    json_object_set_new(rec, "threads", json_integer(o->threads));
    json_object_set_new(rec, "wall_seconds", json_real(floor(wall * 1000) / 1000));
    if (plan_configs > 1)
        json_object_set_new(rec, "plan_configs", json_integer(plan_configs));
    json_t *js = json_array();
    for (size_t i = 0; i < njobs; i++) {
        json_t *t = json_object();
        json_object_set_new(t, "trace", jobs[i].trace_path ? json_text(jobs[i].trace_path) : json_null());
        json_object_set_new(t, "lanes", json_integer(jobs[i].lanes));
        json_object_set_new(t, "seconds", json_real(floor(jobs[i].seconds * 1000) / 1000));
        json_array_append_new(js, t);
    }
    json_object_set_new(rec, "jobs", js);
    json_t *records = json_array();
    json_array_append_new(records, rec);
    json_object_set_new(root, "runs", records);
    int rc = json_dumpf(root, f, JSON_INDENT(2) | JSON_SORT_KEYS | JSON_REAL_PRECISION(10));
    fputc('\n', f);
    json_decref(root);
    return rc == 0 ? 0 : -1;
}
