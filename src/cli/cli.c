/* cli.c - helpers shared by the subcommands (see cli.h). */
#define _POSIX_C_SOURCE 200809L
#include "cli/cli.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int cli_count(const char *v, unsigned long long lo, unsigned long long hi, unsigned long long *out)
{
    char *end;
    if (!v || !*v || *v < '0' || *v > '9')
        return -1;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 10);
    if (errno || *end || x < lo || x > hi)
        return -1;
    *out = x;
    return 0;
}

int cli_real(const char *v, double lo, double hi, double *out)
{
    char *end;
    if (!v || !*v)
        return -1;
    errno = 0;
    double x = strtod(v, &end);
    if (errno || *end || isnan(x) || x < lo || x > hi)
        return -1;
    *out = x;
    return 0;
}

const char *cli_experiments_dir(const char *given)
{
    struct stat st;
    if (given)
        return given;
    return stat("experiments", &st) == 0 && S_ISDIR(st.st_mode) ? "experiments" : NULL;
}

static int add_configs(const char *dir, char (**out)[1024], int *n, int *cap, int depth)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    struct dirent *de;
    char sub[1024];
    int rc = 0;
    while (rc == 0 && (de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        snprintf(sub, sizeof sub, "%s/%s", dir, de->d_name);
        struct stat st;
        if (stat(sub, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            if (depth < 4)
                rc = add_configs(sub, out, n, cap, depth + 1);
            continue;
        }
        size_t l = strlen(de->d_name);
        if (l <= 5 || strcmp(de->d_name + l - 5, ".json") != 0)
            continue;
        if (*n == *cap) {
            int nc = *cap ? *cap * 2 : 64;
            char(*nv)[1024] = realloc(*out, (size_t)nc * sizeof **out);
            if (!nv) {
                rc = -1;
                break;
            }
            *out = nv;
            *cap = nc;
        }
        snprintf((*out)[(*n)++], 1024, "%s", sub);
    }
    closedir(d);
    return rc;
}

static int cmp_path(const void *a, const void *b) { return strcmp((const char *)a, (const char *)b); }

int cli_collect_configs(const char *dir, char (**out)[1024])
{
    int n = 0, cap = 0;
    *out = NULL;
    if (add_configs(dir, out, &n, &cap, 0) != 0) {
        free(*out);
        *out = NULL;
        return -1;
    }
    if (n)
        qsort(*out, (size_t)n, sizeof **out, cmp_path);
    return n;
}
