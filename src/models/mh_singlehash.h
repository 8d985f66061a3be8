/* mh_singlehash.h - single hash-table interval profiler (paper section 5). */
#ifndef MH_SINGLEHASH_H
#define MH_SINGLEHASH_H
#include "../model.h"
extern const struct model_ops mh_singlehash_ops; /* "singlehash" */
#endif
