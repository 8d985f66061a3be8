/* docfill.c - `hwprof docs` (see docfill.h): parse the markers, build the
 * tables first (a value may read a table through src=#id), then the
 * values, and splice the results into the text; with --check compare
 * instead of writing.  The file is replaced atomically (outfile.h) and only
 * when its text changes, so a second run leaves it untouched.
 */
#define _POSIX_C_SOURCE 200809L
#include "report/docfill.h"

#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cliopt.h"
#include "report/docmark.h"
#include "report/docquery.h"
#include "report/doctable.h"
#include "core/outfile.h"
#include "core/sbuf.h"

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

static const char docs_usage[] =
    "usage: hwprof docs FILE.md... [--check]\n"
    "  Fill the markers of markdown documents from the results CSVs: every\n"
    "  <!-- value ... -->number<!-- /value --> and every table between\n"
    "  <!-- table ... --> and <!-- /table --> (docs/docfill.md).  src= paths\n"
    "  are relative to the document's folder.  A file is rewritten (atomically)\n"
    "  only when a number changes.\n"
    "  --check          write nothing; list every number or table cell that\n"
    "                   differs from the results\n"
    "  -q, --quiet      no summary line\n"
    "  -h, --help       this text\n"
    "Exit status: 0 filled (--check: all agree), 1 error or (--check) a difference, 2 usage.\n";

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    struct sbuf b = SBUF_INIT;
    char buf[65536];
    size_t k;
    sbuf_puts(&b, "");
    while ((k = fread(buf, 1, sizeof buf, f)) > 0)
        sbuf_put(&b, buf, k);
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        sbuf_free(&b);
        return NULL;
    }
    *len = b.len;
    return sbuf_take(&b);
}

/* The folder part of path ("." for none), malloc'd. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return mem_strdup(".");
    if (slash == path)
        return mem_strdup("/");
    char *d = mem_alloc((size_t)(slash - path) + 1);
    memcpy(d, path, (size_t)(slash - path));
    return d;
}

static int docs_file(const char *path, bool check, bool quiet)
{
    size_t len = 0, out_len = 0;
    char *text = read_all(path, &len);
    if (!text) {
        fprintf(stderr, "%s: cannot read: %s\n", path, strerror(errno ? errno : EIO));
        return EXIT_ERROR;
    }
    char *base = dir_of(path);
    struct diag errors, report;
    struct docfill_stats st;
    diag_init(&errors, path);
    diag_init(&report, path);
    char *out = docfill_text(text, len, path, base, &out_len, &errors, check ? &report : NULL, &st);
    int rc = EXIT_OK;
    if (!out) {
        diag_print(&errors, stderr, NULL);
        fprintf(stderr, "%s: %zu error%s; nothing written\n", path, diag_count(&errors),
                diag_count(&errors) == 1 ? "" : "s");
        rc = EXIT_ERROR;
    } else if (check) {
        if (!diag_ok(&report)) {
            diag_print(&report, stderr, NULL);
            fprintf(stderr, "%s: %zu difference%s from the results (`hwprof docs %s` rewrites them)\n", path,
                    diag_count(&report), diag_count(&report) == 1 ? "" : "s", path);
            rc = EXIT_ERROR;
        } else if (!quiet) {
            printf("%s: %zu values and %zu tables agree with the results\n", path, st.values, st.tables);
        }
    } else if (out_len != len || memcmp(out, text, len) != 0) {
        struct outfile o;
        FILE *f = outfile_open(&o, path);
        if (!f || fwrite(out, 1, out_len, f) != out_len || outfile_close(&o) != 0 || outfile_commit(&o, 1) != 0) {
            if (f)
                outfile_discard(&o, 1);
            fprintf(stderr, "%s: not rewritten\n", path);
            rc = EXIT_ERROR;
        } else if (!quiet) {
            printf("%s: %zu of %zu values and %zu of %zu tables updated\n", path, st.values_changed, st.values,
                   st.tables_changed, st.tables);
        }
    } else if (!quiet) {
        printf("%s: up to date (%zu values, %zu tables)\n", path, st.values, st.tables);
    }
    free(out);
    free(text);
    free(base);
    diag_free(&errors);
    diag_free(&report);
    return rc;
}

int docs_main(int argc, char **argv)
{
    static const struct option opts[] = {{"check", no_argument, NULL, 'c'},
                                         {"quiet", no_argument, NULL, 'q'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    bool check = false, quiet = false;
    int c;
    optind = 0; /* glibc: full re-initialisation (the tests call us repeatedly) */
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":qh", opts, NULL)) != -1) {
        switch (c) {
        case 'c':
            check = true;
            break;
        case 'q':
            quiet = true;
            break;
        case 'h':
            fputs(docs_usage, stdout);
            return EXIT_OK;
        default:
            return cli_option_error("hwprof docs", c, argv, ":qh", opts);
        }
    }
    if (optind >= argc) {
        fprintf(stderr, "hwprof docs: which file?\n%s", docs_usage);
        return EXIT_USAGE;
    }
    int rc = EXIT_OK;
    for (int i = optind; i < argc; i++)
        if (docs_file(argv[i], check, quiet) != EXIT_OK)
            rc = EXIT_ERROR;
    return rc;
}
