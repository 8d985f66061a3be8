/* windows.c - finding and checking a workload's trace windows (see windows.h). */
#define _POSIX_C_SOURCE 200809L
#include "trace/windows.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "trace/trace.h"

#define MAX_WINDOW 100000

static int cmp_window(const void *a, const void *b)
{
    const struct window *x = a, *y = b;
    return (x->index > y->index) - (x->index < y->index);
}

/* A whole number written without sign, spaces or leading zeros (at most
 * max); -1 otherwise. */
static long plain_number(const char *s, long max)
{
    if (*s < '0' || *s > '9' || (s[0] == '0' && s[1]))
        return -1;
    long v = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        v = v * 10 + (*s - '0');
        if (v > max)
            return -1;
    }
    return v;
}

/* K when name is "<workload>.w<K>.trace", else -1. */
static long window_number(const char *name, const char *workload)
{
    size_t wl = strlen(workload), n = strlen(name);
    if (strncmp(name, workload, wl) != 0 || name[wl] != '.' || name[wl + 1] != 'w' || n < wl + 2 + 1 + 6 ||
        strcmp(name + n - 6, ".trace") != 0)
        return -1;
    char digits[16];
    size_t nd = n - 6 - (wl + 2);
    if (nd >= sizeof digits)
        return -1;
    memcpy(digits, name + wl + 2, nd);
    digits[nd] = '\0';
    return plain_number(digits, MAX_WINDOW);
}

static struct window *add_window(struct window_list *wl, size_t *cap, char *err, size_t errlen)
{
    if ((size_t)wl->n == *cap) {
        struct window *nw = realloc(wl->w, 2 * *cap * sizeof *nw);
        if (!nw) {
            snprintf(err, errlen, "out of memory");
            return NULL;
        }
        wl->w = nw;
        *cap *= 2;
    }
    struct window *w = &wl->w[wl->n++];
    memset(w, 0, sizeof *w);
    return w;
}

/* The list's windows: "window K slice start weight <workload>.w<K>.trace",
 * K = 0, 1, ... in order. */
static int read_list(struct window_list *wl, size_t *cap, char *err, size_t errlen)
{
    FILE *f = fopen(wl->list, "r");
    if (!f) {
        snprintf(err, errlen, "%s: cannot read: %s", wl->list, strerror(errno));
        return -1;
    }
    char line[2048];
    int ln = 0, rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        ln++;
        size_t len = strlen(line);
        if (len == sizeof line - 1 && line[len - 1] != '\n') {
            snprintf(err, errlen, "%s: line %d: longer than %zu bytes", wl->list, ln, sizeof line - 2);
            rc = -1;
            break;
        }
        while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        char *p = line + strspn(line, " \t");
        if (!*p || *p == '#')
            continue;
        char *tok[7], *save = NULL;
        int nt = 0;
        for (char *t = strtok_r(p, " \t", &save); t && nt < 7; t = strtok_r(NULL, " \t", &save))
            tok[nt++] = t;
        if (nt != 6 || strcmp(tok[0], "window") != 0) {
            snprintf(err, errlen, "%s: line %d: expected 'window K slice start weight trace'", wl->list, ln);
            rc = -1;
            break;
        }
        long k = plain_number(tok[1], MAX_WINDOW);
        if (k != wl->n) {
            snprintf(err, errlen, "%s: line %d: window %d expected here (windows are numbered 0, 1, ... in order), not '%.20s'",
                     wl->list, ln, wl->n, tok[1]);
            rc = -1;
            break;
        }
        char *end;
        double weight = strtod(tok[4], &end);
        if (plain_number(tok[2], 1000000000L) < 0 || strspn(tok[3], "0123456789") != strlen(tok[3]) ||
            *end || end == tok[4] || !isfinite(weight) || weight < 0 || strlen(tok[4]) >= sizeof wl->w->weight_text) {
            snprintf(err, errlen, "%s: line %d: expected 'window K slice start weight trace' with whole numbers and a weight >= 0",
                     wl->list, ln);
            rc = -1;
            break;
        }
        if (window_number(tok[5], wl->workload) != k) {
            snprintf(err, errlen, "%s: line %d: window %ld of workload '%s' is %s.w%ld.trace, not '%.100s'", wl->list,
                     ln, k, wl->workload, wl->workload, k, tok[5]);
            rc = -1;
            break;
        }
        struct window *w = add_window(wl, cap, err, errlen);
        if (!w) {
            rc = -1;
            break;
        }
        snprintf(w->path, sizeof w->path, "%s/%s", wl->dir, tok[5]);
        w->index = (int)k;
        w->line = ln;
        w->weight = weight;
        snprintf(w->weight_text, sizeof w->weight_text, "%s", tok[4]);
    }
    if (rc == 0 && ferror(f)) {
        snprintf(err, errlen, "%s: cannot read: %s", wl->list, strerror(errno));
        rc = -1;
    }
    fclose(f);
    if (rc == 0 && wl->n == 0) {
        snprintf(err, errlen, "%s: lists no window", wl->list);
        rc = -1;
    }
    return rc;
}

