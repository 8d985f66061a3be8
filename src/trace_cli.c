/* trace_cli.c - `hwprof trace info|check|cat|import` (see trace_cli.h). */
#include "trace_cli.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "event.h"
#include "trace.h"
#include "trace_text.h"

#define BATCH 8192              /* events per read/write call */
#define DEFAULT_ZSTD_LEVEL 3

enum { EXIT_OK = 0, EXIT_BAD = 1, EXIT_USAGE = 2 };

static const char usage_text[] =
    "usage: hwprof trace info [--meta KEY] FILE\n"
    "       hwprof trace check FILE\n"
    "       hwprof trace cat [--format text|lackey] FILE\n"
    "       hwprof trace import --from text|lackey --workload NAME [--command STR]\n"
    "                           [--level N] [--meta KEY=VALUE]... IN OUT\n"
    "\n"
    "  info    print the header: workload, producer, command, window, flags,\n"
    "          event counts per kind, blocks and sizes, and the metadata pairs\n"
    "          (does not decode blocks); --meta KEY prints only the value of\n"
    "          metadata KEY (exit status 1 if the trace has no such key)\n"
    "  check   decode every block and verify checksums and counts\n"
    "  cat     print the events on stdout; --format text (default) is the\n"
    "          canonical text format, lackey mimics valgrind --tool=lackey\n"
    "          --trace-mem=yes (memory events only)\n"
    "  import  convert a text or Lackey file (IN, or - for stdin) to a trace;\n"
    "          --command defaults to Lackey's '==pid== Command:' line,\n"
    "          --level is the zstd level [3], 1..19; --meta adds a metadata\n"
    "          pair (repeatable)\n"
    "See docs/trace-format.md.\n";

/* A usage error: "hwprof trace: <message>" and a pointer to --help, or
 * the whole usage text when fmt is NULL.  Returns EXIT_USAGE. */
#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
static int usage(const char *fmt, ...)
{
    if (!fmt) {
        fputs(usage_text, stderr);
        return EXIT_USAGE;
    }
    va_list ap;
    va_start(ap, fmt);
    fputs("hwprof trace: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputs(" (see 'hwprof trace --help')\n", stderr);
    va_end(ap);
    return EXIT_USAGE;
}

/* Option parsing: "--name value" or "--name=value".  Returns the value and
 * advances *i, or NULL if argv[*i] is not option name. */
static const char *opt_value(int argc, char **argv, int *i, const char *name, int *missing)
{
    size_t n = strlen(name);
    const char *a = argv[*i];
    if (strncmp(a, name, n) != 0)
        return NULL;
    if (a[n] == '=')
        return a + n + 1;
    if (a[n] != '\0')
        return NULL;
    if (*i + 1 >= argc) {
        *missing = 1;
        return NULL;
    }
    *i += 1;
    return argv[*i];
}

static void flags_string(uint32_t flags, char *buf, size_t len)
{
    static const struct {
        uint32_t bit;
        const char *name;
    } names[] = {
        {TRF_COMPLETE, "complete"},
        {TRF_HAS_VALUES, "values"},
        {TRF_HAS_BRANCHES, "branches"},
    };
    size_t used = 0;
    buf[0] = '\0';
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        if (flags & names[k].bit) {
            int w = snprintf(buf + used, len - used, "%s%s", used ? "," : "", names[k].name);
            if (w > 0 && (size_t)w < len - used)
                used += (size_t)w;
            flags &= ~names[k].bit;
        }
    }
    if (flags)
        snprintf(buf + used, len - used, "%s0x%" PRIx32, used ? "," : "", flags);
    else if (used == 0)
        snprintf(buf, len, "none");
}

