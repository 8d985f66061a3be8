/* diag.h - structured diagnostics: the one error value every validator,
 * parser and loader passes around (the json_error_t idea, for many errors).
 *
 * A diagnostic names where it is: a file and a line:column, or a byte
 * offset, or a key path inside a JSON document whose line:column is found
 * later (diag_resolve) from the document's text.  Validators never format a
 * location into the message text and nothing parses a location back out of a
 * message.  A diag collects every error of a check (validate reports all of
 * them), up to DIAG_MAX; the first is the one a caller that stops early
 * reports.
 *
 * Printed form (diag_print):
 *   configs/x/y.json:12:5: 'tables' must be an integer in [1, 16]
 *   traces/default/gzip.trace: byte 4096: block checksum mismatch
 *   hwprof: out of memory                       (no location)
 */
#ifndef DIAG_H
#define DIAG_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define DIAG_MAX 200       /* errors kept per diag; more are counted only */
#define DIAG_PATH_MAX 10   /* steps of a JSON key path */

/* One step of a JSON key path: an object key (key != NULL) or an array index. */
struct diag_step {
    const char *key; /* copied into the diag (not borrowed) once added */
    size_t index;
};

struct diag_path {
    size_t depth;
    struct diag_step step[DIAG_PATH_MAX];
};

struct diag_item {
    char *file;           /* NULL: none */
    int line, column;     /* 0: unknown */
    int64_t offset;       /* byte offset, -1: none */
    int want_key;         /* locate the path's key rather than its value */
    struct diag_path path;/* depth 0: none; keys are owned copies */
    char *msg;
};

struct diag {
    struct diag_item *items;
    size_t n, cap;
    size_t dropped;       /* errors past DIAG_MAX */
    const char *file;     /* default file of diag_at/diag_path_error (borrowed) */
};

void diag_init(struct diag *d, const char *file);
void diag_free(struct diag *d); /* accepts NULL; leaves d empty and reusable */
static inline int diag_ok(const struct diag *d) { return d->n == 0 && d->dropped == 0; }
static inline size_t diag_count(const struct diag *d) { return d->n + d->dropped; }

/* Add an error.  file may be NULL (no location). */
void diag_error(struct diag *d, const char *file, int line, int column, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
void diag_verror(struct diag *d, const char *file, int line, int column, const char *fmt, va_list ap);
/* At a byte offset of file. */
void diag_error_offset(struct diag *d, const char *file, uint64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* At a JSON key path of d->file (line:column filled by diag_resolve). */
void diag_path_error(struct diag *d, const struct diag_path *p, int want_key, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void diag_path_verror(struct diag *d, const struct diag_path *p, int want_key, const char *fmt, va_list ap);
/* Move every item of src to the end of dst (src left empty). */
void diag_take(struct diag *dst, struct diag *src);

/* Fill line:column of every path-located item whose file is `file` from the
 * JSON text it was parsed from (the deepest part of each path that is found
 * in the text). */
void diag_resolve(struct diag *d, const char *file, const char *text);

/* "file:line:col: msg" (or "file: byte N: msg", or "file: msg", or "msg"). */
void diag_format(const struct diag_item *it, char *buf, size_t len);
/* Print every item, one per line, prefixed by prefix (may be NULL), and a
 * last line "... and N more" when errors were dropped. */
void diag_print(const struct diag *d, FILE *f, const char *prefix);
/* The first item formatted into buf ("" when none).  Returns buf. */
const char *diag_first(const struct diag *d, char *buf, size_t len);

/* ---- key paths ----------------------------------------------------------- */
/* Build paths without allocation: p = diag_path_of(1, "runs") then
 * diag_path_index(&p, 2), diag_path_key(&p, "params") ... Steps beyond
 * DIAG_PATH_MAX are ignored. */
struct diag_path diag_path_of(size_t n, ...); /* n keys (const char *) */
void diag_path_key(struct diag_path *p, const char *key);
void diag_path_index(struct diag_path *p, size_t index);
/* "plot.y[1]" form, for messages that must name the key. */
void diag_path_format(const struct diag_path *p, char *buf, size_t len);

/* ---- suggestions --------------------------------------------------------- */
/* The candidate closest to word by edit distance (Damerau-Levenshtein, case
 * insensitive), when it is close enough to be a likely typo (distance <= 1
 * for words up to 4 characters, <= 2 up to 8, else <= 3); NULL otherwise.
 * candidates is NULL-terminated. */
const char *diag_suggest(const char *word, const char *const *candidates);
/* Append " (did you mean 'x'?)" to buf when s is not NULL. */
void diag_did_you_mean(char *buf, size_t len, const char *s);

#endif
