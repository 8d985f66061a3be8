/* claimeval.c - every claim evaluated, and the claims CSVs (see claimeval.h). */
#include "report/claimeval.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/csv.h"
#include "core/sbuf.h"

int claims_evaluate(const struct claimset *s, struct docsrc *src, struct claims_eval *out, struct diag *d)
{
    out->c = mem_array(s->n ? s->n : 1, sizeof *out->c);
    out->n = s->n;
    int rc = 0;
    for (size_t i = 0; i < s->n; i++) {
        const struct claim *c = &s->claims[i];
        struct claim_eval *e = &out->c[i];
        enum verdict *v = mem_array(c->ntests ? c->ntests : 1, sizeof *v);
        e->tests = mem_array(c->ntests ? c->ntests : 1, sizeof *e->tests);
        e->ntests = c->ntests;
        for (size_t k = 0; k < c->ntests; k++) {
            if (claimtest_eval(c, &c->tests[k], s->files[c->file], src, &e->tests[k], d) != 0)
                rc = -1;
            v[k] = e->tests[k].verdict;
        }
        e->verdict = c->ntests ? verdict_combine(v, c->ntests) : VERDICT_NOT_TESTABLE;
        free(v);
    }
    return rc;
}

void claims_eval_free(struct claims_eval *e)
{
    for (size_t i = 0; i < e->n; i++) {
        for (size_t k = 0; k < e->c[i].ntests; k++)
            claim_result_free(&e->c[i].tests[k]);
        free(e->c[i].tests);
    }
    free(e->c);
    memset(e, 0, sizeof *e);
}

/* ---- the CSVs ------------------------------------------------------------------------- */

static void put_sep(FILE *f)
{
    fputc(',', f);
}

static void put_count(FILE *f, bool shown, size_t n)
{
    if (shown)
        fprintf(f, "%zu", n);
}

/* The workloads of r with outcome o, space-separated. */
static void put_workloads(FILE *f, const struct claim_result *r, enum outcome o)
{
    struct sbuf b = SBUF_INIT;
    sbuf_puts(&b, "");
    for (size_t i = 0; i < r->nwl; i++)
        if (r->wl[i].outcome == o)
            sbuf_printf(&b, "%s%s", b.len ? " " : "", r->wl[i].workload);
    csv_put_field(f, sbuf_str(&b));
    sbuf_free(&b);
}

/* One row of claims.csv: a test's (t, r), or a claim's of several parts (t NULL). */
static void put_row(FILE *f, const struct claimset *s, const struct claim *c, const struct claim_test *t,
                    const struct claim_result *r, enum verdict v)
{
    csv_put_field(f, c->id);
    put_sep(f);
    csv_put_field(f, t && t->name ? t->name : "");
    put_sep(f);
    csv_put_field(f, s->papers[c->file]);
    put_sep(f);
    csv_put_field(f, c->figure);
    put_sep(f);
    csv_put_field(f, t ? claim_kind_name(t->kind) : "parts");
    put_sep(f);
    bool untested = t ? t->kind == KIND_NOT_TESTABLE : v == VERDICT_NOT_TESTABLE; /* no rule applied */
    csv_put_field(f, untested ? "" : rule_name(t ? t->rule : c->rule));
    put_sep(f);
    csv_put_field(f, verdict_name(v));
    bool counted = r && r->counted;
    put_sep(f);
    put_count(f, counted, r ? r->nfor : 0);
    put_sep(f);
    put_count(f, counted, r ? r->nagainst : 0);
    put_sep(f);
    put_count(f, counted, r ? r->nundecided : 0);
    put_sep(f);
    if (counted)
        put_workloads(f, r, OUTCOME_FOR);
    put_sep(f);
    if (counted)
        put_workloads(f, r, OUTCOME_AGAINST);
    put_sep(f);
    csv_put_number(f, r ? r->stat : NAN);
    put_sep(f);
    csv_put_number(f, r ? r->lo : NAN);
    put_sep(f);
    csv_put_number(f, r ? r->hi : NAN);
    put_sep(f);
    csv_put_field(f, r && r->stat_of ? r->stat_of : "");
    put_sep(f);
    csv_put_field(f, t && t->reason ? t->reason : "");
    fputc('\n', f);
}

void claims_write_csv(const struct claimset *s, const struct claims_eval *e, FILE *out)
{
    fputs("id,part,paper,figure,kind,rule,verdict,workloads_for,workloads_against,workloads_undecided,for,against,"
          "statistic,lo,hi,statistic_of,reason\n",
          out);
    for (size_t i = 0; i < s->n; i++) {
        const struct claim *c = &s->claims[i];
        const struct claim_eval *ce = &e->c[i];
        if (!c->has_parts) {
            put_row(out, s, c, &c->tests[0], &ce->tests[0], ce->verdict);
            continue;
        }
        put_row(out, s, c, NULL, NULL, ce->verdict);
        for (size_t k = 0; k < c->ntests; k++)
            put_row(out, s, c, &c->tests[k], &ce->tests[k], ce->tests[k].verdict);
    }
}

void claims_write_workloads_csv(const struct claimset *s, const struct claims_eval *e, FILE *out)
{
    fputs("id,part,workload,outcome,statistic,lo,hi,windows,statistic_of\n", out);
    for (size_t i = 0; i < s->n; i++) {
        const struct claim *c = &s->claims[i];
        for (size_t k = 0; k < c->ntests; k++) {
            const struct claim_result *r = &e->c[i].tests[k];
            for (size_t w = 0; w < r->nwl; w++) {
                const struct claim_wl *cw = &r->wl[w];
                csv_put_field(out, c->id);
                put_sep(out);
                csv_put_field(out, c->tests[k].name ? c->tests[k].name : "");
                put_sep(out);
                csv_put_field(out, cw->workload);
                put_sep(out);
                csv_put_field(out, outcome_name(cw->outcome));
                put_sep(out);
                csv_put_number(out, cw->stat);
                put_sep(out);
                csv_put_number(out, cw->lo);
                put_sep(out);
                csv_put_number(out, cw->hi);
                put_sep(out);
                fprintf(out, "%zu", cw->windows);
                put_sep(out);
                csv_put_field(out, cw->stat_of ? cw->stat_of : "");
                fputc('\n', out);
            }
        }
    }
}

/* ---- the tally ------------------------------------------------------------------------- */

void claims_tally(const struct claimset *s, const struct claims_eval *e, struct claims_tally *t)
{
    memset(t, 0, sizeof *t);
    t->papers = mem_array(s->n ? s->n : 1, sizeof *t->papers);
    t->counts = mem_array(s->n ? s->n : 1, sizeof *t->counts);
    for (size_t i = 0; i < s->n; i++) {
        const char *p = s->papers[s->claims[i].file];
        size_t k = 0;
        while (k < t->n && strcmp(t->papers[k], p) != 0)
            k++;
        if (k == t->n)
            t->papers[t->n++] = p;
        t->counts[k][e->c[i].verdict]++;
    }
}

void claims_tally_free(struct claims_tally *t)
{
    free(t->papers);
    free(t->counts);
    memset(t, 0, sizeof *t);
}
