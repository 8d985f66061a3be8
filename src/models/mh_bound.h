/* mh_bound.h - analytic false-positive bound (100n/(tZ))^n of section 6.2
 * (paper Figure 9); needs no trace. */
#ifndef MH_BOUND_H
#define MH_BOUND_H
#include "../model.h"
extern const struct model_ops mh_bound_ops; /* "mh_bound" */
#endif
