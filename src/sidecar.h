/* sidecar.h - results/<paper>/<stem>.json: how a result was made.  The
 * resolved config, every sweep point's parameters as typed JSON values,
 * each trace's header, metadata and SHA-256, the build (git revision and
 * dirty state embedded at build time, compiler, flags), the host, library
 * and tool versions, the command line, a UTC timestamp, threads and wall
 * time.  Field list: configs/README.md ("Sidecar"). */
#ifndef SIDECAR_H
#define SIDECAR_H

#include "engine.h"
#include "results.h"
#include "run.h"

/* inputs: freshness_inputs() (may be NULL), recorded as "inputs". */
int sidecar_write(const struct config *c, const struct run_options *o, const struct engine_job *jobs, size_t njobs,
                  json_t *inputs, double wall, FILE *f);
/* A parameter value as typed JSON (integer, real, boolean, string). */
json_t *sidecar_param_json(const struct param_values *pv, size_t index);

#endif