static int cmd_info(int argc, char **argv)
{
    const char *key = NULL, *path = NULL;
    for (int i = 1; i < argc; i++) {
        int missing = 0;
        const char *v = opt_value(argc, argv, &i, "--meta", &missing);
        if (missing)
            return usage("--meta needs a KEY");
        if (v) {
            key = v;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return usage("unknown option '%s' for info", argv[i]);
        } else if (path) {
            return usage("info takes one FILE");
        } else {
            path = argv[i];
        }
    }
    if (!path)
        return usage("info takes one FILE");
    char err[1024];
    struct trace_reader *r = trace_reader_open(path, err, sizeof err);
    if (!r) {
        fprintf(stderr, "%s\n", err);
        return EXIT_BAD;
    }
    const struct trace_header *h = trace_reader_header(r);
    if (key) {
        const char *value = trace_meta_get(h, key);
        if (value)
            printf("%s\n", value);
        else
            fprintf(stderr, "%s: no metadata key '%s' (trace format v%u)\n", path, key, h->version);
        trace_reader_close(r);
        return value ? EXIT_OK : EXIT_BAD;
    }
    char flags[128];
    flags_string(h->meta.flags, flags, sizeof flags);
    printf("file          %s\n", path);
    printf("version       %" PRIu32 "\n", h->version);
    printf("workload      %s\n", h->meta.workload);
    printf("producer      %s\n", h->meta.producer);
    printf("command       %s\n", h->meta.command);
    printf("skip          %" PRIu64 " instructions\n", h->meta.skip);
    if (h->meta.window)
        printf("window        %" PRIu64 " instructions\n", h->meta.window);
    else
        printf("window        0 (whole run)\n");
    printf("flags         %s\n", flags);
    printf("events        %" PRIu64 "\n", h->events);
    for (int k = 0; k < EV_KINDS; k++)
        printf("  %-11s %" PRIu64 "\n", ev_kind_name[k], h->counts[k]);
    printf("blocks        %" PRIu64 "\n", h->blocks);
    if (h->meta_bytes)
        printf("bytes         %" PRIu64 " (header %u + metadata %" PRIu32 " + blocks %" PRIu64 ")\n",
               trace_reader_size(r), TRACE_HEADER_SIZE, h->meta_bytes, h->payload_bytes);
    else
        printf("bytes         %" PRIu64 " (header %u + blocks %" PRIu64 ")\n", trace_reader_size(r),
               TRACE_HEADER_SIZE, h->payload_bytes);
    if (h->events)
        printf("bytes/event   %.3f\n", (double)h->payload_bytes / (double)h->events);
    else
        printf("bytes/event   -\n");
    printf("metadata      %" PRIu32 " keys\n", h->meta.kv_count);
    const char *v;
    for (const char *k = trace_meta_next(&h->meta, NULL, &v); k; k = trace_meta_next(&h->meta, k, &v))
        printf("  %-17s %s\n", k, v);
    trace_reader_close(r);
    if (fflush(stdout) != 0) {
        fprintf(stderr, "<stdout>: write error: %s\n", strerror(errno));
        return EXIT_BAD;
    }
    return EXIT_OK;
}

/* Decode FILE; with w, write every event to it.  Returns an exit status. */
static int decode_all(const char *path, struct tt_writer *w, uint64_t *events)
{
    char err[1024];
    struct trace_reader *r = trace_reader_open(path, err, sizeof err);
    if (!r) {
        fprintf(stderr, "%s\n", err);
        return EXIT_BAD;
    }
    struct event *buf = malloc(BATCH * sizeof *buf);
    if (!buf) {
        fprintf(stderr, "%s: out of memory\n", path);
        trace_reader_close(r);
        return EXIT_BAD;
    }
    int rc = EXIT_OK;
    *events = 0;
    for (;;) {
        long n = trace_reader_read(r, buf, BATCH);
        if (n < 0) {
            if (w)
                tt_writer_finish(w); /* what was decoded precedes the message */
            fprintf(stderr, "%s\n", trace_reader_error(r));
            rc = EXIT_BAD;
            break;
        }
        if (n == 0)
            break;
        *events += (uint64_t)n;
        if (w && tt_writer_put(w, buf, (size_t)n) != 0) {
            fprintf(stderr, "<stdout>: %s\n", tt_writer_error(w));
            rc = EXIT_BAD;
            break;
        }
    }
    if (rc == EXIT_OK && w && tt_writer_finish(w) != 0) {
        fprintf(stderr, "<stdout>: %s\n", tt_writer_error(w));
        rc = EXIT_BAD;
    }
    free(buf);
    trace_reader_close(r);
    return rc;
}

