/* wlnames.h - the workload names a config may use, from one of two places:
 *
 *   the suite: one experiments/<name>.wl per workload (experiments/README.md),
 *     whose traces are in the runner's --traces folder (traces/<scale>/);
 *   a traces folder (the config's "traces" key): every <name>.trace or
 *     <name>.w<K>.trace there is the workload <name>, with no .wl: a trace
 *     imported with `hwprof trace import`, or a program of one's own
 *     captured with `make workload` (configs/README.md, "Your own traces").
 *
 * Names are listed sorted; a name is at most 63 characters. */
#ifndef WLNAMES_H
#define WLNAMES_H

#include <stddef.h>

struct wlnames {
    const char *dir; /* the experiments folder, or the traces folder */
    int traces;      /* 1: dir is a traces folder */
};

/* Is `name` a workload of src? */
int wlnames_known(const struct wlnames *src, const char *name);
/* Every workload of src, sorted, into names[max][64]; returns the count. */
size_t wlnames_list(const struct wlnames *src, char (*names)[64], size_t max);
/* What makes `name` a workload of src, for messages: "experiments/x.wl",
 * "traces/mine/x.trace or x.w<K>.trace". */
void wlnames_what(const struct wlnames *src, const char *name, char *buf, size_t len);

#endif
