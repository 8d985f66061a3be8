/* trace_write.c - the trace writer (trace_writer_*, trace.h): events
 * encoded into block payloads (the record encoding: trace_int.h),
 * compressed with zstd, written to a temporary file renamed into place at
 * close.  What the Valgrind tool's packer links (mk/tracegen.mk), so that
 * a change to the reader does not change the traces' tool fingerprint. */
#define _POSIX_C_SOURCE 200809L
#include "trace/trace.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "trace/trace_int.h"

static inline uint64_t zigzag(uint64_t delta) /* delta is a two's complement difference */
{
    return (delta << 1) ^ (uint64_t)((int64_t)delta >> 63);
}
static inline unsigned char *put_varint(unsigned char *p, uint64_t v)
{
    while (v >= 0x80) {
        *p++ = (unsigned char)(v | 0x80);
        v >>= 7;
    }
    *p++ = (unsigned char)v;
    return p;
}

static int size_code(uint32_t size)
{
    switch (size) {
    case 1: return 0;
    case 2: return 1;
    case 4: return 2;
    case 8: return 3;
    case 16: return 4;
    case 32: return 5;
    case 64: return 6;
    default: return 7;
    }
}

/* ---- writer ------------------------------------------------------------ */
struct trace_writer {
    char path[4096];
    char tmp[4200];
    FILE *f;
    ZSTD_CCtx *cctx;
    struct trace_header th;
    unsigned char *raw;      /* current block payload */
    size_t raw_len;
    uint32_t raw_events;
    unsigned char *comp;
    size_t comp_cap;
    /* delta state (reset per block) */
    uint64_t next_pc, insn_pc, insn_len, last_addr;
    char err[512];
    int failed;
};

static void werr(struct trace_writer *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->err, sizeof w->err, fmt, ap);
    va_end(ap);
    w->failed = 1;
}

static void reset_delta_w(struct trace_writer *w)
{
    w->next_pc = w->insn_pc = w->insn_len = w->last_addr = 0;
}

struct trace_writer *trace_writer_open(const char *path, const struct trace_meta *meta,
                                       int zstd_level, char *err, size_t errlen)
{
    struct trace_writer *w = calloc(1, sizeof *w);
    if (!w) {
        snprintf(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    snprintf(w->path, sizeof w->path, "%s", path);
    snprintf(w->tmp, sizeof w->tmp, "%s.tmp.%ld", path, (long)getpid());
    w->th.meta = *meta;
    w->th.meta.flags &= ~(uint32_t)TRF_COMPLETE;
    if (meta->kv_len > TRACE_META_MAX || (meta->kv_count == 0) != (meta->kv_len == 0)) {
        snprintf(err, errlen, "%s: invalid metadata (use trace_meta_set)", path);
        free(w);
        return NULL;
    }
    w->th.version = TRACE_VERSION;
    w->raw = malloc(TRACE_BLOCK_RAW_MAX + MAX_RECORD);
    w->comp_cap = ZSTD_compressBound(TRACE_BLOCK_RAW_MAX + MAX_RECORD);
    w->comp = malloc(w->comp_cap);
    w->cctx = ZSTD_createCCtx();
    if (!w->raw || !w->comp || !w->cctx) {
        snprintf(err, errlen, "%s: out of memory", path);
        goto fail;
    }
    ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_compressionLevel, zstd_level);
    ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_checksumFlag, 0);
    w->f = fopen(w->tmp, "wb");
    if (!w->f) {
        snprintf(err, errlen, "%s: cannot create: %s", path, strerror(errno)); /* the name the caller knows */
        goto fail;
    }
    /* Placeholder header (not complete): an interrupted file is
     * recognisable.  The metadata section follows at once; only the header
     * is rewritten at the end. */
    unsigned char h[TRACE_HEADER_SIZE], ms[META_PREAMBLE + TRACE_META_MAX];
    size_t mn = trace_meta_encode(&w->th.meta, ms);
    w->th.meta_bytes = (uint32_t)mn;
    trace_header_encode(h, &w->th);
    if (fwrite(h, 1, sizeof h, w->f) != sizeof h || fwrite(ms, 1, mn, w->f) != mn) {
        snprintf(err, errlen, "%s: write failed: %s", w->tmp, strerror(errno));
        fclose(w->f);
        unlink(w->tmp);
        goto fail;
    }
    reset_delta_w(w);
    return w;
fail:
    ZSTD_freeCCtx(w->cctx);
    free(w->raw);
    free(w->comp);
    free(w);
    return NULL;
}

