/* docmark_int.h - what the three parts of the marker parser share
 * (docmark.h is their interface, for everyone else): docmark.c scans the
 * markdown for markers and pairs them, docmark_attrs.c reads the
 * attributes of one marker or table line, docmark_table.c knows the
 * grammar of table markers.  Include it only there. */
#ifndef DOCMARK_INT_H
#define DOCMARK_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "report/docmark.h"

enum mk_kind { MK_VALUE, MK_VALUE_END, MK_TABLE, MK_TABLE_END, MK_DEFAULTS };

struct mk {
    enum mk_kind kind;
    bool broken;                 /* reported already: its closing marker is not reported again */
    size_t start, end;           /* "<!--" .. after "-->" */
    size_t body_start, body_end; /* after the keyword .. before "-->" */
};

struct parser {
    const char *text;
    size_t len;
    const char *name;
    struct diag *d;
    size_t *line_start;
    size_t nlines;
    struct mk *mk;
    size_t nmk, capmk;
    struct doc *doc;
    struct doc_query defaults;
    size_t errors_before;
};

/* key=value, key="value", "positional" or a bare word (key, no value). */
struct tok {
    size_t off;
    char *key; /* NULL: a quoted positional string */
    char *val; /* NULL: a bare word */
};

struct toks {
    struct tok *t;
    size_t n, cap;
};

/* Where attributes stand: each accepts its own keys. */
enum ctx { CTX_VALUE, CTX_DEFAULTS, CTX_TABLE, CTX_ROWS, CTX_ROW, CTX_COLUMN, CTX_QUERY };

/* The attributes of one directive, parsed.  Extra (context-specific) values
 * are left in the slots below for the caller. */
struct attrs {
    struct doc_query q;
    char *id, *head, *name, *group, *expr, *cols, *fmt_raw, *each;
    size_t fmt_off, expr_off, cols_off, each_off;
    enum doc_best best;
    bool hide;
    bool optional;
    size_t off;
};

/* ---- docmark.c ---------------------------------------------------------------- */

/* line:column (characters) of byte offset off of the text. */
struct doc_pos dm_pos_of(const struct parser *P, size_t off);
/* An error at byte offset off of the text. */
void dm_err_at(struct parser *P, size_t off, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
bool dm_is_space(char c);

/* ---- docmark_attrs.c ---------------------------------------------------------- */

/* s[0..n) as a string (malloc'd). */
char *dm_dup(const char *s, size_t n);
/* Tokens of text[start, end).  Returns false (errors reported) on a syntax error. */
bool dm_tokenize(struct parser *P, size_t start, size_t end, struct toks *ts);
void dm_toks_free(struct toks *ts);
/* Interpret tokens ts->t[from..n) in context c into a (at: the offset
 * errors about the whole line are reported at).  Returns false on an
 * error; a is to be freed either way. */
bool dm_parse_attrs(struct parser *P, enum ctx c, const struct toks *ts, size_t from, size_t at, struct attrs *a);
void dm_attrs_free(struct attrs *a);

/* ---- docmark_table.c ---------------------------------------------------------- */

/* The table marker open .. close into P->doc (errors reported). */
void dm_parse_table(struct parser *P, const struct mk *open, const struct mk *close);
void dm_table_free(struct doc_table *t);

#endif