int windows_list(const char *dir, const char *workload, struct window_list *wl, char *err, size_t errlen)
{
    memset(wl, 0, sizeof *wl);
    size_t cap = 4;
    wl->w = calloc(cap, sizeof *wl->w);
    if (!wl->w) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    snprintf(wl->dir, sizeof wl->dir, "%s", dir);
    snprintf(wl->workload, sizeof wl->workload, "%s", workload);
    char list[1200];
    snprintf(list, sizeof list, "%s/%s.windows", dir, workload);
    struct stat st;
    if (stat(list, &st) == 0) {
        snprintf(wl->list, sizeof wl->list, "%s", list);
        if (read_list(wl, &cap, err, errlen) != 0)
            return -1;
    }
    /* The .w<K>.trace files: the windows, or (with a list) those it leaves out. */
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *de;
        while ((de = readdir(d)) != NULL) {
            long k = window_number(de->d_name, workload);
            if (k < 0)
                continue;
            if (wl->list[0]) {
                if (k >= wl->n && wl->unlisted++ == 0)
                    snprintf(wl->unlisted_path, sizeof wl->unlisted_path, "%s/%s", dir, de->d_name);
                continue;
            }
            struct window *w = add_window(wl, &cap, err, errlen);
            if (!w) {
                closedir(d);
                return -1;
            }
            snprintf(w->path, sizeof w->path, "%s/%s", dir, de->d_name);
            w->index = (int)k;
        }
        closedir(d);
    }
    if (wl->list[0])
        return 0;
    if (wl->n == 0) {
        memset(&wl->w[0], 0, sizeof wl->w[0]);
        snprintf(wl->w[0].path, sizeof wl->w[0].path, "%s/%s.trace", dir, workload);
        wl->w[0].single = 1;
        wl->n = stat(wl->w[0].path, &st) == 0 ? 1 : 0;
        return 0;
    }
    qsort(wl->w, (size_t)wl->n, sizeof *wl->w, cmp_window);
    return 0;
}

