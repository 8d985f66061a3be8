/* test_trace.c - trace writer/reader and the text formats: round trips
 * (random events of every kind, multi-block traces, empty traces, canonical
 * text, Lackey output), header counts, and the error messages for corrupt
 * or malformed input.
 *
 * Sample inputs are read from $HWPROF_TEST_DATA (default tests/data, i.e.
 * the tests run from the repository root).
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
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "trace/event.h"
#include "trace/trace.h"
#include "trace/trace_text.h"

/* ---- helpers --------------------------------------------------------- */

static char tmpdir[256];

static int setup_dir(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/test_trace.XXXXXX");
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

static const char *data_dir(void)
{
    const char *d = getenv("HWPROF_TEST_DATA");
    return d && *d ? d : "tests/data";
}

static uint64_t rng_state;

static uint64_t rnd(void) /* splitmix64: deterministic across platforms */
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* A random event of kind k with every field the formats carry set, and
 * every other field zero (as the readers produce it). */
static struct event random_event(unsigned k, uint64_t *pc, uint32_t *len)
{
    static const uint32_t sizes[] = {1, 2, 4, 8, 16, 32, 64, 3, 0, 100000, UINT32_MAX};
    struct event e;
    memset(&e, 0, sizeof e);
    e.kind = (uint8_t)k;
    uint64_t r = rnd();
    switch (k) {
    case EV_INSN:
        /* mostly sequential, sometimes far jumps, sometimes odd lengths */
        if (r % 4 == 0)
            *pc = rnd();
        else if (r % 4 == 1)
            *pc = *pc - (rnd() % 4096);
        else
            *pc += *len;
        *len = r % 16 == 3 ? (uint32_t)rnd() : (uint32_t)(1 + rnd() % 15);
        if (r % 97 == 0)
            *len = 0;
        e.pc = *pc;
        e.size = *len;
        break;
    case EV_LOAD:
    case EV_STORE:
        e.pc = r % 8 ? *pc : rnd();
        e.addr = r % 3 ? 0x7ffc0000ull + rnd() % 65536 : rnd();
        e.size = sizes[rnd() % (sizeof sizes / sizeof sizes[0])];
        if (k == EV_LOAD) {
            if (r % 5 == 0)
                e.flags = EVF_NOVALUE;
            else
                e.value = r % 2 ? rnd() : rnd() % 256;
        } else if (r % 5 == 0) {
            e.flags = EVF_MODIFY;
        }
        break;
    case EV_BRANCH:
        e.pc = r % 8 ? *pc : rnd();
        e.addr = r % 2 ? e.pc - rnd() % 256 : rnd();
        e.value = r % 3 ? e.pc + *len : rnd();
        e.taken = (uint8_t)((r >> 8) & 1);
        break;
    default:
        e.pc = r % 8 ? *pc : rnd();
        e.addr = r % 2 ? e.pc + rnd() % 100000 : rnd();
        break;
    }
    return e;
}

static struct event *random_events(size_t n, uint64_t seed)
{
    struct event *ev = calloc(n, sizeof *ev);
    assert_non_null(ev);
    rng_state = seed;
    uint64_t pc = 0x401000;
    uint32_t len = 4;
    for (size_t i = 0; i < n; i++)
        ev[i] = random_event((unsigned)(rnd() % EV_KINDS), &pc, &len);
    return ev;
}

static void assert_event_equal(const struct event *a, const struct event *b, size_t i)
{
    if (a->kind != b->kind || a->pc != b->pc || a->addr != b->addr || a->value != b->value ||
        a->size != b->size || a->taken != b->taken || a->flags != b->flags) {
        print_error("event %zu differs: kind %u/%u pc %llx/%llx addr %llx/%llx value %llx/%llx "
                    "size %u/%u taken %u/%u flags %u/%u\n",
                    i, a->kind, b->kind, (unsigned long long)a->pc, (unsigned long long)b->pc,
                    (unsigned long long)a->addr, (unsigned long long)b->addr,
                    (unsigned long long)a->value, (unsigned long long)b->value, a->size, b->size,
                    a->taken, b->taken, a->flags, b->flags);
        fail();
    }
}

static struct trace_meta test_meta(void)
{
    struct trace_meta m;
    memset(&m, 0, sizeof m);
    snprintf(m.workload, sizeof m.workload, "unit");
    snprintf(m.producer, sizeof m.producer, "test_trace");
    snprintf(m.command, sizeof m.command, "./prog --flag 'arg with spaces'");
    m.skip = 1000000000ull;
    m.window = 500000000ull;
    m.flags = TRF_HAS_VALUES | TRF_HAS_BRANCHES;
    return m;
}

static void write_trace(const char *path, const struct event *ev, size_t n, size_t chunk)
{
    char err[1024];
    struct trace_meta m = test_meta();
    struct trace_writer *w = trace_writer_open(path, &m, 3, err, sizeof err);
    if (!w)
        fail_msg("%s", err);
    for (size_t i = 0; i < n; i += chunk) {
        size_t k = n - i < chunk ? n - i : chunk;
        if (trace_writer_add(w, ev + i, k) != 0)
            fail_msg("%s", trace_writer_error(w));
    }
    assert_int_equal(trace_writer_events(w), n);
    if (trace_writer_close(w, err, sizeof err) != 0)
        fail_msg("%s", err);
}

/* Read the whole trace with batches of `batch` events; returns the count. */
static size_t read_trace(const char *path, struct event *out, size_t cap, size_t batch)
{
    char err[1024];
    struct trace_reader *r = trace_reader_open(path, err, sizeof err);
    if (!r)
        fail_msg("%s", err);
    size_t n = 0;
    for (;;) {
        size_t want = cap - n < batch ? cap - n : batch;
        if (want == 0)
            want = 1; /* probe for the clean end */
        struct event tmp[1];
        long got = trace_reader_read(r, cap - n ? out + n : tmp, want);
        if (got < 0)
            fail_msg("%s", trace_reader_error(r));
        if (got == 0)
            break;
        assert_true(cap - n >= (size_t)got);
        n += (size_t)got;
    }
    assert_int_equal(trace_reader_read(r, out, 1), 0); /* stays at the end */
    trace_reader_close(r);
    return n;
}

static void assert_contains(const char *msg, const char *part)
{
    if (!strstr(msg, part))
        fail_msg("message \"%s\" lacks \"%s\"", msg, part);
}

static void write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)size + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)size, f), (size_t)size);
    buf[size] = '\0';
    fclose(f);
    *len = (size_t)size;
    return buf;
}

