/* conte_wcfg.h - stage "conte_wcfg" (src/stages/conte_wcfg.c): the exact
 * weighted control-flow graph of the window, built once for every Conte
 * model of a job.  Records: one struct conte_brec per executed conditional
 * branch; shared result: the struct conte_cfg (families/conte_cfg.h, the
 * Conte family library), into whose branch records the models copy their
 * estimates at the end. */
#ifndef CONTE_WCFG_H
#define CONTE_WCFG_H

#include <stdint.h>

#include "families/conte_cfg.h"
#include "run/stage.h"

extern const struct stage_desc conte_wcfg_stage;

/* One executed conditional branch, as the shared WCFG pass hands it to the
 * hardware models: pc, direction, branch slot (conte_cfg_cond) and the
 * instructions executed up to and including it. */
struct conte_brec {
    uint64_t pc;
    uint64_t insns;
    uint32_t slot;
    uint32_t taken; /* 0/1 */
};

#endif
