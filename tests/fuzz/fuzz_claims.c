/* fuzz_claims.c - libFuzzer target for the claims parser
 * (src/report/claims.c) and the evaluator behind it (claimtest.c,
 * paired.c, verdict.c, claimeval.c): any text is a set of claims or a list
 * of errors, each at a line:column inside the text; never a crash.  A
 * parsed set is evaluated against small CSVs written once into a scratch
 * folder under the names the seed corpus uses (results/a.windows.csv,
 * results/a.csv); an evaluation either fails with an error or gives every
 * claim a verdict, and its CSVs are the same bytes when written twice.
 * The dictionary tests/fuzz/claims.dict holds the keys and values. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report/claimeval.h"
#include "report/claims.h"
#include "report/docsrc.h"

static char dir[64];

static void remove_scratch(void)
{
    char path[256];
    snprintf(path, sizeof path, "%s/results/a.windows.csv", dir);
    remove(path);
    snprintf(path, sizeof path, "%s/results/a.csv", dir);
    remove(path);
    snprintf(path, sizeof path, "%s/results", dir);
    remove(path);
    remove(dir);
}

static void put(const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/results/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0)
        abort();
}

/* The scratch folder with the CSVs the corpus reads. */
static const char *scratch(void)
{
    if (dir[0])
        return dir;
    snprintf(dir, sizeof dir, "/tmp/fuzz_claims.XXXXXX");
    if (!mkdtemp(dir))
        abort();
    atexit(remove_scratch);
    char path[256];
    snprintf(path, sizeof path, "%s/results", dir);
    mkdir(path, 0755);
    put("a.windows.csv", "workload,window,weight,run,tables,error_pct,limit\n"
                         "gzip,0,0.5,A,1,3,4\ngzip,0,0.5,B,1,2,4\ngzip,1,0.5,A,1,5,4\ngzip,1,0.5,B,1,1,4\n"
                         "gzip,0,0.5,A,2,2,4\ngzip,0,0.5,B,2,2,4\ngzip,1,0.5,A,2,4,4\ngzip,1,0.5,B,2,,4\n"
                         "lua,0,1,A,1,7,x\nlua,0,1,B,1,6,5\nlua,0,1,A,2,6,5\nlua,0,1,B,2,9,5\n");
    put("a.csv", "workload,run,tables,error_pct,error_pct_lo,error_pct_hi\n"
                 "gzip,A,1,4,3,5\ngzip,B,1,1.5,1,2\nlua,A,1,7,,\nlua,B,1,6,,\ngzip,A,2,3,2,4\n");
    return dir;
}

/* The two CSVs of a set and its evaluation, as text. */
static char *csvs(const struct claimset *s, const struct claims_eval *e, size_t *len)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    if (!f)
        abort();
    claims_write_csv(s, e, f);
    claims_write_workloads_csv(s, e, f);
    fclose(f);
    return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16)
        return 0;
    struct claimset s = {0};
    struct diag d;
    diag_init(&d, NULL);
    size_t errors = claims_parse(&s, (const char *)data, size, "fuzz.json", &d);
    if (errors != diag_count(&d) || (errors && s.n))
        abort(); /* a file with errors adds no claim, and every error is counted */
    int lines = 1;
    for (size_t i = 0; i < size; i++)
        lines += data[i] == '\n';
    char buf[4096];
    for (size_t i = 0; i < d.n; i++) {
        diag_format(&d.items[i], buf, sizeof buf);
        if (d.items[i].line > lines + 1)
            abort(); /* every error points into the text */
    }
    if (!errors) {
        struct docsrc *src = docsrc_create(scratch());
        struct claims_eval e = {0};
        struct diag ed;
        diag_init(&ed, NULL);
        int rc = claims_evaluate(&s, src, &e, &ed);
        if ((rc != 0) != !diag_ok(&ed))
            abort(); /* failed exactly when an error was reported */
        if (rc == 0) {
            size_t n1 = 0, n2 = 0;
            char *one = csvs(&s, &e, &n1), *two = csvs(&s, &e, &n2);
            if (n1 != n2 || memcmp(one, two, n1) != 0)
                abort();
            free(one);
            free(two);
            for (size_t i = 0; i < e.n; i++)
                if ((int)e.c[i].verdict < 0 || e.c[i].verdict >= VERDICT_COUNT)
                    abort();
        }
        claims_eval_free(&e);
        diag_free(&ed);
        docsrc_free(src);
    }
    claimset_free(&s);
    diag_free(&d);
    return 0;
}
