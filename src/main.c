/* main.c - `hwprof`, the harness's one binary: dispatch to subcommands.
 *
 *   hwprof run CONFIG... [--traces DIR] [--out DIR] [--experiments DIR]
 *                        [--threads N] [--max-events N] [--quiet]
 *   hwprof validate [CONFIG...]        (default: every configs/<paper>/<fig>.json)
 *   hwprof models                      registered models, metrics, series
 *   hwprof params [MODEL]              parameter tables (markdown)
 *   hwprof plot CONFIG ...             results -> plots (src/plot.c)
 *   hwprof table CONFIG ...            results -> markdown table
 *   hwprof trace info|check|cat|import ...   (src/trace_cli.c)
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config.h"
#include "model.h"
#include "plot.h"
#include "run.h"
#include "trace_cli.h"

static void usage(FILE *f)
{
    fputs("usage: hwprof <command> [options]\n"
          "  run CONFIG... [--traces DIR] [--out DIR] [--experiments DIR] [--threads N]\n"
          "                [--max-events N] [--quiet]\n"
          "                             run sweeps; write <out>/<paper>/<stem>.csv/.json\n"
          "  validate [CONFIG...]       check configs (default: configs/*/*.json)\n"
          "  models                     list models, their metrics and series columns\n"
          "  params [MODEL]             parameter tables (markdown)\n"
          "  plot CONFIG [...]          render plots/<paper>/<stem>.svg/.png\n"
          "  table CONFIG [...]         render results/<paper>/<stem>.md\n"
          "  trace info|check|cat|import ...  inspect, verify, print, import traces\n"
          "defaults: --traces traces/default --out results --experiments experiments --threads 2\n",
          f);
}

static const char *experiments_dir(const char *given)
{
    struct stat st;
    if (given)
        return given;
    return stat("experiments", &st) == 0 && S_ISDIR(st.st_mode) ? "experiments" : NULL;
}

/* A whole decimal number in [lo, hi]; -1 if v is not one. */
static int parse_count(const char *v, unsigned long long lo, unsigned long long hi, unsigned long long *out)
{
    char *end;
    if (!*v || *v < '0' || *v > '9')
        return -1;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 10);
    if (errno || *end || x < lo || x > hi)
        return -1;
    *out = x;
    return 0;
}

static int cmd_run(int argc, char **argv)
{
    struct run_options o = { "traces/default", "results", 2, 0, 0 };
    const char *exp = NULL;
    const char *configs[256];
    int nconf = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--traces") || !strcmp(a, "--out") || !strcmp(a, "--experiments") ||
            !strcmp(a, "--threads") || !strcmp(a, "--max-events")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "hwprof run: option '%s' needs a value\n", a);
                return 2;
            }
            const char *v = argv[++i];
            unsigned long long x;
            if (!strcmp(a, "--traces")) {
                o.traces_dir = v;
            } else if (!strcmp(a, "--out")) {
                o.out_dir = v;
            } else if (!strcmp(a, "--experiments")) {
                exp = v;
            } else if (!strcmp(a, "--threads")) {
                if (parse_count(v, 1, 16, &x) != 0) {
                    fprintf(stderr, "hwprof run: --threads must be a whole number in [1, 16], not '%s'\n", v);
                    return 2;
                }
                o.threads = (int)x;
            } else {
                if (parse_count(v, 1, SIZE_MAX, &x) != 0) {
                    fprintf(stderr, "hwprof run: --max-events must be a whole number >= 1, not '%s'\n", v);
                    return 2;
                }
                o.max_events = (size_t)x;
            }
        } else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
            o.quiet = 1;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (a[0] == '-') {
            fprintf(stderr, "hwprof run: unknown option '%s'\n", a);
            usage(stderr);
            return 2;
        } else if (nconf < 256) {
            configs[nconf++] = a;
        } else {
            fprintf(stderr, "hwprof run: at most 256 configs at a time\n");
            return 2;
        }
    }
    if (nconf == 0) {
        usage(stderr);
        return 2;
    }
    exp = experiments_dir(exp);
    /* Every config is checked before the first one runs. */
    struct config *cs[256];
    for (int i = 0; i < nconf; i++) {
        char err[2048];
        cs[i] = config_load(configs[i], exp, err, sizeof err);
        if (!cs[i]) {
            fprintf(stderr, "%s\n", err);
            for (int k = 0; k < i; k++)
                config_free(cs[k]);
            return 1;
        }
    }
    int rc = 0;
    for (int i = 0; i < nconf; i++) {
        if (rc == 0)
            rc = run_config(cs[i], &o);
        config_free(cs[i]);
    }
    return rc;
}