static int flush_block(struct trace_writer *w)
{
    if (w->raw_len == 0)
        return 0;
    size_t c = ZSTD_compress2(w->cctx, w->comp, w->comp_cap, w->raw, w->raw_len);
    if (ZSTD_isError(c)) {
        werr(w, "%s: zstd: %s", w->tmp, ZSTD_getErrorName(c));
        return -1;
    }
    unsigned char bh[BLOCK_HDR];
    put32(bh, BLOCK_MAGIC);
    put32(bh + 4, (uint32_t)w->raw_len);
    put32(bh + 8, (uint32_t)c);
    put32(bh + 12, w->raw_events);
    put32(bh + 16, (uint32_t)crc32(0L, w->comp, (uInt)c));
    if (fwrite(bh, 1, BLOCK_HDR, w->f) != BLOCK_HDR || fwrite(w->comp, 1, c, w->f) != c) {
        werr(w, "%s: write failed: %s", w->tmp, strerror(errno));
        return -1;
    }
    w->th.blocks++;
    w->th.payload_bytes += BLOCK_HDR + c;
    w->raw_len = 0;
    w->raw_events = 0;
    reset_delta_w(w);
    return 0;
}

static unsigned char *encode_pc(unsigned char *p, unsigned char *tag, uint64_t pc, uint64_t insn_pc)
{
    if (pc == insn_pc)
        *tag |= 1u << 3;
    else
        p = put_varint(p, zigzag(pc - insn_pc));
    return p;
}

