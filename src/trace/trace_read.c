/* trace_read.c - the streaming trace reader (trace_reader_*, trace.h):
 * v1 and v2 files, every block checked (framing, CRC, zstd, record
 * encoding: trace_int.h) and every count of the header against the events
 * decoded. */
#define _POSIX_C_SOURCE 200809L
#include "trace/trace.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "trace/trace_int.h"

static inline uint64_t unzigzag(uint64_t z)
{
    return (z >> 1) ^ (uint64_t)(-(int64_t)(z & 1));
}

/* ---- reader ------------------------------------------------------------ */
struct trace_reader {
    char path[4096];
    FILE *f;
    ZSTD_DCtx *dctx;
    struct trace_header th;
    uint64_t file_size;
    uint64_t offset;        /* file offset of the next block header */
    uint64_t block_index;   /* blocks read so far */
    uint64_t block_offset;  /* file offset of the current block */
    unsigned char *comp;
    size_t comp_cap;
    unsigned char *raw;
    size_t raw_len, raw_pos;
    uint32_t block_events, block_done;
    uint64_t seen[EV_KINDS];
    uint64_t events_seen;
    uint64_t next_pc, insn_pc, insn_len, last_addr;
    int finished;
    char err[1024];
};

static void rerr(struct trace_reader *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->err, sizeof r->err, fmt, ap);
    va_end(ap);
}

/* "a directory", "a FIFO", ... for a file that is not a regular file. */
static const char *file_kind(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "a special file";
}

static void copy_str(char *dst, const unsigned char *src, size_t n)
{
    memcpy(dst, src, n);
    dst[n - 1] = '\0';
}