static int collect_configs(const char *dir, char (*out)[1024], int max)
{
    int n = 0;
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    struct dirent *de;
    char sub[1024];
    while ((de = readdir(d)) != NULL && n < max) {
        if (de->d_name[0] == '.')
            continue;
        snprintf(sub, sizeof sub, "%s/%s", dir, de->d_name);
        struct stat st;
        if (stat(sub, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            n += collect_configs(sub, out + n, max - n);
        } else {
            size_t l = strlen(de->d_name);
            if (l > 5 && !strcmp(de->d_name + l - 5, ".json"))
                snprintf(out[n++], 1024, "%s", sub);
        }
    }
    closedir(d);
    return n;
}

static int cmp_path(const void *a, const void *b) { return strcmp((const char *)a, (const char *)b); }

static int cmd_validate(int argc, char **argv)
{
    static char paths[1024][1024];
    int n = 0;
    const char *exp = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--experiments")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "hwprof validate: option '--experiments' needs a value\n");
                return 2;
            }
            exp = argv[++i];
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "hwprof validate: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        } else if (n < 1024) {
            snprintf(paths[n++], 1024, "%s", argv[i]);
        }
    }
    if (n == 0) {
        struct stat st;
        if (stat("configs", &st) != 0 || !S_ISDIR(st.st_mode)) {
            fprintf(stderr, "hwprof validate: no configs/ folder here: run it from the repository's top, or "
                            "name the configs to check\n");
            return 2;
        }
        n = collect_configs("configs", paths, 1024);
        qsort(paths, (size_t)n, sizeof paths[0], cmp_path);
    }
    exp = experiments_dir(exp);
    if (!exp)
        fprintf(stderr, "hwprof validate: no experiments/ folder here (--experiments DIR): workload names are "
                        "not checked\n");
    int bad = 0;
    for (int i = 0; i < n; i++) {
        char err[2048];
        struct config *c = config_load(paths[i], exp, err, sizeof err);
        if (!c) {
            fprintf(stderr, "%s\n", err);
            bad++;
        }
        config_free(c);
    }
    printf("%d config%s checked, %d invalid\n", n, n == 1 ? "" : "s", bad);
    return bad ? 1 : 0;
}

static int cmd_models(void)
{
    for (const struct model_ops *const *m = model_all(); *m; m++) {
        printf("%s: %s\n  metrics:", (*m)->name, (*m)->summary);
        for (size_t i = 0; (*m)->metrics && (*m)->metrics[i]; i++)
            printf(" %s", (*m)->metrics[i]);
        if ((*m)->series_cols) {
            printf("\n  series:");
            for (size_t i = 0; (*m)->series_cols[i]; i++)
                printf(" %s", (*m)->series_cols[i]);
        }
        printf("\n");
    }
    return 0;
}

static void print_params(const struct model_ops *m)
{
    printf("### `%s`\n\n%s\n\n", m->name, m->summary);
    if (!m->params || !m->params[0].name) {
        printf("(no parameters)\n\n");
        return;
    }
    printf("| parameter | type | default | range | meaning |\n|---|---|---|---|---|\n");
    for (const struct param_spec *s = m->params; s->name; s++) {
        static const char *const tn[] = { "int", "real", "bool", "enum" };
        printf("| `%s` | %s | ", s->name, tn[s->type]);
        if (s->type == PARAM_ENUM)
            printf("%s | ", s->choices[(int)s->def]);
        else if (s->type == PARAM_BOOL)
            printf("%s | ", s->def != 0 ? "true" : "false");
        else
            printf("%.10g | ", s->def);
        if (s->type == PARAM_ENUM) {
            for (size_t i = 0; s->choices[i]; i++)
                printf("%s%s", i ? ", " : "", s->choices[i]);
        } else if (s->type == PARAM_BOOL) {
            printf("true, false");
        } else {
            printf("[%.10g, %.10g]", s->min, s->max);
        }
        printf(" | %s |\n", s->doc);
    }
    printf("\n");
}

static int cmd_params(int argc, char **argv)
{
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        usage(stdout);
        return 0;
    }
    if (argc > 2) {
        fprintf(stderr, "hwprof params: one model at most (see `hwprof models`)\n");
        return 2;
    }
    if (argc > 1) {
        const struct model_ops *m = model_find(argv[1]);
        if (!m) {
            fprintf(stderr, "hwprof params: unknown model '%s' (see `hwprof models`)\n", argv[1]);
            return 1;
        }
        print_params(m);
        return 0;
    }
    printf("# Model parameters\n\nGenerated by `hwprof params` from the tables the config validator uses.\n\n");
    for (const struct model_ops *const *m = model_all(); *m; m++)
        print_params(*m);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "run"))
        return cmd_run(argc - 1, argv + 1);
    if (!strcmp(cmd, "validate"))
        return cmd_validate(argc - 1, argv + 1);
    if (!strcmp(cmd, "models"))
        return cmd_models();
    if (!strcmp(cmd, "params"))
        return cmd_params(argc - 1, argv + 1);
    if (!strcmp(cmd, "plot"))
        return plot_main(argc - 1, argv + 1);
    if (!strcmp(cmd, "table"))
        return table_main(argc - 1, argv + 1);
    if (!strcmp(cmd, "trace"))
        return trace_cli_main(argc - 1, argv + 1);
    if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
        usage(stdout);
        return 0;
    }
    fprintf(stderr, "hwprof: unknown command '%s'\n", cmd);
    usage(stderr);
    return 2;
}
