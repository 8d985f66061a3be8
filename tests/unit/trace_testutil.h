/* trace_testutil.h - what the trace unit tests share (test_trace.c: the
 * binary format, test_trace_text.c: the text and Lackey formats): a
 * temporary folder per program, random events of every kind, writing and
 * reading whole traces, files patched in place, and the error a reader
 * reports.
 *
 * Sample inputs are read from $HWPROF_TEST_DATA (default tests/data, i.e.
 * the tests run from the repository root).  Include after <cmocka.h>.
 */
#ifndef TRACE_TESTUTIL_H
#define TRACE_TESTUTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace/event.h"
#include "trace/trace.h"

/* ---- helpers --------------------------------------------------------- */

static char tmpdir[256];

static inline int setup_dir(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/test_trace.XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static inline int remove_dir(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static inline void tmp_path(char *out, size_t len, const char *name)
{
    snprintf(out, len, "%s/%s", tmpdir, name);
}

static inline const char *data_dir(void)
{
    const char *d = getenv("HWPROF_TEST_DATA");
    return d && *d ? d : "tests/data";
}

static uint64_t rng_state;

static inline uint64_t rnd(void) /* splitmix64: deterministic across platforms */
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* A random event of kind k with every field the formats carry set, and
 * every other field zero (as the readers produce it). */
static inline struct event random_event(unsigned k, uint64_t *pc, uint32_t *len)
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
        if (k == EV_CALL && r % 3 == 0)
            e.flags = EVF_INDIRECT;
        break;
    }
    return e;
}

static inline struct event *random_events(size_t n, uint64_t seed)
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

static inline void assert_event_equal(const struct event *a, const struct event *b, size_t i)
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

static inline struct trace_meta test_meta(void)
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

static inline void write_trace(const char *path, const struct event *ev, size_t n, size_t chunk)
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
static inline size_t read_trace(const char *path, struct event *out, size_t cap, size_t batch)
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

static inline void assert_contains(const char *msg, const char *part)
{
    if (!strstr(msg, part))
        fail_msg("message \"%s\" lacks \"%s\"", msg, part);
}

static inline void write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

static inline char *read_file(const char *path, size_t *len)
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

static inline void patch_file(const char *path, long offset, const void *bytes, size_t n)
{
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    assert_int_equal(fseek(f, offset, SEEK_SET), 0);
    assert_int_equal(fwrite(bytes, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

static inline void flip_byte(const char *path, long offset)
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

static inline int file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* Open a reader expecting failure; returns the message. */
static inline const char *open_error(const char *path)
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
/* The error of reading the whole trace, keeping the kinds of keep
 * (trace_reader_read_kinds) or, with keep EV_ALL, every event
 * (trace_reader_read). */
static inline const char *read_error_kinds(const char *path, unsigned keep)
{
    static char msg[1024];
    char err[1024];
    struct trace_reader *r = trace_reader_open(path, err, sizeof err);
    if (!r)
        fail_msg("%s", err);
    struct event buf[256];
    long got;
    while ((got = keep == EV_ALL ? trace_reader_read(r, buf, 256) : trace_reader_read_kinds(r, buf, 256, keep)) > 0)
        ;
    if (got == 0)
        fail_msg("%s read to the end without error", path);
    snprintf(msg, sizeof msg, "%s", trace_reader_error(r));
    trace_reader_close(r);
    return msg;
}

static inline const char *read_error(const char *path) { return read_error_kinds(path, EV_ALL); }

#endif
