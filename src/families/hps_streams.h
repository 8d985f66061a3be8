/* hps_streams.h - hot data streams (Chilimbi, PLDI 2001; Chilimbi and
 * Hirzel, PLDI 2002) from a data reference string, exhaustive or sampled.
 *
 * Definition used (docs/hps.md, "Hot data streams"):
 *   reference  one load (or load or store, `refs`) identified by
 *              (pc, address), or by the address alone (`key`);
 *   string     the references in program order; a sampled string has a cut
 *              (SQ_SEP) at every burst end, so no stream spans two bursts;
 *   grammar    SEQUITUR over the string (hps_sequitur.h);
 *   length     a nonterminal's expansion length, in references;
 *   cold uses  occurrences of a nonterminal in the parse tree of the whole
 *              string that do not lie inside a hot stream: processing rules
 *              parents first, the start rule has 1 cold use and a rule
 *              passes its cold uses to every nonterminal of its body (with
 *              multiplicity) unless it is hot itself, when it passes none;
 *   heat       length x cold uses;
 *   hot        min_len <= length <= max_len, cold uses >= 2 and heat >=
 *              H = heat_frac x (references in the string).
 * A hot stream is a member of the profile with weight = heat and key
 * (content hash, length), where the content hash is a polynomial hash mod
 * 2^61 - 1 of the references' (pc, address) values, the same for the
 * exhaustive and a sampled string (dense ids are never compared).
 *
 * add() only appends to buffers (amortised growth); finish() builds the
 * grammar and the profile.
 */
#ifndef HPS_STREAMS_H
#define HPS_STREAMS_H

#include <stddef.h>
#include <stdint.h>

#include "families/hps_table.h"

enum hps_refs { HPS_REFS_LOADS = 0, HPS_REFS_MEMORY = 1 };
enum hps_refkey { HPS_KEY_PC_ADDR = 0, HPS_KEY_ADDR = 1 };
extern const char *const hps_refs_choices[];   /* "loads", "memory" */
extern const char *const hps_refkey_choices[]; /* "pc_addr", "addr" */

struct hps_stream_cfg {
    int refs;          /* enum hps_refs */
    int key;           /* enum hps_refkey */
    uint32_t min_len;  /* references, >= 2 */
    uint32_t max_len;  /* references, >= min_len */
    double heat_frac;  /* H = heat_frac * references */
};

struct hps_streams_stats {
    uint64_t refs;        /* references in the string */
    uint64_t distinct;    /* distinct references */
    uint64_t cuts;        /* separators (burst ends) in the string */
    uint64_t rules;       /* grammar rules (start rule included) */
    uint64_t symbols;     /* grammar size in symbols */
    uint64_t hot;         /* hot streams */
    double heat_min;      /* H */
    double coverage;      /* sum of hot heat / refs: share of references inside hot streams */
    uint64_t peak_bytes;  /* grammar construction footprint */
    uint64_t anomalies;   /* sequitur defensive paths (0 expected) */
};

struct hps_streams;

struct hps_streams *hps_streams_create(const struct hps_stream_cfg *cfg);
void hps_streams_free(struct hps_streams *s); /* accepts NULL */
void hps_streams_add(struct hps_streams *s, uint64_t pc, uint64_t addr);
/* A burst ended: the next reference starts a new piece of string. */
void hps_streams_cut(struct hps_streams *s);
/* Build the grammar and the profile (once). */
void hps_streams_finish(struct hps_streams *s);
/* Hot streams sorted by heat (hps_member_order); x, y = first reference's
 * pc and address. */
const struct hps_member *hps_streams_members(const struct hps_streams *s, size_t *n);
void hps_streams_get_stats(const struct hps_streams *s, struct hps_streams_stats *st);

/* The content hash of a reference string (tests, reports): the key `a` a
 * hot stream made of these references gets. */
uint64_t hps_stream_hash(const uint64_t *pc, const uint64_t *addr, size_t n, int key);

#endif