static int cmd_check(int argc, char **argv)
{
    if (argc != 2)
        return usage("check takes one FILE");
    uint64_t events;
    int rc = decode_all(argv[1], NULL, &events);
    if (rc == EXIT_OK)
        printf("%s: ok, %" PRIu64 " events\n", argv[1], events);
    return rc;
}

static int cmd_cat(int argc, char **argv)
{
    enum tt_format fmt = TT_TEXT;
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        int missing = 0;
        const char *v;
        if ((v = opt_value(argc, argv, &i, "--format", &missing))) {
            if (tt_format_parse(v, &fmt) != 0)
                return usage("unknown --format '%s' (text or lackey)", v);
        } else if (missing) {
            return usage("%s needs a value", argv[i]);
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return usage("unknown option '%s'", argv[i]);
        } else if (!path) {
            path = argv[i];
        } else {
            return usage("cat takes one FILE");
        }
    }
    if (!path)
        return usage("cat needs a FILE");
    struct tt_writer *w = tt_writer_create(fmt, stdout);
    if (!w) {
        fprintf(stderr, "hwprof trace: out of memory\n");
        return EXIT_BAD;
    }
    uint64_t events;
    int rc = decode_all(path, w, &events);
    tt_writer_free(w);
    return rc;
}

/* Copy s into a fixed meta field; -1 if it does not fit. */
static int set_field(char *dst, size_t cap, const char *s)
{
    size_t n = strlen(s);
    if (n >= cap)
        return -1;
    memcpy(dst, s, n + 1);
    return 0;
}

