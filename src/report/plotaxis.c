/* plotaxis.c - axis ranges, ticks and tick labels (rules in plotaxis.h).
 *
 * Linear ticks are 1, 2 or 5 times a power of ten apart, about six
 * per axis, and the range is widened to whole ticks unless the config fixed
 * it.  Log ticks are the decades (every second or third one past ten
 * decades; 1-2-5 within a single decade).
 */
#include "report/plotaxis.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

void axis_data_init(struct axis_data *ad)
{
    memset(ad, 0, sizeof *ad);
    ad->lo = INFINITY;
    ad->hi = -INFINITY;
    ad->minpos = INFINITY;
}

void axis_data_add(struct axis_data *ad, double v)
{
    if (!isfinite(v))
        return;
    if (v < ad->lo)
        ad->lo = v;
    if (v > ad->hi)
        ad->hi = v;
    if (v > 0 && v < ad->minpos)
        ad->minpos = v;
    if (v <= 0)
        ad->nonpos = true;
    if (ad->nexact <= 16) {
        for (size_t i = 0; i < ad->nexact && i < 16; i++)
            if (ad->exact[i] == v)
                return;
        if (ad->nexact < 16)
            ad->exact[ad->nexact] = v;
        ad->nexact++;
    }
}

void axis_data_merge(struct axis_data *into, const struct axis_data *from)
{
    if (from->lo <= from->hi) {
        axis_data_add(into, from->lo);
        axis_data_add(into, from->hi);
    }
    if (isfinite(from->minpos))
        axis_data_add(into, from->minpos);
    into->nonpos = into->nonpos || from->nonpos;
    for (size_t i = 0; i < from->nexact && i < 16; i++)
        axis_data_add(into, from->exact[i]);
    if (from->nexact > 16)
        into->nexact = 17;
}

/* ---- labels ------------------------------------------------------------------ */

static void superscript(long e, char *buf, size_t len)
{
    static const char *const digits[10] = {"\u2070", "\u00b9", "\u00b2", "\u00b3", "\u2074",
                                           "\u2075", "\u2076", "\u2077", "\u2078", "\u2079"};
    char num[24], out[96] = "";
    snprintf(num, sizeof num, "%ld", e < 0 ? -e : e);
    if (e < 0)
        strcat(out, "\u207b");
    for (char *p = num; *p; p++)
        strcat(out, digits[*p - '0']);
    snprintf(buf, len, "%s", out);
}

void axis_label_decade(int e, bool sup, bool kilo, char *buf, size_t len)
{
    static const char *const suffix[] = {"k", "M", "G"};
    if (sup || e < -3 || e > 11) {
        if (e == 0 || e == 1) {
            snprintf(buf, len, "%s", e == 0 ? "1" : "10");
            return;
        }
        char s[64];
        superscript(e, s, sizeof s);
        snprintf(buf, len, "10%s", s);
        return;
    }
    if (e < 0) {
        snprintf(buf, len, "%.*f", -e, pow(10, e));
        return;
    }
    if (e < 3 || (e == 3 && !kilo)) {
        snprintf(buf, len, "%.0f", pow(10, e));
        return;
    }
    /* 1k 10k 100k 1M 10M 100M 1G ... */
    int group = e / 3 - 1, rest = e % 3;
    snprintf(buf, len, "%.0f%s", pow(10, rest), suffix[group]);
}

/* Decimals needed to write x (> 0) exactly enough: the fewest d with
 * x * 10^d within 1e-6 of an integer, at most 9. */
static int decimals(double x)
{
    for (int d = 0; d < 9; d++) {
        double y = x * pow(10, d);
        if (fabs(y - round(y)) < 1e-6 * (y > 1 ? y : 1))
            return d;
    }
    return 9;
}

void axis_label_linear(double v, double step, double scale, char *buf, size_t len)
{
    const char *suffix = scale >= 1e9 ? "G" : scale >= 1e6 ? "M" : scale >= 1e3 ? "k" : "";
    int d = decimals(step / scale);
    if (fabs(v) < step * 1e-9) {
        snprintf(buf, len, "0");
        return;
    }
    snprintf(buf, len, "%.*f%s", d, v / scale, suffix);
}

static void thousands(double v, char *buf, size_t len)
{
    char digits[64], out[96];
    size_t n, o = 0;
    snprintf(digits, sizeof digits, "%.0f", fabs(v));
    n = strlen(digits);
    if (v < 0)
        out[o++] = '-';
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && (n - i) % 3 == 0)
            out[o++] = ',';
        out[o++] = digits[i];
    }
    out[o] = '\0';
    snprintf(buf, len, "%s", out);
}

