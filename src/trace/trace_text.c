/* trace_text.c - readers and writers for the two text forms of the event
 * stream (canonical hand-written text, stock Lackey output); formats are
 * described in trace_text.h and docs/trace-format.md.
 *
 * Speed matters for Lackey files of 100M lines: input is read in 1 MiB
 * chunks and parsed in place, numbers are parsed and printed by hand with
 * lookup tables, and output is buffered and written in 64 KiB chunks.
 */
#include "trace/trace_text.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TT_CHUNK (1u << 20)   /* input buffer; always > TT_LINE_MAX */
#define TT_WBUF (1u << 16)    /* output buffer */
#define TT_WLINE_MAX 128u     /* longest line a writer produces */

int tt_format_parse(const char *name, enum tt_format *out)
{
    if (strcmp(name, "text") == 0) {
        *out = TT_TEXT;
        return 0;
    }
    if (strcmp(name, "lackey") == 0) {
        *out = TT_LACKEY;
        return 0;
    }
    return -1;
}

const char *tt_format_name(enum tt_format fmt)
{
    return fmt == TT_LACKEY ? "lackey" : "text";
}

/* ------------------------------------------------------------------ */
/* Character classes                                                  */

/* hex_code[c]: 1 + the value of lowercase hex digit c, HEX_UPPER for
 * 'A'-'F', HEX_NONE (0) for anything else.  Constant, so readers in several
 * threads share it safely. */