struct trace_reader *trace_reader_open(const char *path, char *err, size_t errlen)
{
    struct trace_reader *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    snprintf(r->path, sizeof r->path, "%s", path);
    /* O_NONBLOCK: opening a FIFO must not wait for a writer; it has no
     * effect on the regular files that are read below. */
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    if (fd < 0) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        free(r);
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        snprintf(err, errlen, "%s: cannot stat: %s", path, strerror(errno));
        close(fd);
        free(r);
        return NULL;
    }
    /* A trace is a regular file: its size is checked against the header.
     * (A directory would otherwise read as an empty file: "bad magic".) */
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s: is %s (not a regular file)", path, file_kind(st.st_mode));
        close(fd);
        free(r);
        return NULL;
    }
    r->f = fdopen(fd, "rb");
    if (!r->f) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        close(fd);
        free(r);
        return NULL;
    }
    r->file_size = (uint64_t)st.st_size;
    unsigned char h[TRACE_HEADER_SIZE];
    size_t got = fread(h, 1, sizeof h, r->f);
    if (got < 8 || memcmp(h, TRACE_MAGIC, 8) != 0) {
        snprintf(err, errlen, "%s: byte 0: not a trace file (bad magic)", path);
        goto fail;
    }
    if (got < TRACE_HEADER_SIZE) {
        snprintf(err, errlen, "%s: byte %zu: truncated header (%u bytes expected)", path, got, TRACE_HEADER_SIZE);
        goto fail;
    }
    r->th.version = get32(h + 8);
    if (r->th.version != 1 && r->th.version != TRACE_VERSION) {
        snprintf(err, errlen, "%s: byte 8: unsupported trace version %u (this build reads 1 and %u)", path,
                 r->th.version, TRACE_VERSION);
        goto fail;
    }
    if ((uint32_t)crc32(0L, h, 508) != get32(h + 508)) {
        snprintf(err, errlen, "%s: byte 508: header checksum mismatch", path);
        goto fail;
    }
    r->th.meta.flags = get32(h + 16);
    if (!(r->th.meta.flags & TRF_COMPLETE)) {
        snprintf(err, errlen, "%s: byte 16: unfinished trace (the writer did not complete it)", path);
        goto fail;
    }
    if (get32(h + 12) != TRACE_HEADER_SIZE) {
        snprintf(err, errlen, "%s: byte 12: header size field says %" PRIu32 " bytes, trace format v%u has %u",
                 path, get32(h + 12), r->th.version, TRACE_HEADER_SIZE);
        goto fail;
    }
    if (get32(h + 20) != EV_KINDS) {
        snprintf(err, errlen, "%s: byte 20: header lists %" PRIu32 " event kinds, trace format v%u has %d", path,
                 get32(h + 20), r->th.version, EV_KINDS);
        goto fail;
    }
    for (int k = 0; k < EV_KINDS; k++)
        r->th.counts[k] = get64(h + 24 + 8 * k);
    r->th.events = get64(h + 24 + 8 * 7);
    r->th.blocks = get64(h + 88);
    r->th.meta.skip = get64(h + 96);
    r->th.meta.window = get64(h + 104);
    r->th.payload_bytes = get64(h + 112);
    copy_str(r->th.meta.workload, h + 120, 64);
    copy_str(r->th.meta.producer, h + 184, 64);
    copy_str(r->th.meta.command, h + 248, 256);
    /* v1 had a reserved 0 where v2 keeps the metadata size. */
    r->th.meta_bytes = r->th.version >= 2 ? get32(h + 504) : 0;
    if (r->th.meta_bytes > META_PREAMBLE + TRACE_META_MAX) {
        snprintf(err, errlen, "%s: byte 504: metadata section of %" PRIu32 " bytes is larger than the %u allowed",
                 path, r->th.meta_bytes, META_PREAMBLE + TRACE_META_MAX);
        goto fail;
    }
    uint64_t before = (uint64_t)TRACE_HEADER_SIZE + r->th.meta_bytes; /* bytes before the first block */
    /* No file holds more than INT64_MAX bytes (off_t): a larger payload
     * size is a corrupt field, and the sum must not wrap around. */
    if (r->th.payload_bytes > (uint64_t)INT64_MAX - before) {
        snprintf(err, errlen, "%s: byte 112: payload size %" PRIu64 " out of range (the file has %" PRIu64
                 " bytes after the header)", path, r->th.payload_bytes,
                 r->file_size > before ? r->file_size - before : 0);
        goto fail;
    }
    uint64_t expect_size = r->th.payload_bytes + before;
    if (expect_size != r->file_size) {
        snprintf(err, errlen, "%s: byte %" PRIu64 ": file size %" PRIu64 " does not match header (%" PRIu64
                 " expected): truncated or extended", path, r->file_size < expect_size ? r->file_size : expect_size,
                 r->file_size, expect_size);
        goto fail;
    }
    if (r->th.meta_bytes) {
        unsigned char ms[META_PREAMBLE + TRACE_META_MAX];
        if (fread(ms, 1, r->th.meta_bytes, r->f) != r->th.meta_bytes) {
            snprintf(err, errlen, "%s: byte %u: cannot read the metadata section", path, TRACE_HEADER_SIZE);
            goto fail;
        }
        if (trace_meta_decode(path, ms, r->th.meta_bytes, TRACE_HEADER_SIZE, &r->th.meta, err, errlen) < 0)
            goto fail;
    }
    r->dctx = ZSTD_createDCtx();
    r->raw = malloc(TRACE_BLOCK_RAW_MAX + 2 * MAX_RECORD); /* payload + zero padding */
    r->comp_cap = ZSTD_compressBound(TRACE_BLOCK_RAW_MAX + MAX_RECORD);
    r->comp = malloc(r->comp_cap);
    if (!r->dctx || !r->raw || !r->comp) {
        snprintf(err, errlen, "%s: out of memory", path);
        goto fail;
    }
    r->offset = before;
    return r;
fail:
    trace_reader_close(r);
    return NULL;
}

const struct trace_header *trace_reader_header(const struct trace_reader *r) { return &r->th; }
const char *trace_reader_error(const struct trace_reader *r) { return r->err; }
uint64_t trace_reader_offset(const struct trace_reader *r) { return r->offset; }
uint64_t trace_reader_size(const struct trace_reader *r) { return r->file_size; }

