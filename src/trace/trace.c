/* trace.c - trace format v2 writer, v1/v2 streaming reader and the
 * metadata pairs (see docs/trace-format.md).
 *
 * A block payload is a sequence of variable-length records; delta state is
 * reset at every block start so blocks decode independently:
 *   tag byte: bits 0-2 kind, bits 3-7 kind-specific flags
 *   INSN   bit3 sequential (pc == previous pc + previous length, no pc field)
 *          bits4-7 length (1..15; 0 = length follows as varint)
 *          [zigzag varint pc - expected]  [varint length]
 *   LOAD   bit3 same pc (pc == last INSN pc), bits4-6 size code, bit7 value present
 *          [zigzag pc - insn pc] zigzag(addr - last addr) [varint size] [varint value]
 *   STORE  as LOAD, bit7 = EVF_MODIFY, never a value
 *   BRANCH bit3 same pc, bit4 taken, bit5 fall-through == pc + insn length
 *          [zigzag pc - insn pc] zigzag(target - pc) [zigzag(fallthrough - pc)]
 *   CALL/RET/IJUMP  bit3 same pc, CALL bit4 indirect (EVF_INDIRECT)
 *          [zigzag pc - insn pc] zigzag(target - pc)
 * Size codes 0..6 mean 1,2,4,8,16,32,64 bytes; 7 means a varint follows.
 */
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

#define BLOCK_MAGIC 0x314b4c42u /* "BLK1" little-endian */
#define META_MAGIC "META"
#define META_PREAMBLE 12u /* magic, entry count, CRC-32 of the text */
#define BLOCK_HDR 20u
#define MAX_RECORD 48u /* worst-case encoded bytes of one record */

/* ---- little-endian helpers ------------------------------------------- */
static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}
static void put64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}
static uint32_t get32(const unsigned char *p)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}
static uint64_t get64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

static inline uint64_t zigzag(uint64_t delta) /* delta is a two's complement difference */
{
    return (delta << 1) ^ (uint64_t)((int64_t)delta >> 63);
}
static inline uint64_t unzigzag(uint64_t z)
{
    return (z >> 1) ^ (uint64_t)(-(int64_t)(z & 1));
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

/* ---- header ------------------------------------------------------------ */
/* Layout (little-endian), TRACE_HEADER_SIZE bytes:
 *   0 magic[8] | 8 version u32 | 12 header_size u32 | 16 flags u32 | 20 kinds u32
 *   24 counts[8] u64 (kinds 0..6, [7] = total) | 88 blocks u64 | 96 skip u64
 *   104 window u64 | 112 payload_bytes u64 | 120 workload[64] | 184 producer[64]
 *   248 command[256] | 504 meta_bytes u32 (v1: reserved, 0) | 508 crc32 of bytes 0..507 */
static void header_encode(unsigned char *h, const struct trace_header *th)
{
    memset(h, 0, TRACE_HEADER_SIZE);
    memcpy(h, TRACE_MAGIC, 8);
    put32(h + 8, th->version);
    put32(h + 12, TRACE_HEADER_SIZE);
    put32(h + 16, th->meta.flags);
    put32(h + 20, EV_KINDS);
    for (int k = 0; k < EV_KINDS; k++)
        put64(h + 24 + 8 * k, th->counts[k]);
    put64(h + 24 + 8 * 7, th->events);
    put64(h + 88, th->blocks);
    put64(h + 96, th->meta.skip);
    put64(h + 104, th->meta.window);
    put64(h + 112, th->payload_bytes);
    memcpy(h + 120, th->meta.workload, 63);
    memcpy(h + 184, th->meta.producer, 63);
    memcpy(h + 248, th->meta.command, 255);
    put32(h + 504, th->meta_bytes);
    put32(h + 508, (uint32_t)crc32(0L, h, 508));
}

/* ---- metadata ---------------------------------------------------------- */
/* In memory (struct trace_meta.kv): "key\0value\0" pairs.  In the file,
 * right after the header: "META", u32 entry count, u32 CRC-32 of the text,
 * then the text: one "key=value\n" line per pair, in the same order. */

/* NULL if key is a valid key, else why not. */
static const char *meta_key_problem(const char *key, size_t n)
{
    if (n == 0)
        return "empty key";
    if (n > TRACE_META_KEY_MAX)
        return "key longer than 64 bytes";
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)key[i];
        int alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        if (!alnum && (i == 0 || (c != '.' && c != '_' && c != '-')))
            return i == 0 ? "key must start with a letter or digit" : "key may hold only letters, digits, '.', '_' and '-'";
    }
    return NULL;
}

