/* test_trace.c - the trace writer and reader: round trips (random events
 * of every kind, multi-block traces, empty traces), header counts, and the
 * error messages for corrupt or malformed files.  The text formats are
 * test_trace_text.c; the shared helpers trace_testutil.h.
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
#include "trace_testutil.h"

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

/* trace_reader_read_kinds: the events of the kinds kept, in order, and
 * nothing else, for any batch size; every event is counted as read. */
static void test_roundtrip_kinds(void **state)
{
    (void)state;
    char path[300], err[1024];
    tmp_path(path, sizeof path, "kinds.trace");
    const size_t n = 5000;
    struct event *ev = random_events(n, 7);
    write_trace(path, ev, n, 333);
    struct event *back = calloc(n, sizeof *back), *want = calloc(n, sizeof *want);
    assert_non_null(back);
    assert_non_null(want);
    const unsigned code = EV_BIT(EV_INSN) | EV_BIT(EV_BRANCH) | EV_BIT(EV_CALL) | EV_BIT(EV_RET) | EV_BIT(EV_IJUMP);
    const unsigned masks[] = { EV_BIT(EV_INSN), EV_BIT(EV_LOAD), EV_BIT(EV_STORE), EV_BIT(EV_BRANCH),
                               EV_BIT(EV_CALL), EV_BIT(EV_RET), EV_BIT(EV_IJUMP), code,
                               EV_BIT(EV_LOAD) | EV_BIT(EV_STORE), 0, EV_ALL };
    static const size_t batches[] = { 1, 7, 4096 };
    for (size_t m = 0; m < sizeof masks / sizeof masks[0]; m++) {
        size_t nw = 0;
        for (size_t i = 0; i < n; i++)
            if (masks[m] & EV_BIT(ev[i].kind))
                want[nw++] = ev[i];
        for (size_t b = 0; b < sizeof batches / sizeof batches[0]; b++) {
            struct trace_reader *r = trace_reader_open(path, err, sizeof err);
            if (!r)
                fail_msg("%s", err);
            memset(back, 0xa5, n * sizeof *back);
            size_t got = 0;
            long k;
            while ((k = trace_reader_read_kinds(r, back + got, batches[b], masks[m])) > 0) {
                assert_true((size_t)k <= batches[b]);
                got += (size_t)k;
                assert_true(got <= nw);
            }
            if (k < 0)
                fail_msg("%s", trace_reader_error(r));
            assert_int_equal(got, nw);
            for (size_t i = 0; i < nw; i++)
                assert_event_equal(&want[i], &back[i], i);
            assert_int_equal(trace_reader_events_read(r), n);
            assert_int_equal(trace_reader_read_kinds(r, back, 1, masks[m]), 0); /* stays at the end */
            trace_reader_close(r);
        }
    }
    free(ev);
    free(back);
    free(want);
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
    /* the same when only some kinds are kept, or none: every block is
     * still read and checked */
    assert_string_equal(read_error_kinds(path, EV_BIT(EV_LOAD)), expect);
    assert_string_equal(read_error_kinds(path, 0), expect);
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
    /* every kind is counted when some are not kept */
    assert_string_equal(read_error_kinds(path, EV_BIT(EV_BRANCH)), expect);
    patch_header64(path, 80, h.events);
    patch_header64(path, 24 + 8 * EV_STORE, h.counts[EV_STORE] + 1);
    snprintf(expect, sizeof expect, "%s: byte %d: %s count %llu decoded, header says %llu", path,
             24 + 8 * EV_STORE, ev_kind_name[EV_STORE], (unsigned long long)h.counts[EV_STORE],
             (unsigned long long)h.counts[EV_STORE] + 1);
    assert_string_equal(read_error_kinds(path, EV_BIT(EV_LOAD)), expect);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roundtrip_random_small),
        cmocka_unit_test(test_roundtrip_many_blocks),
        cmocka_unit_test(test_roundtrip_kinds),
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
    };
    return cmocka_run_group_tests(tests, setup_dir, remove_dir);
}
