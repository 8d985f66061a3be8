/* wlnames.c - the workload names of the suite or of a traces folder (see
 * wlnames.h). */
#define _POSIX_C_SOURCE 200809L
#include "run/wlnames.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/windows.h"

/* The length of name[0..len) without a window suffix .w<K> (len when it
 * has none). */
static size_t strip_window(const char *name, size_t len)
{
    size_t k = len;
    while (k > 0 && name[k - 1] >= '0' && name[k - 1] <= '9')
        k--;
    return k < len && k >= 3 && name[k - 1] == 'w' && name[k - 2] == '.' ? k - 2 : len;
}

int wlnames_known(const struct wlnames *src, const char *name)
{
    if (!name[0] || name[0] == '.' || strchr(name, '/'))
        return 0;
    if (src->traces) {
        /* <x>.w<K> names window K of x, not a workload */
        if (strip_window(name, strlen(name)) != strlen(name))
            return 0;
        struct window_list wl;
        char err[256];
        int ok = windows_list(src->dir, name, &wl, err, sizeof err) == 0 && wl.n > 0;
        windows_free(&wl);
        return ok;
    }
    char p[1200];
    snprintf(p, sizeof p, "%s/%s.wl", src->dir, name);
    FILE *f = fopen(p, "r");
    if (f)
        fclose(f);
    return f != NULL;
}

static int cmp_str(const void *a, const void *b) { return strcmp((const char *)a, (const char *)b); }

/* The workload a file of the folder belongs to, into out[64]: <name>.wl,
 * or in a traces folder <name>.trace and <name>.w<K>.trace (hidden files,
 * such as the captures still under way, are none). */
static int name_of(const struct wlnames *src, const char *file, char *out)
{
    size_t len = strlen(file);
    const char *ext = src->traces ? ".trace" : ".wl";
    size_t el = strlen(ext);
    if (file[0] == '.' || len <= el || strcmp(file + len - el, ext) != 0)
        return 0;
    len -= el;
    if (src->traces)
        len = strip_window(file, len);
    if (len == 0 || len >= 64)
        return 0;
    memcpy(out, file, len);
    out[len] = '\0';
    return 1;
}

size_t wlnames_list(const struct wlnames *src, char (*names)[64], size_t max)
{
    size_t n = 0;
    DIR *dd = opendir(src->dir);
    if (!dd)
        return 0;
    struct dirent *de;
    char name[64];
    while ((de = readdir(dd)) != NULL) {
        if (!name_of(src, de->d_name, name))
            continue;
        int seen = 0;
        for (size_t k = 0; k < n && !seen; k++)
            seen = !strcmp(names[k], name);
        if (!seen && n < max)
            memcpy(names[n++], name, sizeof name);
    }
    closedir(dd);
    qsort(names, n, sizeof names[0], cmp_str);
    return n;
}

void wlnames_what(const struct wlnames *src, const char *name, char *buf, size_t len)
{
    if (src->traces)
        snprintf(buf, len, "%s/%s.trace or %s.w<K>.trace", src->dir, name, name);
    else
        snprintf(buf, len, "%s/%s.wl", src->dir, name);
}
