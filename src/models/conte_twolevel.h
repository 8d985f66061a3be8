/* conte_twolevel.h - Conte et al. two-level hardware profiling (section 3.3,
 * Figure 6): per-branch history registers with marker and full bits, read and
 * reset at each sampling point; a pattern table of 2-bit counters predicts. */
#ifndef CONTE_TWOLEVEL_H
#define CONTE_TWOLEVEL_H

#include "../model.h"

extern const struct model_ops conte_twolevel_ops;

#endif
