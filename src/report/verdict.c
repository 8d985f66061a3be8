/* verdict.c - the rules from test outcomes to verdicts (see verdict.h). */
#include "report/verdict.h"

const char *verdict_name(enum verdict v)
{
    static const char *const names[] = {"agrees", "partly agrees", "disagrees", "undecided", "not testable"};
    return (size_t)v < VERDICT_COUNT ? names[v] : "?";
}

const char *outcome_name(enum outcome o)
{
    static const char *const names[] = {"", "for", "against", "undecided"};
    return (size_t)o < sizeof names / sizeof names[0] ? names[o] : "?";
}

const char *rule_name(enum claim_rule r)
{
    static const char *const names[] = {"most", "all", "some", "mean"};
    return (size_t)r < sizeof names / sizeof names[0] ? names[r] : "?";
}

enum verdict verdict_of_counts(enum claim_rule rule, size_t n, size_t nfor, size_t nagainst)
{
    size_t f = nfor, a = nagainst;
    switch (rule) {
    case RULE_ALL:
        if (a > 0)
            return VERDICT_DISAGREES;
        if (f == 0)
            return VERDICT_UNDECIDED;
        return f == n ? VERDICT_AGREES : VERDICT_PARTLY;
    case RULE_SOME:
        if (f >= 1)
            return VERDICT_AGREES;
        return a == n ? VERDICT_DISAGREES : VERDICT_UNDECIDED;
    case RULE_MOST:
    case RULE_MEAN:
        break;
    }
    if (f == 0 && a == 0)
        return VERDICT_UNDECIDED;
    if (a == 0 && 2 * f >= n)
        return VERDICT_AGREES;
    if (a > 0 && a >= f)
        return VERDICT_DISAGREES;
    return VERDICT_PARTLY;
}

enum verdict verdict_of_mean(enum outcome o)
{
    return o == OUTCOME_FOR ? VERDICT_AGREES : o == OUTCOME_AGAINST ? VERDICT_DISAGREES : VERDICT_UNDECIDED;
}

enum verdict verdict_combine(const enum verdict *parts, size_t n)
{
    size_t count[VERDICT_COUNT] = {0};
    for (size_t i = 0; i < n; i++)
        count[parts[i]]++;
    size_t tested = n - count[VERDICT_NOT_TESTABLE];
    if (tested == 0)
        return VERDICT_NOT_TESTABLE;
    for (int v = VERDICT_AGREES; v <= VERDICT_UNDECIDED; v++)
        if (count[v] == tested)
            return (enum verdict)v;
    if (count[VERDICT_AGREES] == 0 && count[VERDICT_PARTLY] == 0)
        return count[VERDICT_DISAGREES] ? VERDICT_DISAGREES : VERDICT_UNDECIDED;
    return VERDICT_PARTLY;
}
