/* rap_measure.h - RAP Figure 4's wall clock (Mysore et al., section 3.2.1):
 * one stream of keys through RAP without aggregation, through the 1K-entry
 * merging buffer and fully aggregated, timed best of N interleaved rounds;
 * the streams of a trace (block starts, load values); and the CSV of
 * `make rap-wallclock`, results/rap/fig04-wallclock.csv, with a description
 * of the machine that measured it.  Shared by bench/bench_rap.c (console
 * lines, --csv) and its test (tests/bench/run.sh).
 *
 * Every stream is profiled as the paper's figure: 64-bit keys, b = 4
 * (stride 2), eps = 1%, q = 2, first merge at 1024 events.  A time covers
 * the feed and the finish (buffer flush, or the aggregation table's
 * updates of the tree); the finish alone is the "tree phase".
 *
 * Wall-clock times are measurements, not results of the model: the same
 * traces give other numbers on another machine, or on this one when it is
 * busy, so the CSV is not byte-reproducible (unlike every result of
 * `hwprof run`); its machine columns say where and when it was measured. */
#ifndef RAP_MEASURE_H
#define RAP_MEASURE_H

#include <stddef.h>
#include <stdint.h>

#include "trace/event.h"

/* At most this many keys of a stream are timed (16M). */
#define RAPM_MAX_EVENTS (16u << 20)

enum rapm_run { RAPM_CODE = 0, RAPM_VALUES = 1 };

/* One aggregation mode (enum rap_agg order: none, buffer, full), best of
 * the rounds. */
struct rapm_mode {
    double seconds;      /* feed + finish, best round */
    double tree_seconds; /* finish alone, best round */
    uint64_t updates;    /* tree updates (walks) */
    uint64_t nodes_max;  /* the largest tree */
};

struct rapm_result {
    size_t events;
    struct rapm_mode mode[3];
};

/* n events of kind EV_LOAD, size 8 (keys go in pc or value); exits on
 * out of memory. */
struct event *rapm_alloc(size_t n);

/* The first `max` block starts (code: an instruction that follows a
 * control transfer or is not at the previous one's end; key in pc) or
 * values of loads (values: key in value) of a trace, in a new array of
 * *n events.  NULL with a message in err on a trace error. */
struct event *rapm_from_trace(const char *path, enum rapm_run run, size_t max, size_t *n, char *err,
                              size_t errlen);

/* Rounds interleaved rounds of the three modes on ev[0..n) (code: keys in
 * pc, else in value); 0, or -1 with a message in err. */
int rapm_measure(const struct event *ev, size_t n, enum rapm_run run, int rounds, struct rapm_result *r, char *err,
                 size_t errlen);

/* One trace's window, measured. */
struct rapm_trace {
    char workload[64];
    char window[24];     /* the trace's window.index, "" when it has none */
    char sha256[65];     /* of the trace file */
    struct rapm_result run[2]; /* enum rapm_run */
};

/* Reads the trace's workload and window, hashes it, extracts both streams
 * (at most max keys each) and measures them; 0, or -1 with a message. */
int rapm_measure_trace(const char *path, size_t max, int rounds, struct rapm_trace *t, char *err, size_t errlen);

/* The CSV, written to a temporary and renamed into place (outfile.h): a
 * failure leaves the previous file, never a partial one.  One row per
 * trace x run (code, values) x aggregation (none, buffer, full); columns:
 *   workload, window, trace_sha256, run, aggregation, events, updates,
 *   nodes_max, seconds, events_per_s, speedup_vs_none,
 *   updates_saved_vs_none, tree_seconds, tree_speedup_vs_none (full only),
 *   then the measurement's description, the same on every row:
 *   rounds, max_events, cpu_model, cores, kernel, compiler, cflags,
 *   git_revision, git_dirty, date.
 * git_dirty is 1 when the harness's sources differed from git_revision at
 * build time or bench/bench_rap.c or bench/lib/rap_measure.c (read from the
 * current folder) differ from it now.  0, or -1 with a message in err. */
#define RAPM_COLUMNS                                                                                                   \
    "workload,window,trace_sha256,run,aggregation,events,updates,nodes_max,seconds,events_per_s,speedup_vs_none,"      \
    "updates_saved_vs_none,tree_seconds,tree_speedup_vs_none,rounds,max_events,cpu_model,cores,kernel,compiler,"      \
    "cflags,git_revision,git_dirty,date"
int rapm_write_csv(const char *path, const struct rapm_trace *t, size_t nt, int rounds, size_t max, char *err,
                   size_t errlen);

#endif
