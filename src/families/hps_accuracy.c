/* hps_accuracy.c - overlap of relative contributions; see hps_accuracy.h. */
#include "families/hps_accuracy.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const hps_tie_choices[] = { "key", "key_desc", NULL };

struct hps_member *hps_members_tied(const struct hps_member *m, size_t n, int tie)
{
    if (!n)
        return NULL;
    struct hps_member *c = hps_xrealloc(NULL, n * sizeof *c, "hps tie order");
    memcpy(c, m, n * sizeof *c);
    qsort(c, n, sizeof *c, tie == HPS_TIE_KEY_DESC ? hps_member_order_keydesc : hps_member_order);
    return c;
}

size_t hps_kept_prefix(const struct hps_member *m, size_t n, double cover, double *kept_sum)
{
    double total = 0;
    for (size_t i = 0; i < n; i++)
        total += m[i].w;
    /* a hair of slack so that a prefix at exactly cover * total (integer
     * weights, cover = 0.9) counts as covering despite rounding */
    double need = cover * total - 1e-9 * total;
    double sum = 0;
    size_t k = 0;
    while (k < n && (sum < need || k == 0)) {
        sum += m[k].w;
        k++;
    }
    if (total <= 0) {
        k = 0;
        sum = 0;
    }
    *kept_sum = sum;
    return k;
}

double hps_overlap(const struct hps_member *a, size_t na, const struct hps_member *b, size_t nb, double cover,
                   struct hps_overlap *detail)
{
    double sa, sb;
    size_t ka = hps_kept_prefix(a, na, cover, &sa), kb = hps_kept_prefix(b, nb, cover, &sb);
    struct hps_overlap d = { NAN, ka, kb, 0 };
    if (ka == 0 && kb == 0) {
        if (detail)
            *detail = d;
        return NAN;
    }
    double acc = 0;
    if (ka && kb) {
        struct hps_table idx;
        hps_table_init(&idx, kb, "hps accuracy index");
        for (size_t i = 0; i < kb; i++)
            *hps_table_slot(&idx, b[i].a, b[i].b) = i + 1;
        for (size_t i = 0; i < ka; i++) {
            uint64_t j = hps_table_get(&idx, a[i].a, a[i].b);
            if (!j)
                continue;
            double pa = 100.0 * a[i].w / sa, pb = 100.0 * b[j - 1].w / sb;
            acc += pa < pb ? pa : pb;
            d.common++;
        }
        hps_table_free(&idx);
    }
    if (acc > 100.0)
        acc = 100.0; /* rounding of sums of percentages */
    d.accuracy_pct = acc;
    if (detail)
        *detail = d;
    return acc;
}
