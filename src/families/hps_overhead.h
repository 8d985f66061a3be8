/* hps_overhead.h - the profiling overhead of HPS and of DISE without
 * conditional control (the paper's Figure 7), in dynamic instructions.
 *
 * Counts of a window: I instructions, E interest events (the instructions a
 * profile handler would process: calls, calls and back edges, or memory
 * references), S sampling events (calls and back edges), and N sampled
 * interest events (interest events inside bursts).  Costs, in
 * instructions, every one a model parameter:
 *   replace  the decode stall of one DISE replacement, charged as one
 *            instruction (the paper simulates it with an inserted no-op)
 *   check    the replacement sequence that tests the sampling flag
 *   basic    the replacement sequence that counts a sampling event and
 *            sets/clears the flag (decrement, compare, branch, reset)
 *   handler  one profile-handler invocation (call, body, return)
 * DISE without conditional control:
 *   checks   = E x (replace + check)     every instruction of interest is replaced
 *   basic    = S x (replace + basic)     every call and back edge is replaced
 *   sampling = N x handler               the handler runs when the flag is set
 * HPS (conditional control in the DISE engine):
 *   sampling = N x (replace + handler)   only sampled instructions are replaced
 * Each is also given as a percentage of I.
 */
#ifndef HPS_OVERHEAD_H
#define HPS_OVERHEAD_H

#include <stdint.h>

struct hps_costs {
    double replace, check, basic, handler;
};

struct hps_counts {
    uint64_t insns, interest, sampling_events, sampled;
};

struct hps_overhead {
    double dise_checks, dise_basic, dise_sampling, dise_total; /* instructions */
    double hps_total;
    double dise_checks_pct, dise_basic_pct, dise_sampling_pct, dise_pct, hps_pct; /* of insns; NaN if insns = 0 */
};

void hps_overhead_compute(const struct hps_costs *c, const struct hps_counts *n, struct hps_overhead *o);

#endif