static const char *meta_value_problem(const char *value, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (value[i] == '\n' || value[i] == '\r' || value[i] == '\0')
            return "value holds a line break or NUL byte";
    return NULL;
}

const char *trace_meta_next(const struct trace_meta *m, const char *prev, const char **value)
{
    const char *end = m->kv + m->kv_len;
    const char *k;
    if (prev == NULL) {
        k = m->kv;
    } else {
        const char *v = prev + strlen(prev) + 1;
        k = v + strlen(v) + 1;
    }
    if (k >= end || m->kv_count == 0)
        return NULL;
    if (value)
        *value = k + strlen(k) + 1;
    return k;
}

const char *trace_meta_find(const struct trace_meta *m, const char *key)
{
    const char *v;
    for (const char *k = trace_meta_next(m, NULL, &v); k; k = trace_meta_next(m, k, &v))
        if (strcmp(k, key) == 0)
            return v;
    return NULL;
}

const char *trace_meta_get(const struct trace_header *h, const char *key)
{
    return trace_meta_find(&h->meta, key);
}

int trace_meta_set(struct trace_meta *m, const char *key, const char *value, char *err, size_t errlen)
{
    size_t kn = strlen(key), vn = strlen(value);
    const char *why = meta_key_problem(key, kn);
    if (!why)
        why = meta_value_problem(value, vn);
    if (why) {
        snprintf(err, errlen, "metadata key '%.*s': %s", (int)(kn > 80 ? 80 : kn), key, why);
        return -1;
    }
    /* Rebuild the pairs with key's new value in its place (or at the end). */
    char buf[TRACE_META_MAX];
    size_t len = 0;
    int found = 0;
    const char *v;
    for (const char *k = trace_meta_next(m, NULL, &v); k; k = trace_meta_next(m, k, &v)) {
        int same = strcmp(k, key) == 0;
        const char *val = same ? value : v;
        size_t a = strlen(k) + 1, b = strlen(val) + 1;
        if (len + a + b > sizeof buf)
            goto full;
        memcpy(buf + len, k, a);
        memcpy(buf + len + a, val, b);
        len += a + b;
        found |= same;
    }
    if (!found) {
        if (len + kn + vn + 2 > sizeof buf)
            goto full;
        memcpy(buf + len, key, kn + 1);
        memcpy(buf + len + kn + 1, value, vn + 1);
        len += kn + vn + 2;
        m->kv_count++;
    }
    memcpy(m->kv, buf, len);
    m->kv_len = (uint32_t)len;
    return 0;
full:
    snprintf(err, errlen, "metadata key '%s': the metadata would exceed %u bytes", key, TRACE_META_MAX);
    return -1;
}

/* Encode the section (preamble + text) into out (room for META_PREAMBLE +
 * TRACE_META_MAX bytes); returns its size, 0 when there are no pairs. */
static size_t meta_encode(const struct trace_meta *m, unsigned char *out)
{
    if (m->kv_count == 0)
        return 0;
    unsigned char *t = out + META_PREAMBLE;
    size_t n = 0;
    const char *v;
    for (const char *k = trace_meta_next(m, NULL, &v); k; k = trace_meta_next(m, k, &v)) {
        size_t a = strlen(k), b = strlen(v);
        memcpy(t + n, k, a);
        t[n + a] = '=';
        memcpy(t + n + a + 1, v, b);
        t[n + a + 1 + b] = '\n';
        n += a + b + 2;
    }
    memcpy(out, META_MAGIC, 4);
    put32(out + 4, m->kv_count);
    put32(out + 8, (uint32_t)crc32(0L, t, (uInt)n));
    return META_PREAMBLE + n;
}

