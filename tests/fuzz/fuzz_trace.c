/* fuzz_trace.c - libFuzzer target for the trace reader (src/trace/trace_read.c).
 *
 * Built three ways (FUZZ_MODE):
 *   0 raw      the input is a trace file as is: header checks, block
 *              framing, checksums;
 *   1 repair   the header CRC and every block's CRC are recomputed after
 *              mutation, so mutated blocks reach zstd and the decoder;
 *   2 payload  the input is an uncompressed event payload, wrapped into a
 *              valid one-block trace (header counts: the input's first
 *              bytes), so every input reaches the event decoder.
 * The reader must never crash, hang or read out of bounds, and every
 * rejection is a message; decoding succeeds or fails, both are fine.
 * When the input's last byte picks kinds to keep, the masked decoder
 * (trace_reader_read_kinds) must agree with the plain one: the same
 * message, or the same events of those kinds. */
#include "fuzz_util.h" /* first: it defines _GNU_SOURCE (memfd_create) */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "trace/trace.h"

#ifndef FUZZ_MODE
#define FUZZ_MODE 0
#endif

#define HDR 512u

static uint32_t get32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* Recompute the header and block checksums in place (v1 layout,
 * docs/trace-format.md); stops at the first block that does not fit. */
static void repair(uint8_t *b, size_t n)
{
    if (n < HDR)
        return;
    size_t off = HDR;
    while (off + 20 <= n) {
        uint32_t comp = get32(b + off + 8);
        if (comp > n - off - 20)
            break;
        put32(b + off + 16, (uint32_t)crc32(0L, b + off + 20, comp));
        off += 20 + comp;
    }
    put32(b + 508, (uint32_t)crc32(0L, b, 508));
}

/* A valid one-block container around payload p (mode 2). */
static uint8_t *wrap(const uint8_t *p, size_t n, size_t *out_len)
{
    /* the first 9 bytes choose the header's counts (7 kinds + total, mod 2^16)
     * and flags, the rest is the payload */
    uint8_t sel[9] = { 0 };
    size_t k = n < 9 ? n : 9;
    memcpy(sel, p, k);
    p += k;
    n -= k;
    if (n > (1u << 20))
        n = 1u << 20;
    size_t cap = ZSTD_compressBound(n);
    uint8_t *b = calloc(1, HDR + 20 + cap);
    if (!b)
        return NULL;
    size_t c = ZSTD_compress(b + HDR + 20, cap, p, n, 1);
    if (ZSTD_isError(c)) {
        free(b);
        return NULL;
    }
    memcpy(b, "HWPTRACE", 8);
    put32(b + 8, 1);
    put32(b + 12, HDR);
    put32(b + 16, 1u | ((sel[8] & 3u) << 1)); /* complete, values/branches from the input */
    put32(b + 20, 7);
    uint64_t total = 0;
    for (int i = 0; i < 7; i++) {
        put64(b + 24 + 8 * i, sel[i]);
        total += sel[i];
    }
    put64(b + 80, total + sel[7]);
    put64(b + 88, 1);
    put64(b + 112, 20 + c);
    memcpy(b + 120, "fuzz", 4);
    put32(b + HDR, 0x314b4c42u);
    put32(b + HDR + 4, (uint32_t)n);
    put32(b + HDR + 8, (uint32_t)c);
    put32(b + HDR + 12, (uint32_t)(total + sel[7]));
    put32(b + HDR + 16, (uint32_t)crc32(0L, b + HDR + 20, (uInt)c));
    put32(b + 508, (uint32_t)crc32(0L, b, 508));
    *out_len = HDR + 20 + c;
    return b;
}

/* Every event of a reader (keep: the kinds kept), or its error. */
struct run {
    struct event *ev;
    size_t n;
    char err[1024];
};

static struct run read_all(struct trace_reader *r, unsigned keep)
{
    struct run x = { NULL, 0, "" };
    size_t cap = 0;
    for (;;) {
        if (cap - x.n < 4096) {
            cap = 2 * cap + 4096;
            struct event *g = realloc(x.ev, cap * sizeof *g);
            if (!g)
                abort();
            x.ev = g;
        }
        long got = keep == EV_ALL ? trace_reader_read(r, x.ev + x.n, 4096) : trace_reader_read_kinds(r, x.ev + x.n, 4096, keep);
        if (got == 0)
            break;
        if (got < 0) {
            if (!trace_reader_error(r)[0])
                abort(); /* an error must say what it is */
            snprintf(x.err, sizeof x.err, "%s", trace_reader_error(r));
            break;
        }
        x.n += (size_t)got;
    }
    return x;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *buf = NULL;
    size_t len = size;
#if FUZZ_MODE == 2
    buf = wrap(data, size, &len);
    if (!buf)
        return 0;
#else
    buf = malloc(size ? size : 1);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
#if FUZZ_MODE == 1
    repair(buf, size);
#endif
#endif
    char path[64], err[1024];
    int fd = fuzz_file(buf, len, path, sizeof path);
    free(buf);
    if (fd < 0)
        return 0;
    struct trace_reader *r = trace_reader_open(path, err, sizeof err);
    if (r) {
        /* the input's last byte chooses the kinds kept (EV_ALL: the
         * reader's plain path), as a job of a few models decodes */
        unsigned keep = size && (data[size - 1] & 0x80) ? data[size - 1] & EV_ALL : EV_ALL;
        struct run all = read_all(r, EV_ALL);
        trace_reader_close(r);
        if (keep != EV_ALL) {
            /* the masked decoder passes over the fields of the kinds it
             * does not keep: it must read the same bytes as the plain one,
             * so it fails with the same message or gives the same events
             * of the kinds kept */
            r = trace_reader_open(path, err, sizeof err);
            if (!r)
                abort();
            struct run some = read_all(r, keep);
            trace_reader_close(r);
            if (strcmp(all.err, some.err) != 0)
                abort();
            if (!all.err[0]) {
                size_t k = 0;
                for (size_t i = 0; i < all.n; i++)
                    if (keep & EV_BIT(all.ev[i].kind) && (k >= some.n || memcmp(&all.ev[i], &some.ev[k++], sizeof *all.ev) != 0))
                        abort();
                if (k != some.n)
                    abort();
            }
            free(some.ev);
        }
        free(all.ev);
    } else if (!err[0]) {
        abort();
    }
    close(fd);
    return 0;
}
