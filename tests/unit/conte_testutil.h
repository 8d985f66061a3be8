/* conte_testutil.h - helpers for the Conte model unit tests: an event
 * buffer to build hand-written traces and parameter setters. */
#ifndef CONTE_TESTUTIL_H
#define CONTE_TESTUTIL_H

#include <stdint.h>
#include <string.h>
#include "core/params.h"
#include "trace/event.h"

#define CT_MAXEV 4096

struct evbuf {
    struct event ev[CT_MAXEV];
    size_t n;
};

static inline void eb_push(struct evbuf *b, uint8_t kind, uint64_t pc, uint64_t addr, uint64_t value, uint32_t size,
                           int taken)
{
    struct event *e = &b->ev[b->n++];
    memset(e, 0, sizeof *e);
    e->kind = kind;
    e->pc = pc;
    e->addr = addr;
    e->value = value;
    e->size = size;
    e->taken = (uint8_t)(taken != 0);
}

static inline void eb_insn(struct evbuf *b, uint64_t pc, uint32_t len)
{
    eb_push(b, EV_INSN, pc, 0, 0, len, 0);
}

/* A conditional branch instruction of length len at pc: the EV_INSN then the EV_BRANCH. */
static inline void eb_cond(struct evbuf *b, uint64_t pc, uint32_t len, uint64_t target, int taken)
{
    eb_insn(b, pc, len);
    eb_push(b, EV_BRANCH, pc, target, pc + len, 0, taken);
}

#endif
