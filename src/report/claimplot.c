/* claimplot.c - the verdict figure (see claimplot.h). */
#define _POSIX_C_SOURCE 200809L
#include "report/claimplot.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/csv.h"
#include "core/outfile.h"
#include "core/sbuf.h"
#include "report/plotdata.h"
#include "report/plotgp.h"
#include "report/plotrender.h"
#include "report/plotspec.h"

/* the CSV's columns, one per verdict (verdict.h's order), and their names in the key */
static const char *const cols[VERDICT_COUNT] = {"agrees", "partly_agrees", "disagrees", "undecided", "not_testable"};

static char *tally_csv(const struct claims_tally *t)
{
    struct sbuf b = SBUF_INIT;
    sbuf_puts(&b, "paper");
    for (int v = 0; v < VERDICT_COUNT; v++)
        sbuf_printf(&b, ",%s", cols[v]);
    sbuf_putc(&b, '\n');
    for (size_t i = 0; i < t->n; i++) {
        sbuf_puts(&b, t->papers[i]);
        for (int v = 0; v < VERDICT_COUNT; v++)
            sbuf_printf(&b, ",%zu", t->counts[i][v]);
        sbuf_putc(&b, '\n');
    }
    return sbuf_take(&b);
}

static json_t *spec_json(void)
{
    json_t *labels = json_object(), *y = json_array();
    for (int v = 0; v < VERDICT_COUNT; v++) {
        json_array_append_new(y, json_string(cols[v]));
        json_object_set_new(labels, cols[v], json_string(verdict_name((enum verdict)v)));
    }
    json_t *plot = json_object();
    json_object_set_new(plot, "type", json_string("stacked"));
    json_object_set_new(plot, "x", json_string("paper"));
    json_object_set_new(plot, "y", y);
    json_object_set_new(plot, "xlabel", json_string("paper"));
    json_object_set_new(plot, "ylabel", json_string("claims"));
    json_object_set_new(plot, "errorbars", json_string("none"));
    json_object_set_new(plot, "labels", labels);
    return plot;
}

static int put_file(struct outfile *o, const char *path, const char *text, size_t len)
{
    FILE *f = outfile_open(o, path);
    if (!f)
        return -1;
    if (fwrite(text, 1, len, f) != len) {
        outfile_close(o);
        return -1;
    }
    return outfile_close(o);
}

int claimplot_draw(const struct claims_tally *t, const char *plot_dir, const char *build_dir, const char *templates,
                   struct diag *d)
{
    char *text = tally_csv(t);
    struct csv *csv = csv_parse(text, strlen(text), "the verdict counts", d);
    json_t *plot = spec_json();
    struct plotspec spec;
    struct plotdata *pd = NULL;
    struct sbuf pre = SBUF_INIT, dat = SBUF_INIT, tmpl = SBUF_INIT, fin[3] = {SBUF_INIT, SBUF_INIT, SBUF_INIT};
    char *vtext = NULL, *dtext = NULL;
    size_t vlen = 0, dlen = 0;
    int rc = -1, width = 900, height = 500;
    bool parsed = false;
    if (!csv)
        goto out;
    parsed = true;
    if (plotspec_parse(plot, &spec, d) != 0 || !(pd = plotdata_build(&spec, csv, d)))
        goto out;
    sbuf_printf(&pre, "%s/plots/claims.gp", build_dir);
    sbuf_printf(&dat, "%s/plots/claims.dat", build_dir);
    sbuf_printf(&tmpl, "%s/stacked.gp", templates);
    {
        struct plotgp_paths paths = {sbuf_str(&dat), "", "", "", "", "claims", "claims", templates};
        FILE *vf = open_memstream(&vtext, &vlen), *df = open_memstream(&dtext, &dlen);
        int ok = vf && df &&
                 plotgp_write(&spec, pd, "Verdicts of the claims", &paths, vf, df, &width, &height, d) == 0;
        if (vf)
            fclose(vf);
        if (df)
            fclose(df);
        if (!vf || !df)
            diag_error(d, NULL, 0, 0, "hwprof claims: open_memstream: %s", strerror(errno));
        if (!ok)
            goto out;
    }
    {
        struct outfile of[2];
        size_t n = 0;
        bool ok = put_file(&of[n++], sbuf_str(&pre), vtext, vlen) == 0 &&
                  put_file(&of[n++], sbuf_str(&dat), dtext, dlen) == 0;
        if (!ok || outfile_commit(of, n) != 0) {
            outfile_discard(of, n);
            diag_error(d, sbuf_str(&pre), 0, 0, "cannot write the figure's preamble and data");
            goto out;
        }
    }
    static const char *const ext[3] = {"svg", "png", "pdf"};
    const char *final[3];
    for (int i = 0; i < 3; i++) {
        sbuf_printf(&fin[i], "%s/claims.%s", plot_dir, ext[i]);
        final[i] = sbuf_str(&fin[i]);
    }
    rc = plot_render(sbuf_str(&pre), sbuf_str(&tmpl), width, height, final, d);
out:
    if (parsed)
        plotspec_free(&spec);
    plotdata_free(pd);
    csv_free(csv);
    json_decref(plot);
    free(text);
    free(vtext);
    free(dtext);
    sbuf_free(&pre);
    sbuf_free(&dat);
    sbuf_free(&tmpl);
    for (int i = 0; i < 3; i++)
        sbuf_free(&fin[i]);
    return rc;
}