void axis_label_exact(double v, bool kilo, char *buf, size_t len)
{
    double a = fabs(v);
    if (v == 0) {
        snprintf(buf, len, "0");
        return;
    }
    if (v == round(v) && a < 1e15) {
        static const double scales[] = {1e9, 1e6, 1e3};
        static const char *const suffix[] = {"G", "M", "k"};
        if (a < (kilo ? 1e3 : 1e4)) {
            snprintf(buf, len, "%.0f", v);
            return;
        }
        for (int i = 0; i < 3; i++) {
            double q = v / scales[i];
            if (fabs(q) >= 1 && fabs(q * 10 - round(q * 10)) < 1e-9) {
                snprintf(buf, len, "%.*f%s", q == round(q) ? 0 : 1, q, suffix[i]);
                return;
            }
        }
        thousands(v, buf, len);
        return;
    }
    {
        int e = (int)floor(log10(a) + 1e-12);
        double m = v / pow(10, e);
        char s[64];
        if (e >= -3) {
            snprintf(buf, len, "%.6g", v);
            return;
        }
        superscript(e, s, sizeof s);
        if (fabs(m - 1) < 1e-9)
            snprintf(buf, len, "10%s", s);
        else
            snprintf(buf, len, "%.3g\u00d710%s", m, s);
    }
}

/* ---- ranges -------------------------------------------------------------------- */

static double nice_step(double raw)
{
    static const double mant[] = {1, 2, 5, 10};
    double p = pow(10, floor(log10(raw)));
    for (size_t i = 0; i < sizeof mant / sizeof mant[0]; i++)
        if (mant[i] * p >= raw * (1 - 1e-9))
            return mant[i] * p;
    return 10 * p;
}

static void add_tick(struct axis *a, double v, const char *label)
{
    if (a->nticks >= AXIS_MAX_TICKS)
        return;
    a->ticks[a->nticks].v = v;
    snprintf(a->ticks[a->nticks].label, sizeof a->ticks[a->nticks].label, "%s", label);
    a->nticks++;
}

static int decade_of(double v)
{
    return (int)floor(log10(v) + 1e-9);
}

/* Decade ticks inside [min, max] (every second or third past ten decades),
 * and 2x, 5x ticks too when fewer than three decades are inside. */
static void log_ticks(struct axis *a, bool sup)
{
    char buf[32];
    int lo = (int)ceil(log10(a->zero_floor ? a->floor * 1.000001 : a->min) - 1e-9);
    int hi = (int)floor(log10(a->max) + 1e-9);
    int stride = hi - lo > 10 ? (hi - lo + 7) / 8 : 1;
    bool kilo = a->max >= 1e4;
    size_t before = a->nticks;
    for (int e = lo; e <= hi; e += stride) {
        double v = pow(10, e);
        if (v < a->min * (1 - 1e-6) || v > a->max * (1 + 1e-6) || (a->zero_floor && v <= a->floor * 1.000001))
            continue;
        axis_label_decade(e, sup, kilo, buf, sizeof buf);
        add_tick(a, v, buf);
    }
    /* Too few: 2x and 5x as well, else every multiple (a span of less
     * than a decade). */
    for (int pass = 0; pass < 2 && a->nticks - before < 3; pass++) {
        a->nticks = before;
        for (int e = lo - 1; e <= hi; e++)
            for (int m = 1; m <= 9; m++) {
                double v = m * pow(10, e);
                if ((pass == 0 && m != 1 && m != 2 && m != 5) || v < a->min || v > a->max ||
                    (a->zero_floor && v <= a->floor * 1.000001))
                    continue;
                if (m == 1)
                    axis_label_decade(e, sup, kilo, buf, sizeof buf);
                else
                    axis_label_exact(v, kilo, buf, sizeof buf);
                add_tick(a, v, buf);
            }
    }
}

