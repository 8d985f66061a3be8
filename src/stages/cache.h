/* cache.h - stage "cache": a DL1 + unified L2 cache hierarchy over the
 * loads and stores in program order (src/families/cachesim.h has the policy).
 *
 * Input: decoded EV_LOAD and EV_STORE events (plus EV_INSN with ifetch = 1:
 * plan its input with those kinds).  Output: "event" records, one copy of
 * every load that missed DL1, with EVF_L2MISS set when it also missed L2,
 * in program order.  Stores never produce records (they only change the
 * cache state), nor do instruction fetches.  Shared result: the hierarchy's
 * struct cache_stats so far (complete after finish).
 */
#ifndef STAGE_CACHE_H
#define STAGE_CACHE_H

#include "families/cachesim.h"
#include "run/stage.h"

extern const struct stage_desc cache_stage;

/* Parameter rows of the cache geometry, shared with models that pass them on
 * (same names, defaults and bounds). */
#define CACHE_GEOMETRY_PARAMS                                                                                      \
    P_INT("l1_size", 32768, 64, 1073741824, "DL1 size in bytes (ways * line * a power of two)"),                     \
    P_INT("l1_ways", 8, 1, 1024, "DL1 associativity"),                                                           \
    P_INT("l1_line", 64, 1, 1048576, "DL1 line size in bytes (power of two)"),                                    \
    P_INT("l2_size", 1048576, 64, 1073741824, "unified L2 size in bytes (ways * line * a power of two)"),          \
    P_INT("l2_ways", 16, 1, 1024, "L2 associativity"),                                                           \
    P_INT("l2_line", 64, 1, 1048576, "L2 line size in bytes (power of two, >= l1_line)"),                        \
    P_BOOL("ifetch", 0, "instruction fetches go through an IL1 into the unified L2 (else L2 sees data only)"),   \
    P_INT("il1_size", 32768, 64, 1073741824, "IL1 size in bytes (with ifetch)"),                                 \
    P_INT("il1_ways", 8, 1, 1024, "IL1 associativity (with ifetch)"),                                            \
    P_INT("il1_line", 64, 1, 1048576, "IL1 line size in bytes (with ifetch)")

#define CACHE_GEOMETRY_NAMES \
    "l1_size", "l1_ways", "l1_line", "l2_size", "l2_ways", "l2_line", "ifetch", "il1_size", "il1_ways", "il1_line"

#endif
