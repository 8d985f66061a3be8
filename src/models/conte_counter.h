/* conte_counter.h - Conte et al. ideal "counter" scheme (section 4.1): each BTB
 * entry holds two unbounded counters (executed, taken); only contention loses
 * information. */
#ifndef CONTE_COUNTER_H
#define CONTE_COUNTER_H

#include "../model.h"

extern const struct model_ops conte_counter_ops;

#endif
