/* aggregate.c - summaries over result rows (see aggregate.h). */
#include "report/aggregate.h"

#include <math.h>
#include <stdio.h>

#include "core/winstats.h"

void agg_compute(const double *v, size_t n, bool logs, struct agg_stats *s)
{
    double sum = 0, ss = 0, mn = INFINITY, mx = -INFINITY;
    size_t k = 0, imin = 0, imax = 0;
    for (size_t i = 0; i < n; i++) {
        if (isnan(v[i]))
            continue;
        sum += logs ? log(v[i]) : v[i];
        if (v[i] < mn) {
            mn = v[i];
            imin = i;
        }
        if (v[i] > mx) {
            mx = v[i];
            imax = i;
        }
        k++;
    }
    s->n = k;
    s->logs = logs;
    s->argmin = imin;
    s->argmax = imax;
    if (k == 0) {
        s->sum = s->mean = s->ss = s->min = s->max = NAN;
        return;
    }
    double mean = sum / (double)k;
    for (size_t i = 0; i < n; i++) {
        if (isnan(v[i]))
            continue;
        double dv = (logs ? log(v[i]) : v[i]) - mean;
        ss += dv * dv;
    }
    s->sum = sum;
    s->mean = mean;
    s->ss = ss;
    s->min = mn;
    s->max = mx;
}

double agg_center(const struct agg_stats *s)
{
    return s->logs ? exp(s->mean) : s->mean;
}

bool agg_interval95(const struct agg_stats *s, double *lo, double *hi)
{
    *lo = *hi = NAN;
    if (s->n < 2)
        return false;
    double half = student_t_quantile(0.975, (double)(s->n - 1)) * sqrt(s->ss / (double)(s->n - 1)) /
                  sqrt((double)s->n);
    *lo = s->logs ? exp(s->mean - half) : s->mean - half;
    *hi = s->logs ? exp(s->mean + half) : s->mean + half;
    return true;
}

void agg_bound_names(const char *col, enum agg_bounds b, char *lo, char *hi, size_t len)
{
    snprintf(lo, len, "%s%s", col, b == AGG_BOUNDS_MINMAX ? "_min" : "_lo");
    snprintf(hi, len, "%s%s", col, b == AGG_BOUNDS_MINMAX ? "_max" : "_hi");
}

bool agg_bound_columns(const struct csv *c, const char *col, enum agg_bounds b, int *lo, int *hi)
{
    char a[600], z[600];
    agg_bound_names(col, b, a, z, sizeof a);
    *lo = csv_column(c, a);
    *hi = csv_column(c, z);
    if (*lo < 0 || *hi < 0) {
        *lo = *hi = -1;
        return false;
    }
    return true;
}
