/* verdict.h - the one verdict vocabulary of the claims (docs/claims.md) and
 * the rules that turn a test's outcomes into a verdict.
 *
 * A test decides, per workload (or once, for "scope": "mean"), for the
 * claim, against it, or neither (undecided).  Over N workloads with F for
 * and A against, a rule gives the verdict:
 *
 *   rule   agrees              partly agrees                disagrees          undecided
 *   most   A = 0 and 2F >= N   F > A, otherwise             A >= F and A > 0   F = A = 0
 *   all    F = N               F > 0, A = 0, F < N          A > 0              F = A = 0
 *   some   F >= 1              -                            A = N              F = 0 and A < N
 *   mean   for                 -                            against            undecided
 *
 * A claim of several parts: the not-testable parts are left out (all of
 * them not testable: not testable); all the rest agree: agrees; all
 * disagree: disagrees; all undecided: undecided; none agrees or partly
 * agrees: disagrees when one disagrees, else undecided; otherwise partly
 * agrees.
 */
#ifndef VERDICT_H
#define VERDICT_H

#include <stddef.h>

enum verdict { VERDICT_AGREES, VERDICT_PARTLY, VERDICT_DISAGREES, VERDICT_UNDECIDED, VERDICT_NOT_TESTABLE };
#define VERDICT_COUNT 5

enum outcome { OUTCOME_NONE = 0, OUTCOME_FOR, OUTCOME_AGAINST, OUTCOME_UNDECIDED };

enum claim_rule { RULE_MOST, RULE_ALL, RULE_SOME, RULE_MEAN };

/* "agrees", "partly agrees", "disagrees", "undecided", "not testable". */
const char *verdict_name(enum verdict v);
/* "for", "against", "undecided" ("" for none). */
const char *outcome_name(enum outcome o);
/* "most", "all", "some", "mean". */
const char *rule_name(enum claim_rule r);

/* The verdict of rule over n workloads, nfor of them for and nagainst
 * against (n >= 1); rule RULE_MEAN is not counted: see verdict_of_mean. */
enum verdict verdict_of_counts(enum claim_rule rule, size_t n, size_t nfor, size_t nagainst);
/* The verdict of one outcome (scope mean). */
enum verdict verdict_of_mean(enum outcome o);
/* The verdict of a claim from its parts' (n >= 1). */
enum verdict verdict_combine(const enum verdict *parts, size_t n);

#endif