static void make_log(struct axis *a, const struct axis_data *ad, const struct axis_opts *o)
{
    double minpos = o->has_min ? o->min : isfinite(ad->minpos) ? ad->minpos : 1;
    double hi = o->has_max ? o->max : ad->hi > 0 ? ad->hi : minpos * 10;
    int elo = decade_of(minpos), ehi = (int)ceil(log10(hi) - 1e-9);
    bool sup;
    char buf[32];

    if (ad->nonpos && !o->has_min) {
        elo -= 1; /* room for the zeros, below every positive value */
        a->zero_floor = true;
    }
    if (ehi <= elo)
        ehi = elo + 1;
    /* A hair wider than the decades, or gnuplot may drop the end ticks
     * when rounding puts them just outside. */
    a->floor = o->has_min ? o->min : pow(10, elo);
    a->min = o->has_min ? o->min : a->floor * (1 - 1e-9);
    a->max = o->has_max ? o->max : pow(10, ehi) * (1 + 1e-9);
    sup = pow(10, elo + (a->zero_floor ? 1 : 0)) < 1e-3 || ehi > 11;

    if (o->exact_ticks && ad->nexact <= 12 && ad->nexact > 0 && !o->has_min && !o->has_max) {
        /* A sweep's points: tick each of them, pad the range a little. */
        double vmin = INFINITY, vmax = 0;
        double v[16];
        size_t n = 0;
        for (size_t i = 0; i < ad->nexact; i++)
            if (ad->exact[i] > 0)
                v[n++] = ad->exact[i];
        for (size_t i = 1; i < n; i++) /* insertion sort: at most 12 */
            for (size_t j = i; j > 0 && v[j] < v[j - 1]; j--) {
                double t = v[j];
                v[j] = v[j - 1];
                v[j - 1] = t;
            }
        /* Labels of neighbours closer than a fifth of a decade collide. */
        for (size_t i = 1; i < n; i++)
            if (v[i] / v[i - 1] < 1.6)
                n = 0;
        if (n > 0) {
            vmin = v[0];
            vmax = v[n - 1];
            double pad = pow(vmax / vmin > 1 ? vmax / vmin : 10, 0.04);
            a->max = vmax * pad;
            a->min = vmin / pad;
            a->floor = a->min;
            if (a->zero_floor) {
                a->floor = vmin / pow(vmax / vmin > 1 ? vmax / vmin : 10, 0.15);
                a->min = a->floor * (1 - 1e-9);
                add_tick(a, a->floor, "0");
            }
            for (size_t i = 0; i < n; i++) {
                axis_label_exact(v[i], vmax >= 1e4, buf, sizeof buf);
                add_tick(a, v[i], buf);
            }
            return;
        }
    }
    if (o->tight && !o->has_min && !o->has_max && isfinite(ad->minpos)) {
        /* The data's own span, padded a little, not whole decades. */
        double r = hi / minpos > 1 ? hi / minpos : 10, pad = pow(r, 0.04);
        a->max = hi * pad;
        a->min = minpos / pad;
        a->floor = a->min;
        if (a->zero_floor) {
            a->floor = minpos / pow(r, 0.15);
            a->min = a->floor * (1 - 1e-9);
        }
        sup = a->min < 1e-3 || a->max > 1e12;
    }
    if (a->zero_floor)
        add_tick(a, a->floor, "0");
    log_ticks(a, sup);
}

static void make_linear(struct axis *a, const struct axis_data *ad, const struct axis_opts *o)
{
    double lo = ad->lo <= ad->hi ? ad->lo : 0, hi = ad->lo <= ad->hi ? ad->hi : 1, step, scale = 1, maxabs;
    char buf[32];
    if (o->from_zero) {
        lo = lo < 0 ? lo : 0;
        hi = hi > 0 ? hi : 0;
    }
    if (o->has_min)
        lo = o->min;
    if (o->has_max)
        hi = o->max;
    if (hi < lo) { /* a fixed bound beyond the data */
        if (o->has_min)
            hi = lo + 1;
        else
            lo = hi - 1;
    }
    if (lo == hi) {
        double d = lo == 0 ? 1 : fabs(lo) * 0.1;
        if (lo == 0 || (o->from_zero && lo > 0))
            hi = lo + (lo == 0 ? 1 : d);
        else {
            lo -= d;
            hi += d;
        }
        if (o->from_zero && lo > 0)
            lo = 0;
    }
    if (o->hex) {
        step = 1;
        while (step * 6 < hi - lo)
            step *= 2;
    } else {
        step = nice_step((hi - lo) / 6);
    }
    a->min = o->has_min ? o->min : o->tight ? lo : floor(lo / step + 1e-9) * step;
    a->max = o->has_max ? o->max : o->tight ? hi : ceil(hi / step - 1e-9) * step;
    maxabs = fmax(fabs(a->min), fabs(a->max));
    if (!o->hex && maxabs >= 1e4)
        scale = maxabs >= 1e9 ? 1e9 : maxabs >= 1e6 ? 1e6 : 1e3;
    for (double t = ceil(a->min / step - 1e-9) * step; t <= a->max + step * 1e-9; t += step) {
        double v = fabs(t) < step * 1e-9 ? 0 : t;
        if (o->hex)
            snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)(v < 0 ? 0 : v));
        else
            axis_label_linear(v, step, scale, buf, sizeof buf);
        add_tick(a, v, buf);
        if (a->nticks >= AXIS_MAX_TICKS)
            break;
    }
}

void axis_make(struct axis *a, const struct axis_data *ad, const struct axis_opts *o)
{
    memset(a, 0, sizeof *a);
    a->log = o->log;
    a->hex = o->hex;
    if (o->log)
        make_log(a, ad, o);
    else
        make_linear(a, ad, o);
}

double axis_place(const struct axis *a, double v)
{
    if (a->log && v <= 0)
        return a->floor;
    return v;
}
