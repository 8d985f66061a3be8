/* mh_interval.h - stage "mh_interval" (src/stages/mh_interval.c): the tuple
 * stream of the multi-hash paper cut into intervals.  Records: struct
 * mh_tuple (families/mh_common.h, the multihash family library), in chunks
 * that never cross an interval boundary, MARK_INTERVAL at each boundary;
 * shared result: struct mh_interval_view. */
#ifndef MH_INTERVAL_H
#define MH_INTERVAL_H

#include <stdint.h>

#include "families/mh_common.h"
#include "run/stage.h"

extern const struct stage_desc mh_interval_stage;

/* The shared result. */
struct mh_interval_view {
    struct mh_exact_table *exact; /* the current interval's exact counts; NULL without `exact` */
    uint64_t skipped_loads;       /* loads without a value so far */
    uint64_t tuples;              /* tuples so far */
};

#endif
