/* sidecar.h - how a result was made, in two files:
 *
 *   results/<paper>/<stem>.json      what the numbers are a function of:
 *       the config, every sweep point's parameters as typed JSON values,
 *       each trace window's header, metadata and SHA-256, the inputs
 *       fingerprint (freshness.h), the SHA-256 of every CSV the run wrote
 *       ("outputs", by file name; freshness.h checks them), the build
 *       (version, git revision and the sources' dirty state embedded at
 *       build time, the config's git state at run time, compiler, flags;
 *       provenance.h) and library versions.  Deterministic: the same
 *       config, traces and build give the same bytes, whether run at once
 *       or as merged shards.
 *   results/<paper>/<stem>.run.json  how this copy was produced: UTC time,
 *       host and CPU, gnuplot version, command line, threads, wall time and
 *       per-job seconds (one record per shard for merged results).
 *
 * Field list: configs/README.md ("Provenance"). */
#ifndef SIDECAR_H
#define SIDECAR_H

#include "run/engine.h"
#include "run/results.h"
#include "run/run_options.h"

/* The deterministic sidecar.  inputs: freshness_inputs() (may be NULL);
 * outputs: {"<stem>.csv": "<sha256>", ...}, every CSV of the result as it
 * is renamed into place. */
int sidecar_write(const struct config *c, const struct engine_job *jobs, size_t njobs, json_t *inputs,
                  json_t *outputs, FILE *f);
/* The run record.  wall: seconds from the start of the run to this
 * result; plan_configs: how many configs the run computed in one plan
 * (1: alone; more: recorded, and each job's seconds are this config's
 * share of a window job that served several, configs/README.md). */
int sidecar_write_run(const struct config *c, const struct run_options *o, const struct engine_job *jobs, size_t njobs,
                      double wall, int plan_configs, FILE *f);
/* A parameter value as typed JSON (integer, real, boolean, string). */
json_t *sidecar_param_json(const struct param_values *pv, size_t index);

#endif
