/* mh_spacesaving.h - per-interval Space-Saving table at the memory of a
 * multihash configuration (beyond the paper). */
#ifndef MH_SPACESAVING_H
#define MH_SPACESAVING_H
#include <stdint.h>
#include "../model.h"
extern const struct model_ops mh_spacesaving_ops; /* "spacesaving" */
/* For unit tests: the count an instance holds for a tuple (0 if absent). */
uint32_t mh_spacesaving_count(const void *m, uint64_t a, uint64_t b);
#endif
