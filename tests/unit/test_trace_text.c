/* test_trace_text.c - the text formats (trace_text.h): canonical text and
 * Lackey output, round trips through the binary format, long lines and
 * comments, and the error messages for malformed input.  Helpers:
 * trace_testutil.h.
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
#include "trace_testutil.h"

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

/* An indirect call carries " *" in text and tag bit 4 in a trace file; a
 * direct call neither. */
static void test_indirect_call(void **state)
{
    (void)state;
    const char text[] = "C 401007 402000 *\nC 401007 402000\nJ 401010 402000\n";
    size_t n;
    struct event *ev = parse_text(TT_TEXT, text, sizeof text - 1, &n);
    assert_int_equal(n, 3);
    assert_int_equal(ev[0].kind, EV_CALL);
    assert_int_equal(ev[0].flags, EVF_INDIRECT);
    assert_int_equal(ev[1].flags, 0);
    assert_int_equal(ev[2].flags, 0);
    char *again = format_events(TT_TEXT, ev, n, n);
    assert_string_equal(again, text);
    free(again);
    char trace[300];
    tmp_path(trace, sizeof trace, "icall.trace");
    write_trace(trace, ev, n, n);
    struct event back[4];
    assert_int_equal(read_trace(trace, back, 4, 4), n);
    for (size_t i = 0; i < n; i++)
        assert_event_equal(&ev[i], &back[i], i);
    free(ev);
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
        {"C 1 2 x\n", "t.txt:1:7: expected * (indirect call) or end of line"},
        {"C 1 2 \n", "t.txt:1:7: expected * (indirect call) or end of line"},
        {"C 1 2 **\n", "t.txt:1:8: expected end of line"},
        {"R 1 2 *\n", "t.txt:1:6: expected end of line"},
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
        cmocka_unit_test(test_kind_letters),
        cmocka_unit_test(test_text_sample_roundtrip),
        cmocka_unit_test(test_text_random_roundtrip),
        cmocka_unit_test(test_indirect_call),
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
