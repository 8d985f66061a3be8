/* test_trace_meta.c - trace format v2 metadata: trace_meta_set/find/next,
 * the round trip through a file (order, replacement, the exact bytes of the
 * section), reading v1 files, and the reader's messages for a damaged
 * section (docs/trace-format.md, "Metadata").
 */
#define _XOPEN_SOURCE 700
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "trace/event.h"
#include "trace/trace.h"

static char tmpdir[256];

static int setup_dir(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/test_trace_meta.XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int remove_dir(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static void tmp_path(char *out, size_t len, const char *name)
{
    snprintf(out, len, "%s/%s", tmpdir, name);
}

static struct trace_meta base_meta(void)
{
    struct trace_meta m;
    memset(&m, 0, sizeof m);
    snprintf(m.workload, sizeof m.workload, "meta");
    snprintf(m.producer, sizeof m.producer, "test_trace_meta");
    m.flags = TRF_HAS_VALUES;
    return m;
}

static void set_ok(struct trace_meta *m, const char *k, const char *v)
{
    char err[256];
    if (trace_meta_set(m, k, v, err, sizeof err) != 0)
        fail_msg("%s", err);
}

/* Three events: an instruction, a load, a store. */
static void write_with(const char *path, const struct trace_meta *m)
{
    struct event ev[3] = {
        {.pc = 0x401000, .size = 4, .kind = EV_INSN},
        {.pc = 0x401000, .addr = 0x7ffc10, .value = 42, .size = 8, .kind = EV_LOAD},
        {.pc = 0x401000, .addr = 0x7ffc18, .size = 4, .kind = EV_STORE},
    };
    char err[1024];
    struct trace_writer *w = trace_writer_open(path, m, 3, err, sizeof err);
    if (!w)
        fail_msg("%s", err);
    assert_int_equal(trace_writer_add(w, ev, 3), 0);
    if (trace_writer_close(w, err, sizeof err) != 0)
        fail_msg("%s", err);
}

static long file_size(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fclose(f);
    return n;
}

static void read_bytes(const char *path, long off, void *buf, size_t n)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fseek(f, off, SEEK_SET), 0);
    assert_int_equal(fread(buf, 1, n, f), n);
    fclose(f);
}

