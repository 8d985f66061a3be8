/* plotaxis.h - numeric axes of a figure: range, tick positions and tick
 * labels, computed from the data so every panel reads the same way.
 *
 * Labels never use C's exponent form ("1e+07"):
 *   linear axes: 0 0.5 1 1.5 ...; past 10^4: 20k 40k, 2.5M, 1.5G;
 *   log axes:    0.01 0.1 1 10 100 1000 10k 100k 1M 10M 100M 1G, and when a
 *                decade below 10^-3 is on the axis, 10⁻⁷ ... 10² for all of
 *                them (Unicode superscripts: the terminals run noenhanced);
 *   exact values (a sweep's points on a log axis): 16 32 ... 8192, 10k,
 *                16,384 (thousands separators when no suffix is exact);
 *   hexadecimal axes (addresses): 0x400000.
 * A log axis cannot show 0: when the data hold values <= 0 the axis gets a
 * floor one decade below the smallest positive value's decade, the values
 * <= 0 are drawn at the floor, and the floor's tick reads "0" (the figure's
 * key says so too).
 */
#ifndef PLOTAXIS_H
#define PLOTAXIS_H

#include <stdbool.h>
#include <stddef.h>

#define AXIS_MAX_TICKS 40

struct axis_tick {
    double v;
    char label[32];
};

struct axis {
    bool log, hex;
    double min, max;          /* the range drawn */
    bool zero_floor;          /* log: values <= 0 are drawn at `floor`, whose tick reads "0" */
    double floor;             /* log: the bottom decade (a hair above min) */
    size_t nticks;
    struct axis_tick ticks[AXIS_MAX_TICKS];
};

/* What the data need on one axis; start with axis_data_init() and add
 * every value with axis_data_add(). */
struct axis_data {
    double lo, hi;            /* finite values seen (lo > hi: none) */
    double minpos;            /* smallest value > 0 (INFINITY: none) */
    bool nonpos;              /* a value <= 0 was seen */
    size_t nexact;            /* distinct values kept for exact ticks (up to 16; more: 17) */
    double exact[16];
};

void axis_data_init(struct axis_data *ad);
void axis_data_add(struct axis_data *ad, double v);
void axis_data_merge(struct axis_data *into, const struct axis_data *from);

struct axis_opts {
    bool log;
    bool hex;                 /* labels in hexadecimal */
    bool from_zero;           /* bars: the range includes 0 (linear) */
    bool exact_ticks;         /* log: ticks at the data's values when there are at most 12, well apart */
    bool tight;               /* linear: the range is the data's, not widened to whole ticks */
    bool has_min, has_max;    /* fixed bounds (the config's xrange / yrange) */
    double min, max;
};

/* Range and ticks for data ad under opts. */
void axis_make(struct axis *a, const struct axis_data *ad, const struct axis_opts *opts);

/* The position at which value v is drawn (a log axis's floor for v <= 0). */
double axis_place(const struct axis *a, double v);

/* A tick label for v on a linear axis whose ticks are step apart, in units
 * of scale (1, 1e3 "k", 1e6 "M" or 1e9 "G"). */
void axis_label_linear(double v, double step, double scale, char *buf, size_t len);
/* A tick label for a power of ten 10^e on a log axis; sup selects the
 * 10⁻⁷ form, kilo writes 1000 as 1k (on axes that reach 10k). */
void axis_label_decade(int e, bool sup, bool kilo, char *buf, size_t len);
/* An exact label for v: 16, 1000, 10k, 2.5M when exact, else 16,384;
 * kilo: 1k, 2k, 1.5k from 1000 on. */
void axis_label_exact(double v, bool kilo, char *buf, size_t len);

#endif
