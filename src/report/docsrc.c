/* docsrc.c - the CSVs a document reads (see docsrc.h). */
#define _POSIX_C_SOURCE 200809L
#include "report/docsrc.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sbuf.h"

struct source {
    char *src;        /* as written in the marker */
    struct csv *csv;  /* NULL: could not be read (reported once) */
};

struct docsrc {
    char *base;
    struct source *s;
    size_t n;
};

struct docsrc *docsrc_create(const char *base_dir)
{
    struct docsrc *s = mem_alloc(sizeof *s);
    s->base = mem_strdup(base_dir && base_dir[0] ? base_dir : ".");
    return s;
}

void docsrc_free(struct docsrc *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++) {
        free(s->s[i].src);
        csv_free(s->s[i].csv);
    }
    free(s->s);
    free(s->base);
    free(s);
}

static struct source *source_add(struct docsrc *s, const char *src, struct csv *c)
{
    s->s = mem_realloc(s->s, (s->n + 1) * sizeof *s->s);
    s->s[s->n] = (struct source){mem_strdup(src), c};
    return &s->s[s->n++];
}

void docsrc_add_view(struct docsrc *s, const char *id, struct csv *c)
{
    char name[1024];
    snprintf(name, sizeof name, "#%s", id);
    source_add(s, name, c);
}

/* " (did you mean 'results/x.csv'?)" into buf when a file of folder dir
 * has a name close to src's last part; buf untouched otherwise.  A typo in
 * a path is the usual reason a src= fails. */
static void suggest_file_in(const char *dir, const char *src, char *buf, size_t len)
{
    const char *slash = strrchr(src, '/');
    const char *base = slash ? slash + 1 : src;
    DIR *dh = opendir(dir);
    if (!dh)
        return;
    char **names = NULL;
    size_t n = 0;
    for (struct dirent *e; (e = readdir(dh)) != NULL;) {
        if (e->d_name[0] == '.')
            continue;
        names = mem_realloc(names, (n + 2) * sizeof *names);
        names[n++] = mem_strdup(e->d_name);
    }
    closedir(dh);
    if (!n)
        return;
    names[n] = NULL;
    /* readdir's order is the file system's: sort so the suggestion is stable */
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
            char *t = names[j];
            names[j] = names[j - 1];
            names[j - 1] = t;
        }
    const char *hit = diag_suggest(base, (const char *const *)names);
    if (hit) {
        char full[512];
        snprintf(full, sizeof full, "%.*s%s", slash ? (int)(slash - src + 1) : 0, src, hit);
        diag_did_you_mean(buf, len, full);
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

/* The same, for src relative to base (the document's folder). */
static void suggest_file(const char *base, const char *src, char *buf, size_t len)
{
    struct sbuf dir = SBUF_INIT;
    const char *slash = strrchr(src, '/');
    if (src[0] == '/')
        sbuf_printf(&dir, "%.*s", slash == src ? 1 : (int)(slash - src), src);
    else if (slash)
        sbuf_printf(&dir, "%s/%.*s", base, (int)(slash - src), src);
    else
        sbuf_puts(&dir, base);
    suggest_file_in(sbuf_str(&dir), src, buf, len);
    sbuf_free(&dir);
}

const struct csv *docsrc_get(struct docsrc *s, const char *src, const char *file, struct doc_pos pos, struct diag *d)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->s[i].src, src) == 0)
            return s->s[i].csv;
    if (src[0] == '#') {
        diag_error(d, file, pos.line, pos.column, "src=%s: no table with id=%s in this document", src, src + 1);
        source_add(s, src, NULL);
        return NULL;
    }
    struct sbuf path = SBUF_INIT;
    if (src[0] == '/' || strcmp(s->base, ".") == 0)
        sbuf_puts(&path, src);
    else
        sbuf_printf(&path, "%s/%s", s->base, src);
    struct diag cd;
    diag_init(&cd, NULL);
    FILE *probe = fopen(sbuf_str(&path), "rb");
    if (!probe && errno == ENOENT) {
        char alt[600] = "";
        suggest_file(s->base, src, alt, sizeof alt);
        if (strcmp(sbuf_str(&path), src) == 0)
            diag_error(d, file, pos.line, pos.column, "src=%s: no such file%s", src, alt);
        else /* relative to the document's folder: say where we looked */
            diag_error(d, file, pos.line, pos.column, "src=%s: no such file (looked for %s)%s", src, sbuf_str(&path),
                       alt);
        sbuf_free(&path);
        source_add(s, src, NULL);
        return NULL;
    }
    if (probe)
        fclose(probe);
    struct csv *c = csv_read(sbuf_str(&path), &cd);
    if (!c) {
        char msg[1024];
        diag_first(&cd, msg, sizeof msg);
        diag_error(d, file, pos.line, pos.column, "src=%s: %s", src, msg);
    }
    diag_free(&cd);
    sbuf_free(&path);
    source_add(s, src, c);
    return c;
}
