/* winstats.c - weighted mean and t interval over windows (see winstats.h). */
#include "core/winstats.h"

#include <math.h>

#define LENTZ_TINY 1e-300

/* One term of the modified Lentz recurrence with coefficient num: updates
 * c and d, returns the factor of the convergent. */
static double lentz_step(double num, double *c, double *d)
{
    *d = 1 + num * *d;
    if (fabs(*d) < LENTZ_TINY)
        *d = LENTZ_TINY;
    *c = 1 + num / *c;
    if (fabs(*c) < LENTZ_TINY)
        *c = LENTZ_TINY;
    *d = 1 / *d;
    return *d * *c;
}

/* Continued fraction of the regularized incomplete beta (modified Lentz):
 * an even and an odd term per step. */
static double beta_cf(double a, double b, double x)
{
    double c = 1, d = 1 - (a + b) * x / (a + 1);
    if (fabs(d) < LENTZ_TINY)
        d = LENTZ_TINY;
    d = 1 / d;
    double h = d;
    for (int m = 1; m <= 300; m++) {
        double m2 = 2.0 * m;
        h *= lentz_step(m * (b - m) * x / ((a + m2 - 1) * (a + m2)), &c, &d);
        double del = lentz_step(-(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1)), &c, &d);
        h *= del;
        if (fabs(del - 1) < 1e-15)
            break;
    }
    return h;
}

/* I_x(a, b). */
static double inc_beta(double a, double b, double x)
{
    if (x <= 0)
        return 0;
    if (x >= 1)
        return 1;
    double lb = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log(1 - x);
    if (x < (a + 1) / (a + b + 2))
        return exp(lb) * beta_cf(a, b, x) / a;
    return 1 - exp(lb) * beta_cf(b, a, 1 - x) / b;
}

double student_t_cdf(double t, double df)
{
    double x = df / (df + t * t);
    double tail = 0.5 * inc_beta(df / 2, 0.5, x);
    return t >= 0 ? 1 - tail : tail;
}

double student_t_quantile(double q, double df)
{
    if (q == 0.5)
        return 0;
    if (q < 0.5)
        return -student_t_quantile(1 - q, df);
    double lo = 0, hi = 1;
    while (student_t_cdf(hi, df) < q && hi < 1e12)
        hi *= 2;
    for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
        double mid = 0.5 * (lo + hi);
        if (student_t_cdf(mid, df) < q)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

void winstats_compute(const double *x, const double *w, size_t n, struct winstats *out)
{
    double wsum = 0;
    out->n = 0;
    out->min = INFINITY;
    out->max = -INFINITY;
    for (size_t i = 0; i < n; i++)
        if (!isnan(x[i])) {
            wsum += w[i];
            out->n++;
            if (x[i] < out->min)
                out->min = x[i];
            if (x[i] > out->max)
                out->max = x[i];
        }
    out->lo = out->hi = NAN;
    if (out->n == 0 || wsum <= 0) {
        out->mean = out->min = out->max = NAN;
        out->n = 0;
        return;
    }
    double mean = 0, v2 = 0;
    for (size_t i = 0; i < n; i++)
        if (!isnan(x[i])) {
            double wi = w[i] / wsum;
            mean += wi * x[i];
            v2 += wi * wi;
        }
    out->mean = mean;
    if (out->n < 2 || v2 >= 1)
        return;
    double ss = 0;
    for (size_t i = 0; i < n; i++)
        if (!isnan(x[i])) {
            double wi = w[i] / wsum, d = x[i] - mean;
            ss += wi * d * d;
        }
    double s2 = ss / (1 - v2);
    double se = sqrt(v2 * s2);
    double df = 1 / v2 - 1;
    if (df < 1)
        df = 1;
    double t = student_t_quantile(0.975, df);
    out->lo = mean - t * se;
    out->hi = mean + t * se;
}
