/* parts.c - per-job partial results (see parts.h). */
#define _POSIX_C_SOURCE 200809L
#include "run/parts.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/outfile.h"

#define PART_FORMAT "hwprof-part 1"

void parts_dir(const struct config *c, const char *out_dir, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%s/%s.parts", out_dir, c->paper, c->stem);
}

static json_t *num(double v)
{
    if (isnan(v))
        return json_null();
    if (isinf(v))
        return json_string(v > 0 ? "inf" : "-inf");
    return json_real(v);
}

static int get_num(const json_t *j, double *v)
{
    if (json_is_null(j)) {
        *v = NAN;
        return 0;
    }
    if (json_is_number(j)) {
        *v = json_number_value(j);
        return 0;
    }
    if (json_is_string(j) && !strcmp(json_string_value(j), "inf")) {
        *v = INFINITY;
        return 0;
    }
    if (json_is_string(j) && !strcmp(json_string_value(j), "-inf")) {
        *v = -INFINITY;
        return 0;
    }
    return -1;
}

static json_t *cell_json(enum col_type t, const union cell *c)
{
    char buf[32];
    switch (t) {
    case COL_REAL:
        return num(c->r);
    case COL_INT:
        return json_integer((json_int_t)c->i);
    case COL_HEX:
        snprintf(buf, sizeof buf, "%" PRIx64, c->u);
        return json_string(buf);
    case COL_TEXT:
        return json_string(c->s ? c->s : "");
    }
    return json_null();
}

static int cell_from(enum col_type t, const json_t *j, union cell *c)
{
    switch (t) {
    case COL_REAL:
        return get_num(j, &c->r);
    case COL_INT:
        if (!json_is_integer(j))
            return -1;
        c->i = (int64_t)json_integer_value(j);
        return 0;
    case COL_HEX: {
        if (!json_is_string(j))
            return -1;
        char *end;
        errno = 0;
        c->u = strtoull(json_string_value(j), &end, 16);
        return errno || *end ? -1 : 0;
    }
    case COL_TEXT:
        if (!json_is_string(j))
            return -1;
        c->s = json_string_value(j);
        return 0;
    }
    return -1;
}

static json_t *header_json(const struct trace_header *th)
{
    json_t *h = json_object();
    json_object_set_new(h, "workload", json_string(th->meta.workload));
    json_object_set_new(h, "producer", json_string(th->meta.producer));
    json_object_set_new(h, "command", json_stringn(th->meta.command, strnlen(th->meta.command, sizeof th->meta.command)));
    json_object_set_new(h, "skip", json_integer((json_int_t)th->meta.skip));
    json_object_set_new(h, "window", json_integer((json_int_t)th->meta.window));
    json_object_set_new(h, "flags", json_integer((json_int_t)th->meta.flags));
    json_object_set_new(h, "version", json_integer((json_int_t)th->version));
    json_object_set_new(h, "events", json_integer((json_int_t)th->events));
    json_object_set_new(h, "blocks", json_integer((json_int_t)th->blocks));
    json_object_set_new(h, "payload_bytes", json_integer((json_int_t)th->payload_bytes));
    json_t *counts = json_array();
    for (int k = 0; k < EV_KINDS; k++)
        json_array_append_new(counts, json_integer((json_int_t)th->counts[k]));
    json_object_set_new(h, "counts", counts);
    json_object_set_new(h, "meta_bytes", json_integer((json_int_t)th->meta_bytes));
    json_t *meta = json_array(); /* pairs, in stored order */
    const char *v;
    for (const char *k = trace_meta_next(&th->meta, NULL, &v); k; k = trace_meta_next(&th->meta, k, &v)) {
        json_t *pair = json_array();
        json_array_append_new(pair, json_string(k));
        json_array_append_new(pair, json_string(v));
        json_array_append_new(meta, pair);
    }
    json_object_set_new(h, "meta", meta);
    return h;
}

