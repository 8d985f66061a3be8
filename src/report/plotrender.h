/* plotrender.h - the figure files of `hwprof plot` (cli/cmd_plot.c): gnuplot run
 * three times on the preamble and the template or hand-written script,
 *
 *   gnuplot -e "fmt = 'svg'; out = '<final>.tmp.<pid>'; set terminal svg size W,H ...; set output out" \
 *           PREAMBLE SCRIPT
 *
 * then with pngcairo and pdfcairo (W/100 x H/100 inches); the PDF's
 * creation date is pinned to 1970 so that same inputs give the same bytes.
 * The three files are renamed into place only when all three were
 * written, the SVG (make's target) last; a failure leaves the previous
 * figure.  docs/plots.md, "Your own gnuplot script".
 */
#ifndef PLOTRENDER_H
#define PLOTRENDER_H

#include "core/diag.h"

/* Draw to final[0..2] (.svg, .png, .pdf) at width x height pixels.
 * Returns 0, or -1 with an error in d. */
int plot_render(const char *preamble, const char *script, int width, int height, const char *const final[3],
                struct diag *d);

#endif