int trace_writer_add(struct trace_writer *w, const struct event *ev, size_t n)
{
    if (w->failed)
        return -1;
    /* The delta state, the write cursor and the counts live in locals while
     * a block fills: stores through the byte cursor may alias anything, so
     * fields of *w would be reloaded after every byte. */
    uint64_t next_pc = w->next_pc, insn_pc = w->insn_pc, insn_len = w->insn_len, last_addr = w->last_addr;
    unsigned char *p = w->raw + w->raw_len;
    const unsigned char *full = w->raw + TRACE_BLOCK_RAW_MAX;
    uint64_t counts[EV_KINDS] = { 0 };
    uint32_t block_events = w->raw_events;
#define WRITER_SYNC()                                                                              \
    do {                                                                                           \
        w->next_pc = next_pc;                                                                      \
        w->insn_pc = insn_pc;                                                                      \
        w->insn_len = insn_len;                                                                    \
        w->last_addr = last_addr;                                                                  \
        w->raw_len = (size_t)(p - w->raw);                                                         \
        w->raw_events = block_events;                                                              \
        for (unsigned k_ = 0; k_ < EV_KINDS; k_++) {                                               \
            w->th.counts[k_] += counts[k_];                                                        \
            w->th.events += counts[k_];                                                            \
            counts[k_] = 0;                                                                        \
        }                                                                                          \
    } while (0)
    for (size_t i = 0; i < n; i++) {
        const struct event *e = &ev[i];
        if (p >= full) {
            WRITER_SYNC();
            if (flush_block(w) < 0)
                return -1;
            next_pc = insn_pc = insn_len = last_addr = 0; /* as reset_delta_w */
            p = w->raw;
            block_events = 0;
        }
        unsigned char *start = p++;
        unsigned char tag = (unsigned char)e->kind;
        switch (e->kind) {
        case EV_INSN:
            if (e->pc == next_pc)
                tag |= 1u << 3;
            else
                p = put_varint(p, zigzag(e->pc - next_pc));
            if (e->size >= 1 && e->size <= 15)
                tag |= (unsigned char)(e->size << 4);
            else
                p = put_varint(p, e->size);
            insn_pc = e->pc;
            insn_len = e->size;
            next_pc = e->pc + e->size;
            break;
        case EV_LOAD:
        case EV_STORE: {
            int sc = size_code(e->size);
            tag |= (unsigned char)(sc << 4);
            int has_value = e->kind == EV_LOAD && !(e->flags & EVF_NOVALUE);
            if ((e->kind == EV_LOAD && has_value) || (e->kind == EV_STORE && (e->flags & EVF_MODIFY)))
                tag |= 0x80;
            p = encode_pc(p, &tag, e->pc, insn_pc);
            p = put_varint(p, zigzag(e->addr - last_addr));
            last_addr = e->addr;
            if (sc == 7)
                p = put_varint(p, e->size);
            if (has_value)
                p = put_varint(p, e->value);
            break;
        }
        case EV_BRANCH:
            if (e->taken)
                tag |= 1u << 4;
            if (e->value == e->pc + (e->pc == insn_pc ? insn_len : 0) && e->pc == insn_pc)
                tag |= 1u << 5;
            p = encode_pc(p, &tag, e->pc, insn_pc);
            p = put_varint(p, zigzag(e->addr - e->pc));
            if (!(tag & (1u << 5)))
                p = put_varint(p, zigzag(e->value - e->pc));
            break;
        case EV_CALL:
        case EV_RET:
        case EV_IJUMP:
            if (e->kind == EV_CALL && (e->flags & EVF_INDIRECT))
                tag |= 1u << 4;
            p = encode_pc(p, &tag, e->pc, insn_pc);
            p = put_varint(p, zigzag(e->addr - e->pc));
            break;
        default:
            p = start;
            WRITER_SYNC();
            werr(w, "%s: event %" PRIu64 ": invalid kind %u", w->tmp, w->th.events, e->kind);
            return -1;
        }
        *start = tag;
        block_events++;
        counts[e->kind]++;
    }
    WRITER_SYNC();
#undef WRITER_SYNC
    return 0;
}

int trace_writer_close(struct trace_writer *w, char *err, size_t errlen)
{
    int rc = -1;
    if (!w->failed && flush_block(w) == 0) {
        unsigned char h[TRACE_HEADER_SIZE];
        w->th.meta.flags |= TRF_COMPLETE;
        trace_header_encode(h, &w->th);
        if (fflush(w->f) != 0 || fseek(w->f, 0, SEEK_SET) != 0 || fwrite(h, 1, sizeof h, w->f) != sizeof h ||
            fflush(w->f) != 0 || fsync(fileno(w->f)) != 0)
            werr(w, "%s: write failed: %s", w->tmp, strerror(errno));
    }
    if (fclose(w->f) != 0 && !w->failed)
        werr(w, "%s: close failed: %s", w->tmp, strerror(errno));
    if (!w->failed) {
        if (rename(w->tmp, w->path) != 0)
            werr(w, "%s: rename to %s failed: %s", w->tmp, w->path, strerror(errno));
        else
            rc = 0;
    }
    if (rc != 0) {
        unlink(w->tmp);
        snprintf(err, errlen, "%s", w->err);
    }
    ZSTD_freeCCtx(w->cctx);
    free(w->raw);
    free(w->comp);
    free(w);
    return rc;
}

void trace_writer_abort(struct trace_writer *w)
{
    if (!w)
        return;
    fclose(w->f);
    unlink(w->tmp);
    ZSTD_freeCCtx(w->cctx);
    free(w->raw);
    free(w->comp);
    free(w);
}

const char *trace_writer_error(const struct trace_writer *w) { return w->err; }
uint64_t trace_writer_events(const struct trace_writer *w) { return w->th.events; }
