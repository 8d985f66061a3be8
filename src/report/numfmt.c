/* numfmt.c - number formats of documents and tables (see numfmt.h). */
#include "report/numfmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int numfmt_parse(const char *s, struct numfmt *f, const char **why)
{
    size_t plen = 0, slen = 0;
    bool seen = false;
    const char *dummy;
    if (!why)
        why = &dummy;
    memset(f, 0, sizeof *f);
    f->precision = -1;
    while (*s) {
        char *dst = seen ? f->suffix : f->prefix;
        size_t *n = seen ? &slen : &plen;
        if (*s == '%' && s[1] == '%') {
            if (*n + 1 >= sizeof f->prefix) {
                *why = "text around the conversion is too long";
                return -1;
            }
            dst[(*n)++] = '%';
            s += 2;
            continue;
        }
        if (*s != '%') {
            if (*n + 1 >= sizeof f->prefix) {
                *why = "text around the conversion is too long";
                return -1;
            }
            dst[(*n)++] = *s++;
            continue;
        }
        if (seen) {
            *why = "a format holds one conversion (write a literal percent sign as %%)";
            return -1;
        }
        seen = true;
        for (s++; *s == '-' || *s == '0' || *s == '\'' || *s == '#'; s++) {
            if (*s == '-')
                f->left = true;
            else if (*s == '0')
                f->zero = true;
            else if (*s == '#')
                f->alt = true;
            else
                f->group = true;
        }
        while (*s >= '0' && *s <= '9') {
            f->width = f->width * 10 + (*s++ - '0');
            if (f->width > 64) {
                *why = "width above 64";
                return -1;
            }
        }
        if (*s == '.') {
            f->precision = 0;
            for (s++; *s >= '0' && *s <= '9'; s++) {
                f->precision = f->precision * 10 + (*s - '0');
                if (f->precision > 30) {
                    *why = "precision above 30";
                    return -1;
                }
            }
        }
        if (!*s || !strchr("dfegr", *s)) {
            *why = "the conversion must be one of d, f, e, g, r";
            return -1;
        }
        f->conv = *s++;
        if (f->alt && f->conv != 'r') {
            *why = "the # flag goes with %r";
            return -1;
        }
        if (f->conv == 'r' && f->precision == 0) {
            *why = "%r needs at least 1 significant digit";
            return -1;
        }
    }
    if (!seen) {
        *why = "no conversion (e.g. %.2f)";
        return -1;
    }
    return 0;
}

/* Digits after the point that leave prec significant digits of v, never
 * fewer than 0 (integer digits are kept). */
static int plain_decimals(double v, int prec)
{
    if (v == 0.0)
        return 0;
    int e = (int)floor(log10(fabs(v)));
    int dec = prec - 1 - e;
    if (dec < 0)
        dec = 0;
    if (dec > 30)
        dec = 30;
    /* 9.996 at 3 digits rounds to 10.00: one integer digit more, one decimal less */
    char tmp[400];
    snprintf(tmp, sizeof tmp, "%.*f", dec, fabs(v));
    double r = strtod(tmp, NULL);
    if (dec > 0 && r != 0.0 && (int)floor(log10(r)) > e)
        dec--;
    return dec;
}

/* "-0", "-0.00", "-0e+00": a value that printed as zero takes no sign. */
static void drop_negative_zero(char *s)
{
    if (s[0] != '-')
        return;
    for (const char *p = s + 1; *p && *p != 'e' && *p != 'E'; p++)
        if (*p != '0' && *p != '.')
            return;
    memmove(s, s + 1, strlen(s));
}

/* Commas every three digits of the integer part of the number in s. */
static void group_thousands(const char *s, char *out, size_t len)
{
    size_t i = 0, o = 0;
    if (s[i] == '-' || s[i] == '+')
        out[o++] = s[i++];
    size_t start = i, end = i;
    while (s[end] >= '0' && s[end] <= '9')
        end++;
    for (size_t k = start; k < end && o + 2 < len; k++) {
        out[o++] = s[k];
        size_t left = end - k - 1;
        if (left > 0 && left % 3 == 0)
            out[o++] = ',';
    }
    for (size_t k = end; s[k] && o + 1 < len; k++)
        out[o++] = s[k];
    out[o < len ? o : len - 1] = '\0';
}

size_t numfmt_apply(const struct numfmt *f, double v, char *buf, size_t len)
{
    char num[512], grouped[700], padded[800];
    int prec = f->precision;
    switch (f->conv) {
    case 'd':
        snprintf(num, sizeof num, "%.0f", nearbyint(v));
        break;
    case 'e':
        snprintf(num, sizeof num, "%.*e", prec < 0 ? 6 : prec, v);
        break;
    case 'g':
        snprintf(num, sizeof num, "%.*g", prec < 0 ? 6 : prec, v);
        break;
    case 'r':
        snprintf(num, sizeof num, "%.*f", plain_decimals(v, prec < 0 ? 3 : prec), v);
        if (!f->alt && strchr(num, '.')) {
            size_t n = strlen(num);
            while (num[n - 1] == '0')
                num[--n] = '\0';
            if (num[n - 1] == '.')
                num[--n] = '\0';
        }
        break;
    default:
        snprintf(num, sizeof num, "%.*f", prec < 0 ? 6 : prec, v);
        break;
    }
    drop_negative_zero(num);
    const char *n = num;
    if (f->group && f->conv != 'e') {
        group_thousands(num, grouped, sizeof grouped);
        n = grouped;
    }
    size_t w = strlen(n);
    if ((size_t)f->width > w) {
        size_t pad = (size_t)f->width - w, o = 0;
        if (f->left) {
            snprintf(padded, sizeof padded, "%s%*s", n, (int)pad, "");
        } else if (f->zero && !f->group) {
            if (n[0] == '-' || n[0] == '+')
                padded[o++] = *n++;
            memset(padded + o, '0', pad);
            snprintf(padded + o + pad, sizeof padded - o - pad, "%s", n);
        } else {
            snprintf(padded, sizeof padded, "%*s%s", (int)pad, "", n);
        }
        n = padded;
    }
    int r = snprintf(buf, len, "%s%s%s", f->prefix, n, f->suffix);
    return r < 0 ? 0 : (size_t)r;
}

bool numfmt_is_printf(const struct numfmt *f)
{
    return !f->group && !f->alt && f->conv != 'r';
}
