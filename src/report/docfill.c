/* docfill.c - a document's markers filled from the results (see
 * docfill.h): parse the markers, build the tables first (a value may read a
 * table through src=#id), then the values, and splice the results into the
 * text, or (with a report) list the differences instead.  The command,
 * `hwprof docs`, is cli/cmd_docs.c.
 */
#define _POSIX_C_SOURCE 200809L
#include "report/docfill.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sbuf.h"
#include "report/docmark.h"
#include "report/docquery.h"
#include "report/doctable.h"

/* A quoted excerpt for messages: at most 80 characters. */
static void excerpt(const char *s, size_t n, char *buf, size_t len)
{
    size_t k = n < 80 ? n : 77;
    snprintf(buf, len, "%.*s%s", (int)k, s, n > k ? "..." : "");
}

struct splice {
    size_t start, end; /* replaced range of the old text */
    char *text;
};

static int splice_cmp(const void *a, const void *b)
{
    const struct splice *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

/* Items of d from `from` on in line:column order (stable: insertion sort,
 * there are at most DIAG_MAX), so a report reads top to bottom even though
 * tables are built before the values that may read them. */
static void sort_by_position(struct diag *d, size_t from)
{
    for (size_t i = from + 1; i < d->n; i++) {
        struct diag_item it = d->items[i];
        size_t j = i;
        while (j > from && (d->items[j - 1].line > it.line ||
                            (d->items[j - 1].line == it.line && d->items[j - 1].column > it.column))) {
            d->items[j] = d->items[j - 1];
            j--;
        }
        d->items[j] = it;
    }
}

char *docfill_text(const char *text, size_t len, const char *name, const char *base_dir, size_t *out_len,
                   struct diag *errors, struct diag *report, struct docfill_stats *st)
{
    struct docfill_stats dummy;
    if (!st)
        st = &dummy;
    memset(st, 0, sizeof *st);
    struct doc *doc = docmark_parse(text, len, name, errors);
    if (!doc)
        return NULL;
    size_t before = diag_count(errors), errors_from = errors->n, report_before = report ? report->n : 0;
    struct docsrc *src = docsrc_create(base_dir);
    size_t n = doc->ntables + doc->nvalues;
    struct splice *sp = mem_array(n ? n : 1, sizeof *sp);
    struct doctab **tabs = mem_array(doc->ntables ? doc->ntables : 1, sizeof *tabs);
    st->tables = doc->ntables;
    st->values = doc->nvalues;

    for (size_t i = 0; i < doc->ntables; i++) {
        const struct doc_table *t = &doc->tables[i];
        tabs[i] = doctab_build(src, t, name, errors);
        sp[i].start = t->content_start;
        sp[i].end = t->content_end;
        if (!tabs[i])
            continue;
        sp[i].text = doctab_markdown(tabs[i]);
        if (t->id) {
            char vname[1024];
            snprintf(vname, sizeof vname, "%s#%s", name, t->id);
            struct csv *view = doctab_view(tabs[i], vname, name, t->pos, errors);
            if (view)
                docsrc_add_view(src, t->id, view);
        }
    }
    for (size_t i = 0; i < doc->nvalues; i++) {
        const struct doc_value *v = &doc->values[i];
        struct splice *s = &sp[doc->ntables + i];
        struct docresult r;
        s->start = v->text_start;
        s->end = v->text_end;
        if (docquery_eval(src, &v->q, name, v->pos, &r, errors) != 0)
            continue;
        if (r.empty || r.nitems == 0)
            diag_error(errors, name, v->pos.line, v->pos.column, "the results have no number here (%s %s)",
                       r.nitems ? "an empty cell in" : "no value of", v->q.col);
        else
            s->text = docresult_text(&r, NULL);
        docresult_free(&r);
    }

    char *out = NULL;
    sort_by_position(errors, errors_from);
    if (diag_count(errors) == before) {
        /* differences, in document order */
        for (size_t i = 0; i < doc->ntables; i++) {
            const struct doc_table *t = &doc->tables[i];
            size_t k = report ? doctab_compare(tabs[i], text + t->content_start, t->content_end - t->content_start,
                                               name, t->content_line, report)
                              : 0;
            if (k || strlen(sp[i].text) != t->content_end - t->content_start ||
                memcmp(sp[i].text, text + t->content_start, t->content_end - t->content_start) != 0)
                st->tables_changed++;
        }
        for (size_t i = 0; i < doc->nvalues; i++) {
            const struct doc_value *v = &doc->values[i];
            const char *now = sp[doc->ntables + i].text;
            size_t ol = v->text_end - v->text_start;
            if (strlen(now) == ol && memcmp(now, text + v->text_start, ol) == 0)
                continue;
            st->values_changed++;
            if (report) {
                char a[128], b[128];
                excerpt(text + v->text_start, ol, a, sizeof a);
                excerpt(now, strlen(now), b, sizeof b);
                diag_error(report, name, v->pos.line, v->pos.column,
                           "value differs: the document has \"%s\", the results give \"%s\"", a, b);
            }
        }
        if (report)
            sort_by_position(report, report_before);
        qsort(sp, n, sizeof *sp, splice_cmp);
        struct sbuf b = SBUF_INIT;
        size_t p = 0;
        sbuf_puts(&b, "");
        for (size_t i = 0; i < n; i++) {
            sbuf_put(&b, text + p, sp[i].start - p);
            sbuf_puts(&b, sp[i].text);
            p = sp[i].end;
        }
        sbuf_put(&b, text + p, len - p);
        *out_len = b.len;
        out = sbuf_take(&b);
    }
    for (size_t i = 0; i < n; i++)
        free(sp[i].text);
    free(sp);
    for (size_t i = 0; i < doc->ntables; i++)
        doctab_free(tabs[i]);
    free(tabs);
    docsrc_free(src);
    docmark_free(doc);
    return out;
}

/* ---- the command ----------------------------------------------------------------------- */