/* Load the next block; returns 1 if loaded, 0 at end, -1 on error. */
static int next_block(struct trace_reader *r)
{
    if (r->block_index == r->th.blocks) {
        if (r->events_seen != r->th.events) {
            rerr(r, "%s: byte %" PRIu64 ": %" PRIu64 " events decoded, header says %" PRIu64, r->path,
                 r->offset, r->events_seen, r->th.events);
            return -1;
        }
        /* The total agrees, so some kinds were miscounted: name the header
         * field of the first one (counts[k] is at byte 24 + 8 k). */
        for (int k = 0; k < EV_KINDS; k++)
            if (r->seen[k] != r->th.counts[k]) {
                rerr(r, "%s: byte %d: %s count %" PRIu64 " decoded, header says %" PRIu64, r->path, 24 + 8 * k,
                     ev_kind_name[k], r->seen[k], r->th.counts[k]);
                return -1;
            }
        return 0;
    }
    unsigned char bh[BLOCK_HDR];
    r->block_offset = r->offset;
    if (fread(bh, 1, BLOCK_HDR, r->f) != BLOCK_HDR) {
        rerr(r, "%s: byte %" PRIu64 ": block %" PRIu64 ": truncated block header", r->path, r->offset,
             r->block_index);
        return -1;
    }
    uint32_t raw_len = get32(bh + 4), comp_len = get32(bh + 8);
    if (get32(bh) != BLOCK_MAGIC || raw_len > TRACE_BLOCK_RAW_MAX + MAX_RECORD || comp_len > r->comp_cap ||
        r->offset + BLOCK_HDR + comp_len > r->file_size) {
        rerr(r, "%s: byte %" PRIu64 ": block %" PRIu64 ": corrupted block header", r->path, r->offset,
             r->block_index);
        return -1;
    }
    if (fread(r->comp, 1, comp_len, r->f) != comp_len) {
        rerr(r, "%s: byte %" PRIu64 ": block %" PRIu64 ": truncated block", r->path, r->offset + BLOCK_HDR,
             r->block_index);
        return -1;
    }
    if ((uint32_t)crc32(0L, r->comp, comp_len) != get32(bh + 16)) {
        rerr(r, "%s: byte %" PRIu64 ": block %" PRIu64 ": checksum mismatch (corrupted block)", r->path,
             r->offset + BLOCK_HDR, r->block_index);
        return -1;
    }
    size_t d = ZSTD_decompressDCtx(r->dctx, r->raw, TRACE_BLOCK_RAW_MAX + MAX_RECORD, r->comp, comp_len);
    if (ZSTD_isError(d) || d != raw_len) {
        rerr(r, "%s: byte %" PRIu64 ": block %" PRIu64 ": decompression failed (%s)", r->path,
             r->offset + BLOCK_HDR, r->block_index, ZSTD_isError(d) ? ZSTD_getErrorName(d) : "size mismatch");
        return -1;
    }
    /* Padding so that a varint overrun on corrupt data stays in bounds. */
    memset(r->raw + raw_len, 0, MAX_RECORD);
    r->raw_len = raw_len;
    r->raw_pos = 0;
    r->block_events = get32(bh + 12);
    r->block_done = 0;
    r->offset += BLOCK_HDR + comp_len;
    r->block_index++;
    r->next_pc = r->insn_pc = r->insn_len = r->last_addr = 0;
    return 1;
}

static inline const unsigned char *get_varint(const unsigned char *p, uint64_t *out)
{
    uint64_t v = *p & 0x7f;
    if (*p++ & 0x80) {
        int shift = 7;
        do {
            v |= (uint64_t)(*p & 0x7f) << shift;
            shift += 7;
        } while ((*p++ & 0x80) && shift < 70);
    }
    *out = v;
    return p;
}

/* Past a varint, as get_varint reads it (at most 10 bytes), without its
 * value: the bytes up to the first without the continuation bit, found in
 * one 8-byte word (the payload's zero padding keeps it in bounds). */