static int copy_str(const json_t *o, const char *key, char *dst, size_t len)
{
    const json_t *v = json_object_get(o, key);
    if (!json_is_string(v) || json_string_length(v) >= len)
        return -1;
    memcpy(dst, json_string_value(v), json_string_length(v) + 1);
    return 0;
}

static int get_u64(const json_t *o, const char *key, uint64_t *out)
{
    const json_t *v = json_object_get(o, key);
    if (!json_is_integer(v))
        return -1;
    *out = (uint64_t)json_integer_value(v);
    return 0;
}

static int header_from(const json_t *h, struct trace_header *th)
{
    memset(th, 0, sizeof *th);
    uint64_t flags = 0, version = 0;
    if (!json_is_object(h) || copy_str(h, "workload", th->meta.workload, sizeof th->meta.workload) ||
        copy_str(h, "producer", th->meta.producer, sizeof th->meta.producer) ||
        copy_str(h, "command", th->meta.command, sizeof th->meta.command) || get_u64(h, "skip", &th->meta.skip) ||
        get_u64(h, "window", &th->meta.window) || get_u64(h, "flags", &flags) || get_u64(h, "version", &version) ||
        get_u64(h, "events", &th->events) || get_u64(h, "blocks", &th->blocks) ||
        get_u64(h, "payload_bytes", &th->payload_bytes))
        return -1;
    th->meta.flags = (uint32_t)flags;
    th->version = (uint32_t)version;
    const json_t *counts = json_object_get(h, "counts");
    if (!json_is_array(counts) || json_array_size(counts) != EV_KINDS)
        return -1;
    for (int k = 0; k < EV_KINDS; k++) {
        const json_t *v = json_array_get(counts, (size_t)k);
        if (!json_is_integer(v))
            return -1;
        th->counts[k] = (uint64_t)json_integer_value(v);
    }
    uint64_t mb = 0;
    if (get_u64(h, "meta_bytes", &mb) != 0)
        return -1;
    th->meta_bytes = (uint32_t)mb;
    const json_t *meta = json_object_get(h, "meta");
    if (!json_is_array(meta))
        return -1;
    for (size_t i = 0; i < json_array_size(meta); i++) {
        const json_t *pair = json_array_get(meta, i);
        char err[256];
        if (!json_is_array(pair) || json_array_size(pair) != 2 || !json_is_string(json_array_get(pair, 0)) ||
            !json_is_string(json_array_get(pair, 1)) ||
            trace_meta_set(&th->meta, json_string_value(json_array_get(pair, 0)),
                           json_string_value(json_array_get(pair, 1)), err, sizeof err) != 0)
            return -1;
    }
    return 0;
}

static json_t *id_json(const struct part_id *id)
{
    json_t *o = json_object();
    json_object_set_new(o, "job", json_integer((json_int_t)id->job));
    json_object_set_new(o, "workload", id->workload ? json_string(id->workload) : json_null());
    json_object_set_new(o, "window", json_integer(id->window));
    json_object_set_new(o, "trace_path", id->trace_path ? json_string(id->trace_path) : json_null());
    json_object_set_new(o, "trace_sha256", json_string(id->trace_sha256 ? id->trace_sha256 : ""));
    return o;
}

