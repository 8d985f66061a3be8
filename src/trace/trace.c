/* trace.c - the trace format's header and its metadata pairs (see
 * docs/trace-format.md and trace_int.h): the header's layout and encoding,
 * the metadata section's encoding and parsing, and the metadata API of
 * trace.h.  The writer is trace_write.c, the reader trace_read.c. */
#define _POSIX_C_SOURCE 200809L
#include "trace/trace.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>

#include "trace/trace_int.h"

/* ---- header ------------------------------------------------------------ */
/* Layout (little-endian), TRACE_HEADER_SIZE bytes:
 *   0 magic[8] | 8 version u32 | 12 header_size u32 | 16 flags u32 | 20 kinds u32
 *   24 counts[8] u64 (kinds 0..6, [7] = total) | 88 blocks u64 | 96 skip u64
 *   104 window u64 | 112 payload_bytes u64 | 120 workload[64] | 184 producer[64]
 *   248 command[256] | 504 meta_bytes u32 (v1: reserved, 0) | 508 crc32 of bytes 0..507 */
void trace_header_encode(unsigned char *h, const struct trace_header *th)
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
size_t trace_meta_encode(const struct trace_meta *m, unsigned char *out)
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
int trace_meta_decode(const char *path, const unsigned char *s, size_t n, uint64_t base, struct trace_meta *m,
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
