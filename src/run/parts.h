/* parts.h - partial results: one file per finished job (trace window) of a
 * config, so that a killed run resumes where it stopped and a config can be
 * run as shards on several machines and merged.
 *
 * A part is <out>/<paper>/<stem>.parts/job-<J>.json, written atomically
 * (temporary name, renamed) when job J finishes; it holds the job's
 * identity (workload, window, trace path), the inputs it was computed from
 * (config SHA-256, source fingerprint, the trace's SHA-256, event limit),
 * the trace header fields the sidecar reports, and every instance's
 * metrics and table rows.  Doubles are written with 17 significant digits
 * (exact round trip), NaN as null, infinities as "inf"/"-inf", 64-bit
 * unsigned cells as hex strings, so results rebuilt from parts are
 * byte-identical to results of one run.  A part whose inputs differ from
 * the current ones is never used (a message names the field); a part that
 * is not complete does not exist (rename).  Shards write `shard-I-of-N.done`
 * listing their jobs once all are finished.
 */
#ifndef PARTS_H
#define PARTS_H

#include <jansson.h>
#include <stdbool.h>

#include "run/config.h"
#include "run/engine.h"

struct part_id {
    size_t job;         /* index in the config's job list */
    const char *workload; /* NULL: analytic */
    int window;
    const char *trace_path;
    const char *trace_sha256; /* "" when unknown */
};

/* <out>/<paper>/<stem>.parts */
void parts_dir(const struct config *c, const char *out_dir, char *buf, size_t len);
/* Write job j's part (its instances' outputs and trace header). */
int parts_write_job(const char *dir, const struct part_id *id, const json_t *inputs, const struct engine_job *j,
                    double weight);
/* Load job j's part if it exists and matches id and inputs: fills j->th,
 * events_done, seconds, the instances' outputs (which must be empty) and
 * *weight.  Returns 1 when loaded, 0 when there is no usable part (why in
 * why, "" when the file does not exist), -1 on a damaged part (message). */
int parts_load_job(const char *dir, const struct part_id *id, const json_t *inputs, struct engine_job *j,
                   double *weight, char *why, size_t whylen);
/* Mark shard I of N done (the jobs it ran). */
int parts_write_shard_done(const char *dir, int shard, int nshards, size_t first_job, size_t njobs);
/* Remove the parts folder (after the results are written). */
void parts_remove(const char *dir);

#endif