void windows_free(struct window_list *wl)
{
    free(wl->w);
    wl->w = NULL;
    wl->n = 0;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* "a.w0.trace, a.w2.trace" (cut with ", ..." when long). */
static void names_of(const struct window_list *wl, char *buf, size_t len)
{
    size_t o = 0;
    buf[0] = '\0';
    for (int k = 0; k < wl->n; k++) {
        const char *b = base_name(wl->w[k].path);
        if (o + strlen(b) + 8 > len || o > 300) {
            snprintf(buf + o, len - o, ", ...");
            return;
        }
        o += (size_t)snprintf(buf + o, len - o, "%s%s", k ? ", " : "", b);
    }
}

/* A metadata integer: 0 and *v, or -1. */
static int meta_int(const char *s, long *v)
{
    *v = plain_number(s, 1L << 30);
    return *v < 0 ? -1 : 0;
}

/* The metadata of window k against the list's entry. */
static int check_listed(const struct window_list *wl, const struct window *w, const struct trace_header *h, char *err,
                        size_t errlen)
{
    const char *p = w->path, *wk = wl->workload, *L = wl->list;
    const char *vi = trace_meta_get(h, "window.index"), *vc = trace_meta_get(h, "window.count"),
               *vw = trace_meta_get(h, "window.weight");
    long x;
    if (!vi || meta_int(vi, &x) != 0 || x != w->index) {
        if (vi)
            snprintf(err, errlen, "%s: window.index is %s in its metadata, but %s line %d lists it as window %d (workload '%s')",
                     p, vi, L, w->line, w->index, wk);
        else
            snprintf(err, errlen, "%s: no window.index in its metadata, but %s line %d lists it as window %d (workload '%s')",
                     p, L, w->line, w->index, wk);
        return -1;
    }
    if (!vc || meta_int(vc, &x) != 0 || x != wl->n) {
        snprintf(err, errlen, "%s: %s%s in its metadata, but %s lists %d window%s (workload '%s')", p,
                 vc ? "window.count is " : "no window.count", vc ? vc : "", L, wl->n, wl->n == 1 ? "" : "s", wk);
        return -1;
    }
    char *end = NULL;
    double weight = vw ? strtod(vw, &end) : 0;
    if (!vw || end == vw || *end || weight != w->weight) {
        if (vw)
            snprintf(err, errlen, "%s: window.weight is %s in its metadata, but %s in %s line %d (workload '%s')", p, vw,
                     w->weight_text, L, w->line, wk);
        else
            snprintf(err, errlen, "%s: no window.weight in its metadata, but %s in %s line %d (workload '%s')", p,
                     w->weight_text, L, w->line, wk);
        return -1;
    }
    return 0;
}

/* The metadata of window k against the windows found (no list): only what
 * the trace records is checked. */
static int check_found(const struct window_list *wl, const struct window *w, const struct trace_header *h, char *err,
                       size_t errlen)
{
    const char *p = w->path, *wk = wl->workload;
    const char *vi = trace_meta_get(h, "window.index"), *vc = trace_meta_get(h, "window.count"),
               *vw = trace_meta_get(h, "window.weight");
    long x;
    if (vi && (meta_int(vi, &x) != 0 || x != w->index)) {
        if (w->single)
            snprintf(err, errlen, "%s: window.index is %s in its metadata, but it is the only trace of workload '%s'",
                     p, vi, wk);
        else
            snprintf(err, errlen, "%s: window.index is %s in its metadata, but its name says window %d (workload '%s')",
                     p, vi, w->index, wk);
        return -1;
    }
    if (vc && (meta_int(vc, &x) != 0 || x != wl->n)) {
        char names[400];
        names_of(wl, names, sizeof names);
        snprintf(err, errlen, "%s: window.count is %s in its metadata, but the folder %s has %d window%s of workload '%s' (%s)",
                 p, vc, wl->dir, wl->n, wl->n == 1 ? "" : "s", wk, names);
        return -1;
    }
    char *end = NULL;
    double weight = vw ? strtod(vw, &end) : 0;
    if (vw && (end == vw || *end || !isfinite(weight) || weight < 0)) {
        snprintf(err, errlen, "%s: window.weight is '%s' in its metadata: not a weight (a number >= 0) (workload '%s')", p,
                 vw, wk);
        return -1;
    }
    return 0;
}

int windows_check(const struct window_list *wl, int k, char *err, size_t errlen)
{
    const struct window *w = &wl->w[k];
    char rerr[1400];
    struct trace_reader *r = trace_reader_open(w->path, rerr, sizeof rerr);
    if (!r) {
        struct stat st;
        int missing = stat(w->path, &st) != 0 && errno == ENOENT;
        snprintf(err, errlen, "%s (workload '%s'%s%s%s)", rerr, wl->workload, wl->list[0] ? ", listed in " : "",
                 wl->list, missing ? "; run `make traces` to capture it" : "");
        return missing ? -2 : -1;
    }
    const struct trace_header *h = trace_reader_header(r);
    int rc = 0;
    if (strcmp(h->meta.workload, wl->workload) != 0) {
        snprintf(err, errlen, "%s: the trace is of workload '%s' (its header), not '%s'", w->path, h->meta.workload,
                 wl->workload);
        rc = -1;
    } else if (wl->list[0]) {
        rc = check_listed(wl, w, h, err, errlen);
    } else {
        rc = check_found(wl, w, h, err, errlen);
    }
    trace_reader_close(r);
    return rc;
}
