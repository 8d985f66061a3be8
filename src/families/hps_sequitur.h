/* hps_sequitur.h - SEQUITUR (Nevill-Manning and Witten 1997): an online,
 * linear-time builder of a context-free grammar that generates exactly one
 * string, used for hot data streams as in Chilimbi's Whole Program Streams
 * (PLDI 2001) and Chilimbi and Hirzel's hot data stream analysis (PLDI 2002).
 *
 * Two properties hold after every appended symbol:
 *   digram uniqueness  no pair of adjacent symbols occurs twice in the
 *                      grammar without overlapping ("aaa" has one);
 *   rule utility       every rule but the start rule is used at least twice.
 * A repeated digram becomes a rule; a rule used once is inlined.
 *
 * Symbols are 32-bit: terminals 0 .. SQ_MAX_TERMINAL, and SQ_SEP, a
 * separator that never joins a digram, so no rule spans it (the bursts of a
 * sampled reference string are cut this way: a stream never spans two
 * bursts).  Storage is index-based (12 bytes a symbol) in arrays that grow by
 * doubling; the digram index is an open-addressing table keyed by the
 * symbol pair.
 *
 * The grammar is read out as a compact copy (struct sq_compact): rule 0 is
 * the start rule, rules are numbered in order of creation among the live
 * ones, and a body symbol is a terminal, SQ_SEP or SQ_NT | rule.
 *
 *   input  a b c a b d a b c a b d
 *   rules  0 -> 2 2     1 -> a b     2 -> 1 c 1 d
 */
#ifndef HPS_SEQUITUR_H
#define HPS_SEQUITUR_H

#include <stddef.h>
#include <stdint.h>

#define SQ_NT 0x80000000u             /* body symbol tag: nonterminal (| rule) */
#define SQ_SEP 0x7fffffffu            /* separator terminal */
#define SQ_MAX_TERMINAL 0x7ffffffeu

struct sq_grammar;

struct sq_grammar *sq_create(size_t expected_symbols);
void sq_free(struct sq_grammar *g); /* accepts NULL */
/* Append terminal t (<= SQ_MAX_TERMINAL) or SQ_SEP to the start rule. */
void sq_append(struct sq_grammar *g, uint32_t t);

struct sq_stats {
    uint64_t appended;     /* symbols appended */
    uint64_t rules;        /* live rules, start rule included */
    uint64_t symbols;      /* symbols in all rule bodies */
    uint64_t peak_bytes;   /* largest footprint of the arrays and index */
    uint64_t anomalies;    /* defensive paths taken (0 expected; see .c) */
};
void sq_get_stats(const struct sq_grammar *g, struct sq_stats *st);

struct sq_compact {
    uint32_t nrules;
    uint64_t *start;  /* nrules + 1 offsets into body */
    uint32_t *body;
};
/* Read the grammar out; returns 0, or -1 when out of memory. */
int sq_export(const struct sq_grammar *g, struct sq_compact *c);
void sq_compact_free(struct sq_compact *c);
/* The string the compact grammar generates (tests): writes at most cap
 * symbols, returns the full length. */
uint64_t sq_compact_expand(const struct sq_compact *c, uint32_t *out, uint64_t cap);

#endif
