/* packer.c - tracegen's packer: reads the raw record stream of the hwptrace
 * Valgrind tool (tracegen/tg_raw.h) from a FIFO, expands the superblock
 * templates into struct event (src/trace/event.h), trims the stream to the exact
 * capture window and writes a trace v2 file through trace_writer_* (zstd
 * blocks, checksums; the writer renames its temporary file into place only
 * on success).
 *
 * Why a separate process: the Valgrind tool cannot link libc/libzstd and
 * must stay cheap; the packer runs on the other core.  A reader thread
 * drains the FIFO into a queue of frames so that the tool never waits for
 * the (slower, compressing) main thread as long as the queue has room.
 *
 * Three threads: the reader (frame queue), the main thread (decoding: block
 * templates expanded into event batches, the window trimmed), the writer
 * (trace_writer_add on each batch).  The trace is opened at the stream's
 * HELLO record, whose tool options and CPU word go into its header.
 *
 * Exit status: 0 = trace written; 1 = error (message on stderr, no file).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "trace/event.h"
#include "trace/trace.h"

#define TG_U8 uint8_t
#define TG_U32 uint32_t
#define TG_U64 uint64_t
#include "tg_raw.h"

#ifndef TG_VALGRIND_VERSION
#define TG_VALGRIND_VERSION "3.19.0"
#endif
/* Bumped whenever a capture of the same program can give another trace
 * (2: CPU level and host pinning, format v2 with metadata). */
#define TRACEGEN_VERSION "2"

#define BATCH 8192
#define QUEUE_MAX_BYTES ((size_t)512 << 20)

/* ---- options ------------------------------------------------------------ */

static const char *opt_in, *opt_out, *opt_workload = "unknown", *opt_command = "";
/* Metadata pairs given with --meta KEY=VALUE (written after the tool's own). */
static struct trace_meta opt_meta;
static uint64_t opt_skip, opt_window;
static unsigned opt_kinds = EV_ALL;
static int opt_level = 3, opt_progress, opt_stats;

static unsigned parse_kinds(const char *s)
{
    if (strcmp(s, "all") == 0)
        return EV_ALL;
    unsigned m = 0;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", s);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        int k;
        for (k = 0; k < EV_KINDS; k++)
            if (strcmp(tok, ev_kind_name[k]) == 0)
                break;
        if (k == EV_KINDS) {
            fprintf(stderr, "tg-packer: unknown event kind '%s' (kinds:", tok);
            for (k = 0; k < EV_KINDS; k++)
                fprintf(stderr, " %s", ev_kind_name[k]);
            fprintf(stderr, ")\n");
            exit(2);
        }
        m |= EV_BIT(k);
    }
    return m;
}

static void usage(void)
{
    fprintf(stderr,
            "usage: tg-packer --in RAW|- --out TRACE --workload NAME [--command STR]\n"
            "                 [--skip N] [--window N] [--kinds all|k1,k2..] [--zstd-level L]\n"
            "                 [--progress] [--stats] [--meta KEY=VALUE]...\n");
    exit(2);
}

static void parse_args(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--progress") == 0) { opt_progress = 1; continue; }
        if (strcmp(a, "--stats") == 0) { opt_stats = 1; continue; }
        if (v == NULL)
            usage();
        i++;
        if (strcmp(a, "--in") == 0) opt_in = v;
        else if (strcmp(a, "--out") == 0) opt_out = v;
        else if (strcmp(a, "--workload") == 0) opt_workload = v;
        else if (strcmp(a, "--command") == 0) opt_command = v;
        else if (strcmp(a, "--skip") == 0) opt_skip = strtoull(v, NULL, 10);
        else if (strcmp(a, "--window") == 0) opt_window = strtoull(v, NULL, 10);
        else if (strcmp(a, "--kinds") == 0) opt_kinds = parse_kinds(v);
        else if (strcmp(a, "--zstd-level") == 0) opt_level = atoi(v);
        else if (strcmp(a, "--meta") == 0) {
            const char *eq = strchr(v, '=');
            char key[TRACE_META_KEY_MAX + 2], err[256];
            size_t kn = eq ? (size_t)(eq - v) : 0;
            if (!eq || kn > TRACE_META_KEY_MAX) {
                fprintf(stderr, "tg-packer: --meta needs KEY=VALUE, not '%s'\n", v);
                exit(2);
            }
            memcpy(key, v, kn);
            key[kn] = '\0';
            if (trace_meta_find(&opt_meta, key) || trace_meta_set(&opt_meta, key, eq + 1, err, sizeof err) != 0) {
                fprintf(stderr, "tg-packer: --meta %s: %s\n", v, trace_meta_find(&opt_meta, key) ? "key given twice" : err);
                exit(2);
            }
        }
        else usage();
    }
    if (!opt_in || !opt_out)
        usage();
}

