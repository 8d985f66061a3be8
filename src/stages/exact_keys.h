/* exact_keys.h - stage "exact_keys": the exact count of every key of a
 * stream over the whole window, the reference every range profile of that
 * stream is scored against.
 *
 * Input: "event" records (decoded events, or a stage's event records such
 * as block starts or cache misses).  Which records count and their key
 * (or key pair) follow src/families/keysel.h, with the same parameters a model uses
 * (filter, key, key2, key_bits, key2_bits), so model and reference see the
 * same keys.  Output: no records.  Shared result: a struct keycount
 * (src/families/keycount.h); after the stage's finish (window end, before consumers
 * finish) it is sorted, so keycount_range(kc, lo, hi) and keycount_rect()
 * give exact counts of any range or rectangle.
 */
#ifndef STAGE_EXACT_KEYS_H
#define STAGE_EXACT_KEYS_H

#include "families/keycount.h"
#include "run/stage.h"

extern const struct stage_desc exact_keys_stage;

#endif
