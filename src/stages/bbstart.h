/* bbstart.h - stage "bbstart": the start of every basic-block execution.
 *
 * Definition (from the event stream alone): an instruction (EV_INSN) starts
 * a basic block when it is the first instruction of the window, or when a
 * control event (EV_BRANCH taken or not, EV_CALL, EV_RET, EV_IJUMP) came
 * after the previous instruction, or when its pc is not the previous
 * instruction's pc + size (a discontinuity: a direct jump, which the trace
 * does not record, or anything else that moved the pc).  So a block is a
 * maximal run of sequential instructions with no control event inside.
 * Each iteration of a rep-prefixed instruction repeats the same pc and so
 * starts a block of its own.
 *
 * Input: decoded EV_INSN, EV_BRANCH, EV_CALL, EV_RET, EV_IJUMP.  Output:
 * "event" records, a copy of each block-starting EV_INSN (pc = block start,
 * size = its first instruction's length), in program order.  No shared
 * result.
 */
#ifndef STAGE_BBSTART_H
#define STAGE_BBSTART_H

#include "run/stage.h"

extern const struct stage_desc bbstart_stage;

#define BBSTART_EVENT_MASK (EV_BIT(EV_INSN) | EV_BIT(EV_BRANCH) | EV_BIT(EV_CALL) | EV_BIT(EV_RET) | EV_BIT(EV_IJUMP))

#endif
