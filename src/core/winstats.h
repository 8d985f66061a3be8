/* winstats.h - a metric over the SimPoint windows of a workload: the
 * weighted mean, the range, and a 95% confidence interval.
 *
 * Method (configs/README.md, "Windows"): weights w_i are the windows'
 * SimPoint weights, normalised to sum 1 over the windows where the metric
 * is defined (not NaN).  mean = sum w_i x_i.  With two or more windows the
 * interval is a Student t interval on the weighted mean: with V2 = sum w_i^2,
 * the reliability-weighted variance s^2 = sum w_i (x_i - mean)^2 / (1 - V2),
 * the standard error se = sqrt(V2 s^2), Kish's effective sample size
 * n_eff = 1 / V2 and t = the 0.975 quantile of Student's t with n_eff - 1
 * degrees of freedom (at least 1): [mean - t se, mean + t se].  With equal
 * weights this is the textbook t interval over the windows.  With one
 * window there is no interval (lo = hi = NaN).  The interval describes how
 * much the result depends on which window of the program is traced
 * (phase-to-phase variation), not sampling noise inside a window.
 */
#ifndef WINSTATS_H
#define WINSTATS_H

#include <stddef.h>

struct winstats {
    double mean, min, max, lo, hi;
    size_t n; /* windows where the metric is defined */
};

/* x, w: n values and weights (weights >= 0; NaN values are skipped). */
void winstats_compute(const double *x, const double *w, size_t n, struct winstats *out);
/* The q quantile (0 < q < 1) of Student's t with df > 0 degrees of freedom. */
double student_t_quantile(double q, double df);
/* Its CDF. */
double student_t_cdf(double t, double df);

#endif