int parts_write_job(const char *dir, const struct part_id *id, const json_t *inputs, const struct engine_job *j,
                    double weight)
{
    json_t *root = json_object();
    json_object_set_new(root, "format", json_string(PART_FORMAT));
    json_object_set_new(root, "id", id_json(id));
    json_t *in = json_object();
    json_object_set(in, "config_sha256", json_object_get(inputs, "config_sha256"));
    json_object_set(in, "code", json_object_get(inputs, "code"));
    json_object_set(in, "max_events", json_object_get(inputs, "max_events"));
    json_object_set_new(root, "inputs", in);
    json_object_set_new(root, "weight", num(weight));
    json_object_set_new(root, "events_fed", json_integer((json_int_t)atomic_load(&j->events_done)));
    json_object_set_new(root, "seconds", json_real(j->seconds));
    json_object_set_new(root, "lanes", json_integer(j->lanes));
    if (id->trace_path)
        json_object_set_new(root, "header", header_json(&j->th));
    json_t *insts = json_array();
    for (size_t i = 0; i < j->ninst; i++) {
        const struct engine_inst *e = &j->inst[i];
        json_t *io = json_object();
        json_object_set_new(io, "model", json_string(e->m->name));
        json_t *ms = json_array();
        size_t nm = model_count_metrics(e->m);
        for (size_t k = 0; k < nm; k++)
            json_array_append_new(ms, num(model_out_metric(e->out, k)));
        json_object_set_new(io, "metrics", ms);
        json_t *tabs = json_array();
        for (size_t t = 0; e->m->tables && e->m->tables[t].name; t++) {
            json_t *rows = json_array();
            size_t nc = table_count_cols(&e->m->tables[t]);
            /* only the tables this config wants: an output shared with
             * another config (run_plan.c) holds the other's tables too */
            size_t nr = e->wanted_tables && e->wanted_tables[t] ? model_out_rows(e->out, t) : 0;
            for (size_t r = 0; r < nr; r++) {
                const union cell *cells = model_out_row(e->out, t, r);
                json_t *row = json_array();
                for (size_t c = 0; c < nc; c++)
                    json_array_append_new(row, cell_json(e->m->tables[t].cols[c].type, &cells[c]));
                json_array_append_new(rows, row);
            }
            json_array_append_new(tabs, rows);
        }
        json_object_set_new(io, "tables", tabs);
        json_array_append_new(insts, io);
    }
    json_object_set_new(root, "instances", insts);
    char path[1400];
    snprintf(path, sizeof path, "%s/job-%zu.json", dir, id->job);
    struct outfile of;
    FILE *f = outfile_open(&of, path);
    int rc = -1;
    if (f) {
        rc = json_dumpf(root, f, JSON_COMPACT | JSON_REAL_PRECISION(17)) == 0 ? 0 : -1;
        fputc('\n', f);
        if (outfile_close(&of) != 0)
            rc = -1;
        if (rc == 0)
            rc = outfile_commit(&of, 1);
        else
            outfile_discard(&of, 1);
    }
    json_decref(root);
    return rc;
}

static int same_str(const json_t *a, const json_t *b) { return json_is_string(a) && json_is_string(b) && json_equal((json_t *)a, (json_t *)b); }

