/* windows.c - finding a workload's trace windows (see windows.h). */
#define _POSIX_C_SOURCE 200809L
#include "windows.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int cmp_window(const void *a, const void *b)
{
    const struct window *x = a, *y = b;
    return (x->index > y->index) - (x->index < y->index);
}

int windows_list(const char *dir, const char *workload, struct window **out)
{
    size_t cap = 4, n = 0;
    struct window *w = calloc(cap, sizeof *w);
    if (!w)
        return -1;
    size_t wl = strlen(workload);
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *de;
        while ((de = readdir(d)) != NULL) {
            const char *name = de->d_name;
            /* <workload>.w<digits>.trace */
            if (strncmp(name, workload, wl) != 0 || name[wl] != '.' || name[wl + 1] != 'w')
                continue;
            const char *p = name + wl + 2;
            char *end;
            if (*p < '0' || *p > '9')
                continue;
            long k = strtol(p, &end, 10);
            if (strcmp(end, ".trace") != 0 || k < 0 || k > 100000)
                continue;
            if (n == cap) {
                struct window *nw = realloc(w, 2 * cap * sizeof *nw);
                if (!nw) {
                    closedir(d);
                    free(w);
                    return -1;
                }
                w = nw;
                cap *= 2;
            }
            memset(&w[n], 0, sizeof w[n]);
            snprintf(w[n].path, sizeof w[n].path, "%s/%s", dir, name);
            w[n].index = (int)k;
            n++;
        }
        closedir(d);
    }
    if (n == 0) {
        memset(&w[0], 0, sizeof w[0]);
        snprintf(w[0].path, sizeof w[0].path, "%s/%s.trace", dir, workload);
        w[0].single = 1;
        struct stat st;
        n = stat(w[0].path, &st) == 0 ? 1 : 0;
        *out = w;
        return (int)n;
    }
    qsort(w, n, sizeof *w, cmp_window);
    *out = w;
    return (int)n;
}