/* Decode a section of n bytes read from file offset `base` into m.  0, or
 * -1 with "path: byte N: ..." in err. */
static int meta_decode(const char *path, const unsigned char *s, size_t n, uint64_t base, struct trace_meta *m,
                       char *err, size_t errlen)
{
    if (n < META_PREAMBLE || memcmp(s, META_MAGIC, 4) != 0) {
        snprintf(err, errlen, "%s: byte %" PRIu64 ": not a metadata section (\"META\" expected)", path, base);
        return -1;
    }
    const unsigned char *t = s + META_PREAMBLE;
    size_t tn = n - META_PREAMBLE;
    if ((uint32_t)crc32(0L, t, (uInt)tn) != get32(s + 8)) {
        snprintf(err, errlen, "%s: byte %" PRIu64 ": metadata checksum mismatch", path, base + 8);
        return -1;
    }
    uint32_t want = get32(s + 4);
    m->kv_count = 0;
    m->kv_len = 0;
    size_t line = 0;
    for (size_t i = 0; i < tn; line++) {
        uint64_t at = base + META_PREAMBLE + i;
        const unsigned char *lf = memchr(t + i, '\n', tn - i);
        if (!lf) {
            snprintf(err, errlen, "%s: byte %" PRIu64 ": metadata line %zu does not end with LF", path, at, line + 1);
            return -1;
        }
        size_t len = (size_t)(lf - (t + i));
        const unsigned char *eq = memchr(t + i, '=', len);
        if (!eq) {
            snprintf(err, errlen, "%s: byte %" PRIu64 ": metadata line %zu has no '='", path, at, line + 1);
            return -1;
        }
        size_t kn = (size_t)(eq - (t + i)), vn = len - kn - 1;
        const char *why = meta_key_problem((const char *)t + i, kn);
        if (!why)
            why = meta_value_problem((const char *)eq + 1, vn);
        if (why) {
            snprintf(err, errlen, "%s: byte %" PRIu64 ": metadata line %zu: %s", path, at, line + 1, why);
            return -1;
        }
        char key[TRACE_META_KEY_MAX + 1];
        memcpy(key, t + i, kn);
        key[kn] = '\0';
        if (trace_meta_find(m, key)) {
            snprintf(err, errlen, "%s: byte %" PRIu64 ": metadata line %zu: duplicate key '%s'", path, at, line + 1,
                     key);
            return -1;
        }
        /* Fits: the text is at most TRACE_META_MAX bytes (checked by the caller). */
        memcpy(m->kv + m->kv_len, key, kn + 1);
        memcpy(m->kv + m->kv_len + kn + 1, eq + 1, vn);
        m->kv[m->kv_len + kn + 1 + vn] = '\0';
        m->kv_len += (uint32_t)(kn + vn + 2);
        m->kv_count++;
        i += len + 1;
    }
    if (m->kv_count != want) {
        snprintf(err, errlen, "%s: byte %" PRIu64 ": metadata says %" PRIu32 " entries, the text holds %" PRIu32,
                 path, base + 4, want, m->kv_count);
        return -1;
    }
    return 0;
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
    size_t mn = meta_encode(&w->th.meta, ms);
    w->th.meta_bytes = (uint32_t)mn;
    header_encode(h, &w->th);
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
        header_encode(h, &w->th);
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
        if (meta_decode(path, ms, r->th.meta_bytes, TRACE_HEADER_SIZE, &r->th.meta, err, errlen) < 0)
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

static const uint32_t code_size[7] = { 1, 2, 4, 8, 16, 32, 64 };

long trace_reader_read(struct trace_reader *r, struct event *out, size_t cap)
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
        uint64_t seen[8] = { 0 };
        uint64_t v, pc;
        /* Each case writes the whole event with one compound literal so the
         * compiler emits wide stores; counts per kind stay in locals. */
        for (; done < todo && p < end; done++) {
            struct event *e = &out[n + done];
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
        n += done;
    }
    return (long)n;
}

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