/* ---- frame queue (reader thread -> main) -------------------------------- */

struct frame {
    struct frame *next;
    uint32_t len;
    unsigned char data[];
};

static pthread_mutex_t q_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t q_cv = PTHREAD_COND_INITIALIZER;
static struct frame *q_head, *q_tail;
static size_t q_bytes;
static int q_eof;          /* reader finished */
static char q_err[256];    /* reader error */
static int in_fd = -1;
static uint64_t raw_bytes;

static int read_full(int fd, void *buf, size_t n)
{
    unsigned char *p = buf;
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, p + got, n - got);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        if (r == 0)
            return (int)(got == 0 ? 0 : -2); /* 0: clean EOF, -2: truncated */
        got += (size_t)r;
    }
    return 1;
}

static void *reader_main(void *arg)
{
    (void)arg;
    for (;;) {
        uint32_t hdr[2];
        int r = read_full(in_fd, hdr, sizeof hdr);
        if (r == 0)
            break;
        if (r < 0 || hdr[0] != TG_FRAME_MAGIC) {
            snprintf(q_err, sizeof q_err, "%s: raw stream %s at byte %" PRIu64, opt_in,
                     r == -1 ? strerror(errno) : r == -2 ? "truncated" : "corrupt (bad frame magic)",
                     raw_bytes);
            break;
        }
        /* 64 KiB of slack: a corrupt record cannot make the expander read
           outside the allocation before the overrun check. */
        struct frame *f = malloc(sizeof *f + (size_t)hdr[1] + 65536);
        if (f == NULL) {
            snprintf(q_err, sizeof q_err, "out of memory (frame of %u bytes)", hdr[1]);
            break;
        }
        f->next = NULL;
        f->len = hdr[1];
        r = read_full(in_fd, f->data, f->len);
        if (r != 1) {
            snprintf(q_err, sizeof q_err, "%s: raw stream truncated inside a frame at byte %" PRIu64,
                     opt_in, raw_bytes);
            free(f);
            break;
        }
        raw_bytes += 8 + (uint64_t)f->len;
        pthread_mutex_lock(&q_mu);
        while (q_bytes > QUEUE_MAX_BYTES)
            pthread_cond_wait(&q_cv, &q_mu);
        if (q_tail)
            q_tail->next = f;
        else
            q_head = f;
        q_tail = f;
        q_bytes += f->len;
        pthread_cond_broadcast(&q_cv);
        pthread_mutex_unlock(&q_mu);
    }
    pthread_mutex_lock(&q_mu);
    q_eof = 1;
    pthread_cond_broadcast(&q_cv);
    pthread_mutex_unlock(&q_mu);
    return NULL;
}

static struct frame *queue_pop(void)
{
    pthread_mutex_lock(&q_mu);
    while (q_head == NULL && !q_eof)
        pthread_cond_wait(&q_cv, &q_mu);
    struct frame *f = q_head;
    if (f) {
        q_head = f->next;
        if (!q_head)
            q_tail = NULL;
        q_bytes -= f->len;
        pthread_cond_broadcast(&q_cv);
    }
    pthread_mutex_unlock(&q_mu);
    return f;
}

/* ---- event batches (main -> writer thread) ------------------------------ */

static struct trace_writer *writer;
/* Event batches: the expander (main thread) fills them, a writer thread
   encodes and compresses them (trace_writer_add), so the two overlap. */
#define NBUF 8
static struct event bufs[NBUF][BATCH];
static size_t buf_n[NBUF];
static struct event *batch = bufs[0];
static size_t nbatch;
static uint64_t b_prod, b_cons; /* batches handed over / written */
static int b_finished, w_failed, w_started;
static char w_err[512];
static uint64_t events_out;
static pthread_t w_thread;
static pthread_mutex_t b_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t b_cv = PTHREAD_COND_INITIALIZER;

