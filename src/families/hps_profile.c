/* hps_profile.c - hot call pair, hot method and hot data stream profiles;
 * see hps_profile.h. */
#include "families/hps_profile.h"

#include <stdlib.h>
#include <string.h>

const char *const hps_profile_choices[] = { "callpair", "method", "streams", NULL };

struct hps_profile {
    int type;
    int refs;
    uint64_t interest;
    struct hps_table calls;     /* callpair: (site, callee); method: (callee, 0) */
    struct hps_table backedges; /* method: (pc, 0) */
    struct hps_streams *streams;
    uint64_t *entries;          /* method: sorted callees */
    size_t nentries;
    uint64_t unattributed;
    struct hps_member *members;
    size_t nmembers;
    int finished;
};

struct hps_profile *hps_profile_create(int type, const struct hps_stream_cfg *sc)
{
    struct hps_profile *p = hps_xrealloc(NULL, sizeof *p, "hps profile");
    memset(p, 0, sizeof *p);
    p->type = type;
    if (type == HPS_STREAMS) {
        p->refs = sc->refs;
        p->streams = hps_streams_create(sc);
    } else {
        hps_table_init(&p->calls, 256, "hps call table");
        if (type == HPS_METHOD)
            hps_table_init(&p->backedges, 256, "hps back-edge table");
    }
    return p;
}

void hps_profile_free(struct hps_profile *p)
{
    if (!p)
        return;
    hps_table_free(&p->calls);
    hps_table_free(&p->backedges);
    hps_streams_free(p->streams);
    free(p->entries);
    free(p->members);
    free(p);
}

void hps_profile_feed(struct hps_profile *p, const struct event *ev, size_t n)
{
    uint64_t k = 0;
    switch (p->type) {
    case HPS_CALLPAIR:
        for (size_t i = 0; i < n; i++)
            if (ev[i].kind == EV_CALL) {
                hps_table_add(&p->calls, ev[i].pc, ev[i].addr, 1);
                k++;
            }
        break;
    case HPS_METHOD:
        for (size_t i = 0; i < n; i++) {
            if (ev[i].kind == EV_CALL) {
                hps_table_add(&p->calls, ev[i].addr, 0, 1);
                k++;
            } else if (hps_is_backedge(&ev[i])) {
                hps_table_add(&p->backedges, ev[i].pc, 0, 1);
                k++;
            }
        }
        break;
    default:
        for (size_t i = 0; i < n; i++)
            if (hps_is_interest(HPS_STREAMS, p->refs, &ev[i])) {
                hps_streams_add(p->streams, ev[i].pc, ev[i].addr);
                k++;
            }
        break;
    }
    p->interest += k;
}

void hps_profile_cut(struct hps_profile *p)
{
    if (p->streams)
        hps_streams_cut(p->streams);
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

static void sorted_callees(struct hps_profile *p)
{
    p->nentries = p->calls.used;
    p->entries = hps_xrealloc(NULL, (p->nentries ? p->nentries : 1) * sizeof *p->entries, "hps method entries");
    size_t k = 0;
    for (size_t i = 0; i <= p->calls.mask; i++)
        if (p->calls.slot[i].n)
            p->entries[k++] = p->calls.slot[i].a;
    qsort(p->entries, k, sizeof *p->entries, cmp_u64);
}

/* Highest entry <= pc, or 0 with *found = 0. */
static uint64_t entry_at_or_below(const uint64_t *e, size_t n, uint64_t pc, int *found)
{
    size_t lo = 0, hi = n; /* first entry > pc is at lo after the search */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (e[mid] <= pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    *found = lo > 0;
    return lo > 0 ? e[lo - 1] : 0;
}

void hps_profile_finish(struct hps_profile *p, const struct hps_profile *entries)
{
    if (p->finished)
        return;
    p->finished = 1;
    switch (p->type) {
    case HPS_CALLPAIR:
        p->members = hps_table_members(&p->calls, &p->nmembers);
        break;
    case HPS_METHOD: {
        sorted_callees(p);
        const uint64_t *e = p->entries;
        size_t ne = p->nentries;
        if (entries && entries != p) {
            e = entries->entries;
            ne = entries->nentries;
        }
        struct hps_table methods;
        hps_table_init(&methods, p->calls.used + 16, "hps method table");
        for (size_t i = 0; i <= p->calls.mask; i++)
            if (p->calls.slot[i].n)
                hps_table_add(&methods, p->calls.slot[i].a, 0, p->calls.slot[i].n);
        for (size_t i = 0; i <= p->backedges.mask; i++) {
            const struct hps_slot *s = &p->backedges.slot[i];
            if (!s->n)
                continue;
            int found;
            uint64_t m = entry_at_or_below(e, ne, s->a, &found);
            if (found)
                hps_table_add(&methods, m, 0, s->n);
            else
                p->unattributed += s->n;
        }
        p->members = hps_table_members(&methods, &p->nmembers);
        hps_table_free(&methods);
        break;
    }
    default: {
        hps_streams_finish(p->streams);
        size_t n;
        const struct hps_member *m = hps_streams_members(p->streams, &n);
        if (n) {
            p->members = hps_xrealloc(NULL, n * sizeof *m, "hps stream members");
            memcpy(p->members, m, n * sizeof *m);
        }
        p->nmembers = n;
        break;
    }
    }
}

int hps_profile_type(const struct hps_profile *p) { return p->type; }

const struct hps_member *hps_profile_members(const struct hps_profile *p, size_t *n)
{
    *n = p->nmembers;
    return p->members;
}

uint64_t hps_profile_interest(const struct hps_profile *p) { return p->interest; }
uint64_t hps_profile_unattributed(const struct hps_profile *p) { return p->unattributed; }
const struct hps_streams *hps_profile_streams(const struct hps_profile *p) { return p->streams; }

const uint64_t *hps_profile_entries(const struct hps_profile *p, size_t *n)
{
    *n = p->nentries;
    return p->entries;
}
