/* cmd_trace.c - `hwprof trace info|check|cat|import` (cmd_trace, cli.h):
 * inspect, print, verify and import traces.
 *
 *   hwprof trace info [--meta KEY] FILE        header summary and metadata (no decoding)
 *   hwprof trace check FILE                    decode every block, verify counts
 *   hwprof trace cat [--format text|lackey] FILE   events as text on stdout
 *   hwprof trace import --from text|lackey --workload NAME
 *                       [--command STR] [--level N] [--meta KEY=VALUE]...
 *                       IN OUT   (IN may be -)
 *
 * Each takes --help (-h).  Errors are one line on stderr naming the file and
 * the line:column or byte offset; usage errors (a misspelt subcommand or
 * option with a suggestion: cliopt.h) are one line too.  Exit status: 0
 * success, 1 bad input or I/O error, 2 usage error.  import refuses an
 * input without events and a workload NAME other than 1 to 63 letters,
 * digits, '.', '_' and '-' starting with a letter or digit.  A failed
 * import leaves no OUT (nor its temporary file).
 */
#include "cli/cli.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cliopt.h"
#include "trace/event.h"
#include "trace/trace.h"
#include "trace/trace_text.h"

#define BATCH 8192              /* events per read/write call */
#define DEFAULT_ZSTD_LEVEL 3

static const char info_usage[] =
    "usage: hwprof trace info [--meta KEY] FILE\n"
    "  Print the header: workload, producer, command, window, flags, event\n"
    "  counts per kind, blocks and sizes, and the metadata pairs (does not\n"
    "  decode blocks).\n"
    "  --meta KEY       print only the value of metadata KEY (exit status 1 if\n"
    "                   the trace has no such key)\n"
    "  -h, --help       this text\n";

static const char check_usage[] =
    "usage: hwprof trace check FILE\n"
    "  Decode every block and verify checksums and counts.\n"
    "  -h, --help       this text\n";

static const char cat_usage[] =
    "usage: hwprof trace cat [--format text|lackey] FILE\n"
    "  Print the events on stdout.\n"
    "  --format text    the canonical text format (default)\n"
    "  --format lackey  mimic valgrind --tool=lackey --trace-mem=yes (memory\n"
    "                   events only)\n"
    "  -h, --help       this text\n";

static const char import_usage[] =
    "usage: hwprof trace import --from text|lackey --workload NAME [--command STR]\n"
    "                           [--level N] [--meta KEY=VALUE]... IN OUT\n"
    "  Convert a text or Lackey file (IN, or - for stdin) to a trace OUT (written\n"
    "  under a temporary name and renamed: a failed import leaves no OUT).  An\n"
    "  input without events is refused.\n"
    "  --from FORMAT    text or lackey (required)\n"
    "  --workload NAME  the workload (required): 1 to 63 letters, digits, '.',\n"
    "                   '_' and '-', starting with a letter or digit\n"
    "  --command STR    the command line traced [Lackey's '==pid== Command:' line]\n"
    "  --level N        zstd level, 1..19 [3]\n"
    "  --meta KEY=VALUE add a metadata pair (repeatable)\n"
    "  -h, --help       this text\n";

static const char usage_text[] =
    "usage: hwprof trace info [--meta KEY] FILE\n"
    "       hwprof trace check FILE\n"
    "       hwprof trace cat [--format text|lackey] FILE\n"
    "       hwprof trace import --from text|lackey --workload NAME [--command STR]\n"
    "                           [--level N] [--meta KEY=VALUE]... IN OUT\n"
    "\n"
    "  info    print the header and the metadata pairs (no decoding)\n"
    "  check   decode every block and verify checksums and counts\n"
    "  cat     print the events on stdout (text, or Lackey's format)\n"
    "  import  convert a text or Lackey file to a trace\n"
    "'hwprof trace COMMAND --help' gives the options of each.  Exit status: 0\n"
    "success, 1 bad input or I/O error, 2 usage.  See docs/trace-format.md.\n";