static void *writer_main(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&b_mu);
    for (;;) {
        while (b_cons == b_prod && !b_finished)
            pthread_cond_wait(&b_cv, &b_mu);
        if (b_cons == b_prod)
            break;
        unsigned i = (unsigned)(b_cons % NBUF);
        pthread_mutex_unlock(&b_mu);
        if (!w_failed && trace_writer_add(writer, bufs[i], buf_n[i]) < 0) {
            snprintf(w_err, sizeof w_err, "%s", trace_writer_error(writer));
            w_failed = 1;
        }
        pthread_mutex_lock(&b_mu);
        b_cons++;
        pthread_cond_broadcast(&b_cv);
    }
    pthread_mutex_unlock(&b_mu);
    return NULL;
}

/* Stop the writer thread after it has written everything handed over
   (drop = 1: discard what is pending). */
static void writer_stop(int drop)
{
    if (!w_started)
        return;
    pthread_mutex_lock(&b_mu);
    if (drop)
        b_cons = b_prod;
    b_finished = 1;
    pthread_cond_broadcast(&b_cv);
    pthread_mutex_unlock(&b_mu);
    pthread_join(w_thread, NULL);
    w_started = 0;
}

/* ---- stream state, errors, progress, handing batches over --------------- */

static uint64_t icount;     /* absolute number of the last instruction seen */
static uint64_t captured;   /* instructions emitted */
static int started, window_done, got_end;
static int64_t end_exitcode;
static uint32_t end_reason;
static uint32_t tool_opts;
static uint64_t assist_exits, assist_taken;
static struct timespec t_start, t_last;

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "tg-packer [%s]: ", opt_workload);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    if (opt_progress)
        fputc('\n', stderr);
    writer_stop(1);
    trace_writer_abort(writer);
    exit(1);
}

static double now_s(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + 1e-9 * (double)(t.tv_nsec - t0->tv_nsec);
}

static void progress(int final)
{
    double el = now_s(&t_start);
    uint64_t ev = events_out + nbatch;
    double rate = el > 0 ? (double)ev / el : 0;
    if (opt_window) {
        double frac = (double)captured / (double)opt_window;
        double irate = el > 0 ? (double)captured / el : 0;
        double eta = irate > 0 ? (double)(opt_window - captured) / irate : 0;
        if (!started)
            fprintf(stderr, "\r[%s] skipping: %" PRIu64 " of %" PRIu64 " instr (%.0f%%)      ", opt_workload,
                    icount, opt_skip, opt_skip ? 100.0 * (double)icount / (double)opt_skip : 0.0);
        else
            fprintf(stderr, "\r[%s] %5.1f%% of %" PRIu64 " instr, %.1f Mev/s, ETA %.0f s      ", opt_workload,
                    100.0 * frac, opt_window, rate / 1e6, final ? 0.0 : eta);
    } else {
        fprintf(stderr, "\r[%s] %" PRIu64 " instr, %.1f Mev/s, %.0f s      ", opt_workload, captured,
                rate / 1e6, el);
    }
    if (final)
        fputc('\n', stderr);
}

static void flush_batch(void)
{
    if (nbatch) {
        unsigned i = (unsigned)(b_prod % NBUF);
        buf_n[i] = nbatch;
        events_out += nbatch;
        pthread_mutex_lock(&b_mu);
        b_prod++;
        pthread_cond_broadcast(&b_cv);
        while (b_prod - b_cons >= NBUF)
            pthread_cond_wait(&b_cv, &b_mu);
        pthread_mutex_unlock(&b_mu);
        batch = bufs[b_prod % NBUF];
        nbatch = 0;
    }
    if (w_failed)
        die("%s", w_err);
    if (opt_progress && now_s(&t_last) >= 0.5) {
        clock_gettime(CLOCK_MONOTONIC, &t_last);
        progress(0);
    }
}

/* ---- the trace header (at HELLO) ---------------------------------------- */

