/* trace.h - trace format v2 (and v1, read only): writer and streaming reader.
 * The byte layout is specified in docs/trace-format.md.  Every producer
 * (tracegen's packer, the Lackey and text importers, tests) writes through
 * trace_writer; every consumer reads through trace_reader.
 *
 * Writer contract: the file is written under "<path>.tmp.<pid>" with an
 * incomplete header, blocks are appended, and trace_writer_close() writes the
 * final header and renames to <path>.  trace_writer_abort() (or a crash)
 * leaves no file at <path>.
 * Reader contract: batches of decoded events, no per-event allocation; any
 * inconsistency (magic, version, unfinished file, checksum, header field
 * out of range, truncation, count mismatch) is an error whose message names
 * the file and the byte offset of the field or data at fault
 * ("path: byte N: ..."); a path that is not a regular file is refused as
 * "path: is a directory (not a regular file)" (or a FIFO, ...).  The
 * messages are listed in docs/trace-format.md.
 */
#ifndef TRACE_H
#define TRACE_H

#include <stddef.h>
#include <stdint.h>
#include "trace/event.h"

#define TRACE_MAGIC "HWPTRACE"
#define TRACE_VERSION 2u     /* written; 1 and 2 are read */
#define TRACE_HEADER_SIZE 512u
#define TRACE_BLOCK_RAW_MAX (1u << 20) /* uncompressed payload bytes per block */
/* Metadata (v2): "key=value" pairs in a section after the header.  At most
 * TRACE_META_MAX bytes of keys and values (each counted with one separator
 * byte), keys at most TRACE_META_KEY_MAX bytes of [A-Za-z0-9._-] starting
 * with a letter or digit, values any bytes but NUL, CR and LF. */
#define TRACE_META_MAX 4096u
#define TRACE_META_KEY_MAX 64u

enum trace_flag {
    TRF_COMPLETE = 1u << 0,   /* header finalised: the file is finished */
    TRF_HAS_VALUES = 1u << 1, /* loads carry values */
    TRF_HAS_BRANCHES = 1u << 2 /* control-flow events were captured */
};

struct trace_meta {
    char workload[64];   /* workload name */
    char producer[64];   /* e.g. "tracegen 2 (valgrind-3.19.0)", "import-lackey" */
    char command[256];   /* command line traced (may be truncated) */
    uint64_t skip;       /* instructions fast-forwarded before capture */
    uint64_t window;     /* instructions requested (0 = whole run) */
    uint32_t flags;      /* trace_flag bits (TRF_COMPLETE is managed by the writer) */
    /* Metadata pairs, in insertion order, stored as "key\0value\0"...
     * (kv_len bytes in all); use trace_meta_set/find/next, not the bytes.
     * A zeroed struct has none.  Self-contained: copying the struct copies
     * them. */
    uint32_t kv_count;
    uint32_t kv_len;
    char kv[TRACE_META_MAX];
};

struct trace_header {
    struct trace_meta meta;
    uint32_t version;
    uint64_t counts[EV_KINDS]; /* events per kind */
    uint64_t events;           /* total events */
    uint64_t blocks;
    uint64_t payload_bytes;    /* bytes of all blocks */
    uint32_t meta_bytes;       /* bytes of the metadata section (0: none, always 0 in v1);
                                  blocks start at TRACE_HEADER_SIZE + meta_bytes */
};

/* Metadata.  trace_meta_set adds key=value (or replaces the value of an
 * existing key, keeping its place); returns 0, or -1 with a message in err
 * for an invalid key or value or when the pairs would exceed
 * TRACE_META_MAX. */
int trace_meta_set(struct trace_meta *m, const char *key, const char *value, char *err, size_t errlen);
/* The value of key, or NULL when the trace has no such key (v1 traces have
 * none).  The string lives as long as the header it came from. */
const char *trace_meta_find(const struct trace_meta *m, const char *key);
const char *trace_meta_get(const struct trace_header *h, const char *key);
/* Iteration in stored order: prev = NULL gives the first key; returns the
 * key after prev (and its value in *value), or NULL after the last:
 *   for (k = trace_meta_next(m, NULL, &v); k; k = trace_meta_next(m, k, &v)) */
const char *trace_meta_next(const struct trace_meta *m, const char *prev, const char **value);

struct trace_writer;
struct trace_reader;

/* Create a writer for path.  Returns NULL and fills err on failure. */
struct trace_writer *trace_writer_open(const char *path, const struct trace_meta *meta,
                                       int zstd_level, char *err, size_t errlen);
/* Append n events.  Returns 0, or -1 with the error available from
 * trace_writer_error(). */
int trace_writer_add(struct trace_writer *w, const struct event *ev, size_t n);
/* Finish: flush, write the final header, fsync, rename.  Frees w.
 * Returns 0, or -1 (file removed, err filled). */
int trace_writer_close(struct trace_writer *w, char *err, size_t errlen);
/* Discard: remove the temporary file and free w.  Accepts NULL. */
void trace_writer_abort(struct trace_writer *w);
const char *trace_writer_error(const struct trace_writer *w);
/* Counts so far (for progress). */
uint64_t trace_writer_events(const struct trace_writer *w);

/* Open and validate the header (and, in v2, the metadata section).  NULL +
 * err on failure. */
struct trace_reader *trace_reader_open(const char *path, char *err, size_t errlen);
const struct trace_header *trace_reader_header(const struct trace_reader *r);
/* Decode up to cap events into out.  Returns the count (>0), 0 at a clean end
 * of trace (all blocks read and counts checked), or -1 on error
 * (trace_reader_error() has "path: byte N: ..."). */
long trace_reader_read(struct trace_reader *r, struct event *out, size_t cap);
/* The same, keeping only the events whose kind is in keep (EV_BIT()s).
 * Every record is still read and checked (blocks, per-kind counts, a
 * record cut short) and counted in trace_reader_events_read(); of the
 * others, only what later events depend on is decoded (an instruction's
 * pc and length, a load's or store's data address), the rest passed
 * over, and nothing written.  Returns the count kept (>0), 0 at a clean
 * end of trace, or -1 on error - the error trace_reader_read gives. */
long trace_reader_read_kinds(struct trace_reader *r, struct event *out, size_t cap, unsigned keep);
/* Events decoded so far (kept or not). */
uint64_t trace_reader_events_read(const struct trace_reader *r);
const char *trace_reader_error(const struct trace_reader *r);
/* Progress: file bytes consumed and total file size. */
uint64_t trace_reader_offset(const struct trace_reader *r);
uint64_t trace_reader_size(const struct trace_reader *r);
void trace_reader_close(struct trace_reader *r); /* accepts NULL */

#endif
