/* freshness.h - is a result current?  A result is current when its sidecar
 * records the same inputs as a run would use now: the config file's
 * SHA-256, the fingerprint of the harness's sources (embedded at build
 * time), each trace's SHA-256 and the event limit.  Content, not file
 * times: on a fresh clone whose traces were captured anew (captures are
 * deterministic) the committed results are current, and only a new or
 * changed config is run (`hwprof run --if-changed`, used by make). */
#ifndef FRESHNESS_H
#define FRESHNESS_H

#include <jansson.h>

#include "run/config.h"
#include "run/run_options.h"

/* The inputs object of a run of c now; NULL when a trace is missing (then
 * nothing is current). */
json_t *freshness_inputs(const struct config *c, const struct run_options *o);
/* 1 when <out>/<paper>/<stem>.csv exists, its sidecar's "inputs" equal
 * `inputs` and every output the sidecar records ("outputs": each CSV of
 * the result by name, with its SHA-256) is there with those bytes; else 0
 * (a CSV cut short, edited or deleted after the run is recomputed). */
int freshness_current(const struct config *c, const struct run_options *o, const json_t *inputs);

#endif