/* The pairs that describe the capture itself, then those of --meta. */
static void set_tool_meta(struct trace_meta *m, uint32_t opts, uint32_t cpu)
{
    static const char *const levels[TG_CPU_LEVELS] = TG_CPU_LEVEL_NAMES;
    static const char *const ids[] = TG_ID_NAMES;
    unsigned level = cpu & 0xff, id = (cpu >> 8) & 0xff;
    char ident[256], err[256];
    if (level >= TG_CPU_LEVELS || id == 0 || id >= sizeof ids / sizeof ids[0])
        die("raw stream: HELLO has an unknown CPU level/identity 0x%08x", cpu);
    snprintf(ident, sizeof ident, "%s%s%s%s", ids[id], (cpu & TG_ID_F16C) ? " +f16c" : "",
             (cpu & TG_ID_RDRAND) ? " +rdrand" : "", (cpu & TG_ID_RDSEED) ? " +rdseed" : "");
    const char *kv[][2] = {
        {"tracegen.version", TRACEGEN_VERSION},
        {"cpu.level", levels[level]},
        {"cpu.identity", ident},
        {"pin.random", (opts & TG_OPT_PIN_RANDOM) ? "yes" : "no"},
        {"pin.host", (opts & TG_OPT_PIN_HOST) ? "yes" : "no"},
    };
    for (size_t i = 0; i < sizeof kv / sizeof kv[0]; i++)
        if (trace_meta_set(m, kv[i][0], kv[i][1], err, sizeof err) != 0)
            die("%s", err);
    const char *v;
    for (const char *k = trace_meta_next(&opt_meta, NULL, &v); k; k = trace_meta_next(&opt_meta, k, &v)) {
        if (trace_meta_find(m, k))
            die("--meta %s: the packer sets this key itself", k);
        if (trace_meta_set(m, k, v, err, sizeof err) != 0)
            die("%s", err);
    }
}

/* At the stream's HELLO: the trace's header from the options and the
   tool's (its options say which kinds the trace has), the output file,
   and the writer thread. */
static void open_writer(uint32_t opts, uint32_t cpu)
{
    static struct trace_meta meta;
    char err[512];
    memset(&meta, 0, sizeof meta);
    snprintf(meta.workload, sizeof meta.workload, "%s", opt_workload);
    snprintf(meta.producer, sizeof meta.producer, "tracegen %s (valgrind-%s)", TRACEGEN_VERSION,
             TG_VALGRIND_VERSION);
    snprintf(meta.command, sizeof meta.command, "%s", opt_command);
    meta.skip = opt_skip;
    meta.window = opt_window;
    set_tool_meta(&meta, opts, cpu);
    meta.flags = 0;
    if ((opts & TG_OPT_VALUES) && (opts & TG_OPT_MEM) && (opt_kinds & EV_BIT(EV_LOAD)))
        meta.flags |= TRF_HAS_VALUES;
    if ((opts & TG_OPT_BRANCHES) &&
        (opt_kinds & (EV_BIT(EV_BRANCH) | EV_BIT(EV_CALL) | EV_BIT(EV_RET) | EV_BIT(EV_IJUMP))))
        meta.flags |= TRF_HAS_BRANCHES;
    writer = trace_writer_open(opt_out, &meta, opt_level, err, sizeof err);
    if (!writer)
        die("%s", err);
    if (pthread_create(&w_thread, NULL, writer_main, NULL) != 0)
        die("cannot start writer thread");
    w_started = 1;
}

/* ---- decoding ----------------------------------------------------------- */

struct tpl {
    uint32_t n;
    uint32_t ninsn;  /* INSN items */
    uint32_t nmax;   /* upper bound of events one execution emits */
    uint32_t pad_;
    struct tg_item items[];
};

static struct tpl **tpls;
static uint32_t ntpls;

/* The next event's slot, batch[nbatch]: decoders write it in place, and
   nbatch++ keeps the event. */
static inline struct event *next_slot(void)
{
    if (nbatch == BATCH)
        flush_batch();
    return &batch[nbatch];
}

static inline uint64_t rd(const unsigned char **pp, unsigned n)
{
    uint64_t v = 0;
    memcpy(&v, *pp, n); /* little-endian host */
    *pp += n;
    return v;
}

/* Decoding one template item: its dynamic fields are read at *pp, in
   stream order (tracegen/tg_raw.h), and give the event it stands for.  The
   load and store decoders return 0 when the access did not happen (guard
   false); the event is filled anyway (a load's address is needed by an M
   store that follows). */