static void patch_file(const char *path, long offset, const void *bytes, size_t n)
{
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    assert_int_equal(fseek(f, offset, SEEK_SET), 0);
    assert_int_equal(fwrite(bytes, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

static void flip_byte(const char *path, long offset)
{
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    assert_int_equal(fseek(f, offset, SEEK_SET), 0);
    int c = fgetc(f);
    assert_true(c != EOF);
    assert_int_equal(fseek(f, offset, SEEK_SET), 0);
    fputc(c ^ 0x40, f);
    assert_int_equal(fclose(f), 0);
}

static int file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* Open a reader expecting failure; returns the message. */
static const char *open_error(const char *path)
{
    static char err[1024];
    struct trace_reader *r = trace_reader_open(path, err, sizeof err);
    if (r) {
        trace_reader_close(r);
        fail_msg("%s opened without error", path);
    }
    return err;
}

/* Open succeeds, reading fails; returns the message. */
static const char *read_error(const char *path)
{
    static char msg[1024];
    char err[1024];
    struct trace_reader *r = trace_reader_open(path, err, sizeof err);
    if (!r)
        fail_msg("%s", err);
    struct event buf[256];
    long got;
    while ((got = trace_reader_read(r, buf, 256)) > 0)
        ;
    if (got == 0)
        fail_msg("%s read to the end without error", path);
    snprintf(msg, sizeof msg, "%s", trace_reader_error(r));
    trace_reader_close(r);
    return msg;
}

/* ---- binary round trips ---------------------------------------------- */

static void test_roundtrip_random_small(void **state)
{
    (void)state;
    char path[300];
    tmp_path(path, sizeof path, "small.trace");
    const size_t n = 5000;
    struct event *ev = random_events(n, 1);
    write_trace(path, ev, n, 333);
    struct event *back = calloc(n, sizeof *back);
    assert_non_null(back);
    /* batch sizes 1 and 7 cross every record and block boundary */
    static const size_t batches[] = {1, 7, 4096, 100000};
    for (size_t b = 0; b < sizeof batches / sizeof batches[0]; b++) {
        memset(back, 0xa5, n * sizeof *back);
        assert_int_equal(read_trace(path, back, n, batches[b]), n);
        for (size_t i = 0; i < n; i++)
            assert_event_equal(&ev[i], &back[i], i);
    }
    free(ev);
    free(back);
}

static void test_roundtrip_many_blocks(void **state)
{
    (void)state;
    char path[300];
    tmp_path(path, sizeof path, "big.trace");
    const size_t n = 600000; /* > 5 MiB of raw records: several blocks */
    struct event *ev = random_events(n, 42);
    write_trace(path, ev, n, 65536);

    char err[1024];
    struct trace_reader *r = trace_reader_open(path, err, sizeof err);
    if (!r)
        fail_msg("%s", err);
    const struct trace_header *h = trace_reader_header(r);
    assert_true(h->blocks > 2);
    assert_int_equal(h->events, n);
    assert_int_equal(h->payload_bytes + TRACE_HEADER_SIZE, trace_reader_size(r));
    trace_reader_close(r);

    struct event *back = calloc(n, sizeof *back);
    assert_non_null(back);
    assert_int_equal(read_trace(path, back, n, 1000), n);
    for (size_t i = 0; i < n; i++)
        assert_event_equal(&ev[i], &back[i], i);
    free(ev);
    free(back);
}

static void test_roundtrip_empty(void **state)
{
    (void)state;
    char path[300];
    tmp_path(path, sizeof path, "empty.trace");
    write_trace(path, NULL, 0, 1);
    char err[1024];
    struct trace_reader *r = trace_reader_open(path, err, sizeof err);
    if (!r)
        fail_msg("%s", err);
    const struct trace_header *h = trace_reader_header(r);
    assert_int_equal(h->events, 0);
    assert_int_equal(h->blocks, 0);
    assert_int_equal(h->payload_bytes, 0);
    assert_int_equal(trace_reader_size(r), TRACE_HEADER_SIZE);
    struct event e[2];
    assert_int_equal(trace_reader_read(r, e, 2), 0);
    trace_reader_close(r);
}

static void test_header_counts_and_meta(void **state)
{
    (void)state;
    char path[300];
    tmp_path(path, sizeof path, "counts.trace");
    const size_t n = 20000;
    struct event *ev = random_events(n, 7);
    uint64_t counts[EV_KINDS] = {0};
    for (size_t i = 0; i < n; i++)
        counts[ev[i].kind]++;
    write_trace(path, ev, n, 1);

    char err[1024];
    struct trace_reader *r = trace_reader_open(path, err, sizeof err);
    if (!r)
        fail_msg("%s", err);
    const struct trace_header *h = trace_reader_header(r);
    struct trace_meta m = test_meta();
    assert_int_equal(h->version, TRACE_VERSION);
    assert_string_equal(h->meta.workload, m.workload);
    assert_string_equal(h->meta.producer, m.producer);
    assert_string_equal(h->meta.command, m.command);
    assert_int_equal(h->meta.skip, m.skip);
    assert_int_equal(h->meta.window, m.window);
    assert_int_equal(h->meta.flags, m.flags | TRF_COMPLETE);
    uint64_t total = 0;
    for (int k = 0; k < EV_KINDS; k++) {
        assert_int_equal(h->counts[k], counts[k]);
        assert_true(counts[k] > 0);
        total += h->counts[k];
    }
    assert_int_equal(h->events, total);
    assert_int_equal(h->blocks, 1);
    trace_reader_close(r);
    free(ev);
}

static void test_writer_abort_leaves_nothing(void **state)
{
    (void)state;
    char path[300], tmp[400];
    tmp_path(path, sizeof path, "aborted.trace");
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    char err[1024];
    struct trace_meta m = test_meta();
    struct trace_writer *w = trace_writer_open(path, &m, 1, err, sizeof err);
    assert_non_null(w);
    struct event *ev = random_events(1000, 3);
    assert_int_equal(trace_writer_add(w, ev, 1000), 0);
    assert_true(file_exists(tmp));
    assert_false(file_exists(path));
    trace_writer_abort(w);
    assert_false(file_exists(tmp));
    assert_false(file_exists(path));
    trace_writer_abort(NULL);
    free(ev);
}

static void test_writer_rejects_bad_kind(void **state)
{
    (void)state;
    char path[300];
    tmp_path(path, sizeof path, "badkind.trace");
    char err[1024];
    struct trace_meta m = test_meta();
    struct trace_writer *w = trace_writer_open(path, &m, 1, err, sizeof err);
    assert_non_null(w);
    struct event e;
    memset(&e, 0, sizeof e);
    e.kind = EV_KINDS;
    assert_int_equal(trace_writer_add(w, &e, 1), -1);
    assert_contains(trace_writer_error(w), "invalid kind 7");
    assert_int_equal(trace_writer_close(w, err, sizeof err), -1);
    assert_false(file_exists(path));
}

/* ---- corruption ------------------------------------------------------ */

/* A valid multi-block trace at path; returns its size. */
static long make_valid(const char *path, size_t n)
{
    struct event *ev = random_events(n, 99);
    write_trace(path, ev, n, 4096);
    free(ev);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    return (long)st.st_size;
}

static void test_truncated(void **state)
{
    (void)state;
    char path[300], expect[600];
    tmp_path(path, sizeof path, "trunc.trace");
    long size = make_valid(path, 3000);
    assert_int_equal(truncate(path, size - 10), 0);
    snprintf(expect, sizeof expect,
             "%s: byte %ld: file size %ld does not match header (%ld expected): truncated or extended",
             path, size - 10, size - 10, size);
    assert_string_equal(open_error(path), expect);

    /* shorter than a header */
    assert_int_equal(truncate(path, 100), 0);
    snprintf(expect, sizeof expect, "%s: byte 100: truncated header (512 bytes expected)", path);
    assert_string_equal(open_error(path), expect);

    /* empty file */
    assert_int_equal(truncate(path, 0), 0);
    snprintf(expect, sizeof expect, "%s: byte 0: not a trace file (bad magic)", path);
    assert_string_equal(open_error(path), expect);
}

static void test_flipped_byte_in_block(void **state)
{
    (void)state;
    char path[300], expect[600];
    tmp_path(path, sizeof path, "flip.trace");
    make_valid(path, 300000); /* several blocks */

    /* a byte inside block 0's compressed data */
    flip_byte(path, TRACE_HEADER_SIZE + 20 + 100);
    snprintf(expect, sizeof expect, "%s: byte %u: block 0: checksum mismatch (corrupted block)", path,
             TRACE_HEADER_SIZE + 20);
    assert_string_equal(read_error(path), expect);
    flip_byte(path, TRACE_HEADER_SIZE + 20 + 100); /* restore */

    /* a byte inside block 1: find it from block 0's compressed length */
    size_t len;
    char *data = read_file(path, &len);
    const unsigned char *b0 = (const unsigned char *)data + TRACE_HEADER_SIZE;
    uint32_t comp0 = (uint32_t)b0[8] | (uint32_t)b0[9] << 8 | (uint32_t)b0[10] << 16 |
                     (uint32_t)b0[11] << 24;
    free(data);
    long block1 = (long)TRACE_HEADER_SIZE + 20 + (long)comp0;
    flip_byte(path, block1 + 20 + 7);
    snprintf(expect, sizeof expect, "%s: byte %ld: block 1: checksum mismatch (corrupted block)", path,
             block1 + 20);
    assert_string_equal(read_error(path), expect);
    flip_byte(path, block1 + 20 + 7);

    /* a damaged block header */
    flip_byte(path, block1 + 1);
    snprintf(expect, sizeof expect, "%s: byte %ld: block 1: corrupted block header", path, block1);
    assert_string_equal(read_error(path), expect);
}

static void test_wrong_magic(void **state)
{
    (void)state;
    char path[300], expect[600];
    tmp_path(path, sizeof path, "magic.trace");
    make_valid(path, 100);
    patch_file(path, 0, "HWPTRACX", 8);
    snprintf(expect, sizeof expect, "%s: byte 0: not a trace file (bad magic)", path);
    assert_string_equal(open_error(path), expect);
}

static void test_version_mismatch(void **state)
{
    (void)state;
    char path[300], expect[600];
    tmp_path(path, sizeof path, "version.trace");
    make_valid(path, 100);
    patch_file(path, 8, "\x03\x00\x00\x00", 4);
    snprintf(expect, sizeof expect,
             "%s: byte 8: unsupported trace version 3 (this build reads 1 and 2)", path);
    assert_string_equal(open_error(path), expect);
}

static void test_header_checksum(void **state)
{
    (void)state;
    char path[300], expect[600];
    tmp_path(path, sizeof path, "hcrc.trace");
    make_valid(path, 100);
    flip_byte(path, 130); /* inside the workload name */
    snprintf(expect, sizeof expect, "%s: byte 508: header checksum mismatch", path);
    assert_string_equal(open_error(path), expect);
}

static void test_unfinished(void **state)
{
    (void)state;
    char path[300], tmp[400], expect[600];
    tmp_path(path, sizeof path, "unfinished.trace");
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    /* A writer that has flushed blocks but was never closed (as after a
     * crash): its temporary file is readable but not finished. */
    char err[1024];
    struct trace_meta m = test_meta();
    struct trace_writer *w = trace_writer_open(path, &m, 1, err, sizeof err);
    assert_non_null(w);
    const size_t n = 200000;
    struct event *ev = random_events(n, 5);
    assert_int_equal(trace_writer_add(w, ev, n), 0);
    free(ev);
    snprintf(expect, sizeof expect,
             "%s: byte 16: unfinished trace (the writer did not complete it)", tmp);
    assert_string_equal(open_error(tmp), expect);
    trace_writer_abort(w);

    /* The same from a finished file whose flag is cleared (crc refreshed). */
    make_valid(path, 100);
    size_t len;
    unsigned char *h = (unsigned char *)read_file(path, &len);
    h[16] &= (unsigned char)~TRF_COMPLETE;
    uint32_t crc = (uint32_t)crc32(0L, h, 508);
    for (int i = 0; i < 4; i++)
        h[508 + i] = (unsigned char)(crc >> (8 * i));
    write_file(path, h, len);
    free(h);
    snprintf(expect, sizeof expect,
             "%s: byte 16: unfinished trace (the writer did not complete it)", path);
    assert_string_equal(open_error(path), expect);
}

static void test_missing_file(void **state)
{
    (void)state;
    char path[300];
    tmp_path(path, sizeof path, "nonexistent.trace");
    assert_contains(open_error(path), "cannot open");
}

/* Overwrite n bytes of the header at offset and refresh the header
 * checksum, so that the field itself is what the reader trips on. */
static void patch_header(const char *path, long offset, const void *bytes, size_t n)
{
    unsigned char h[TRACE_HEADER_SIZE];
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    assert_int_equal(fread(h, 1, sizeof h, f), sizeof h);
    memcpy(h + offset, bytes, n);
    uint32_t crc = (uint32_t)crc32(0L, h, 508);
    for (int i = 0; i < 4; i++)
        h[508 + i] = (unsigned char)(crc >> (8 * i));
    assert_int_equal(fseek(f, 0, SEEK_SET), 0);
    assert_int_equal(fwrite(h, 1, sizeof h, f), sizeof h);
    assert_int_equal(fclose(f), 0);
}

static void patch_header64(const char *path, long offset, uint64_t v)
{
    unsigned char b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(v >> (8 * i));
    patch_header(path, offset, b, 8);
}

/* A per-kind count that disagrees with the decoded events is reported at
 * its header field (byte 24 + 8 k); the total at the end of the data. */
static void test_kind_count_mismatch(void **state)
{
    (void)state;
    char path[300], expect[600], err[1024];
    tmp_path(path, sizeof path, "kindcount.trace");
    long size = make_valid(path, 3000);
    struct trace_reader *r = trace_reader_open(path, err, sizeof err);
    if (!r)
        fail_msg("%s", err);
    struct trace_header h = *trace_reader_header(r);
    trace_reader_close(r);
    for (int k = 0; k < EV_KINDS; k++) {
        assert_true(h.counts[k] > 0);
        /* one more of kind k; the total still agrees with the events */
        patch_header64(path, 24 + 8 * k, h.counts[k] + 1);
        snprintf(expect, sizeof expect, "%s: byte %d: %s count %llu decoded, header says %llu", path,
                 24 + 8 * k, ev_kind_name[k], (unsigned long long)h.counts[k],
                 (unsigned long long)h.counts[k] + 1);
        assert_string_equal(read_error(path), expect);
        /* one fewer: the first kind that disagrees is named */
        patch_header64(path, 24 + 8 * k, h.counts[k] - 1);
        int next = (k + 1) % EV_KINDS;
        patch_header64(path, 24 + 8 * next, h.counts[next] + 1);
        int first = k < next ? k : next;
        snprintf(expect, sizeof expect, "%s: byte %d: %s count %llu decoded, header says %llu", path,
                 24 + 8 * first, ev_kind_name[first], (unsigned long long)h.counts[first],
                 (unsigned long long)h.counts[first] + (first == k ? (uint64_t)-1 : 1));
        assert_string_equal(read_error(path), expect);
        patch_header64(path, 24 + 8 * k, h.counts[k]);
        patch_header64(path, 24 + 8 * next, h.counts[next]);
    }
    /* the total (byte 80) is checked first, at the end of the data */
    patch_header64(path, 80, h.events + 1);
    snprintf(expect, sizeof expect, "%s: byte %ld: %llu events decoded, header says %llu", path, size,
             (unsigned long long)h.events, (unsigned long long)h.events + 1);
    assert_string_equal(read_error(path), expect);
}

/* The header size (byte 12) and the number of event kinds (byte 20) are
 * each reported at their own offset, with the value found. */
static void test_header_geometry(void **state)
{
    (void)state;
    char path[300], expect[600];
    tmp_path(path, sizeof path, "geometry.trace");
    make_valid(path, 100);
    patch_header(path, 20, "\x08\x00\x00\x00", 4);
    snprintf(expect, sizeof expect, "%s: byte 20: header lists 8 event kinds, trace format v2 has 7",
             path);
    assert_string_equal(open_error(path), expect);
    patch_header(path, 20, "\x00\x00\x00\x00", 4);
    snprintf(expect, sizeof expect, "%s: byte 20: header lists 0 event kinds, trace format v2 has 7",
             path);
    assert_string_equal(open_error(path), expect);
    patch_header(path, 20, "\x07\x00\x00\x00", 4);
    patch_header(path, 12, "\x00\x04\x00\x00", 4);
    snprintf(expect, sizeof expect,
             "%s: byte 12: header size field says 1024 bytes, trace format v2 has 512", path);
    assert_string_equal(open_error(path), expect);
    patch_header(path, 12, "\x00\x02\x00\x00", 4);
    char err[1024];
    struct trace_reader *r = trace_reader_open(path, err, sizeof err); /* restored: valid */
    if (!r)
        fail_msg("%s", err);
    trace_reader_close(r);
}

/* A payload size (byte 112) so large that 512 + it wraps around in 64 bits
 * is out of range, not a size mismatch against the wrapped value. */
static void test_payload_size_out_of_range(void **state)
{
    (void)state;
    char path[300], expect[600];
    tmp_path(path, sizeof path, "payload.trace");
    long size = make_valid(path, 100);
    long after = size - (long)TRACE_HEADER_SIZE;
    patch_header64(path, 112, 0xffffffffffffffc0ull); /* 512 + it = 448 */
    snprintf(expect, sizeof expect,
             "%s: byte 112: payload size 18446744073709551552 out of range (the file has %ld bytes "
             "after the header)", path, after);
    assert_string_equal(open_error(path), expect);
    patch_header64(path, 112, UINT64_MAX);
    snprintf(expect, sizeof expect,
             "%s: byte 112: payload size 18446744073709551615 out of range (the file has %ld bytes "
             "after the header)", path, after);
    assert_string_equal(open_error(path), expect);
    /* the largest payload a file can have (INT64_MAX bytes in all) is in range */
    patch_header64(path, 112, (uint64_t)INT64_MAX - TRACE_HEADER_SIZE + 1);
    snprintf(expect, sizeof expect,
             "%s: byte 112: payload size 9223372036854775296 out of range (the file has %ld bytes "
             "after the header)", path, after);
    assert_string_equal(open_error(path), expect);
    patch_header64(path, 112, (uint64_t)INT64_MAX - TRACE_HEADER_SIZE);
    snprintf(expect, sizeof expect,
             "%s: byte %ld: file size %ld does not match header (9223372036854775807 expected): "
             "truncated or extended", path, size, size);
    assert_string_equal(open_error(path), expect);
}

/* A directory (or other non-regular file) is named as such, not "bad magic";
 * a FIFO is rejected without waiting for a writer. */
static void test_not_regular_file(void **state)
{
    (void)state;
    char path[300], expect[600];
    tmp_path(path, sizeof path, "dir.trace");
    assert_int_equal(mkdir(path, 0700), 0);
    snprintf(expect, sizeof expect, "%s: is a directory (not a regular file)", path);
    assert_string_equal(open_error(path), expect);
    tmp_path(path, sizeof path, "fifo.trace");
    assert_int_equal(mkfifo(path, 0600), 0);
    snprintf(expect, sizeof expect, "%s: is a FIFO (not a regular file)", path);
    assert_string_equal(open_error(path), expect);
    assert_string_equal(open_error("/dev/null"), "/dev/null: is a character device (not a regular file)");
}

/* ---- text format ----------------------------------------------------- */

/* Parse text in fmt; returns the events (n in *count) or fails the test. */
static struct event *parse_text(enum tt_format fmt, const char *text, size_t len, size_t *count)
{
    FILE *in = fmemopen((void *)text, len, "rb");
    assert_non_null(in);
    struct tt_reader *r = tt_reader_create(fmt, in, "t.txt");
    assert_non_null(r);
    size_t cap = 1024, n = 0;
    struct event *ev = malloc(cap * sizeof *ev);
    assert_non_null(ev);
    for (;;) {
        if (cap - n < 64) {
            cap *= 2;
            ev = realloc(ev, cap * sizeof *ev);
            assert_non_null(ev);
        }
        long got = tt_reader_read(r, ev + n, cap - n);
        if (got < 0)
            fail_msg("%s", tt_reader_error(r));
        if (got == 0)
            break;
        n += (size_t)got;
    }
    tt_reader_free(r);
    fclose(in);
    *count = n;
    return ev;
}

/* The error message for text in fmt (which must be malformed). */
static const char *parse_error(enum tt_format fmt, const char *text)
{
    static char msg[600];
    FILE *in = fmemopen((void *)text, strlen(text), "rb");
    assert_non_null(in);
    struct tt_reader *r = tt_reader_create(fmt, in, "t.txt");
    assert_non_null(r);
    struct event ev[16];
    long got;
    while ((got = tt_reader_read(r, ev, 16)) > 0)
        ;
    if (got == 0)
        fail_msg("\"%s\" parsed without error", text);
    snprintf(msg, sizeof msg, "%s", tt_reader_error(r));
    assert_int_equal(tt_reader_read(r, ev, 16), -1); /* sticky */
    tt_reader_free(r);
    fclose(in);
    return msg;
}

/* Write events in fmt; returns a malloc'd string. */
static char *format_events(enum tt_format fmt, const struct event *ev, size_t n, size_t chunk)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    assert_non_null(f);
    struct tt_writer *w = tt_writer_create(fmt, f);
    assert_non_null(w);
    for (size_t i = 0; i < n; i += chunk) {
        size_t k = n - i < chunk ? n - i : chunk;
        if (tt_writer_put(w, ev + i, k) != 0)
            fail_msg("%s", tt_writer_error(w));
    }
    if (tt_writer_finish(w) != 0)
        fail_msg("%s", tt_writer_error(w));
    tt_writer_free(w);
    fclose(f);
    return out;
}

static void test_kind_letters(void **state)
{
    (void)state;
    /* the text format's letters are the shared ones */
    assert_memory_equal(ev_kind_letter, "ILSBCRJ", EV_KINDS);
}

static void test_text_sample_roundtrip(void **state)
{
    (void)state;
    char in_path[600], trace[300];
    snprintf(in_path, sizeof in_path, "%s/tiny.txt", data_dir());
    size_t len, n;
    char *text = read_file(in_path, &len);
    struct event *ev = parse_text(TT_TEXT, text, len, &n);
    assert_int_equal(n, 25);
    /* spot checks of the field mapping */
    assert_int_equal(ev[1].kind, EV_LOAD);
    assert_int_equal(ev[1].value, 0x2a);
    assert_int_equal(ev[9].flags, EVF_NOVALUE);
    assert_int_equal(ev[10].kind, EV_STORE);
    assert_int_equal(ev[10].flags, EVF_MODIFY);
    assert_int_equal(ev[12].kind, EV_BRANCH);
    assert_int_equal(ev[12].taken, 0);
    assert_int_equal(ev[12].value, 0x40200a);
    assert_int_equal(ev[17].taken, 1);
    assert_int_equal(ev[19].value, UINT64_MAX);

    /* text -> events -> text */
    for (size_t chunk = 1; chunk <= n; chunk += 12) {
        char *again = format_events(TT_TEXT, ev, n, chunk);
        assert_string_equal(again, text);
        free(again);
    }
    /* text -> trace file -> events -> text */
    tmp_path(trace, sizeof trace, "tiny.trace");
    write_trace(trace, ev, n, n);
    struct event back[64];
    assert_int_equal(read_trace(trace, back, 64, 64), n);
    for (size_t i = 0; i < n; i++)
        assert_event_equal(&ev[i], &back[i], i);
    char *again = format_events(TT_TEXT, back, n, n);
    assert_string_equal(again, text);
    free(again);
    free(ev);
    free(text);
}

static void test_text_random_roundtrip(void **state)
{
    (void)state;
    const size_t n = 50000;
    struct event *ev = random_events(n, 11);
    char *text = format_events(TT_TEXT, ev, n, 999);
    size_t m;
    struct event *back = parse_text(TT_TEXT, text, strlen(text), &m);
    assert_int_equal(m, n);
    for (size_t i = 0; i < n; i++)
        assert_event_equal(&ev[i], &back[i], i);
    char *again = format_events(TT_TEXT, back, m, 4096);
    assert_string_equal(again, text);
    free(again);
    free(back);
    free(text);
    free(ev);
}

static void test_text_comments_and_last_line(void **state)
{
    (void)state;
    static const char text[] = "# header comment\n\nI 1 2\n# between\nC 3 4"; /* no final \n */
    size_t n;
    struct event *ev = parse_text(TT_TEXT, text, strlen(text), &n);
    assert_int_equal(n, 2);
    assert_int_equal(ev[0].kind, EV_INSN);
    assert_int_equal(ev[1].kind, EV_CALL);
    assert_int_equal(ev[1].addr, 4);
    char *again = format_events(TT_TEXT, ev, n, 2);
    assert_string_equal(again, "I 1 2\nC 3 4\n");
    free(again);
    free(ev);
}

static void test_text_errors(void **state)
{
    (void)state;
    static const struct {
        const char *text, *msg;
    } cases[] = {
        {"I 1 2\nX 1\n", "t.txt:2:1: expected event letter I, L, S, B, C, R or J"},
        {"I 0x401000 4\n", "t.txt:1:3: hex pc is written without 0x"},
        {"I 0401000 4\n", "t.txt:1:3: leading zero in hex pc"},
        {"I 40100F 4\n", "t.txt:1:8: uppercase hex digit in pc (write lowercase)"},
        {"I 11112222333344445 1\n", "t.txt:1:3: hex pc exceeds 64 bits"},
        {"I 401000\n", "t.txt:1:9: missing decimal length"},
        {"I 401000  4\n", "t.txt:1:10: expected decimal length"},
        {"I 401000\t4\n", "t.txt:1:9: expected ' ' before decimal length"},
        {"I 401000 4 \n", "t.txt:1:11: expected end of line"},
        {"I 401000 4\r\n", "t.txt:1:11: expected end of line"},
        {"I 1 4294967296\n", "t.txt:1:5: decimal length exceeds 32 bits"},
        {"I 1 04\n", "t.txt:1:5: leading zero in decimal length"},
        {"L 1 2 8\n", "t.txt:1:8: missing hex value or '-'"},
        {"L 1 zz 8 0\n", "t.txt:1:5: expected hex address"},
        {"L 1 2 x 0\n", "t.txt:1:7: expected decimal size"},
        {"L 1 2 8 -1\n", "t.txt:1:10: expected end of line"},
        {"S 1 2 4 m\n", "t.txt:1:9: expected M (modify) or end of line"},
        {"S 1 2 4 \n", "t.txt:1:9: expected M (modify) or end of line"},
        {"B 1 2 3 Y\n", "t.txt:1:9: expected T (taken) or N (not taken)"},
        {"B 1 2 3\n", "t.txt:1:8: missing T or N"},
        {"R 1\n", "t.txt:1:4: missing hex target"},
        {"J 1 \n", "t.txt:1:5: expected hex target"},
        {" I 1 2\n", "t.txt:1:1: expected event letter I, L, S, B, C, R or J"},
        {"I1 2\n", "t.txt:1:2: expected ' ' before hex pc"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        assert_string_equal(parse_error(TT_TEXT, cases[i].text), cases[i].msg);
}

static void test_text_long_line(void **state)
{
    (void)state;
    size_t len = TT_LINE_MAX + 100;
    char *text = malloc(len + 8);
    assert_non_null(text);
    memcpy(text, "I 1 2\nI ", 8); /* an event line (comments may be longer) */
    memset(text + 8, 'x', len - 8);
    text[len] = '\n';
    text[len + 1] = '\0';
    assert_string_equal(parse_error(TT_TEXT, text), "t.txt:2:4097: line longer than 4096 bytes");
    text[len] = '\0'; /* also without a final newline */
    assert_string_equal(parse_error(TT_TEXT, text), "t.txt:2:4097: line longer than 4096 bytes");
    /* in a Lackey log, any line that is not a Valgrind message */
    memcpy(text, "I  0401ab70,3\n ", 15);
    assert_string_equal(parse_error(TT_LACKEY, text), "t.txt:2:4097: line longer than 4096 bytes");
    free(text);
}

/* A string of n copies of c (malloc'd, NUL-terminated). */
static char *repeat(char c, size_t n)
{
    char *s = malloc(n + 1);
    assert_non_null(s);
    memset(s, c, n);
    s[n] = '\0';
    return s;
}

/* Concatenation of the NULL-terminated list of strings (malloc'd). */
static char *concat(const char *first, ...)
{
    va_list ap;
    size_t len = 0;
    va_start(ap, first);
    for (const char *p = first; p; p = va_arg(ap, const char *))
        len += strlen(p);
    va_end(ap);
    char *out = malloc(len + 1);
    assert_non_null(out);
    out[0] = '\0';
    va_start(ap, first);
    for (const char *p = first; p; p = va_arg(ap, const char *))
        strcat(out, p);
    va_end(ap);
    return out;
}

/* Comment lines have no length limit: just over TT_LINE_MAX, longer than
 * the reader's 1 MiB chunk, and as the last line without a newline. */
static void test_text_long_comment_lines(void **state)
{
    (void)state;
    char *a = repeat('a', TT_LINE_MAX + 1), *b = repeat('b', 3u << 20), *c = repeat('c', 2u << 20);
    char *text = concat("#", a, "\nI 1 2\n#", b, "\n#\n\nC 3 4\n#", c, NULL);
    size_t n;
    FILE *in = fmemopen(text, strlen(text), "rb");
    assert_non_null(in);
    struct tt_reader *r = tt_reader_create(TT_TEXT, in, "t.txt");
    struct event ev[8];
    assert_int_equal(tt_reader_read(r, ev, 8), 2);
    assert_int_equal(tt_reader_read(r, ev + 2, 6), 0);
    assert_int_equal(tt_reader_lines(r), 7);
    tt_reader_free(r);
    fclose(in);
    assert_int_equal(ev[0].kind, EV_INSN);
    assert_int_equal(ev[1].kind, EV_CALL);
    assert_int_equal(ev[1].addr, 4);

    /* line numbers after them stay right */
    char *bad = concat(text, "\nI 01 2\n", NULL);
    assert_string_equal(parse_error(TT_TEXT, bad), "t.txt:8:3: leading zero in hex pc");
    /* a comment exactly at the limit, then one just over it at the end */
    free(bad);
    a[TT_LINE_MAX - 1] = '\0';
    bad = concat("#", a, "\nI 5 6\n#", b, NULL);
    struct event *got = parse_text(TT_TEXT, bad, strlen(bad), &n);
    assert_int_equal(n, 1);
    assert_int_equal(got[0].pc, 5);
    free(got);
    free(bad);
    free(text);
    free(a);
    free(b);
    free(c);
}

/* The text round trip is byte for byte only when every line ends with LF:
 * a last line without one is accepted, and written back with one. */
static void test_text_roundtrip_needs_final_lf(void **state)
{
    (void)state;
    static const char with_lf[] = "I 401000 4\nL 401000 7ffc10 8 2a\nB 401000 401000 401004 T\n";
    size_t n;
    struct event *ev = parse_text(TT_TEXT, with_lf, strlen(with_lf), &n);
    assert_int_equal(n, 3);
    char *again = format_events(TT_TEXT, ev, n, n);
    assert_string_equal(again, with_lf); /* identical */
    free(again);
    free(ev);
    ev = parse_text(TT_TEXT, with_lf, strlen(with_lf) - 1, &n); /* no final LF */
    assert_int_equal(n, 3);
    assert_int_equal(ev[2].taken, 1);
    again = format_events(TT_TEXT, ev, n, n);
    assert_string_equal(again, with_lf); /* the LF is added */
    free(again);
    free(ev);
}

static void test_text_line_across_chunks(void **state)
{
    (void)state;
    /* > 1 MiB of input so that lines straddle the reader's chunk boundary */
    const size_t n = 120000;
    struct event *ev = random_events(n, 17);
    char *text = format_events(TT_TEXT, ev, n, n);
    assert_true(strlen(text) > 2u * (1u << 20));
    char path[300];
    tmp_path(path, sizeof path, "chunks.txt");
    write_file(path, text, strlen(text));
    FILE *in = fopen(path, "rb");
    assert_non_null(in);
    struct tt_reader *r = tt_reader_create(TT_TEXT, in, path);
    struct event buf[3];
    size_t i = 0;
    long got;
    while ((got = tt_reader_read(r, buf, 3)) > 0) {
        for (long k = 0; k < got; k++, i++)
            assert_event_equal(&ev[i], &buf[k], i);
    }
    assert_int_equal(got, 0);
    assert_int_equal(i, n);
    assert_int_equal(tt_reader_lines(r), n);
    tt_reader_free(r);
    fclose(in);
    free(text);
    free(ev);
}

static void test_reader_needs_room(void **state)
{
    (void)state;
    static const char text[] = "I 1 2\n";
    FILE *in = fmemopen((void *)text, strlen(text), "rb");
    struct tt_reader *r = tt_reader_create(TT_TEXT, in, "t.txt");
    struct event e[1];
    assert_int_equal(tt_reader_read(r, e, 1), -1);
    assert_contains(tt_reader_error(r), "needs room for 2 events");
    tt_reader_free(r);
    fclose(in);
}

/* ---- Lackey ---------------------------------------------------------- */

static void test_lackey_semantics(void **state)
{
    (void)state;
    static const char text[] = "==77== Lackey, an example Valgrind tool\n"
                               "==77== Command: /bin/true --x\n"
                               "==77== \n"
                               " L 04000000,8\n" /* before any I: pc 0 */
                               "I  0400d7d4,8\n"
                               " L 04015380,8\n"
                               " S 1ffefffd08,16\n"
                               " M 04015390,4\n"
                               "I  ffffffffff600000,7\n"
                               "--77-- a verbose message\n"
                               "==77== Exit code: 0\n";
    size_t n;
    struct event *ev = parse_text(TT_LACKEY, text, strlen(text), &n);
    assert_int_equal(n, 7);
    assert_int_equal(ev[0].kind, EV_LOAD);
    assert_int_equal(ev[0].pc, 0);
    assert_int_equal(ev[1].kind, EV_INSN);
    assert_int_equal(ev[1].pc, 0x400d7d4);
    assert_int_equal(ev[1].size, 8);
    assert_int_equal(ev[2].kind, EV_LOAD);
    assert_int_equal(ev[2].pc, 0x400d7d4);
    assert_int_equal(ev[2].addr, 0x4015380);
    assert_int_equal(ev[2].flags, EVF_NOVALUE);
    assert_int_equal(ev[3].kind, EV_STORE);
    assert_int_equal(ev[3].addr, 0x1ffefffd08ull);
    assert_int_equal(ev[3].size, 16);
    assert_int_equal(ev[3].flags, 0);
    assert_int_equal(ev[4].kind, EV_LOAD);
    assert_int_equal(ev[4].flags, EVF_NOVALUE);
    assert_int_equal(ev[5].kind, EV_STORE);
    assert_int_equal(ev[5].flags, EVF_MODIFY);
    assert_int_equal(ev[5].addr, 0x4015390);
    assert_int_equal(ev[5].pc, 0x400d7d4);
    assert_int_equal(ev[6].pc, 0xffffffffff600000ull);

    char *back = format_events(TT_LACKEY, ev, n, 1);
    assert_string_equal(back, " L 04000000,8\n"
                              "I  0400d7d4,8\n"
                              " L 04015380,8\n"
                              " S 1ffefffd08,16\n"
                              " M 04015390,4\n"
                              "I  ffffffffff600000,7\n");
    free(back);

    /* the Command line is picked up */
    FILE *in = fmemopen((void *)text, strlen(text), "rb");
    struct tt_reader *r = tt_reader_create(TT_LACKEY, in, "t.out");
    assert_null(tt_reader_command(r));
    struct event buf[16];
    assert_int_equal(tt_reader_read(r, buf, 16), 7);
    assert_string_equal(tt_reader_command(r), "/bin/true --x");
    tt_reader_free(r);
    fclose(in);
    free(ev);
}

static void test_lackey_writer_drops_what_lackey_lacks(void **state)
{
    (void)state;
    struct event ev[6];
    memset(ev, 0, sizeof ev);
    ev[0].kind = EV_INSN, ev[0].pc = 0x10, ev[0].size = 2;
    ev[1].kind = EV_BRANCH, ev[1].pc = 0x10, ev[1].addr = 0x20, ev[1].taken = 1;
    ev[2].kind = EV_LOAD, ev[2].pc = 0x10, ev[2].addr = 0x100, ev[2].size = 4, ev[2].value = 9;
    /* modify store at another address: stays L + S */
    ev[3].kind = EV_STORE, ev[3].pc = 0x10, ev[3].addr = 0x104, ev[3].size = 4, ev[3].flags = EVF_MODIFY;
    ev[4].kind = EV_CALL, ev[4].pc = 0x10, ev[4].addr = 0x40;
    ev[5].kind = EV_LOAD, ev[5].pc = 0x40, ev[5].addr = 0x200, ev[5].size = 1; /* pending at end */
    char *out = format_events(TT_LACKEY, ev, 6, 6);
    assert_string_equal(out, "I  00000010,2\n L 00000100,4\n S 00000104,4\n L 00000200,1\n");
    free(out);
}

static void test_lackey_errors(void **state)
{
    (void)state;
    static const struct {
        const char *text, *msg;
    } cases[] = {
        {"I  0401ab70,3\nI 0401ab70,3\n", "t.txt:2:3: expected second ' ' after I"},
        {"I  401ab70,3\n", "t.txt:1:4: address has 7 hex digits, Lackey prints at least 8"},
        {"I  00401ab70,3\n",
         "t.txt:1:4: address has a leading zero beyond Lackey's 8-digit padding"},
        {" X 0401ab70,3\n", "t.txt:1:2: expected L, S or M"},
        {" L 0401AB70,3\n", "t.txt:1:8: uppercase hex digit in address"},
        {" L 0401ab70;3\n", "t.txt:1:12: expected ','"},
        {" L 0401ab70,\n", "t.txt:1:13: expected decimal size"},
        {" L 0401ab70,3 \n", "t.txt:1:14: expected end of line"},
        {" Lx0401ab70,3\n", "t.txt:1:3: expected ' ' after L"},
        {"==x== hi\n",
         "t.txt:1:1: expected a Lackey line (\"I  \", \" L \", \" S \", \" M \" or \"==pid==\")"},
        {"hello from the program\n",
         "t.txt:1:1: expected a Lackey line (\"I  \", \" L \", \" S \", \" M \" or \"==pid==\")"},
        {"I  0401ab70,3\nI  0401ab72,", "t.txt:2:13: expected decimal size"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        assert_string_equal(parse_error(TT_LACKEY, cases[i].text), cases[i].msg);
}

/* Valgrind's own lines in a Lackey log have no length limit; a long
 * "==pid== Command:" line gives its first 255 bytes as the command. */
static void test_lackey_long_valgrind_lines(void **state)
{
    (void)state;
    char *a = repeat('a', 2 * TT_LINE_MAX), *b = repeat('b', 3u << 20), *c = repeat('c', 5000);
    char *text = concat("==12== Command: /bin/prog ", a, "\nI  0401ab70,3\n--12-- ", b,
                        "\n==12== x", c, "\n L 04015380,8\n==12== ", b, NULL);
    FILE *in = fmemopen(text, strlen(text), "rb");
    assert_non_null(in);
    struct tt_reader *r = tt_reader_create(TT_LACKEY, in, "t.out");
    struct event ev[8];
    assert_int_equal(tt_reader_read(r, ev, 8), 2);
    assert_int_equal(tt_reader_read(r, ev + 2, 6), 0);
    assert_int_equal(tt_reader_lines(r), 6);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "/bin/prog %s", a);
    assert_string_equal(tt_reader_command(r), cmd);
    assert_int_equal(strlen(tt_reader_command(r)), 255);
    tt_reader_free(r);
    fclose(in);
    assert_int_equal(ev[0].kind, EV_INSN);
    assert_int_equal(ev[1].kind, EV_LOAD);
    assert_int_equal(ev[1].pc, 0x401ab70);
    assert_int_equal(ev[1].addr, 0x4015380);
    char *bad = concat(text, "\n L 4015380,8\n", NULL);
    assert_string_equal(parse_error(TT_LACKEY, bad),
                        "t.txt:7:4: address has 7 hex digits, Lackey prints at least 8");
    free(bad);
    free(text);
    free(a);
    free(b);
    free(c);
}

/* Real Lackey output of /bin/true: import, write a trace, read it back,
 * and print it as Lackey again: identical to the input minus ==pid== lines. */
static void test_lackey_sample_roundtrip(void **state)
{
    (void)state;
    char in_path[600], trace[300];
    snprintf(in_path, sizeof in_path, "%s/lackey-true.out", data_dir());
    size_t len, n;
    char *text = read_file(in_path, &len);
    struct event *ev = parse_text(TT_LACKEY, text, len, &n);

    /* expected: the data lines, and the counts per line kind */
    char *expect = malloc(len + 1);
    assert_non_null(expect);
    size_t elen = 0;
    uint64_t ni = 0, nl = 0, ns = 0, nm = 0;
    for (char *line = text; *line;) {
        char *nl_at = strchr(line, '\n');
        size_t l = nl_at ? (size_t)(nl_at - line) + 1 : strlen(line);
        if (line[0] != '=') {
            memcpy(expect + elen, line, l);
            elen += l;
            ni += line[0] == 'I';
            nl += line[1] == 'L';
            ns += line[1] == 'S';
            nm += line[1] == 'M';
        }
        line += l;
    }
    expect[elen] = '\0';
    assert_true(ni > 1000 && nl > 100 && ns > 100 && nm > 0);
    assert_int_equal(n, ni + nl + ns + 2 * nm);

    tmp_path(trace, sizeof trace, "lackey.trace");
    write_trace(trace, ev, n, 1000);
    char err[1024];
    struct trace_reader *r = trace_reader_open(trace, err, sizeof err);
    if (!r)
        fail_msg("%s", err);
    const struct trace_header *h = trace_reader_header(r);
    assert_int_equal(h->counts[EV_INSN], ni);
    assert_int_equal(h->counts[EV_LOAD], nl + nm);
    assert_int_equal(h->counts[EV_STORE], ns + nm);
    assert_int_equal(h->counts[EV_BRANCH] + h->counts[EV_CALL] + h->counts[EV_RET] +
                         h->counts[EV_IJUMP], 0);
    trace_reader_close(r);

    struct event *back = calloc(n, sizeof *back);
    assert_non_null(back);
    assert_int_equal(read_trace(trace, back, n, 777), n);
    for (size_t i = 0; i < n; i++)
        assert_event_equal(&ev[i], &back[i], i);
    char *again = format_events(TT_LACKEY, back, n, 500);
    assert_string_equal(again, expect);
    free(again);
    free(back);
    free(expect);
    free(ev);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roundtrip_random_small),
        cmocka_unit_test(test_roundtrip_many_blocks),
        cmocka_unit_test(test_roundtrip_empty),
        cmocka_unit_test(test_header_counts_and_meta),
        cmocka_unit_test(test_writer_abort_leaves_nothing),
        cmocka_unit_test(test_writer_rejects_bad_kind),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_flipped_byte_in_block),
        cmocka_unit_test(test_wrong_magic),
        cmocka_unit_test(test_version_mismatch),
        cmocka_unit_test(test_header_checksum),
        cmocka_unit_test(test_unfinished),
        cmocka_unit_test(test_missing_file),
        cmocka_unit_test(test_kind_count_mismatch),
        cmocka_unit_test(test_header_geometry),
        cmocka_unit_test(test_payload_size_out_of_range),
        cmocka_unit_test(test_not_regular_file),
        cmocka_unit_test(test_kind_letters),
        cmocka_unit_test(test_text_sample_roundtrip),
        cmocka_unit_test(test_text_random_roundtrip),
        cmocka_unit_test(test_text_comments_and_last_line),
        cmocka_unit_test(test_text_errors),
        cmocka_unit_test(test_text_long_line),
        cmocka_unit_test(test_text_long_comment_lines),
        cmocka_unit_test(test_text_roundtrip_needs_final_lf),
        cmocka_unit_test(test_text_line_across_chunks),
        cmocka_unit_test(test_reader_needs_room),
        cmocka_unit_test(test_lackey_semantics),
        cmocka_unit_test(test_lackey_writer_drops_what_lackey_lacks),
        cmocka_unit_test(test_lackey_errors),
        cmocka_unit_test(test_lackey_long_valgrind_lines),
        cmocka_unit_test(test_lackey_sample_roundtrip),
    };
    return cmocka_run_group_tests(tests, setup_dir, remove_dir);
}
