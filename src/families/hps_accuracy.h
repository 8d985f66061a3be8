/* hps_accuracy.h - profile accuracy as the overlap of relative
 * contributions (Feller 1998, as used by HPS section 5).
 *
 * For each profile (members sorted by weight, hps_member_order): keep the
 * shortest prefix whose weights add up to at least `cover` (0.9) of the
 * profile's total; express each kept member as a percentage of the kept
 * total; the accuracy is the sum, over members kept in both profiles, of
 * the smaller of the two percentages: 0% (nothing in common) to 100%
 * (identical kept sets with identical shares).
 *
 * Worked example (cover 0.9):
 *   exhaustive  A 60, B 30, C 10      -> kept A, B (90 of 100): A 66.67%, B 33.33%
 *   sampled     A 5, C 4, B 1         -> kept A, C (9 of 10):   A 55.56%, C 44.44%
 *   accuracy    min(66.67, 55.56) = 55.56% (B and C are kept in one only)
 *
 * The percentages are of the kept members, not of the whole profile, so
 * that identical profiles score 100% (the paper's text allows either
 * reading; its Figure 10 caps hot data streams at 50%, which neither
 * reading explains).  Two empty profiles give NaN (not applicable).
 *
 * Ties at the cut: members of equal weight are ordered by key (a, then b)
 * ascending (hps_member_order), so when several straddle the cut the ones
 * with the smaller keys are kept (call pairs: the lower call site; streams:
 * the lower string hash, in effect arbitrary but fixed).  The rule is the
 * models' parameter `tie` (key, the default; key_desc, the reverse, to
 * measure its effect): sampled profiles at low frequencies are made of
 * members seen once or twice, so the rule moves their accuracy by points.
 */
#ifndef HPS_ACCURACY_H
#define HPS_ACCURACY_H

#include <stddef.h>

#include "families/hps_table.h"

struct hps_overlap {
    double accuracy_pct;
    size_t kept_a, kept_b; /* members covering `cover` of each profile */
    size_t common;         /* kept in both */
};

/* Tie rules (parameter `tie`): the order of members of equal weight. */
enum hps_tie { HPS_TIE_KEY = 0, HPS_TIE_KEY_DESC = 1 };
extern const char *const hps_tie_choices[]; /* "key", "key_desc" */

/* A malloc'd copy of the n members m (sorted by hps_member_order) sorted
 * by weight and tie rule `tie`; NULL when n = 0. */
struct hps_member *hps_members_tied(const struct hps_member *m, size_t n, int tie);

/* Length of the shortest prefix of m (sorted) covering `cover` of the total
 * weight; *kept_sum gets its weight. */
size_t hps_kept_prefix(const struct hps_member *m, size_t n, double cover, double *kept_sum);

/* Accuracy of profile b against profile a (symmetric). */
double hps_overlap(const struct hps_member *a, size_t na, const struct hps_member *b, size_t nb, double cover,
                   struct hps_overlap *detail);

#endif