static inline int load_event(const struct tg_item *it, const unsigned char **pp, int novalues,
                             struct event *e)
{
    uint64_t a = (it->flags & TG_F_DYNADDR) ? rd(pp, 8) : it->a;
    unsigned g = (it->flags & TG_F_GUARD) ? (unsigned)rd(pp, 1) : 1u;
    uint64_t v = it->vbytes ? rd(pp, it->vbytes) : 0;
    uint8_t fl = 0;
    if (it->size < 8)
        v &= (1ull << (8 * it->size)) - 1;
    if ((it->flags & TG_F_NOVALUE) || novalues) {
        v = 0;
        fl = EVF_NOVALUE;
    }
    *e = (struct event){.pc = it->pc, .addr = a, .value = v, .size = it->size, .kind = EV_LOAD, .flags = fl};
    return g != 0;
}

/* last_load: the address of the block's previous load (an M store's). */
static inline int store_event(const struct tg_item *it, const unsigned char **pp, uint64_t last_load,
                              struct event *e)
{
    uint64_t a;
    uint8_t fl = 0;
    if (it->flags & TG_F_MODIFY) {
        a = last_load;
        fl = EVF_MODIFY;
    } else {
        a = (it->flags & TG_F_DYNADDR) ? rd(pp, 8) : it->a;
    }
    unsigned g = (it->flags & TG_F_GUARD) ? (unsigned)rd(pp, 1) : 1u;
    *e = (struct event){.pc = it->pc, .addr = a, .size = it->size, .kind = EV_STORE, .flags = fl};
    return g != 0;
}

/* An exit left the block when taken; the branch is taken unless the exit
   is inverted. */
static inline struct event branch_event(const struct tg_item *it, unsigned taken)
{
    return (struct event){.pc = it->pc, .addr = it->a, .value = it->b, .kind = EV_BRANCH,
                          .taken = (uint8_t)((it->flags & TG_F_INVERTED) ? !taken : taken)};
}

/* Block end: call, return or indirect jump. */
static inline struct event end_event(const struct tg_item *it, const unsigned char **pp)
{
    uint64_t d = (it->flags & TG_F_DYNDEST) ? rd(pp, 8) : it->a;
    unsigned kind = it->size == TG_END_CALL ? EV_CALL : it->size == TG_END_RET ? EV_RET : EV_IJUMP;
    /* a call whose callee is computed (call *%rax, call *8(%rbx)) */
    unsigned fl = kind == EV_CALL && (it->flags & TG_F_DYNDEST) ? EVF_INDIRECT : 0;
    return (struct event){.pc = it->pc, .addr = d, .kind = (uint8_t)kind, .flags = (uint8_t)fl};
}

static void define_block(const unsigned char *p, const unsigned char *end, const unsigned char **out)
{
    if (end - p < 8)
        die("raw stream: truncated block definition");
    uint32_t id = (uint32_t)rd(&p, 4), n = (uint32_t)rd(&p, 4);
    size_t bytes = (size_t)n * sizeof(struct tg_item);
    if ((size_t)(end - p) < bytes)
        die("raw stream: truncated block definition %u", id);
    if (id >= ntpls) {
        uint32_t nn = ntpls ? ntpls : 4096;
        while (nn <= id)
            nn *= 2;
        tpls = realloc(tpls, nn * sizeof *tpls);
        if (!tpls)
            die("out of memory");
        memset(tpls + ntpls, 0, (nn - ntpls) * sizeof *tpls);
        ntpls = nn;
    }
    free(tpls[id]);
    tpls[id] = malloc(sizeof(struct tpl) + bytes);
    if (!tpls[id])
        die("out of memory");
    tpls[id]->n = n;
    tpls[id]->ninsn = 0;
    tpls[id]->nmax = n;
    memcpy(tpls[id]->items, p, bytes);
    for (uint32_t k = 0; k < n; k++)
        tpls[id]->ninsn += tpls[id]->items[k].op == TG_OP_INSN;
    *out = p + bytes;
}

/* Fast path: the whole block lies inside the window and every kind is
   wanted, so no per-item window or kind checks (the common case). */