enum { HEX_NONE = 0, HEX_UPPER = 17 };
#define HEX_UP(c) [c] = HEX_UPPER
static const unsigned char hex_code[256] = {
    ['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5,
    ['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
    ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
    HEX_UP('A'), HEX_UP('B'), HEX_UP('C'), HEX_UP('D'), HEX_UP('E'), HEX_UP('F'),
};
#undef HEX_UP

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* ------------------------------------------------------------------ */
/* Reader                                                             */

struct tt_reader {
    enum tt_format fmt;
    FILE *in;
    char *buf;               /* TT_CHUNK bytes; unread input is buf[pos, end) */
    size_t pos, end;
    int eof;                 /* in has no more bytes */
    int skip_rest;           /* dropping the rest of an over-long ignored line */
    int failed;
    unsigned long long line; /* number of the line being / last parsed */
    uint64_t last_pc;        /* Lackey: address of the last I line */
    int has_command;         /* Lackey: a "==pid== Command: ..." line was seen */
    char command[256];
    char name[256];
    char err[512];
};

struct tt_reader *tt_reader_create(enum tt_format fmt, FILE *in, const char *name)
{
    struct tt_reader *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->buf = malloc(TT_CHUNK);
    if (!r->buf) {
        free(r);
        return NULL;
    }
    r->fmt = fmt;
    r->in = in;
    snprintf(r->name, sizeof r->name, "%s", name);
    return r;
}

void tt_reader_free(struct tt_reader *r)
{
    if (!r)
        return;
    free(r->buf);
    free(r);
}

const char *tt_reader_error(const struct tt_reader *r)
{
    return r->err;
}

unsigned long long tt_reader_lines(const struct tt_reader *r)
{
    return r->line;
}

const char *tt_reader_command(const struct tt_reader *r)
{
    return r->has_command ? r->command : NULL;
}

/* Record "name:line:column: message"; column is 1-based, in bytes. */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static int fail_at(struct tt_reader *r, const char *line, const char *at, const char *fmt, ...)
{
    int n = snprintf(r->err, sizeof r->err, "%s:%llu:%zu: ", r->name, r->line,
                     (size_t)(at - line) + 1);
    if (n > 0 && (size_t)n < sizeof r->err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->err + n, sizeof r->err - (size_t)n, fmt, ap);
        va_end(ap);
    }
    r->failed = 1;
    return -1;
}

/* Refill the buffer: keep the unread bytes buf[pos, end), move them to the
 * front and read behind them.  Returns 0, or -1 on a read error (reported
 * for line `line`). */
static int refill(struct tt_reader *r, unsigned long long line)
{
    size_t avail = r->end - r->pos;
    memmove(r->buf, r->buf + r->pos, avail);
    r->pos = 0;
    r->end = avail;
    size_t got = fread(r->buf + r->end, 1, TT_CHUNK - r->end, r->in);
    r->end += got;
    if (got < TT_CHUNK - avail) {
        if (ferror(r->in)) {
            snprintf(r->err, sizeof r->err, "%s:%llu: read error: %s", r->name, line,
                     strerror(errno));
            r->failed = 1;
            return -1;
        }
        r->eof = 1;
    }
    return 0;
}

static size_t lackey_valgrind_prefix(const char *line, size_t len);

/* Lines that the parsers ignore whatever follows their start, and that may
 * therefore be longer than TT_LINE_MAX: text comments ("#...") and
 * Valgrind's own messages in a Lackey log ("==pid==...", "--pid--...").
 * Decided on the line's first TT_LINE_MAX bytes at most. */
static int free_length_line(const struct tt_reader *r, const char *line, size_t len)
{
    if (len > TT_LINE_MAX)
        len = TT_LINE_MAX;
    if (r->fmt == TT_TEXT)
        return len > 0 && line[0] == '#';
    return lackey_valgrind_prefix(line, len) != 0;
}

/* Next line (without its '\n') in line and len.  Returns 1, 0 at end of
 * input, -1 on error.  A last line without '\n' is accepted.  Lines longer
 * than TT_LINE_MAX are an error, except free_length_line() ones: those are
 * returned cut to their first TT_LINE_MAX bytes, and the rest of the line
 * is skipped (read past without being kept when its '\n' is not in the
 * buffer yet). */
static int next_line(struct tt_reader *r, const char **line, size_t *len)
{
    for (;;) {
        char *start = r->buf + r->pos;
        size_t avail = r->end - r->pos;
        if (r->skip_rest) {
            /* Drop the rest of an over-long ignored line, up to its '\n'. */
            char *nl = memchr(start, '\n', avail);
            if (nl) {
                r->pos += (size_t)(nl - start) + 1;
                r->skip_rest = 0;
                continue;
            }
            r->pos = r->end;
            if (r->eof)
                return 0;
            if (refill(r, r->line) < 0)
                return -1;
            continue;
        }
        char *nl = memchr(start, '\n', avail);
        if (nl) {
            r->line++;
            *line = start;
            *len = (size_t)(nl - start);
            r->pos += *len + 1;
            if (*len > TT_LINE_MAX) {
                if (!free_length_line(r, start, *len))
                    return fail_at(r, start, start + TT_LINE_MAX,
                                   "line longer than %u bytes", TT_LINE_MAX);
                *len = TT_LINE_MAX; /* ignored anyway: as when cut below */
            }
            return 1;
        }
        if (avail > TT_LINE_MAX) {
            r->line++;
            if (!free_length_line(r, start, avail))
                return fail_at(r, start, start + TT_LINE_MAX, "line longer than %u bytes",
                               TT_LINE_MAX);
            *line = start;
            *len = TT_LINE_MAX;
            r->pos += TT_LINE_MAX;
            r->skip_rest = 1;
            return 1;
        }
        if (r->eof) {
            if (avail == 0)
                return 0;
            r->line++;
            *line = start;
            *len = avail;
            r->pos = r->end;
            return 1;
        }
        /* Keep the partial line, refill behind it. */
        if (refill(r, r->line + 1) < 0)
            return -1;
    }
}

/* Canonical-text hex field at *pp: lowercase, no leading zeros, <= 16 digits. */
static int text_hex(struct tt_reader *r, const char *line, const char **pp, const char *e,
                    uint64_t *out, const char *what)
{
    const char *p = *pp;
    const char *s = p;
    uint64_t v = 0;
    while (p < e) {
        unsigned d = hex_code[(unsigned char)*p];
        if (d == HEX_NONE)
            break;
        if (d == HEX_UPPER)
            return fail_at(r, line, p, "uppercase hex digit in %s (write lowercase)", what);
        v = (v << 4) | (d - 1);
        p++;
    }
    size_t n = (size_t)(p - s);
    if (n == 0)
        return fail_at(r, line, s, "expected hex %s", what);
    if (n == 1 && *s == '0' && p < e && (*p == 'x' || *p == 'X'))
        return fail_at(r, line, s, "hex %s is written without 0x", what);
    if (n > 1 && *s == '0')
        return fail_at(r, line, s, "leading zero in hex %s", what);
    if (n > 16)
        return fail_at(r, line, s, "hex %s exceeds 64 bits", what);
    *out = v;
    *pp = p;
    return 0;
}

/* Decimal field: no leading zeros, fits 32 bits. */
static int text_dec(struct tt_reader *r, const char *line, const char **pp, const char *e,
                    uint32_t *out, const char *what)
{
    const char *p = *pp;
    const char *s = p;
    uint64_t v = 0;
    while (p < e && is_digit(*p)) {
        v = v * 10 + (uint64_t)(*p - '0');
        if (v > UINT32_MAX)
            return fail_at(r, line, s, "decimal %s exceeds 32 bits", what);
        p++;
    }
    if (p == s)
        return fail_at(r, line, s, "expected decimal %s", what);
    if (p - s > 1 && *s == '0')
        return fail_at(r, line, s, "leading zero in decimal %s", what);
    *out = (uint32_t)v;
    *pp = p;
    return 0;
}

/* Exactly one space before the next field. */
static int text_space(struct tt_reader *r, const char *line, const char **pp, const char *e,
                      const char *what)
{
    const char *p = *pp;
    if (p >= e)
        return fail_at(r, line, p, "missing %s", what);
    if (*p != ' ')
        return fail_at(r, line, p, "expected ' ' before %s", what);
    *pp = p + 1;
    return 0;
}

static int text_end(struct tt_reader *r, const char *line, const char *p, const char *e)
{
    if (p != e)
        return fail_at(r, line, p, "expected end of line");
    return 0;
}

/* Parse one text line into ev (*n = 0 for comments and blank lines). */
static int parse_text_line(struct tt_reader *r, const char *line, size_t len,
                           struct event *ev, int *n)
{
    const char *p = line;
    const char *e = line + len;
    *n = 0;
    if (len == 0 || line[0] == '#')
        return 0;
    memset(ev, 0, sizeof *ev);
    char letter = *p++;
    switch (letter) {
    case 'I': ev->kind = EV_INSN; break;
    case 'L': ev->kind = EV_LOAD; break;
    case 'S': ev->kind = EV_STORE; break;
    case 'B': ev->kind = EV_BRANCH; break;
    case 'C': ev->kind = EV_CALL; break;
    case 'R': ev->kind = EV_RET; break;
    case 'J': ev->kind = EV_IJUMP; break;
    default:
        return fail_at(r, line, line, "expected event letter I, L, S, B, C, R or J");
    }
    if (text_space(r, line, &p, e, "hex pc") || text_hex(r, line, &p, e, &ev->pc, "pc"))
        return -1;
    switch (ev->kind) {
    case EV_INSN:
        if (text_space(r, line, &p, e, "decimal length") ||
            text_dec(r, line, &p, e, &ev->size, "length"))
            return -1;
        break;
    case EV_LOAD:
    case EV_STORE:
        if (text_space(r, line, &p, e, "hex address") ||
            text_hex(r, line, &p, e, &ev->addr, "address") ||
            text_space(r, line, &p, e, "decimal size") ||
            text_dec(r, line, &p, e, &ev->size, "size"))
            return -1;
        if (ev->kind == EV_LOAD) {
            if (text_space(r, line, &p, e, "hex value or '-'"))
                return -1;
            if (p < e && *p == '-') {
                ev->flags = EVF_NOVALUE;
                p++;
            } else if (text_hex(r, line, &p, e, &ev->value, "value or '-'")) {
                return -1;
            }
        } else if (p < e && *p == ' ') {
            p++;
            if (p >= e || *p != 'M')
                return fail_at(r, line, p, "expected M (modify) or end of line");
            ev->flags = EVF_MODIFY;
            p++;
        }
        break;
    case EV_BRANCH:
        if (text_space(r, line, &p, e, "hex target") ||
            text_hex(r, line, &p, e, &ev->addr, "target") ||
            text_space(r, line, &p, e, "hex fall-through") ||
            text_hex(r, line, &p, e, &ev->value, "fall-through") ||
            text_space(r, line, &p, e, "T or N"))
            return -1;
        if (p < e && (*p == 'T' || *p == 'N')) {
            ev->taken = *p == 'T';
            p++;
        } else {
            return fail_at(r, line, p, "expected T (taken) or N (not taken)");
        }
        break;
    default: /* call, return, indirect jump */
        if (text_space(r, line, &p, e, "hex target") ||
            text_hex(r, line, &p, e, &ev->addr, "target"))
            return -1;
        if (ev->kind == EV_CALL && p < e && *p == ' ') {
            p++;
            if (p >= e || *p != '*')
                return fail_at(r, line, p, "expected * (indirect call) or end of line");
            ev->flags = EVF_INDIRECT;
            p++;
        }
        break;
    }
    if (text_end(r, line, p, e))
        return -1;
    *n = 1;
    return 0;
}

/* Lackey address: %08lx, i.e. lowercase, at least 8 digits, and no leading
 * zero beyond the padding. */
static int lackey_hex(struct tt_reader *r, const char *line, const char **pp, const char *e,
                      uint64_t *out)
{
    const char *p = *pp;
    const char *s = p;
    uint64_t v = 0;
    while (p < e) {
        unsigned d = hex_code[(unsigned char)*p];
        if (d == HEX_NONE)
            break;
        if (d == HEX_UPPER)
            return fail_at(r, line, p, "uppercase hex digit in address");
        v = (v << 4) | (d - 1);
        p++;
    }
    size_t n = (size_t)(p - s);
    if (n == 0)
        return fail_at(r, line, s, "expected hex address");
    if (n < 8)
        return fail_at(r, line, s, "address has %zu hex digits, Lackey prints at least 8", n);
    if (n > 8 && *s == '0')
        return fail_at(r, line, s, "address has a leading zero beyond Lackey's 8-digit padding");
    if (n > 16)
        return fail_at(r, line, s, "hex address exceeds 64 bits");
    *out = v;
    *pp = p;
    return 0;
}

/* "==123==..." and "--123--..." are Valgrind's own messages: returns the
 * length of that prefix, or 0 for any other line. */
static size_t lackey_valgrind_prefix(const char *line, size_t len)
{
    if (len < 5 || !(line[0] == '=' || line[0] == '-') || line[1] != line[0])
        return 0;
    size_t i = 2;
    while (i < len && is_digit(line[i]))
        i++;
    if (i > 2 && i + 1 < len && line[i] == line[0] && line[i + 1] == line[0])
        return i + 2;
    return 0;
}

/* Remember the first "==pid== Command: ..." line (the traced command). */
static void lackey_note_command(struct tt_reader *r, const char *line, size_t len, size_t skip)
{
    static const char key[] = " Command: ";
    size_t klen = sizeof key - 1;
    if (r->has_command || len - skip < klen || memcmp(line + skip, key, klen) != 0)
        return;
    size_t n = len - skip - klen;
    if (n >= sizeof r->command)
        n = sizeof r->command - 1;
    memcpy(r->command, line + skip + klen, n);
    r->command[n] = '\0';
    r->has_command = 1;
}

/* Parse one Lackey line into ev[0..*n). */
static int parse_lackey_line(struct tt_reader *r, const char *line, size_t len,
                             struct event *ev, int *n)
{
    const char *p = line;
    const char *e = line + len;
    *n = 0;
    if (len == 0)
        return 0;
    size_t skip = lackey_valgrind_prefix(line, len);
    if (skip) {
        lackey_note_command(r, line, len, skip);
        return 0;
    }
    memset(ev, 0, sizeof *ev);
    char op;
    if (line[0] == 'I') {
        op = 'I';
        if (len < 2 || line[1] != ' ')
            return fail_at(r, line, line + 1, "expected ' ' after I");
        if (len < 3 || line[2] != ' ')
            return fail_at(r, line, line + 2, "expected second ' ' after I");
    } else if (line[0] == ' ') {
        if (len < 2 || (line[1] != 'L' && line[1] != 'S' && line[1] != 'M'))
            return fail_at(r, line, line + 1, "expected L, S or M");
        op = line[1];
        if (len < 3 || line[2] != ' ')
            return fail_at(r, line, line + 2, "expected ' ' after %c", op);
    } else {
        return fail_at(r, line, line,
                       "expected a Lackey line (\"I  \", \" L \", \" S \", \" M \" or \"==pid==\")");
    }
    p = line + 3;
    uint64_t addr = 0;
    uint32_t size;
    if (lackey_hex(r, line, &p, e, &addr))
        return -1;
    if (p >= e || *p != ',')
        return fail_at(r, line, p, "expected ','");
    p++;
    if (text_dec(r, line, &p, e, &size, "size") || text_end(r, line, p, e))
        return -1;
    switch (op) {
    case 'I':
        ev->kind = EV_INSN;
        ev->pc = addr;
        ev->size = size;
        r->last_pc = addr;
        *n = 1;
        break;
    case 'S':
        ev->kind = EV_STORE;
        ev->pc = r->last_pc;
        ev->addr = addr;
        ev->size = size;
        *n = 1;
        break;
    default: /* 'L', and 'M' = load then store of the same location */
        ev->kind = EV_LOAD;
        ev->pc = r->last_pc;
        ev->addr = addr;
        ev->size = size;
        ev->flags = EVF_NOVALUE;
        *n = 1;
        if (op == 'M') {
            ev[1] = ev[0];
            ev[1].kind = EV_STORE;
            ev[1].flags = EVF_MODIFY;
            *n = 2;
        }
        break;
    }
    return 0;
}

long tt_reader_read(struct tt_reader *r, struct event *out, size_t cap)
{
    if (r->failed)
        return -1;
    if (cap < 2) {
        snprintf(r->err, sizeof r->err, "%s: tt_reader_read needs room for 2 events", r->name);
        r->failed = 1;
        return -1;
    }
    size_t n = 0;
    while (n + 2 <= cap) {
        const char *line = NULL;
        size_t len = 0;
        int got = next_line(r, &line, &len);
        if (got < 0)
            return -1;
        if (got == 0)
            break;
        int k;
        int rc = r->fmt == TT_LACKEY ? parse_lackey_line(r, line, len, out + n, &k)
                                     : parse_text_line(r, line, len, out + n, &k);
        if (rc < 0)
            return -1;
        n += (size_t)k;
    }
    return (long)n;
}

/* ------------------------------------------------------------------ */
/* Writer                                                             */

struct tt_writer {
    enum tt_format fmt;
    FILE *out;
    char *buf;
    size_t len;
    int failed;
    unsigned long long events; /* events seen, for messages */
    struct event pending;      /* Lackey: a load that may start an M line */
    int has_pending;
    char err[256];
};

struct tt_writer *tt_writer_create(enum tt_format fmt, FILE *out)
{
    struct tt_writer *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->buf = malloc(TT_WBUF);
    if (!w->buf) {
        free(w);
        return NULL;
    }
    w->fmt = fmt;
    w->out = out;
    return w;
}

void tt_writer_free(struct tt_writer *w)
{
    if (!w)
        return;
    free(w->buf);
    free(w);
}

const char *tt_writer_error(const struct tt_writer *w)
{
    return w->err;
}

static int wflush(struct tt_writer *w)
{
    if (w->len && fwrite(w->buf, 1, w->len, w->out) != w->len) {
        snprintf(w->err, sizeof w->err, "write error: %s", strerror(errno));
        w->failed = 1;
        return -1;
    }
    w->len = 0;
    return 0;
}

static const char hex_digits[] = "0123456789abcdef";

/* v in lowercase hex, at least min_digits digits (zero padded). */
static char *put_hex(char *p, uint64_t v, int min_digits)
{
    int digits = 1;
    if (v)
        digits = (64 - __builtin_clzll(v) + 3) / 4;
    if (digits < min_digits)
        digits = min_digits;
    for (int i = digits - 1; i >= 0; i--) {
        p[i] = hex_digits[v & 15];
        v >>= 4;
    }
    return p + digits;
}

static char *put_dec(char *p, uint32_t v)
{
    char tmp[10];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        *p++ = tmp[--n];
    return p;
}

static char *put_text_event(char *p, const struct event *ev)
{
    *p++ = ev_kind_letter[ev->kind]; /* I L S B C R J, as parse_text_line expects */
    *p++ = ' ';
    p = put_hex(p, ev->pc, 1);
    *p++ = ' ';
    switch (ev->kind) {
    case EV_INSN:
        p = put_dec(p, ev->size);
        break;
    case EV_LOAD:
    case EV_STORE:
        p = put_hex(p, ev->addr, 1);
        *p++ = ' ';
        p = put_dec(p, ev->size);
        if (ev->kind == EV_LOAD) {
            *p++ = ' ';
            if (ev->flags & EVF_NOVALUE)
                *p++ = '-';
            else
                p = put_hex(p, ev->value, 1);
        } else if (ev->flags & EVF_MODIFY) {
            *p++ = ' ';
            *p++ = 'M';
        }
        break;
    case EV_BRANCH:
        p = put_hex(p, ev->addr, 1);
        *p++ = ' ';
        p = put_hex(p, ev->value, 1);
        *p++ = ' ';
        *p++ = ev->taken ? 'T' : 'N';
        break;
    default:
        p = put_hex(p, ev->addr, 1);
        if (ev->kind == EV_CALL && (ev->flags & EVF_INDIRECT)) {
            *p++ = ' ';
            *p++ = '*';
        }
        break;
    }
    *p++ = '\n';
    return p;
}

static char *put_lackey_data(char *p, char op, const struct event *ev)
{
    *p++ = ' ';
    *p++ = op;
    *p++ = ' ';
    p = put_hex(p, ev->addr, 8);
    *p++ = ',';
    p = put_dec(p, ev->size);
    *p++ = '\n';
    return p;
}

int tt_writer_put(struct tt_writer *w, const struct event *ev, size_t n)
{
    if (w->failed)
        return -1;
    for (size_t i = 0; i < n; i++, w->events++) {
        const struct event *e = &ev[i];
        if (e->kind >= EV_KINDS) {
            snprintf(w->err, sizeof w->err, "event %llu: kind %u has no text form",
                     w->events, (unsigned)e->kind);
            w->failed = 1;
            return -1;
        }
        if (w->len > TT_WBUF - 2 * TT_WLINE_MAX && wflush(w))
            return -1;
        char *p = w->buf + w->len;
        if (w->fmt == TT_TEXT) {
            p = put_text_event(p, e);
        } else {
            if (w->has_pending) {
                const struct event *ld = &w->pending;
                w->has_pending = 0;
                if (e->kind == EV_STORE && (e->flags & EVF_MODIFY) && e->pc == ld->pc &&
                    e->addr == ld->addr && e->size == ld->size) {
                    p = put_lackey_data(p, 'M', e);
                    w->len = (size_t)(p - w->buf);
                    continue;
                }
                p = put_lackey_data(p, 'L', ld);
            }
            switch (e->kind) {
            case EV_INSN:
                *p++ = 'I';
                *p++ = ' ';
                *p++ = ' ';
                p = put_hex(p, e->pc, 8);
                *p++ = ',';
                p = put_dec(p, e->size);
                *p++ = '\n';
                break;
            case EV_LOAD:
                w->pending = *e;
                w->has_pending = 1;
                break;
            case EV_STORE:
                p = put_lackey_data(p, 'S', e);
                break;
            default:
                break; /* no Lackey form */
            }
        }
        w->len = (size_t)(p - w->buf);
    }
    return 0;
}

int tt_writer_finish(struct tt_writer *w)
{
    if (w->failed)
        return -1;
    if (w->has_pending) {
        w->has_pending = 0;
        if (w->len > TT_WBUF - TT_WLINE_MAX && wflush(w))
            return -1;
        char *p = put_lackey_data(w->buf + w->len, 'L', &w->pending);
        w->len = (size_t)(p - w->buf);
    }
    if (wflush(w))
        return -1;
    if (fflush(w->out) != 0) {
        snprintf(w->err, sizeof w->err, "write error: %s", strerror(errno));
        w->failed = 1;
        return -1;
    }
    return 0;
}