/* A usage error of `hwprof trace SUB`: one line, and a pointer to its
 * --help.  Returns EXIT_USAGE. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static int usage(const char *sub, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "hwprof trace %s: ", sub);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, " (see 'hwprof trace %s --help')\n", sub);
    va_end(ap);
    return EXIT_USAGE;
}

/* getopt_long over argv (argv[0] is the subcommand); returns the option,
 * -1 at the end, or 'h' after printing help.  Errors are reported here and
 * returned as '?'. */
static int next_opt(int argc, char **argv, const char *shortopts, const struct option *opts, const char *cmd)
{
    opterr = 0;
    int ch = getopt_long(argc, argv, shortopts, opts, NULL);
    if (ch == '?' || ch == ':') {
        cli_option_error(cmd, ch, argv, shortopts, opts);
        return '?';
    }
    return ch;
}

/* Exactly one FILE operand left: argv[optind]; else a usage error. */
static int one_file(const char *sub, int argc, char **argv)
{
    if (argc - optind == 1)
        return 0;
    if (argc - optind == 0)
        return usage(sub, "needs a FILE");
    return usage(sub, "takes one FILE (got '%s' and '%s')", argv[optind], argv[optind + 1]);
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

static int cmd_trace_info(int argc, char **argv)
{
    static const struct option opts[] = {
        {"meta", required_argument, NULL, 'm'}, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    const char *key = NULL;
    int ch;
    optind = 0;
    while ((ch = next_opt(argc, argv, ":h", opts, "hwprof trace info")) != -1) {
        switch (ch) {
        case 'm': key = optarg; break;
        case 'h': fputs(info_usage, stdout); return EXIT_OK;
        default: return EXIT_USAGE;
        }
    }
    if (one_file("info", argc, argv) != 0)
        return EXIT_USAGE;
    const char *path = argv[optind];
    char err[1024];
    struct trace_reader *r = trace_reader_open(path, err, sizeof err);
    if (!r) {
        fprintf(stderr, "%s\n", err);
        return EXIT_ERROR;
    }
    const struct trace_header *h = trace_reader_header(r);
    if (key) {
        const char *value = trace_meta_get(h, key);
        if (value)
            printf("%s\n", value);
        else
            fprintf(stderr, "%s: no metadata key '%s' (trace format v%u)\n", path, key, h->version);
        trace_reader_close(r);
        return value ? EXIT_OK : EXIT_ERROR;
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
        return EXIT_ERROR;
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
        return EXIT_ERROR;
    }
    struct event *buf = malloc(BATCH * sizeof *buf);
    if (!buf) {
        fprintf(stderr, "%s: out of memory\n", path);
        trace_reader_close(r);
        return EXIT_ERROR;
    }
    int rc = EXIT_OK;
    *events = 0;
    for (;;) {
        long n = trace_reader_read(r, buf, BATCH);
        if (n < 0) {
            if (w)
                tt_writer_finish(w); /* what was decoded precedes the message */
            fprintf(stderr, "%s\n", trace_reader_error(r));
            rc = EXIT_ERROR;
            break;
        }
        if (n == 0)
            break;
        *events += (uint64_t)n;
        if (w && tt_writer_put(w, buf, (size_t)n) != 0) {
            fprintf(stderr, "<stdout>: %s\n", tt_writer_error(w));
            rc = EXIT_ERROR;
            break;
        }
    }
    if (rc == EXIT_OK && w && tt_writer_finish(w) != 0) {
        fprintf(stderr, "<stdout>: %s\n", tt_writer_error(w));
        rc = EXIT_ERROR;
    }
    free(buf);
    trace_reader_close(r);
    return rc;
}

static int cmd_trace_check(int argc, char **argv)
{
    static const struct option opts[] = {{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    int ch;
    optind = 0;
    while ((ch = next_opt(argc, argv, ":h", opts, "hwprof trace check")) != -1) {
        switch (ch) {
        case 'h': fputs(check_usage, stdout); return EXIT_OK;
        default: return EXIT_USAGE;
        }
    }
    if (one_file("check", argc, argv) != 0)
        return EXIT_USAGE;
    const char *path = argv[optind];
    uint64_t events;
    int rc = decode_all(path, NULL, &events);
    if (rc == EXIT_OK)
        printf("%s: ok, %" PRIu64 " events\n", path, events);
    return rc;
}

static int cmd_trace_cat(int argc, char **argv)
{
    static const struct option opts[] = {
        {"format", required_argument, NULL, 'f'}, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    enum tt_format fmt = TT_TEXT;
    int ch;
    optind = 0;
    while ((ch = next_opt(argc, argv, ":h", opts, "hwprof trace cat")) != -1) {
        switch (ch) {
        case 'f':
            if (tt_format_parse(optarg, &fmt) != 0)
                return usage("cat", "unknown --format '%s' (text or lackey)", optarg);
            break;
        case 'h': fputs(cat_usage, stdout); return EXIT_OK;
        default: return EXIT_USAGE;
        }
    }
    if (one_file("cat", argc, argv) != 0)
        return EXIT_USAGE;
    const char *path = argv[optind];
    struct tt_writer *w = tt_writer_create(fmt, stdout);
    if (!w) {
        fprintf(stderr, "hwprof trace: out of memory\n");
        return EXIT_ERROR;
    }
    uint64_t events;
    int rc = decode_all(path, w, &events);
    tt_writer_free(w);
    return rc;
}

/* NULL if name is a valid workload name, else why not: the names of
 * experiments/<name>.wl, which results and trace file names are made of. */
static const char *workload_problem(const char *name)
{
    size_t n = strlen(name);
    if (n == 0)
        return "is empty";
    if (n >= sizeof ((struct trace_meta *)0)->workload)
        return "is longer than 63 bytes";
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)name[i];
        int alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        if (!alnum && (i == 0 || (c != '.' && c != '_' && c != '-')))
            return i == 0 ? "must start with a letter or digit"
                          : "may hold only letters, digits, '.', '_' and '-'";
    }
    return NULL;
}

static int cmd_trace_import(int argc, char **argv)
{
    static const struct option opts[] = {
        {"from", required_argument, NULL, 'f'},    {"workload", required_argument, NULL, 'w'},
        {"command", required_argument, NULL, 'c'}, {"level", required_argument, NULL, 'l'},
        {"meta", required_argument, NULL, 'm'},    {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    enum tt_format fmt = TT_TEXT;
    int have_from = 0;
    const char *workload = NULL, *command = NULL;
    int level = DEFAULT_ZSTD_LEVEL;
    /* Metadata pairs are collected first: meta is zeroed below. */
    static struct trace_meta kv;
    memset(&kv, 0, sizeof kv);
    int ch;
    optind = 0;
    while ((ch = next_opt(argc, argv, ":h", opts, "hwprof trace import")) != -1) {
        switch (ch) {
        case 'm': {
            const char *v = optarg, *eq = strchr(v, '=');
            char key[TRACE_META_KEY_MAX + 2], why[256];
            size_t kn = eq ? (size_t)(eq - v) : 0;
            if (!eq || kn > TRACE_META_KEY_MAX)
                return usage("import", "--meta needs KEY=VALUE (KEY at most %u bytes), not '%s'",
                             TRACE_META_KEY_MAX, v);
            memcpy(key, v, kn);
            key[kn] = '\0';
            if (trace_meta_find(&kv, key))
                return usage("import", "--meta: key '%s' given twice", key);
            if (trace_meta_set(&kv, key, eq + 1, why, sizeof why) != 0)
                return usage("import", "--meta: %s", why);
            break;
        }
        case 'f':
            if (tt_format_parse(optarg, &fmt) != 0)
                return usage("import", "unknown --from '%s' (text or lackey)", optarg);
            have_from = 1;
            break;
        case 'w': workload = optarg; break;
        case 'c': command = optarg; break;
        case 'l': {
            char *end;
            long l = strtol(optarg, &end, 10);
            if (*optarg == '\0' || *end != '\0' || l < 1 || l > 19)
                return usage("import", "--level must be an integer in [1, 19], not '%s'", optarg);
            level = (int)l;
            break;
        }
        case 'h': fputs(import_usage, stdout); return EXIT_OK;
        default: return EXIT_USAGE;
        }
    }
    if (!have_from)
        return usage("import", "needs --from text|lackey");
    if (!workload)
        return usage("import", "needs --workload NAME");
    const char *why = workload_problem(workload);
    if (why)
        return usage("import", "--workload '%s' %s", workload, why);
    if (argc - optind != 2)
        return usage("import", "needs IN and OUT%s", argc - optind > 2 ? ", nothing more" : "");
    const char *in_path = argv[optind], *out_path = argv[optind + 1];

    static struct trace_meta meta;
    meta = kv;
    snprintf(meta.workload, sizeof meta.workload, "%s", workload);
    snprintf(meta.producer, sizeof meta.producer, "import-%s", tt_format_name(fmt));
    /* Lackey has no values and no control flow; the text format can carry both. */
    meta.flags = fmt == TT_TEXT ? (TRF_HAS_VALUES | TRF_HAS_BRANCHES) : 0;

    int use_stdin = strcmp(in_path, "-") == 0;
    const char *in_name = use_stdin ? "<stdin>" : in_path;
    FILE *in = use_stdin ? stdin : fopen(in_path, "rb");
    if (!in) {
        fprintf(stderr, "%s: cannot open: %s\n", in_path, strerror(errno));
        return EXIT_ERROR;
    }
    /* fopen() opens a directory, whose first read fails with EISDIR. */
    struct stat in_st;
    if (fstat(fileno(in), &in_st) == 0 && S_ISDIR(in_st.st_mode)) {
        fprintf(stderr, "%s: is a directory (not a regular file)\n", in_name);
        if (!use_stdin)
            fclose(in);
        return EXIT_ERROR;
    }
    struct tt_reader *r = tt_reader_create(fmt, in, in_name);
    struct event *buf = malloc(BATCH * sizeof *buf);
    struct trace_writer *w = NULL;
    int rc = EXIT_ERROR;
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
            if (n == 0) {
                fprintf(stderr, "%s: no events (an empty trace is not written)\n", in_name);
                goto done;
            }
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

int cmd_trace(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*fn)(int, char **);
    } subs[] = {{"info", cmd_trace_info}, {"check", cmd_trace_check}, {"cat", cmd_trace_cat}, {"import", cmd_trace_import}};
    if (argc < 2) {
        fputs(usage_text, stderr);
        return EXIT_USAGE;
    }
    const char *sub = argv[1];
    if (strcmp(sub, "-h") == 0 || strcmp(sub, "--help") == 0 || strcmp(sub, "help") == 0) {
        fputs(usage_text, stdout);
        return EXIT_OK;
    }
    const char *names[sizeof subs / sizeof subs[0] + 2];
    size_t n = 0;
    for (; n < sizeof subs / sizeof subs[0]; n++) {
        if (strcmp(sub, subs[n].name) == 0)
            return subs[n].fn(argc - 1, argv + 1);
        names[n] = subs[n].name;
    }
    names[n++] = "help";
    names[n] = NULL;
    if (sub[0] == '-') {
        static const struct option opts[] = {{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
        return cli_unknown_option("hwprof trace", sub, opts);
    }
    return cli_unknown_word("hwprof trace", "subcommand", sub, names);
}
