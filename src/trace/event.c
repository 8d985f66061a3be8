/* event.c - names of event kinds shared by the text formats and reports. */
#include "trace/event.h"

const char ev_kind_letter[EV_KINDS] = { 'I', 'L', 'S', 'B', 'C', 'R', 'J' };
const char *const ev_kind_name[EV_KINDS] = { "insn", "load", "store", "branch", "call", "return", "ijump" };