int parts_load_job(const char *dir, const struct part_id *id, const json_t *inputs, struct engine_job *j,
                   double *weight, char *why, size_t whylen)
{
    char path[1400];
    snprintf(path, sizeof path, "%s/job-%zu.json", dir, id->job);
    why[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    json_error_t je;
    json_t *root = json_loadf(f, 0, &je);
    fclose(f);
    if (!root) {
        snprintf(why, whylen, "%s:%d:%d: %s", path, je.line, je.column, je.text);
        return -1;
    }
    int rc = -1;
    const json_t *pid = json_object_get(root, "id"), *pin = json_object_get(root, "inputs");
    if (!json_is_string(json_object_get(root, "format")) ||
        strcmp(json_string_value(json_object_get(root, "format")), PART_FORMAT) != 0) {
        snprintf(why, whylen, "%s: not a part of this hwprof (format)", path);
        goto out;
    }
    /* the same job of the same config, sources and trace */
    json_t *want = id_json(id);
    int same_id = json_equal((json_t *)pid, want);
    json_decref(want);
    if (!same_id) {
        snprintf(why, whylen, "%s: made for another job or trace window (workload, window or trace changed)", path);
        rc = 0;
        goto out;
    }
    static const char *const keys[] = { "config_sha256", "code", "max_events" };
    for (int k = 0; k < 3; k++)
        if (!json_equal(json_object_get(pin, keys[k]), json_object_get(inputs, keys[k]))) {
            snprintf(why, whylen, "%s: made with another %s", path,
                     k == 0 ? "config (config_sha256)" : k == 1 ? "hwprof build (code)" : "event limit (max_events)");
            rc = 0;
            goto out;
        }
    (void)same_str;
    const json_t *insts = json_object_get(root, "instances");
    if (!json_is_array(insts) || json_array_size(insts) != j->ninst) {
        snprintf(why, whylen, "%s: %zu instances, the config has %zu", path, json_array_size(insts), j->ninst);
        goto out;
    }
    if (id->trace_path && header_from(json_object_get(root, "header"), &j->th) != 0) {
        snprintf(why, whylen, "%s: damaged trace header", path);
        goto out;
    }
    uint64_t fed = 0;
    if (get_u64(root, "events_fed", &fed) != 0 || get_num(json_object_get(root, "weight"), weight) != 0) {
        snprintf(why, whylen, "%s: damaged", path);
        goto out;
    }
    atomic_store(&j->events_done, fed);
    double secs = 0;
    get_num(json_object_get(root, "seconds"), &secs);
    j->seconds = secs;
    j->lanes = (int)json_integer_value(json_object_get(root, "lanes"));
    for (size_t i = 0; i < j->ninst; i++) {
        struct engine_inst *e = &j->inst[i];
        const json_t *io = json_array_get(insts, i);
        const json_t *ms = json_object_get(io, "metrics"), *tabs = json_object_get(io, "tables");
        size_t nm = model_count_metrics(e->m), nt = model_count_tables(e->m);
        if (!json_is_string(json_object_get(io, "model")) || strcmp(json_string_value(json_object_get(io, "model")), e->m->name) ||
            !json_is_array(ms) || json_array_size(ms) != nm || !json_is_array(tabs) || json_array_size(tabs) != nt) {
            snprintf(why, whylen, "%s: instance %zu does not match model '%s'", path, i, e->m->name);
            goto out;
        }
        for (size_t k = 0; k < nm; k++) {
            double v;
            if (get_num(json_array_get(ms, k), &v) != 0) {
                snprintf(why, whylen, "%s: instance %zu metric %zu damaged", path, i, k);
                goto out;
            }
            out_metric(e->out, k, v);
        }
        for (size_t t = 0; t < nt; t++) {
            const json_t *rows = json_array_get(tabs, t);
            size_t nc = table_count_cols(&e->m->tables[t]);
            union cell cells[64];
            if (nc > 64 || !json_is_array(rows)) {
                snprintf(why, whylen, "%s: instance %zu table %zu damaged", path, i, t);
                goto out;
            }
            for (size_t r = 0; r < json_array_size(rows); r++) {
                const json_t *row = json_array_get(rows, r);
                if (!json_is_array(row) || json_array_size(row) != nc) {
                    snprintf(why, whylen, "%s: instance %zu table %zu row %zu damaged", path, i, t, r);
                    goto out;
                }
                for (size_t c = 0; c < nc; c++)
                    if (cell_from(e->m->tables[t].cols[c].type, json_array_get(row, c), &cells[c]) != 0) {
                        snprintf(why, whylen, "%s: instance %zu table %zu row %zu damaged", path, i, t, r);
                        goto out;
                    }
                out_row(e->out, t, cells);
            }
        }
    }
    rc = 1;
out:
    json_decref(root);
    return rc;
}

int parts_write_shard_done(const char *dir, int shard, int nshards, size_t first_job, size_t njobs)
{
    char path[1400];
    snprintf(path, sizeof path, "%s/shard-%d-of-%d.done", dir, shard, nshards);
    struct outfile of;
    FILE *f = outfile_open(&of, path);
    if (!f)
        return -1;
    fprintf(f, "jobs %zu..%zu\n", first_job, first_job + njobs);
    if (outfile_close(&of) != 0)
        return -1;
    return outfile_commit(&of, 1);
}

void parts_remove(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *de;
    char path[1400];
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        unlink(path);
    }
    closedir(d);
    rmdir(dir);
}
