/* windows.h - the trace windows of a workload.
 *
 * A workload is traced in one or more windows (SimPoint representatives,
 * experiments/scales.sh): traces/<scale>/<workload>.w<K>.trace, K = 0, 1, ...
 * in SimPoint order, each with its weight in the trace metadata.
 *
 * When <dir>/<workload>.windows exists (the list experiments/windows.sh
 * writes last, after every window trace is in place), the windows are
 * exactly the ones it lists, in its order: lines
 *     window K slice start weight <workload>.w<K>.trace
 * with K = 0, 1, ... ('#' lines are comments).  A `.w<K>.trace` the list
 * does not name is ignored (windows_list counts it for a warning).
 *
 * Without a list (hand-made folders) the windows are the
 * <workload>.w<K>.trace files found, or else the lone <workload>.trace
 * (one window, weight 1).
 *
 * windows_check opens a window's trace with the trace reader (it exists,
 * is a regular file, its header and metadata are valid, it is of the
 * workload) and checks its metadata window.index, window.count and
 * window.weight: against the list's entry when there is a list (all three
 * must be recorded and agree), else against the windows found (those
 * recorded must agree with the file name and the count found).  Every
 * window is a job of the runner; results keep the per-window rows and
 * aggregate over windows (winstats.h). */
#ifndef WINDOWS_H
#define WINDOWS_H

#include <stddef.h>

struct window {
    char path[1200];
    int index;      /* K of .wK, 0 for a single <workload>.trace */
    int single;     /* the workload has one trace without a window number */
    int line;       /* its line in the list (0: no list) */
    double weight;  /* the list's weight (with a list) */
    char weight_text[40]; /* as the list writes it */
};

struct window_list {
    struct window *w;   /* n windows (at least one entry allocated) */
    int n;              /* 0: none found; then w[0] is the single-trace path, to report as missing */
    char dir[1024];
    char workload[128];
    char list[1200];    /* <dir>/<workload>.windows when it exists, else "" */
    int unlisted;       /* .w<K>.trace files the list does not name (ignored) */
    char unlisted_path[1200]; /* the first of them */
};

/* The windows of `workload` under dir.  Returns 0, or -1 with a message in
 * err (out of memory, an unreadable or malformed list: "list: line N: ...").
 * Free with windows_free (also after a failure). */
int windows_list(const char *dir, const char *workload, struct window_list *wl, char *err, size_t errlen);
void windows_free(struct window_list *wl);
/* Check window k of wl (see above).  Returns 0; or -1 (unusable) or -2
 * (the trace does not exist) with a message naming the trace (and the list
 * when there is one) in err; a trace that does not exist carries the hint
 * to run `make traces`. */
int windows_check(const struct window_list *wl, int k, char *err, size_t errlen);

#endif
