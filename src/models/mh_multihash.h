/* mh_multihash.h - multi-hash interval profiler (paper section 6). */
#ifndef MH_MULTIHASH_H
#define MH_MULTIHASH_H
#include "../model.h"
extern const struct model_ops mh_multihash_ops; /* "multihash" */
#endif
