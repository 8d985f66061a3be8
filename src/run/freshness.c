/* freshness.c - content-based up-to-date check of results (see freshness.h). */
#define _POSIX_C_SOURCE 200809L
#include "run/freshness.h"

#include <sha2.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "buildinfo.h"
#include "core/provenance.h"
#include "trace/windows.h"

/* The family of a model's sources (scripts/families.sh groups the files of
 * src/families, src/stages and src/models by the same prefixes); NULL for a
 * model this table does not know, which then depends on all of them. */
static const char *model_family(const char *name)
{
    static const char *const mh[] = { "multihash", "singlehash", "exact", "stratified", "mh_bound",
                                      "cms_cu",    "spacesaving", NULL };
    for (size_t i = 0; mh[i]; i++)
        if (!strcmp(name, mh[i]))
            return "mh";
    if (!strncmp(name, "conte_", 6))
        return "conte";
    if (!strncmp(name, "rap", 3) || !strncmp(name, "hhh", 3))
        return "rap";
    if (!strncmp(name, "hps", 3))
        return "hps";
    if (!strcmp(name, "counts"))
        return "other";
    return NULL;
}

/* {"core": ..., "<family>": ... for each family the config's models use}:
 * the fingerprints of the sources its results depend on. */
static json_t *code_inputs(const struct config *c)
{
    static const struct {
        const char *family, *sha;
    } fams[] = HWPROF_CODE_FAMILIES;
    json_t *code = json_object();
    json_object_set_new(code, "core", json_string(HWPROF_CODE_SHA));
    for (size_t r = 0; r < c->nruns; r++) {
        const char *f = model_family(c->runs[r].model->name);
        if (!f) {
            json_object_set_new(code, "all_models", json_string(HWPROF_CODE_ALL_MODELS));
            continue;
        }
        for (size_t i = 0; fams[i].family; i++)
            if (!strcmp(fams[i].family, f))
                json_object_set_new(code, f, json_string(fams[i].sha));
    }
    return code;
}

json_t *freshness_inputs(const struct config *c, const struct run_options *o)
{
    char hex[65];
    if (prov_file_sha256_nocache(c->path, hex) != 0)
        return NULL;
    json_t *in = json_object();
    json_object_set_new(in, "config_sha256", json_string(hex));
    json_object_set_new(in, "code", code_inputs(c));
    json_object_set_new(in, "max_events", json_integer((json_int_t)o->max_events));
    json_t *traces = json_object();
    for (size_t w = 0; w < c->nworkloads; w++) {
        struct window_list wl;
        char err[1600];
        int ok = windows_list(o->traces_dir, c->workloads[w], &wl, err, sizeof err) == 0 && wl.n > 0;
        for (int k = 0; ok && k < wl.n; k++) {
            char key[128];
            if (prov_file_sha256(wl.w[k].path, hex) != 0) {
                ok = 0;
                break;
            }
            if (wl.w[k].single)
                snprintf(key, sizeof key, "%s", c->workloads[w]);
            else
                snprintf(key, sizeof key, "%s.w%d", c->workloads[w], wl.w[k].index);
            json_object_set_new(traces, key, json_string(hex));
        }
        windows_free(&wl);
        if (!ok) { /* a missing trace or a bad list: nothing is current (the run says why) */
            json_decref(traces);
            json_decref(in);
            return NULL;
        }
    }
    json_object_set_new(in, "traces", traces);
    return in;
}

/* 1 when every output the sidecar records ({"name": "sha256"}, files in
 * dir) is there with that SHA-256, the main CSV among them. */
static int outputs_intact(const struct config *c, const char *dir, const json_t *outputs)
{
    char main_csv[300];
    snprintf(main_csv, sizeof main_csv, "%s.csv", c->stem);
    if (!json_is_object(outputs) || !json_is_string(json_object_get(outputs, main_csv)))
        return 0;
    const char *name;
    json_t *v;
    json_object_foreach((json_t *)outputs, name, v) {
        char path[1400], hex[65];
        if (!json_is_string(v) || !name[0] || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
            return 0;
        snprintf(path, sizeof path, "%s/%s", dir, name);
        if (prov_file_sha256_nocache(path, hex) != 0 || strcmp(hex, json_string_value(v)) != 0)
            return 0;
    }
    return 1;
}

int freshness_current(const struct config *c, const struct run_options *o, const json_t *inputs)
{
    if (!inputs)
        return 0;
    char dir[1200], path[1600];
    struct stat st;
    snprintf(dir, sizeof dir, "%s/%s", o->out_dir, c->paper);
    snprintf(path, sizeof path, "%s/%s.csv", dir, c->stem);
    if (stat(path, &st) != 0)
        return 0;
    snprintf(path, sizeof path, "%s/%s.json", dir, c->stem);
    json_error_t je;
    json_t *side = json_load_file(path, 0, &je);
    if (!side)
        return 0;
    int same = json_equal(json_object_get(side, "inputs"), (json_t *)inputs) &&
               outputs_intact(c, dir, json_object_get(side, "outputs"));
    json_decref(side);
    return same;
}