static int cmd_import(int argc, char **argv)
{
    enum tt_format fmt = TT_TEXT;
    int have_from = 0;
    const char *workload = NULL, *command = NULL, *in_path = NULL, *out_path = NULL;
    int level = DEFAULT_ZSTD_LEVEL;
    /* Metadata pairs are collected first: meta is zeroed below. */
    static struct trace_meta kv;
    memset(&kv, 0, sizeof kv);
    for (int i = 1; i < argc; i++) {
        int missing = 0;
        const char *v;
        if ((v = opt_value(argc, argv, &i, "--meta", &missing))) {
            const char *eq = strchr(v, '=');
            char key[TRACE_META_KEY_MAX + 2], why[256];
            size_t kn = eq ? (size_t)(eq - v) : 0;
            if (!eq || kn > TRACE_META_KEY_MAX)
                return usage("--meta needs KEY=VALUE (KEY at most %u bytes), not '%s'", TRACE_META_KEY_MAX, v);
            memcpy(key, v, kn);
            key[kn] = '\0';
            if (trace_meta_find(&kv, key))
                return usage("--meta: key '%s' given twice", key);
            if (trace_meta_set(&kv, key, eq + 1, why, sizeof why) != 0)
                return usage("--meta: %s", why);
        } else if (!missing && (v = opt_value(argc, argv, &i, "--from", &missing))) {
            if (tt_format_parse(v, &fmt) != 0)
                return usage("unknown --from '%s' (text or lackey)", v);
            have_from = 1;
        } else if (!missing && (v = opt_value(argc, argv, &i, "--workload", &missing))) {
            workload = v;
        } else if (!missing && (v = opt_value(argc, argv, &i, "--command", &missing))) {
            command = v;
        } else if (!missing && (v = opt_value(argc, argv, &i, "--level", &missing))) {
            char *end;
            long l = strtol(v, &end, 10);
            if (*v == '\0' || *end != '\0' || l < 1 || l > 19)
                return usage("--level must be an integer in [1, 19], not '%s'", v);
            level = (int)l;
        } else if (missing) {
            return usage("%s needs a value", argv[i]);
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return usage("unknown option '%s'", argv[i]);
        } else if (!in_path) {
            in_path = argv[i];
        } else if (!out_path) {
            out_path = argv[i];
        } else {
            return usage("import takes IN and OUT");
        }
    }
    if (!have_from)
        return usage("import needs --from text|lackey");
    if (!workload || !*workload)
        return usage("import needs --workload NAME");
    if (!in_path || !out_path)
        return usage("import needs IN and OUT");

    static struct trace_meta meta;
    meta = kv;
    if (set_field(meta.workload, sizeof meta.workload, workload) != 0)
        return usage("--workload '%s' is longer than 63 bytes", workload);
    snprintf(meta.producer, sizeof meta.producer, "import-%s", tt_format_name(fmt));
    /* Lackey has no values and no control flow; the text format can carry both. */
    meta.flags = fmt == TT_TEXT ? (TRF_HAS_VALUES | TRF_HAS_BRANCHES) : 0;

    int use_stdin = strcmp(in_path, "-") == 0;
    const char *in_name = use_stdin ? "<stdin>" : in_path;
    FILE *in = use_stdin ? stdin : fopen(in_path, "rb");
    if (!in) {
        fprintf(stderr, "%s: cannot open: %s\n", in_path, strerror(errno));
        return EXIT_BAD;
    }
    /* fopen() opens a directory, whose first read fails with EISDIR. */
    struct stat in_st;
    if (fstat(fileno(in), &in_st) == 0 && S_ISDIR(in_st.st_mode)) {
        fprintf(stderr, "%s: is a directory (not a regular file)\n", in_name);
        if (!use_stdin)
            fclose(in);
        return EXIT_BAD;
    }
    struct tt_reader *r = tt_reader_create(fmt, in, in_name);
    struct event *buf = malloc(BATCH * sizeof *buf);
    struct trace_writer *w = NULL;
    int rc = EXIT_BAD;
    char err[1024];
    if (!r || !buf) {
        fprintf(stderr, "%s: out of memory\n", in_name);
        goto done;
    }
    for (;;) {
        long n = tt_reader_read(r, buf, BATCH);
        if (n < 0) {
            fprintf(stderr, "%s\n", tt_reader_error(r));
            goto done;
        }
        if (!w) {
            /* Opened after the first batch so that Lackey's Command line,
             * which precedes the events, can fill meta.command. */
            const char *cmd = command ? command : tt_reader_command(r);
            if (cmd)
                snprintf(meta.command, sizeof meta.command, "%s", cmd);
            w = trace_writer_open(out_path, &meta, level, err, sizeof err);
            if (!w) {
                fprintf(stderr, "%s\n", err);
                goto done;
            }
        }
        if (n == 0)
            break;
        if (trace_writer_add(w, buf, (size_t)n) != 0) {
            fprintf(stderr, "%s\n", trace_writer_error(w));
            goto done;
        }
    }
    struct trace_writer *finished = w;
    w = NULL;
    if (trace_writer_close(finished, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        goto done;
    }
    rc = EXIT_OK;
done:
    trace_writer_abort(w);
    free(buf);
    tt_reader_free(r);
    if (!use_stdin)
        fclose(in);
    return rc;
}

int trace_cli_main(int argc, char **argv)
{
    if (argc < 2)
        return usage(NULL);
    const char *sub = argv[1];
    if (strcmp(sub, "-h") == 0 || strcmp(sub, "--help") == 0 || strcmp(sub, "help") == 0) {
        fputs(usage_text, stdout);
        return EXIT_OK;
    }
    if (strcmp(sub, "info") == 0)
        return cmd_info(argc - 1, argv + 1);
    if (strcmp(sub, "check") == 0)
        return cmd_check(argc - 1, argv + 1);
    if (strcmp(sub, "cat") == 0)
        return cmd_cat(argc - 1, argv + 1);
    if (strcmp(sub, "import") == 0)
        return cmd_import(argc - 1, argv + 1);
    return usage("unknown subcommand '%s'", sub);
}
