/* instset.h - the model instances one trace window computes for every
 * config planned together (run_plan.c): the deduplicated union of the
 * instances the configs ask for.
 *
 * The key of an instance is its model and its fully resolved parameters
 * (every parameter of the model, REAL values compared bit for bit): two
 * configs asking for the same model with the same parameters get one
 * instance, computed once, whose output (outbuf.h) both read.  Its tables
 * are the union of the tables its askers want (a table one asker does not
 * want is collected for another, and never written into the first's
 * files).  The results of an instance depend only on the trace window and
 * the key (engine.h), so the shared output equals the output of each
 * asker's own instance.
 *
 * Use: add every asker's instances, then take the engine instances
 * (which creates the outputs); each asker releases what it read when its
 * result is written, and the last release frees the output. */
#ifndef INSTSET_H
#define INSTSET_H

#include <stdbool.h>
#include <stddef.h>

#include "run/engine.h"

struct instset;

struct instset *instset_create(void);
void instset_free(struct instset *s); /* accepts NULL; frees the outputs not yet freed */
/* One instance asked for: its index in the set, an existing one for the
 * same key.  wanted_tables: per table of m (NULL: none), or'ed into the
 * instance's.  SIZE_MAX when out of memory.  Only before instset_insts. */
size_t instset_add(struct instset *s, const struct model_desc *m, const struct param_values *pv,
                   const bool *wanted_tables);
size_t instset_count(const struct instset *s); /* distinct instances */
size_t instset_asked(const struct instset *s); /* instset_add calls */
/* How many times instance i was asked for. */
unsigned instset_users(const struct instset *s, size_t i);
/* The instances, with their outputs created (the first call creates them):
 * an array of instset_count() for one engine job, valid until free.  NULL
 * when out of memory (or the set is empty). */
struct engine_inst *instset_insts(struct instset *s);
/* One asker of instance i is done with its output: the last frees it. */
void instset_release(struct instset *s, size_t i);

#endif