static const unsigned char *run_block_fast(const struct tpl *t, const unsigned char *p)
{
    uint64_t last_load = 0;
    const int report_exit = (tool_opts & TG_OPT_BRANCHES) != 0;
    const int report_assist = (tool_opts & TG_OPT_ASSIST_EXITS) != 0;
    const int novalues = !(tool_opts & TG_OPT_VALUES);
    struct event *e = &batch[nbatch];
    /* Counters in locals: the event stores could alias the globals. */
    uint64_t ninsn = 0, nassist = 0, nassist_taken = 0;
    for (uint32_t k = 0; k < t->n; k++) {
        const struct tg_item *it = &t->items[k];
        switch (it->op) {
        case TG_OP_INSN:
            ninsn++;
            *e++ = (struct event){.pc = it->pc, .size = it->size, .kind = EV_INSN};
            break;
        case TG_OP_LOAD: {
            int g = load_event(it, &p, novalues, e);
            last_load = e->addr;
            e += g;
            break;
        }
        case TG_OP_STORE:
            e += store_event(it, &p, last_load, e);
            break;
        case TG_OP_EXIT: {
            unsigned taken = (unsigned)rd(&p, 1);
            int assist = (it->flags & TG_F_ASSIST) != 0;
            if (assist) {
                nassist++;
                nassist_taken += taken;
            }
            if (report_exit && (!assist || report_assist))
                *e++ = branch_event(it, taken);
            if (taken) {
                goto out; /* the block left here */
            }
            break;
        }
        case TG_OP_END:
            *e++ = end_event(it, &p);
            break;
        default:
            die("raw stream: invalid item op %u", it->op);
        }
    }
out:
    nbatch = (size_t)(e - batch);
    icount += ninsn;
    captured += ninsn;
    assist_exits += nassist;
    assist_taken += nassist_taken;
    return p;
}

/* Execute one block record; returns the position after its fields. */
static const unsigned char *run_block(uint32_t id, const unsigned char *p, const unsigned char *end)
{
    if (id >= ntpls || tpls[id] == NULL)
        die("raw stream: execution of undefined block %u", id);
    const struct tpl *t = tpls[id];
    if (opt_kinds == EV_ALL && started && !window_done && icount >= opt_skip &&
        (!opt_window || captured + t->ninsn <= opt_window)) {
        if (nbatch + t->nmax > BATCH)
            flush_batch();
        return run_block_fast(t, p);
    }
    int in = started && !window_done && icount > opt_skip; /* in window */
    uint64_t last_load = 0;
    const unsigned report_exit = (tool_opts & TG_OPT_BRANCHES) ? 1u : 0u;
    const int novalues = !(tool_opts & TG_OPT_VALUES);
    struct event *e;
    for (uint32_t k = 0; k < t->n; k++) {
        const struct tg_item *it = &t->items[k];
        if (p > end)
            die("raw stream: block %u overruns its frame", id);
        switch (it->op) {
        case TG_OP_INSN:
            icount++;
            if (icount <= opt_skip || window_done) {
                in = 0;
            } else if (opt_window && captured >= opt_window) {
                in = 0;
                window_done = 1;
            } else {
                in = 1;
                captured++;
                if (opt_kinds & EV_BIT(EV_INSN)) {
                    *next_slot() = (struct event){.pc = it->pc, .size = it->size, .kind = EV_INSN};
                    nbatch++;
                }
            }
            break;
        case TG_OP_LOAD: {
            e = next_slot();
            int g = load_event(it, &p, novalues, e);
            last_load = e->addr;
            if (in && g && (opt_kinds & EV_BIT(EV_LOAD)))
                nbatch++;
            break;
        }
        case TG_OP_STORE:
            e = next_slot();
            if (store_event(it, &p, last_load, e) && in && (opt_kinds & EV_BIT(EV_STORE)))
                nbatch++;
            break;
        case TG_OP_EXIT: {
            unsigned taken = (unsigned)rd(&p, 1);
            int assist = (it->flags & TG_F_ASSIST) != 0;
            if (in && assist) {
                assist_exits++;
                assist_taken += taken;
            }
            if (in && report_exit && (!assist || (tool_opts & TG_OPT_ASSIST_EXITS))
                && (opt_kinds & EV_BIT(EV_BRANCH))) {
                *next_slot() = branch_event(it, taken);
                nbatch++;
            }
            if (taken)
                return p;
            break;
        }
        case TG_OP_END:
            e = next_slot();
            *e = end_event(it, &p);
            if (in && (opt_kinds & EV_BIT(e->kind)))
                nbatch++;
            break;
        default:
            die("raw stream: block %u has an invalid item op %u", id, it->op);
        }
    }
    return p;
}