static inline const unsigned char *skip_varint(const unsigned char *p)
{
    uint64_t w;
    memcpy(&w, p, sizeof w);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w); /* p[0] in the low byte */
#endif
    uint64_t stop = ~w & 0x8080808080808080ull;
    if (stop)
        return p + ((unsigned)__builtin_ctzll(stop) >> 3) + 1;
    return p + (p[8] & 0x80 ? 10 : 9);
}

static const uint32_t code_size[7] = { 1, 2, 4, 8, 16, 32, 64 };

/* trace_reader_read (masked 0) and trace_reader_read_kinds (masked 1,
 * keeping the kinds of keep): one decoder, compiled twice, so that the
 * common path has no test for what it keeps. */
static inline __attribute__((always_inline)) long read_events(struct trace_reader *r, struct event *out, size_t cap,
                                                              const unsigned keep, const int masked)
{
    size_t n = 0;
    if (r->finished)
        return 0;
    while (n < cap) {
        if (r->block_done == r->block_events) {
            if (r->raw_pos != r->raw_len) {
                rerr(r, "%s: byte %" PRIu64 ": block %" PRIu64 ": %zu trailing payload bytes", r->path,
                     r->block_offset, r->block_index - 1, r->raw_len - r->raw_pos);
                return -1;
            }
            if (n > 0)
                break; /* return what we have; load the next block on the next call */
            int b = next_block(r);
            if (b < 0)
                return -1;
            if (b == 0) {
                r->finished = 1;
                return 0;
            }
            continue;
        }
        const unsigned char *p = r->raw + r->raw_pos;
        const unsigned char *end = r->raw + r->raw_len;
        uint64_t next_pc = r->next_pc, insn_pc = r->insn_pc, insn_len = r->insn_len, last_addr = r->last_addr;
        uint32_t todo = r->block_events - r->block_done;
        if (todo > cap - n)
            todo = (uint32_t)(cap - n);
        uint32_t done = 0;
        /* the next event's place: one on after every event, or (masked)
         * after those of a kind kept - a pointer, not a count beside out,
         * so that the loop has a register to spare for its delta state */
        struct event *o = out + n;
        uint64_t seen[8] = { 0 };
        uint64_t v, pc;
        /* Each case writes the whole event with one compound literal so the
         * compiler emits wide stores; counts per kind stay in locals. */
        for (; done < todo && p < end; done++) {
            struct event *e = o;
            unsigned tag = *p++;
            unsigned kind = tag & 7;
            seen[kind]++;
            if (kind == EV_INSN) {
                pc = next_pc;
                if (!(tag & 8)) {
                    p = get_varint(p, &v);
                    pc += unzigzag(v);
                }
                uint32_t len = tag >> 4;
                if (!len) {
                    p = get_varint(p, &v);
                    len = (uint32_t)v;
                }
                *e = (struct event){ .pc = pc, .size = len, .kind = EV_INSN };
                insn_pc = pc;
                insn_len = len;
                next_pc = pc + len;
                o += masked ? keep & 1u : 1;
                continue;
            }
            if (masked && !((keep >> kind) & 1u) && kind < EV_KINDS) {
                /* a kind not kept: only the data address carries over to
                 * the next events (loads and stores); every other field is
                 * passed over, its bytes as the full decoder reads them */
                if (!(tag & 8))
                    p = skip_varint(p);
                if (kind == EV_LOAD || kind == EV_STORE) {
                    p = get_varint(p, &v);
                    last_addr += unzigzag(v);
                    if (((tag >> 4) & 7) == 7)
                        p = skip_varint(p);
                    if (kind == EV_LOAD && (tag & 0x80))
                        p = skip_varint(p);
                } else {
                    p = skip_varint(p);
                    if (kind == EV_BRANCH && !(tag & 0x20))
                        p = skip_varint(p);
                }
                continue;
            }
            pc = insn_pc;
            if (!(tag & 8)) {
                p = get_varint(p, &v);
                pc += unzigzag(v);
            }
            switch (kind) {
            case EV_LOAD:
            case EV_STORE: {
                unsigned sc = (tag >> 4) & 7;
                uint64_t value = 0;
                uint32_t size;
                uint8_t flags = 0;
                p = get_varint(p, &v);
                last_addr += unzigzag(v);
                if (sc == 7) {
                    p = get_varint(p, &v);
                    size = (uint32_t)v;
                } else {
                    size = code_size[sc];
                }
                if (kind == EV_LOAD) {
                    if (tag & 0x80)
                        p = get_varint(p, &value);
                    else
                        flags = EVF_NOVALUE;
                } else if (tag & 0x80) {
                    flags = EVF_MODIFY;
                }
                *e = (struct event){ .pc = pc, .addr = last_addr, .value = value, .size = size,
                                     .kind = (uint8_t)kind, .flags = flags };
                break;
            }
            case EV_BRANCH: {
                uint64_t fall;
                p = get_varint(p, &v);
                uint64_t target = pc + unzigzag(v);
                if (tag & 0x20) {
                    fall = pc + insn_len;
                } else {
                    p = get_varint(p, &v);
                    fall = pc + unzigzag(v);
                }
                *e = (struct event){ .pc = pc, .addr = target, .value = fall, .kind = EV_BRANCH,
                                     .taken = (uint8_t)((tag >> 4) & 1) };
                break;
            }
            case EV_CALL:
            case EV_RET:
            case EV_IJUMP:
                p = get_varint(p, &v);
                *e = (struct event){ .pc = pc, .addr = pc + unzigzag(v), .kind = (uint8_t)kind,
                                     .flags = (uint8_t)(kind == EV_CALL && (tag & 0x10) ? EVF_INDIRECT : 0) };
                break;
            default:
                r->raw_pos = (size_t)(p - 1 - r->raw);
                rerr(r, "%s: byte %" PRIu64 ": block %" PRIu64 ": invalid record tag 0x%02x at payload offset %zu",
                     r->path, r->block_offset, r->block_index - 1, tag, r->raw_pos);
                return -1;
            }
            o += masked ? (keep >> kind) & 1u : 1;
        }
        for (int k = 0; k < EV_KINDS; k++)
            r->seen[k] += seen[k];
        if (p > end || (done < todo)) {
            rerr(r, "%s: byte %" PRIu64 ": block %" PRIu64 ": payload ends inside a record", r->path,
                 r->block_offset, r->block_index - 1);
            return -1;
        }
        r->raw_pos = (size_t)(p - r->raw);
        r->next_pc = next_pc;
        r->insn_pc = insn_pc;
        r->insn_len = insn_len;
        r->last_addr = last_addr;
        r->block_done += done;
        r->events_seen += done;
        n = (size_t)(o - out);
    }
    return (long)n;
}

/* Both start on a 64-byte boundary, so that where their loops fall relative
 * to the processor's fetch blocks does not move with code elsewhere: on the
 * 2-core VM (2026-11-27) the same decoder took 0.23 or 0.27 s over cc1.w0
 * (`make bench`, decode) as unrelated edits moved its address by 16 or 32
 * bytes, and every model's ratio to decoding moved with it.  At this
 * alignment it took 0.23 s in every build tried. */
__attribute__((aligned(64))) long trace_reader_read(struct trace_reader *r, struct event *out, size_t cap)
{
    return read_events(r, out, cap, EV_ALL, 0);
}

__attribute__((aligned(64))) long trace_reader_read_kinds(struct trace_reader *r, struct event *out, size_t cap, unsigned keep)
{
    return read_events(r, out, cap, keep, 1);
}

uint64_t trace_reader_events_read(const struct trace_reader *r) { return r->events_seen; }

void trace_reader_close(struct trace_reader *r)
{
    if (!r)
        return;
    if (r->f)
        fclose(r->f);
    ZSTD_freeDCtx(r->dctx);
    free(r->raw);
    free(r->comp);
    free(r);
}