static void patch(const char *path, long off, const void *bytes, size_t n)
{
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    assert_int_equal(fseek(f, off, SEEK_SET), 0);
    assert_int_equal(fwrite(bytes, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

static void put32le(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* Rewrite the header's CRC-32 (bytes 0..507, at 508). */
static void fix_header_crc(const char *path)
{
    unsigned char h[TRACE_HEADER_SIZE];
    read_bytes(path, 0, h, sizeof h);
    put32le(h + 508, (uint32_t)crc32(0L, h, 508));
    patch(path, 0, h, sizeof h);
}

/* Rewrite the metadata text's CRC-32 (section bytes 12.., at 520). */
static void fix_meta_crc(const char *path, uint32_t meta_bytes)
{
    unsigned char *t = malloc(meta_bytes);
    assert_non_null(t);
    read_bytes(path, TRACE_HEADER_SIZE, t, meta_bytes);
    unsigned char c[4];
    put32le(c, (uint32_t)crc32(0L, t + 12, meta_bytes - 12));
    patch(path, TRACE_HEADER_SIZE + 8, c, 4);
    free(t);
}

static struct trace_reader *open_ok(const char *path)
{
    char err[1024];
    struct trace_reader *r = trace_reader_open(path, err, sizeof err);
    if (!r)
        fail_msg("%s", err);
    return r;
}

static const char *open_error(const char *path)
{
    static char err[1024];
    struct trace_reader *r = trace_reader_open(path, err, sizeof err);
    if (r) {
        trace_reader_close(r);
        fail_msg("%s: opened, expected an error", path);
    }
    return err;
}

/* Events decoded by a full read (checks the blocks start after the section). */
static long count_events(const char *path)
{
    struct trace_reader *r = open_ok(path);
    struct event buf[8];
    long total = 0, n;
    while ((n = trace_reader_read(r, buf, 8)) > 0)
        total += n;
    if (n < 0)
        fail_msg("%s", trace_reader_error(r));
    trace_reader_close(r);
    return total;
}

static void test_set_find_next(void **state)
{
    (void)state;
    struct trace_meta m = base_meta();
    const char *v;
    assert_null(trace_meta_next(&m, NULL, &v));
    assert_null(trace_meta_find(&m, "a"));
    set_ok(&m, "program.version", "1.12-1");
    set_ok(&m, "cpu.level", "x86-64-v2");
    set_ok(&m, "empty", "");
    assert_int_equal(m.kv_count, 3);
    /* 16+7 + 10+10 + 6+1 bytes of "key\0value\0" */
    assert_int_equal(m.kv_len, 50);
    assert_string_equal(trace_meta_find(&m, "cpu.level"), "x86-64-v2");
    assert_string_equal(trace_meta_find(&m, "empty"), "");
    assert_null(trace_meta_find(&m, "cpu"));
    /* Replacing keeps the place. */
    set_ok(&m, "program.version", "1.12-2");
    assert_int_equal(m.kv_count, 3);
    const char *k = trace_meta_next(&m, NULL, &v);
    assert_string_equal(k, "program.version");
    assert_string_equal(v, "1.12-2");
    k = trace_meta_next(&m, k, &v);
    assert_string_equal(k, "cpu.level");
    k = trace_meta_next(&m, k, &v);
    assert_string_equal(k, "empty");
    assert_string_equal(v, "");
    assert_null(trace_meta_next(&m, k, &v));
}

static void test_set_rejects(void **state)
{
    (void)state;
    struct trace_meta m = base_meta();
    char err[256];
    assert_int_equal(trace_meta_set(&m, "", "x", err, sizeof err), -1);
    assert_string_equal(err, "metadata key '': empty key");
    assert_int_equal(trace_meta_set(&m, ".a", "x", err, sizeof err), -1);
    assert_string_equal(err, "metadata key '.a': key must start with a letter or digit");
    assert_int_equal(trace_meta_set(&m, "a b", "x", err, sizeof err), -1);
    assert_string_equal(err, "metadata key 'a b': key may hold only letters, digits, '.', '_' and '-'");
    assert_int_equal(trace_meta_set(&m, "a=b", "x", err, sizeof err), -1);
    assert_int_equal(trace_meta_set(&m, "a", "two\nlines", err, sizeof err), -1);
    assert_string_equal(err, "metadata key 'a': value holds a line break or NUL byte");
    assert_int_equal(trace_meta_set(&m, "a", "cr\r", err, sizeof err), -1);
    char key[80];
    memset(key, 'k', 65);
    key[65] = '\0';
    assert_int_equal(trace_meta_set(&m, key, "x", err, sizeof err), -1);
    key[64] = '\0';
    set_ok(&m, key, "x"); /* 64 bytes is the limit */
    /* Capacity: TRACE_META_MAX bytes of "key\0value\0". */
    static char big[TRACE_META_MAX];
    memset(big, 'v', sizeof big);
    struct trace_meta f = base_meta();
    set_ok(&f, key, "");                  /* 64 + 1 + 0 + 1 = 66 bytes */
    big[TRACE_META_MAX - 66 - 5] = '\0';  /* "big\0", 4025 bytes, "\0": the other 4030 */
    set_ok(&f, "big", big);
    assert_int_equal(f.kv_len, TRACE_META_MAX);
    assert_int_equal(trace_meta_set(&f, "c", "", err, sizeof err), -1);
    assert_string_equal(err, "metadata key 'c': the metadata would exceed 4096 bytes");
    assert_int_equal(f.kv_count, 2);
    /* Replacing with a longer value that no longer fits is refused too. */
    assert_int_equal(trace_meta_set(&f, key, "x", err, sizeof err), -1);
    assert_string_equal(trace_meta_find(&f, key), "");
}

/* The exact bytes: "META", count 2, CRC-32 of the text, then the lines. */
static void test_file_layout_and_roundtrip(void **state)
{
    (void)state;
    char path[300];
    tmp_path(path, sizeof path, "kv.trace");
    struct trace_meta m = base_meta();
    set_ok(&m, "b", "2");
    set_ok(&m, "a.x", "one = 1");
    write_with(path, &m);

    const char text[] = "b=2\na.x=one = 1\n";
    size_t tn = sizeof text - 1;
    unsigned char h[TRACE_HEADER_SIZE], s[64];
    read_bytes(path, 0, h, sizeof h);
    assert_int_equal(h[8], 2); /* version */
    uint32_t mb = (uint32_t)h[504] | (uint32_t)h[505] << 8;
    assert_int_equal(mb, 12 + tn);
    read_bytes(path, TRACE_HEADER_SIZE, s, mb);
    assert_memory_equal(s, "META", 4);
    assert_int_equal(s[4], 2);
    uint32_t crc = (uint32_t)crc32(0L, (const unsigned char *)text, (uInt)tn);
    assert_int_equal((uint32_t)s[8] | (uint32_t)s[9] << 8 | (uint32_t)s[10] << 16 | (uint32_t)s[11] << 24, crc);
    assert_memory_equal(s + 12, text, tn);

    struct trace_reader *r = open_ok(path);
    const struct trace_header *th = trace_reader_header(r);
    assert_int_equal(th->meta_bytes, mb);
    assert_int_equal(th->payload_bytes + TRACE_HEADER_SIZE + mb, (uint64_t)file_size(path));
    assert_string_equal(trace_meta_get(th, "a.x"), "one = 1");
    assert_string_equal(trace_meta_get(th, "b"), "2");
    assert_null(trace_meta_get(th, "c"));
    const char *v, *k = trace_meta_next(&th->meta, NULL, &v);
    assert_string_equal(k, "b");
    /* A copy of the header keeps its pairs after the reader is gone. */
    struct trace_header copy = *th;
    trace_reader_close(r);
    assert_string_equal(trace_meta_get(&copy, "a.x"), "one = 1");
    assert_int_equal(count_events(path), 3);

    /* Without pairs: no section, the layout of v1 but for the version. */
    struct trace_meta none = base_meta();
    tmp_path(path, sizeof path, "none.trace");
    write_with(path, &none);
    read_bytes(path, 0, h, sizeof h);
    assert_int_equal(h[504] | h[505] | h[506] | h[507], 0);
    r = open_ok(path);
    assert_int_equal(trace_reader_header(r)->meta.kv_count, 0);
    assert_null(trace_meta_next(&trace_reader_header(r)->meta, NULL, &v));
    trace_reader_close(r);
}

/* A v1 file (what the writer of format v1 produced: the same bytes with
 * version 1) reads as before, with no pairs. */
static void test_reads_v1(void **state)
{
    (void)state;
    char path[300];
    tmp_path(path, sizeof path, "v1.trace");
    struct trace_meta none = base_meta();
    write_with(path, &none);
    patch(path, 8, "\x01\x00\x00\x00", 4);
    fix_header_crc(path);
    struct trace_reader *r = open_ok(path);
    const struct trace_header *th = trace_reader_header(r);
    assert_int_equal(th->version, 1);
    assert_int_equal(th->meta_bytes, 0);
    assert_null(trace_meta_get(th, "cpu.level"));
    assert_string_equal(th->meta.workload, "meta");
    trace_reader_close(r);
    assert_int_equal(count_events(path), 3);
    /* Version 3 does not exist. */
    patch(path, 8, "\x03\x00\x00\x00", 4);
    fix_header_crc(path);
    char expect[600];
    snprintf(expect, sizeof expect, "%s: byte 8: unsupported trace version 3 (this build reads 1 and 2)", path);
    assert_string_equal(open_error(path), expect);
}

static void test_damaged_section(void **state)
{
    (void)state;
    char path[300], expect[600];
    tmp_path(path, sizeof path, "bad.trace");
    struct trace_meta m = base_meta();
    set_ok(&m, "k1", "v1");
    set_ok(&m, "k2", "v2");
    write_with(path, &m); /* text "k1=v1\nk2=v2\n": 12 bytes, section 24 */
    const uint32_t mb = 24;
    const long t0 = TRACE_HEADER_SIZE + 12; /* first text byte */

    patch(path, t0 + 1, "3", 1); /* k3=v1: the text CRC no longer matches */
    snprintf(expect, sizeof expect, "%s: byte 520: metadata checksum mismatch", path);
    assert_string_equal(open_error(path), expect);

    patch(path, t0 + 1, "2", 1); /* k2 twice */
    fix_meta_crc(path, mb);
    snprintf(expect, sizeof expect, "%s: byte %ld: metadata line 2: duplicate key 'k2'", path, t0 + 6);
    assert_string_equal(open_error(path), expect);

    patch(path, t0, "k1=v1\nk2+v2\n", 12); /* no '=' on line 2 */
    fix_meta_crc(path, mb);
    snprintf(expect, sizeof expect, "%s: byte %ld: metadata line 2 has no '='", path, t0 + 6);
    assert_string_equal(open_error(path), expect);

    patch(path, t0, "k1=v1\n-2=v2\n", 12);
    fix_meta_crc(path, mb);
    snprintf(expect, sizeof expect, "%s: byte %ld: metadata line 2: key must start with a letter or digit", path,
             t0 + 6);
    assert_string_equal(open_error(path), expect);

    patch(path, t0, "k1=v1\nk2=v2x", 12);
    fix_meta_crc(path, mb);
    snprintf(expect, sizeof expect, "%s: byte %ld: metadata line 2 does not end with LF", path, t0 + 6);
    assert_string_equal(open_error(path), expect);

    patch(path, t0, "k1=v1\nk2=v2\n", 12); /* valid again */
    fix_meta_crc(path, mb);
    assert_int_equal(count_events(path), 3);

    patch(path, TRACE_HEADER_SIZE + 4, "\x03", 1); /* 3 entries claimed */
    snprintf(expect, sizeof expect, "%s: byte 516: metadata says 3 entries, the text holds 2", path);
    assert_string_equal(open_error(path), expect);
    patch(path, TRACE_HEADER_SIZE + 4, "\x02", 1);

    patch(path, TRACE_HEADER_SIZE, "MEXA", 4);
    snprintf(expect, sizeof expect, "%s: byte 512: not a metadata section (\"META\" expected)", path);
    assert_string_equal(open_error(path), expect);
    patch(path, TRACE_HEADER_SIZE, "META", 4);

    /* The header's section size must fit the limit, then the file size. */
    unsigned char b[4];
    put32le(b, 12 + TRACE_META_MAX + 1);
    patch(path, 504, b, 4);
    fix_header_crc(path);
    snprintf(expect, sizeof expect, "%s: byte 504: metadata section of 4109 bytes is larger than the 4108 allowed",
             path);
    assert_string_equal(open_error(path), expect);
    put32le(b, mb + 1);
    patch(path, 504, b, 4);
    fix_header_crc(path);
    long size = file_size(path);
    snprintf(expect, sizeof expect, "%s: byte %ld: file size %ld does not match header (%ld expected): truncated or extended",
             path, size, size, size + 1);
    assert_string_equal(open_error(path), expect);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_set_find_next),
        cmocka_unit_test(test_set_rejects),
        cmocka_unit_test(test_file_layout_and_roundtrip),
        cmocka_unit_test(test_reads_v1),
        cmocka_unit_test(test_damaged_section),
    };
    return cmocka_run_group_tests(tests, setup_dir, remove_dir);
}