static void process_frame(const struct frame *f)
{
    const unsigned char *p = f->data, *end = f->data + f->len;
    if (window_done) {
        /* Only the END record matters now; it always starts a frame. */
        uint32_t tag;
        if (f->len < 4)
            return;
        memcpy(&tag, p, 4);
        if (tag != TG_TAG_END)
            return;
    }
    while (p < end) {
        if (end - p < 4)
            die("raw stream: truncated record");
        uint32_t tag = (uint32_t)rd(&p, 4);
        if (tag < TG_TAG_FIRST_CTRL) {
            p = run_block(tag, p, end);
            if (p > end)
                die("raw stream: block %u overruns its frame", tag);
            if (window_done)
                return;
            continue;
        }
        switch (tag) {
        case TG_TAG_HELLO: {
            if (end - p < 28)
                die("raw stream: truncated HELLO");
            uint32_t ver = (uint32_t)rd(&p, 4);
            uint64_t skip = rd(&p, 8), win = rd(&p, 8);
            tool_opts = (uint32_t)rd(&p, 4);
            uint32_t cpu = (uint32_t)rd(&p, 4);
            if (!writer)
                open_writer(tool_opts, cpu);
            if (ver != TG_RAW_VERSION)
                die("raw stream version %u, expected %u", ver, TG_RAW_VERSION);
            if (skip != opt_skip || win != opt_window)
                die("tool window (skip %" PRIu64 ", capture %" PRIu64 ") differs from packer's", skip, win);
            break;
        }
        case TG_TAG_DEF:
            define_block(p, end, &p);
            break;
        case TG_TAG_START:
            if (end - p < 8)
                die("raw stream: truncated START");
            icount = rd(&p, 8);
            started = 1;
            break;
        case TG_TAG_END:
            if (end - p < 24)
                die("raw stream: truncated END");
            rd(&p, 8);
            end_exitcode = (int64_t)rd(&p, 8);
            end_reason = (uint32_t)rd(&p, 4);
            rd(&p, 4);
            if (end_reason == TG_REASON_EXIT || end_reason == TG_REASON_WINDOW_EXIT)
                got_end = 1;
            else
                window_done = 1;
            break;
        default:
            die("raw stream: unknown record tag 0x%08x", tag);
        }
    }
}

/* ---- main --------------------------------------------------------------- */

int main(int argc, char **argv)
{
    parse_args(argc, argv);
    signal(SIGPIPE, SIG_IGN);

    char err[512];
    in_fd = strcmp(opt_in, "-") == 0 ? 0 : open(opt_in, O_RDONLY);
    if (in_fd < 0)
        die("cannot open %s: %s", opt_in, strerror(errno));

    clock_gettime(CLOCK_MONOTONIC, &t_start);
    t_last = t_start;
    pthread_t th;
    if (pthread_create(&th, NULL, reader_main, NULL) != 0)
        die("cannot start reader thread");

    /* The writer is opened at HELLO (process_frame) so that the meta flags
       reflect the tool's options. */
    for (;;) {
        struct frame *f = queue_pop();
        if (!f)
            break;
        if (!writer) {
            uint32_t tag = 0;
            if (f->len >= 4)
                memcpy(&tag, f->data, 4);
            if (tag != TG_TAG_HELLO)
                die("raw stream does not start with HELLO");
        }
        process_frame(f);
        free(f);
        if (got_end)
            break;
    }
    pthread_join(th, NULL);
    if (q_err[0])
        die("%s", q_err);
    if (!got_end)
        die("raw stream ended without END record (valgrind or the program died)");
    if (end_exitcode != 0)
        die("the program exited with status %" PRId64, end_exitcode);
    if (opt_skip > 0 && captured == 0)
        die("the program ended after %" PRIu64 " instructions, before the skip of %" PRIu64, icount, opt_skip);
    flush_batch();
    writer_stop(0);
    if (w_failed)
        die("%s", w_err);
    if (opt_progress)
        progress(1);
    uint64_t events = trace_writer_events(writer);
    if (trace_writer_close(writer, err, sizeof err) < 0) {
        writer = NULL;
        die("%s", err);
    }
    writer = NULL;
    if (opt_stats) {
        double el = now_s(&t_start);
        fprintf(stderr,
                "tg-packer [%s]: instructions %" PRIu64 " (run %" PRIu64 "), events %" PRIu64
                ", assist exits %" PRIu64 " (taken %" PRIu64 "), raw %" PRIu64 " bytes, %u block slots, %.2f s\n",
                opt_workload, captured, icount, events, assist_exits, assist_taken, raw_bytes, ntpls, el);
    }
    return 0;
}
