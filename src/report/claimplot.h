/* claimplot.h - the verdict figure of `hwprof claims --plot DIR`: per paper
 * a bar stacking how many of its claims agree, partly agree, disagree,
 * are undecided and are not testable, drawn like every other figure: a
 * plot section ("type": "stacked", plotspec.h) over a small CSV of the
 * counts, the preamble and data of plotgp.h, gnuplot through plotrender.h
 * with the template plots/templates/stacked.gp.
 *
 *   DIR/claims.svg, .png, .pdf       the figure
 *   BUILD/plots/claims.gp, .dat      its preamble and data (BUILD: build)
 */
#ifndef CLAIMPLOT_H
#define CLAIMPLOT_H

#include "core/diag.h"
#include "report/claimeval.h"

/* Draw t into plot_dir/claims.svg, .png and .pdf with the templates of
 * folder templates, the preamble and data under build_dir/plots/.
 * Returns 0, or -1 with an error in d (nothing replaced). */
int claimplot_draw(const struct claims_tally *t, const char *plot_dir, const char *build_dir, const char *templates,
                   struct diag *d);

#endif
