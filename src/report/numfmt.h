/* numfmt.h - the number formats of the reporting code: fmt= of the
 * markers in markdown documents (docmark.h) and the "format" of a config's
 * table section (mdtable.h, which takes the printf subset: no ' or #, no
 * r).  printf's conversions for one number, with two additions a prose
 * number needs.
 *
 *   [text]%[flags][width][.precision]conversion[text]     ("%%" is a percent sign)
 *   flags:        -  left-align in width     0  pad with zeros
 *                 '  group thousands with commas (12345.6 -> "12,345.6")
 *                 #  with r: keep trailing zeros, as %#g does
 *   conversions:  d  rounded to an integer     f  fixed      e  exponent
 *                 g  printf's %g               r  precision significant digits
 *                    (default 3) in plain notation: never an exponent, the
 *                    integer digits always kept, trailing zeros dropped
 *
 *   "%.2f"   14.0449  -> "14.04"       "%'d"    257875.2 -> "257,875"
 *   "%.3r"   0.030101 -> "0.0301"      "%.3r"   1262.4   -> "1262"
 *   "%.2r"   69.15    -> "69"          "%.3r"   9.1      -> "9.1"
 *   "%#.2r"  0.0300   -> "0.030"       "%.1f%%" 5.25     -> "5.2%"  (see below)
 *   "x%.1f"  2.94     -> "x2.9"
 *
 * A result that rounds to zero prints without a sign ("-0.00" -> "0.00").
 * Rounding is the C library's (round-half-even on the binary value).
 */
#ifndef NUMFMT_H
#define NUMFMT_H

#include <stdbool.h>
#include <stddef.h>

struct numfmt {
    char prefix[64], suffix[64];
    bool left, zero, group, alt;
    int width;     /* 0: none */
    int precision; /* -1: the conversion's default */
    char conv;     /* d f e g r */
};

/* Parse fmt into f.  Returns 0, or -1 with a reason in why (a static
 * string; may be NULL). */
int numfmt_parse(const char *fmt, struct numfmt *f, const char **why);
/* v (finite) under f into buf (always NUL-terminated); returns the length
 * it needed, as snprintf does. */
size_t numfmt_apply(const struct numfmt *f, double v, char *buf, size_t len);
/* Is f printf's own (%[-][0][width][.precision](d|f|e|g): no ', # or r)? */
bool numfmt_is_printf(const struct numfmt *f);

#endif
