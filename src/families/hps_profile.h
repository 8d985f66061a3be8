/* hps_profile.h - the three HPS profile types, built by the same code from
 * the events inside bursts (sampled) and from the whole window (exhaustive).
 *
 *   callpair  member <call site, callee>, weight = calls;
 *   method    member <method entry, 0>, weight = calls to the method +
 *             back edges inside it.  The enclosing method of a back edge at
 *             pc is the highest call target <= pc among the call targets of
 *             the whole window (the exhaustive profile's callees: what a
 *             symbol table would say, restricted to the functions called in
 *             the window).  Back edges are counted per pc while feeding and
 *             attributed at finish, with the same entry set for the
 *             exhaustive and every sampled profile, so attribution never
 *             differs between the two; back edges below every entry are
 *             counted as unattributed and left out;
 *   streams   hot data streams (hps_streams.h), weight = heat.
 *
 * Interest events (the instructions a profile handler runs on):
 *   callpair: calls; method: calls and back edges; streams: loads (or
 *   loads and stores, refs = memory).
 */
#ifndef HPS_PROFILE_H
#define HPS_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "families/hps_sampler.h"
#include "families/hps_streams.h"
#include "families/hps_table.h"
#include "trace/event.h"

enum hps_profile_type { HPS_CALLPAIR = 0, HPS_METHOD = 1, HPS_STREAMS = 2 };
extern const char *const hps_profile_choices[]; /* "callpair", "method", "streams" */

static inline int hps_is_interest(int type, int refs, const struct event *e)
{
    switch (type) {
    case HPS_CALLPAIR:
        return e->kind == EV_CALL;
    case HPS_METHOD:
        return hps_is_sampling_event(e);
    default:
        return e->kind == EV_LOAD || (refs == HPS_REFS_MEMORY && e->kind == EV_STORE);
    }
}

struct hps_profile;

/* sc: stream definition (type streams only; NULL otherwise). */
struct hps_profile *hps_profile_create(int type, const struct hps_stream_cfg *sc);
void hps_profile_free(struct hps_profile *p); /* accepts NULL */
/* Events of any kinds; the profile takes its interest events. */
void hps_profile_feed(struct hps_profile *p, const struct event *ev, size_t n);
/* A burst ended (streams: cut the reference string). */
void hps_profile_cut(struct hps_profile *p);
/* Build the members (once).  entries: the exhaustive method profile whose
 * callees are the method entries (NULL: p's own callees); ignored by the
 * other types. */
void hps_profile_finish(struct hps_profile *p, const struct hps_profile *entries);

int hps_profile_type(const struct hps_profile *p);
/* Members sorted by weight (after finish). */
const struct hps_member *hps_profile_members(const struct hps_profile *p, size_t *n);
uint64_t hps_profile_interest(const struct hps_profile *p);     /* interest events fed */
uint64_t hps_profile_unattributed(const struct hps_profile *p); /* method: back edges left out */
/* streams only (NULL otherwise). */
const struct hps_streams *hps_profile_streams(const struct hps_profile *p);
/* method: the sorted entry set (after finish). */
const uint64_t *hps_profile_entries(const struct hps_profile *p, size_t *n);

#endif
