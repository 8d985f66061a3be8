/* test_progress.c - the run's ETA (progress_eta) on made-up job states,
 * every expected value worked out by hand in the comments. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "run/progress.h"

#define N(a) (sizeof (a) / sizeof (a)[0])

static void near(double got, double want)
{
    if (!(fabs(got - want) <= 1e-9 * (fabs(want) + 1)))
        fail_msg("got %.9g, want %.9g", got, want);
}

/* state, work, total_known, events_total, events_done, seconds, events_timed */
static struct progress_job queued(double work) { return (struct progress_job){ PJ_QUEUED, work, 0, 0, 0, 0, 0 }; }
static struct progress_job done(double work, double events, double seconds)
{
    return (struct progress_job){ PJ_DONE, work, 1, events, events, seconds, events };
}
static struct progress_job running(double work, double total, double done_, double seconds, double timed)
{
    return (struct progress_job){ PJ_RUNNING, work, 1, total, done_, seconds, timed };
}

/* Nothing measured yet: no estimate rather than a made-up one. */
static void test_no_basis(void **state)
{
    (void)state;
    struct progress_job a[] = { queued(10), queued(20) };
    near(progress_eta(a, N(a), 2), -1);
    /* started, header read, but not timed yet (first seen this instant) */
    struct progress_job b[] = { running(10, 1000, 0, 0, 0), queued(20) };
    near(progress_eta(b, N(b), 2), -1);
    /* a rate from a finished job, but a running job whose header is not read: its events are unknown */
    struct progress_job c[] = { done(10, 1000, 10), running(10, 1000, 0, 0, 0) };
    c[1].total_known = 0;
    near(progress_eta(c, N(c), 2), -1);
}

static void test_nothing_left(void **state)
{
    (void)state;
    struct progress_job a[] = { done(10, 1000, 10), done(5, 500, 4) };
    near(progress_eta(a, N(a), 2), 0);
    struct progress_job b[] = { { PJ_SKIPPED, 10, 0, 0, 0, 0, 0 } };
    near(progress_eta(b, N(b), 1), 0);
    near(progress_eta(NULL, 0, 1), 0);
}

/* 250 of 1000 events in 5 s: 50 events/s, 750 left: 15 s. */
static void test_one_running(void **state)
{
    (void)state;
    struct progress_job a[] = { running(10, 1000, 250, 5, 250) };
    near(progress_eta(a, N(a), 1), 15);
    /* timed since it was first seen (100 events in): 150 events in 3 s, 50/s: the same 15 s */
    struct progress_job b[] = { running(10, 1000, 250, 3, 150) };
    near(progress_eta(b, N(b), 1), 15);
}

/* A job timed for less than PROGRESS_OWN_RATE_SECONDS goes at the pooled
 * rate: (1000 + 50) events / (10 + 0.5) s = 100/s; 1950 left: 19.5 s. */
static void test_young_job_pooled_rate(void **state)
{
    (void)state;
    struct progress_job a[] = { done(10, 1000, 10), running(20, 2000, 50, 0.5, 50) };
    near(progress_eta(a, N(a), 2), 19.5);
}

/* The last job running alone, slower than the others were: its own rate,
 * not the pooled one.  3000 events in 20 s = 150/s, 10000 left: 66.67 s
 * (the pooled rate, (1000 + 3000) / 21 = 190.5/s, would say 52.5 s). */
static void test_tail_own_rate(void **state)
{
    (void)state;
    struct progress_job a[] = { done(10, 1000, 1), running(130, 13000, 3000, 20, 3000) };
    near(progress_eta(a, N(a), 2), 10000.0 / 150);
}

/* Jobs not started.  Timed: A 1000 events in 10 s, B 1000 in 10 s: 100
 * events/s per job.  Events per unit of work: (1000 + 2000) / (10 + 20) =
 * 100.  B has 1000 left: 10 s.  C (work 30): 3000 events, 30 s; D (work
 * 10): 1000, 10 s.  Two at a time, largest first: slots [10 (B), 0]; C on
 * the free one -> [10, 30]; D on the first -> [20, 30]: 30 s.  One at a
 * time: 10 + 30 + 10 = 50 s.  A skipped job changes nothing. */
static void test_queued_over_slots(void **state)
{
    (void)state;
    struct progress_job a[] = { done(10, 1000, 10), running(20, 2000, 1000, 10, 1000), queued(10), queued(30),
                                { PJ_SKIPPED, 500, 0, 0, 0, 0, 0 } };
    near(progress_eta(a, N(a), 2), 30);
    near(progress_eta(a, N(a), 1), 50);
    /* three at a time: [10, 0, 0]; C -> [10, 30, 0]; D -> [10, 30, 10]: 30 s */
    near(progress_eta(a, N(a), 3), 30);
}

/* More jobs running than slots claimed: each running job has its own. 10 s
 * and 20 s left: 20 s, not 30. */
static void test_running_beyond_slots(void **state)
{
    (void)state;
    struct progress_job a[] = { running(10, 2000, 1000, 10, 1000), running(10, 3000, 1000, 10, 1000) };
    near(progress_eta(a, N(a), 1), 20);
    near(progress_eta(a, N(a), 0), 20);
}

/* Queued jobs but no started job with a known event count: no events per
 * unit of work, no estimate. */
static void test_queued_without_counts(void **state)
{
    (void)state;
    struct progress_job a[] = { running(10, 1000, 500, 5, 500), queued(10) };
    a[0].work = 0; /* e.g. an analytic job's */
    near(progress_eta(a, N(a), 2), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_basis),
        cmocka_unit_test(test_nothing_left),
        cmocka_unit_test(test_one_running),
        cmocka_unit_test(test_young_job_pooled_rate),
        cmocka_unit_test(test_tail_own_rate),
        cmocka_unit_test(test_queued_over_slots),
        cmocka_unit_test(test_running_beyond_slots),
        cmocka_unit_test(test_queued_without_counts),
    };
    return cmocka_run_group_tests_name("progress", tests, NULL, NULL);
}
