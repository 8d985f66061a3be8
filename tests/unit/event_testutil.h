/* event_testutil.h - one trace event built by hand, for the unit tests
 * that feed stages and models a few events of their own. */
#ifndef EVENT_TESTUTIL_H
#define EVENT_TESTUTIL_H

#include <stdint.h>
#include <string.h>
#include "trace/trace.h"

static inline struct event mkev(int kind, uint64_t pc, uint64_t addr, uint64_t value, uint32_t size)
{
    struct event e;
    memset(&e, 0, sizeof e);
    e.kind = (uint8_t)kind;
    e.pc = pc;
    e.addr = addr;
    e.value = value;
    e.size = size;
    return e;
}

#endif
