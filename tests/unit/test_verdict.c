/* test_verdict.c - src/report/verdict.c: every rule of docs/claims.md
 * against its table, for every split of up to 6 workloads into for,
 * against and undecided (each split gets exactly one verdict, the one the
 * table's condition names), and the combination of parts. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>

#include "report/verdict.h"

/* The tables of docs/claims.md, written as conditions. */
static enum verdict by_table(enum claim_rule rule, size_t n, size_t f, size_t a)
{
    int hits = 0;
    enum verdict v = VERDICT_NOT_TESTABLE;
#define CASE(cond, verdict)                                                                                            \
    if (cond) {                                                                                                        \
        hits++;                                                                                                        \
        v = verdict;                                                                                                   \
    }
    switch (rule) {
    case RULE_MOST:
        CASE(a == 0 && 2 * f >= n && f > 0, VERDICT_AGREES)
        CASE(f > a && !(a == 0 && 2 * f >= n), VERDICT_PARTLY)
        CASE(a >= f && a > 0, VERDICT_DISAGREES)
        CASE(f == 0 && a == 0, VERDICT_UNDECIDED)
        break;
    case RULE_ALL:
        CASE(f == n, VERDICT_AGREES)
        CASE(f > 0 && a == 0 && f < n, VERDICT_PARTLY)
        CASE(a > 0, VERDICT_DISAGREES)
        CASE(f == 0 && a == 0, VERDICT_UNDECIDED)
        break;
    case RULE_SOME:
        CASE(f >= 1, VERDICT_AGREES)
        CASE(a == n, VERDICT_DISAGREES)
        CASE(f == 0 && a < n, VERDICT_UNDECIDED)
        break;
    case RULE_MEAN:
        break;
    }
#undef CASE
    assert_int_equal(hits, 1); /* the table's rows exclude each other and cover every split */
    return v;
}

static void test_rules(void **state)
{
    (void)state;
    for (int rule = RULE_MOST; rule <= RULE_SOME; rule++)
        for (size_t n = 1; n <= 6; n++)
            for (size_t f = 0; f <= n; f++)
                for (size_t a = 0; f + a <= n; a++)
                    assert_int_equal(verdict_of_counts((enum claim_rule)rule, n, f, a),
                                     by_table((enum claim_rule)rule, n, f, a));
}

/* A few by hand: 8 workloads, 4 for and 1 against (Conte's two-level vs
 * one-level) is "partly agrees" under most; 4 for and none against agrees. */
static void test_examples(void **state)
{
    (void)state;
    assert_int_equal(verdict_of_counts(RULE_MOST, 8, 4, 1), VERDICT_PARTLY);
    assert_int_equal(verdict_of_counts(RULE_MOST, 8, 4, 0), VERDICT_AGREES);
    assert_int_equal(verdict_of_counts(RULE_MOST, 8, 3, 0), VERDICT_PARTLY);
    assert_int_equal(verdict_of_counts(RULE_MOST, 8, 2, 2), VERDICT_DISAGREES);
    assert_int_equal(verdict_of_counts(RULE_ALL, 8, 7, 0), VERDICT_PARTLY);
    assert_int_equal(verdict_of_counts(RULE_ALL, 8, 7, 1), VERDICT_DISAGREES);
    assert_int_equal(verdict_of_counts(RULE_SOME, 8, 1, 7), VERDICT_AGREES);
    assert_int_equal(verdict_of_counts(RULE_SOME, 8, 0, 7), VERDICT_UNDECIDED);
    assert_int_equal(verdict_of_mean(OUTCOME_FOR), VERDICT_AGREES);
    assert_int_equal(verdict_of_mean(OUTCOME_AGAINST), VERDICT_DISAGREES);
    assert_int_equal(verdict_of_mean(OUTCOME_UNDECIDED), VERDICT_UNDECIDED);
    assert_string_equal(verdict_name(VERDICT_PARTLY), "partly agrees");
    assert_string_equal(verdict_name(VERDICT_NOT_TESTABLE), "not testable");
    assert_string_equal(rule_name(RULE_SOME), "some");
    assert_string_equal(outcome_name(OUTCOME_AGAINST), "against");
}

static void test_combine(void **state)
{
    (void)state;
    const enum verdict A = VERDICT_AGREES, P = VERDICT_PARTLY, D = VERDICT_DISAGREES, U = VERDICT_UNDECIDED,
                       N = VERDICT_NOT_TESTABLE;
    struct {
        enum verdict parts[3];
        size_t n;
        enum verdict want;
    } cases[] = {
        {{A, A, N}, 3, A}, {{D, D}, 2, D},    {{U, U, N}, 3, U}, {{N, N}, 2, N}, {{N}, 1, N},
        {{D, U}, 2, D},    {{U, D, N}, 3, D}, {{A, D}, 2, P},    {{A, U}, 2, P}, {{P, P}, 2, P},
        {{P, D, U}, 3, P}, {{A}, 1, A},       {{P}, 1, P},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        assert_int_equal(verdict_combine(cases[i].parts, cases[i].n), cases[i].want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rules),
        cmocka_unit_test(test_examples),
        cmocka_unit_test(test_combine),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
