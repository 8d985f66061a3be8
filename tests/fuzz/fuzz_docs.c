/* fuzz_docs.c - libFuzzer target for the document marker parser
 * (src/docmark.c) and the number formats (src/docfmt.c): any text is a
 * document or a list of errors, each at a line:column inside the text;
 * never a crash.  A parsed document's ranges lie inside the text, in order,
 * and a value's format applies to any number.  The dictionary
 * tests/fuzz/docs.dict holds the marker words and attributes. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "docmark.h"

static void check_query(const struct doc_query *q)
{
    static const double probes[] = {0.0, -0.0, 1e-300, 123456.789, -9.995, 1e300};
    char buf[256];
    if (!q->has_fmt)
        return;
    for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++) {
        size_t n = docfmt_apply(&q->fmt, probes[i], buf, sizeof buf);
        if (strlen(buf) >= sizeof buf || (n < sizeof buf && strlen(buf) != n))
            abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16)
        return 0;
    struct diag d;
    diag_init(&d, "fuzz.md");
    struct doc *doc = docmark_parse((const char *)data, size, "fuzz.md", &d);
    if (!doc && diag_ok(&d))
        abort(); /* a refused document names at least one error */
    char buf[4096];
    int lines = 1;
    for (size_t i = 0; i < size; i++)
        lines += data[i] == '\n';
    for (size_t i = 0; i < d.n; i++) {
        diag_format(&d.items[i], buf, sizeof buf);
        if (d.items[i].line > lines)
            abort(); /* every error points into the text */
    }
    if (doc) {
        size_t last = 0;
        for (size_t i = 0; i < doc->nvalues; i++) {
            const struct doc_value *v = &doc->values[i];
            if (v->open_start < last || v->text_start < v->open_start || v->text_end < v->text_start ||
                v->close_end < v->text_end || v->close_end > size)
                abort();
            last = v->close_end;
            check_query(&v->q);
        }
        last = 0;
        for (size_t i = 0; i < doc->ntables; i++) {
            const struct doc_table *t = &doc->tables[i];
            if (t->open_start < last || t->content_start < t->open_start || t->content_end < t->content_start ||
                t->close_end < t->content_end || t->close_end > size)
                abort();
            last = t->close_end;
            check_query(&t->q);
            for (size_t k = 0; k < t->ncolumns; k++)
                check_query(&t->columns[k].q);
            for (size_t k = 0; k < t->nrows; k++)
                check_query(&t->rows[k].q);
        }
    }
    docmark_free(doc);
    diag_free(&d);
    return 0;
}
