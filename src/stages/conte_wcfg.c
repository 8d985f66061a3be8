/* conte_wcfg.c - stage "conte_wcfg": the exact weighted control-flow graph
 * of the window (families/conte_cfg.h), built once for every Conte model of a
 * job, and the stream of executed conditional branches those models'
 * hardware sees.
 *
 * Reads instructions and control-flow events; emits one struct conte_brec
 * (pc, direction, branch slot, instructions so far) per conditional branch,
 * in chunks of at most CONTE_CHUNK records.  Its shared result is the
 * struct conte_cfg; the models copy their estimates into its branch records
 * at finish (scratch fields, one instance after another).
 */
#include <stdio.h>
#include <stdlib.h>

#include "stages/conte_wcfg.h"

/* Branch records per chunk: every model's hardware then runs over them
 * while its tables are hot in cache. */
#define CONTE_CHUNK 1024

static const struct param_spec wcfg_params[] = {
    P_INT("cfg_capacity", 65536, 64, 67108864, "initial capacity of the WCFG tables (they double when needed)"),
    PARAM_END,
};

struct wcfg_stage {
    struct conte_cfg *cfg;
    struct conte_brec rec[CONTE_CHUNK];
};

static void *wcfg_create(const struct param_values *pv, char *err, size_t errlen)
{
    struct wcfg_stage *s = calloc(1, sizeof *s);
    if (s)
        s->cfg = conte_cfg_create((size_t)pv_int(pv, "cfg_capacity"));
    if (!s || !s->cfg) {
        free(s);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    return s;
}

static size_t wcfg_feed(void *st, const void *in, size_t count, struct chunk *out)
{
    struct wcfg_stage *s = st;
    struct conte_cfg *cfg = s->cfg;
    const struct event *ev = in;
    conte_cfg_reserve(cfg, count); /* table growth happens here, at most once per call */
    size_t i = 0, nr = 0;
    for (; i < count && nr < CONTE_CHUNK; i++) {
        const struct event *e = &ev[i];
        switch (e->kind) {
        case EV_INSN:
            conte_cfg_insn_fast(cfg, e->pc, e->size);
            break;
        case EV_BRANCH: {
            struct conte_brec *r = &s->rec[nr++];
            r->slot = conte_cfg_cond(cfg, e->pc, e->addr, e->value, e->taken);
            r->pc = e->pc;
            r->taken = e->taken != 0;
            r->insns = conte_cfg_insns(cfg);
            break;
        }
        case EV_CALL:
            conte_cfg_call(cfg, e->pc);
            break;
        case EV_RET:
            conte_cfg_ret(cfg, e->pc);
            break;
        case EV_IJUMP:
            conte_cfg_ijump(cfg, e->pc);
            break;
        default:
            break;
        }
    }
    out->recs = s->rec;
    out->n = nr;
    out->mark = MARK_NONE;
    return i;
}

static void wcfg_finish(void *st, struct chunk *out)
{
    struct wcfg_stage *s = st;
    conte_cfg_end(s->cfg);
    out->n = 0;
}

static void *wcfg_shared(void *st) { return ((struct wcfg_stage *)st)->cfg; }

static void wcfg_free(void *st)
{
    struct wcfg_stage *s = st;
    if (!s)
        return;
    conte_cfg_free(s->cfg);
    free(s);
}

const struct stage_desc conte_wcfg_stage = {
    .name = "conte_wcfg",
    .summary = "exact weighted CFG of the window and the executed conditional branches (Conte et al.)",
    .params = wcfg_params,
    .input_rec = "event",
    .event_mask = EV_BIT(EV_INSN) | EV_BIT(EV_BRANCH) | EV_BIT(EV_CALL) | EV_BIT(EV_RET) | EV_BIT(EV_IJUMP),
    .rec_type = "conte_brec",
    .rec_size = sizeof(struct conte_brec),
    .create = wcfg_create,
    .feed = wcfg_feed,
    .finish = wcfg_finish,
    .shared = wcfg_shared,
    .free = wcfg_free,
    .cost = 4,
};
STAGE_REGISTER(conte_wcfg_stage);
