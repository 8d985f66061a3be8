/* mh_exact.h - perfect interval profiler: distinct tuples, candidates and
 * candidate-set change per interval (paper Figures 4, 5, 6). */
#ifndef MH_EXACT_H
#define MH_EXACT_H
#include "../model.h"
extern const struct model_ops mh_exact_ops; /* "exact" */
#endif
