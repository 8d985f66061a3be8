/* trace_text.h - line-oriented text forms of the event stream: the
 * hand-written test format and stock Lackey's --trace-mem=yes output.
 *
 * Text format (one event per line, fields separated by exactly one space;
 * hex numbers are lowercase without "0x" and without leading zeros, decimal
 * numbers without leading zeros; full grammar in docs/trace-format.md):
 *
 *   # a comment (ignored, like blank lines)
 *   I 401000 4                  instruction at pc, length 4
 *   L 401000 7ffc10 8 2a        load pc addr size value
 *   L 401004 7ffc18 8 -         load whose value is unknown (EVF_NOVALUE)
 *   S 401008 7ffc10 4           store pc addr size
 *   S 40100c 7ffc10 4 M         store half of a read-modify-write (EVF_MODIFY)
 *   B 401010 401000 401012 T    branch pc target fall-through taken(T)/not(N)
 *   C 401014 402000             call site callee
 *   R 402010 401019             return pc destination
 *   J 401020 403000             indirect jump pc destination
 *
 * The parser accepts only that spelling, so re-writing any accepted input
 * without comments or blank lines, and whose every line (the last one
 * included) ends with '\n', reproduces it byte for byte.  A last line
 * without '\n' is accepted; the writers end every line with '\n'.
 *
 * Lackey format: the output of `valgrind --tool=lackey --trace-mem=yes`:
 *
 *   ==5394== Command: /bin/true      (ignored, as are "--pid--" lines)
 *   I  0401ab73,5                    instruction (addr %08lx, size %lu)
 *    S 1fff000708,8                  store
 *    L 04015380,8                    load  -> EV_LOAD, EVF_NOVALUE, pc = last I
 *    M 04015380,4                    modify -> that load + EV_STORE with EVF_MODIFY
 *
 * Readers stream from a FILE in large chunks (no per-line allocation) and
 * report the first error as "name:line:column: message".
 */
#ifndef TRACE_TEXT_H
#define TRACE_TEXT_H

#include <stddef.h>
#include <stdio.h>
#include "trace/event.h"

enum tt_format {
    TT_TEXT = 0,  /* the canonical hand-written format above */
    TT_LACKEY = 1 /* stock Lackey --trace-mem=yes output */
};

/* Longest accepted line, newline excluded.  Lines the readers ignore
 * whatever they hold (text comments "#...", Lackey's "==pid==" and "--pid--"
 * lines) may be any length: only their first TT_LINE_MAX bytes are looked
 * at, which is also all a Lackey "Command:" line contributes (255 bytes). */
#define TT_LINE_MAX 4096u

/* "text" / "lackey" -> format; returns 0, or -1 for an unknown name. */
int tt_format_parse(const char *name, enum tt_format *out);
const char *tt_format_name(enum tt_format fmt);

struct tt_reader;

/* Read events of format fmt from in (not closed by the reader).  name is
 * used in messages (e.g. the path, or "<stdin>").  Returns NULL only when
 * out of memory. */
struct tt_reader *tt_reader_create(enum tt_format fmt, FILE *in, const char *name);
/* Decode up to cap (>= 2: a Lackey 'M' line yields two events) events into
 * out.  Returns the count (> 0), 0 at end of input, or -1 on error (message
 * from tt_reader_error()).  After -1 every further call returns -1. */
long tt_reader_read(struct tt_reader *r, struct event *out, size_t cap);
const char *tt_reader_error(const struct tt_reader *r);
/* Lines consumed so far (for progress and tests). */
unsigned long long tt_reader_lines(const struct tt_reader *r);
/* Lackey: the traced command from Valgrind's "==pid== Command: ..." line if
 * one has been read so far (truncated to 255 bytes), else NULL. */
const char *tt_reader_command(const struct tt_reader *r);
void tt_reader_free(struct tt_reader *r); /* accepts NULL */

struct tt_writer;

/* Write events in format fmt to out (not closed by the writer).
 * TT_TEXT writes every event in canonical form.  TT_LACKEY writes what
 * Lackey would have printed: I, L and S lines, a load directly followed by
 * an EVF_MODIFY store of the same pc, address and size as one M line;
 * control-flow events and load values have no Lackey form and are dropped.
 * Returns NULL only when out of memory. */
struct tt_writer *tt_writer_create(enum tt_format fmt, FILE *out);
/* Append n events.  Returns 0, or -1 (tt_writer_error(): an event that has
 * no text form, or an output error). */
int tt_writer_put(struct tt_writer *w, const struct event *ev, size_t n);
/* Write anything pending and flush out.  Returns 0 or -1.  Call once. */
int tt_writer_finish(struct tt_writer *w);
const char *tt_writer_error(const struct tt_writer *w);
void tt_writer_free(struct tt_writer *w); /* accepts NULL; does not flush */

#endif
