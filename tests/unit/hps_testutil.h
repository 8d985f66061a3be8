/* hps_testutil.h - event builders and a stage driver for the HPS tests. */
#ifndef HPS_TESTUTIL_H
#define HPS_TESTUTIL_H

#include <stdlib.h>
#include <string.h>

#include "run/stage.h"
#include "stages/hps_stages.h"
#include "trace/event.h"

static inline struct event hev(uint8_t kind, uint64_t pc, uint64_t addr, uint8_t taken)
{
    struct event e;
    memset(&e, 0, sizeof e);
    e.kind = kind;
    e.pc = pc;
    e.addr = addr;
    e.taken = taken;
    if (kind == EV_BRANCH)
        e.value = pc + 2; /* fall-through */
    if (kind == EV_LOAD || kind == EV_STORE)
        e.size = 8;
    return e;
}
#define CALL(site, callee) hev(EV_CALL, site, callee, 0)
#define BACK(pc, target) hev(EV_BRANCH, pc, target, 1)      /* taken, target below pc */
#define FWD(pc, target, taken) hev(EV_BRANCH, pc, target, taken)
#define LOAD(pc, addr) hev(EV_LOAD, pc, addr, 0)
#define STORE(pc, addr) hev(EV_STORE, pc, addr, 0)
#define INSN(pc) hev(EV_INSN, pc, 0, 0)
#define RET(pc, dest) hev(EV_RET, pc, dest, 0)

/* What stage "bursty" emitted: its records (copied) and, after record i,
 * the marks (it has none). */
struct stage_log {
    struct hps_burst_rec *rec;
    size_t n, cap;
    size_t *mark_at; /* records emitted before each mark */
    size_t nmarks, capmarks;
    size_t calls;    /* feed() calls */
    size_t max_chunk;
};

static inline void log_chunk(struct stage_log *l, const struct chunk *c, size_t rec_size)
{
    if (c->n) {
        if (l->n + c->n > l->cap) {
            l->cap = (l->n + c->n) * 2;
            l->rec = realloc(l->rec, l->cap * sizeof *l->rec);
        }
        if (rec_size == sizeof(struct hps_burst_rec))
            memcpy(l->rec + l->n, c->recs, c->n * sizeof *l->rec);
        l->n += c->n;
        if (c->n > l->max_chunk)
            l->max_chunk = c->n;
    }
    if (c->mark) {
        if (l->nmarks == l->capmarks) {
            l->capmarks = l->capmarks ? 2 * l->capmarks : 16;
            l->mark_at = realloc(l->mark_at, l->capmarks * sizeof *l->mark_at);
        }
        l->mark_at[l->nmarks++] = l->n;
    }
}

/* Push ev[0..n) through stage st the way the engine does (stage.h). */
static inline void stage_push(const struct stage_desc *d, void *st, const struct event *ev, size_t n,
                              struct stage_log *l)
{
    while (n) {
        struct chunk c = { NULL, 0, MARK_NONE };
        size_t k = d->feed(st, ev, n, &c);
        if (k > n || (k == 0 && c.n == 0 && c.mark == MARK_NONE))
            abort(); /* the stage made no progress */
        l->calls++;
        log_chunk(l, &c, d->rec_size);
        ev += k;
        n -= k;
    }
}

static inline void stage_end(const struct stage_desc *d, void *st, struct stage_log *l)
{
    if (!d->finish)
        return;
    struct chunk c = { NULL, 0, MARK_NONE };
    d->finish(st, &c);
    log_chunk(l, &c, d->rec_size);
}

static inline void stage_log_free(struct stage_log *l)
{
    free(l->rec);
    free(l->mark_at);
    memset(l, 0, sizeof *l);
}

#endif
