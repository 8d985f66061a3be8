/* fuzz_docs.c - libFuzzer target for the document marker parser
 * (src/report/docmark.c) and the number formats (src/report/numfmt.c): any text is a
 * document or a list of errors, each at a line:column inside the text;
 * never a crash.  A parsed document's ranges lie inside the text, in order,
 * and a value's format applies to any number.  A parsed document is then
 * filled (src/report/docfill.c) from small CSVs written once into a scratch folder
 * under the names the seed corpus uses (results/a.csv ...): filling is
 * idempotent, i.e. a filled document fills to itself and --check finds no
 * difference in it.  The dictionary tests/fuzz/docs.dict holds the marker
 * words and attributes. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <stdio.h>
#include <sys/stat.h>

#include "report/docfill.h"
#include "report/docmark.h"

static const char *const names[] = {"a", "b", "f7", "f7-1m", "conte/accuracy", NULL};
static char dir[64];

static void remove_scratch(void)
{
    char path[256];
    for (size_t i = 0; names[i]; i++) {
        snprintf(path, sizeof path, "%s/results/%s.csv", dir, names[i]);
        remove(path);
    }
    snprintf(path, sizeof path, "%s/results/conte", dir);
    remove(path);
    snprintf(path, sizeof path, "%s/results", dir);
    remove(path);
    remove(dir);
}

/* The scratch folder with results/<name>.csv for every name the corpus reads. */
static const char *scratch(void)
{
    static const char csv[] =
        "workload,run,model,tables,interval,windows,x,error_pct,error_pct_lo,error_pct_hi,accuracy_pct,label\n"
        "gzip,R0P0,m,1,10000,3,3784,60.123,58.5,61.75,87.2249,a\n"
        "gzip,R1P1,m,2,10000,3,12,1.994,1.5,2.5,91.5,\"b,c\"\n"
        "bzip2,R0P0,m,1,10000,1,7,49.7623,,,90.1,\n"
        "cc1,R1P1,m,2,1e6,1,0,,,,-0.004,d\n"
        "cc1,\"MH C1R0\",m,2,1e6,1,5,14.04,13,15,1e-3,e\n";
    if (dir[0])
        return dir;
    snprintf(dir, sizeof dir, "/tmp/fuzz_docs.XXXXXX");
    if (!mkdtemp(dir))
        abort();
    atexit(remove_scratch);
    for (size_t i = 0; names[i]; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s/results", dir);
        mkdir(path, 0755);
        snprintf(path, sizeof path, "%s/results/conte", dir);
        mkdir(path, 0755);
        snprintf(path, sizeof path, "%s/results/%s.csv", dir, names[i]);
        FILE *f = fopen(path, "w");
        if (!f || fputs(csv, f) < 0 || fclose(f) != 0)
            abort();
    }
    return dir;
}

/* Fill text; a filled text must fill to itself with no difference reported. */
static void check_fill(const char *text, size_t size)
{
    struct diag errors, report;
    size_t n1 = 0, n2 = 0;
    diag_init(&errors, NULL);
    diag_init(&report, NULL);
    char *once = docfill_text(text, size, "fuzz.md", scratch(), &n1, &errors, NULL, NULL);
    if (once) {
        char *twice = docfill_text(once, n1, "fuzz.md", scratch(), &n2, &errors, &report, NULL);
        if (!twice || n2 != n1 || memcmp(once, twice, n1) != 0 || !diag_ok(&report)) {
            fprintf(stderr, "not a fixed point:\n--- once\n%.*s\n--- twice\n%.*s\n", (int)n1, once,
                    twice ? (int)n2 : 0, twice ? twice : "");
            for (size_t i = 0; i < errors.n; i++)
                fprintf(stderr, "error: %s\n", errors.items[i].msg);
            for (size_t i = 0; i < report.n; i++)
                fprintf(stderr, "report: %s\n", report.items[i].msg);
            abort();
        }
        free(twice);
    }
    free(once);
    diag_free(&errors);
    diag_free(&report);
}

static void check_query(const struct doc_query *q)
{
    static const double probes[] = {0.0, -0.0, 1e-300, 123456.789, -9.995, 1e300};
    char buf[256];
    if (!q->has_fmt)
        return;
    for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++) {
        size_t n = numfmt_apply(&q->fmt, probes[i], buf, sizeof buf);
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
    bool parsed = doc != NULL;
    docmark_free(doc);
    diag_free(&d);
    if (parsed)
        check_fill((const char *)data, size);
    return 0;
}
