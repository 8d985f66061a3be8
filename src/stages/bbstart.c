/* bbstart.c - stage "bbstart": basic-block starts (see bbstart.h). */
#include "stages/bbstart.h"

#include <stdio.h>
#include <stdlib.h>

#define BB_CHUNK 512

static const struct param_spec bbstart_params[] = { PARAM_END };

struct bb_st {
    uint64_t next_pc;  /* previous instruction's pc + size */
    int new_block;     /* the next instruction starts a block */
    struct event out[BB_CHUNK];
};

static void *bb_create(const struct param_values *pv, char *err, size_t errlen)
{
    (void)pv;
    struct bb_st *s = malloc(sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->next_pc = 0;
    s->new_block = 1;
    return s;
}

static size_t bb_feed(void *st, const void *in, size_t n, struct chunk *out)
{
    struct bb_st *s = st;
    const struct event *ev = in;
    size_t i = 0, k = 0;
    for (; i < n && k < BB_CHUNK; i++) {
        const struct event *e = &ev[i];
        if (e->kind == EV_INSN) {
            if (s->new_block || e->pc != s->next_pc)
                s->out[k++] = *e;
            s->next_pc = e->pc + e->size;
            s->new_block = 0;
        } else if (e->kind == EV_BRANCH || e->kind == EV_CALL || e->kind == EV_RET || e->kind == EV_IJUMP) {
            s->new_block = 1;
        }
    }
    out->recs = s->out;
    out->n = k;
    out->mark = MARK_NONE;
    return i;
}

static void bb_free(void *st) { free(st); }

const struct stage_desc bbstart_stage = {
    .name = "bbstart",
    .summary = "basic-block starts: instructions after a control event or a pc discontinuity",
    .params = bbstart_params,
    .input_rec = "event",
    .event_mask = BBSTART_EVENT_MASK,
    .rec_type = "event",
    .rec_size = sizeof(struct event),
    .create = bb_create,
    .feed = bb_feed,
    .free = bb_free,
    .cost = 0.5,
};
STAGE_REGISTER(bbstart_stage);
