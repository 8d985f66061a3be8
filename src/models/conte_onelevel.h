/* conte_onelevel.h - Conte et al. one-level hardware profiling (section 3.2):
 * a BTB of 2-bit counters with tags and dirty bits, read at each sampling
 * point with the Table II increments of w = N/(B x d). */
#ifndef CONTE_ONELEVEL_H
#define CONTE_ONELEVEL_H

#include "../model.h"

extern const struct model_ops conte_onelevel_ops;

#endif
