/* hps_exact.c - stage "hps_exact": the exhaustive HPS profile of one type
 * over the whole window, computed with the same code as a sampled one
 * (hps_profile.h), and the window's counts that the overhead model needs.
 *
 * Parameters are the profile definition only (type, and for hot data
 * streams the reference kind, key, length bounds and heat threshold), so
 * every sampling configuration of a sweep shares one instance; hot data
 * streams build the grammar of the whole window's reference string in
 * finish() (docs/hps.md gives time and memory on our 50M-instruction
 * windows).  Reads instructions (for the count), loads, stores, branches and
 * calls; emits nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stages/hps_stages.h"

static const struct param_spec hps_exact_params[] = {
    P_ENUM("profile", 0, hps_profile_choices, "profile type: callpair, method or streams (hot data streams)"),
    P_ENUM("refs", 0, hps_refs_choices, "streams: data references are loads, or loads and stores (memory)"),
    P_ENUM("ref_key", 0, hps_refkey_choices, "streams: a reference is its (pc, address) or its address alone"),
    P_INT("min_len", 10, 2, 1e6, "streams: shortest hot data stream, in references"),
    P_INT("max_len", 100, 2, 1e9, "streams: longest hot data stream, in references"),
    P_REAL("heat_frac", 0.001, 0, 1, "streams: heat threshold H as a fraction of the references in the string"),
    PARAM_END,
};

struct hps_exact {
    struct hps_exact_view view;
    struct hps_profile *profile;
};

/* The stream definition of a parameter set that has the rows above (the
 * models' rows use the same names). */
static void stream_cfg(const struct param_values *pv, struct hps_stream_cfg *sc)
{
    sc->refs = pv_enum(pv, "refs");
    sc->key = pv_enum(pv, "ref_key");
    sc->min_len = (uint32_t)pv_int(pv, "min_len");
    sc->max_len = (uint32_t)pv_int(pv, "max_len");
    sc->heat_frac = pv_real(pv, "heat_frac");
}

static void *hps_exact_create(const struct param_values *pv, char *err, size_t errlen)
{
    struct hps_stream_cfg sc;
    stream_cfg(pv, &sc);
    if (sc.max_len < sc.min_len) {
        snprintf(err, errlen, "max_len (%u) must be at least min_len (%u)", sc.max_len, sc.min_len);
        return NULL;
    }
    struct hps_exact *x = calloc(1, sizeof *x);
    if (!x) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    x->profile = hps_profile_create(pv_enum(pv, "profile"), &sc);
    x->view.profile = x->profile;
    return x;
}

static size_t hps_exact_feed(void *st, const void *in, size_t n, struct chunk *out)
{
    struct hps_exact *x = st;
    const struct event *ev = in;
    struct hps_window *w = &x->view.w;
    uint64_t kind[EV_KINDS] = { 0 }, back = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned k = ev[i].kind;
        if (k < EV_KINDS)
            kind[k]++;
        back += (uint64_t)hps_is_backedge(&ev[i]);
    }
    w->insns += kind[EV_INSN];
    w->loads += kind[EV_LOAD];
    w->stores += kind[EV_STORE];
    w->calls += kind[EV_CALL];
    w->branches += kind[EV_BRANCH];
    w->backedges += back;
    hps_profile_feed(x->profile, ev, n);
    out->recs = NULL;
    out->n = 0;
    out->mark = MARK_NONE;
    return n;
}

static void hps_exact_finish(void *st, struct chunk *out)
{
    struct hps_exact *x = st;
    hps_profile_finish(x->profile, NULL);
    out->recs = NULL;
    out->n = 0;
    out->mark = MARK_NONE;
}

static void *hps_exact_shared(void *st) { return &((struct hps_exact *)st)->view; }

static void hps_exact_free(void *st)
{
    struct hps_exact *x = st;
    if (!x)
        return;
    hps_profile_free(x->profile);
    free(x);
}

const struct stage_desc hps_exact_stage = {
    .name = "hps_exact",
    .summary = "exhaustive HPS profile (hot call pairs, hot methods or hot data streams) and the window's counts",
    .params = hps_exact_params,
    .input_rec = "event",
    .event_mask = EV_BIT(EV_INSN) | EV_BIT(EV_LOAD) | EV_BIT(EV_STORE) | EV_BIT(EV_BRANCH) | EV_BIT(EV_CALL),
    .rec_type = NULL,
    .rec_size = 0,
    .create = hps_exact_create,
    .feed = hps_exact_feed,
    .finish = hps_exact_finish,
    .shared = hps_exact_shared,
    .free = hps_exact_free,
    .cost = 3, /* the hot-data-stream grammar dominates */
};
STAGE_REGISTER(hps_exact_stage);
