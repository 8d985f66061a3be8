/* cmd_docs.c - `hwprof docs [--check] FILE.md...` (cmd_docs, cli.h): read
 * each document, fill its markers (docfill_text, report/docfill.h) and
 * replace the file atomically (outfile.h) only when its text changes, so a
 * second run leaves it untouched; with --check compare instead of writing.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cliopt.h"
#include "core/diag.h"
#include "core/outfile.h"
#include "core/sbuf.h"
#include "report/docfill.h"
#include "report/readfile.h"

static const char docs_usage[] =
    "usage: hwprof docs FILE.md... [--check]\n"
    "  Fill the markers of markdown documents from the results CSVs: every\n"
    "  <!-- value ... -->number<!-- /value --> and every table between\n"
    "  <!-- table ... --> and <!-- /table --> (docs/docfill.md).  src= paths\n"
    "  are relative to the document's folder.  A file is rewritten (atomically)\n"
    "  only when a number changes.\n"
    "  --check          write nothing; list every number or table cell that\n"
    "                   differs from the results\n"
    "  -q, --quiet      no summary line\n"
    "  -h, --help       this text\n"
    "Exit status: 0 filled (--check: all agree), 1 error or (--check) a difference, 2 usage.\n";

/* The folder part of path ("." for none), malloc'd. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return mem_strdup(".");
    if (slash == path)
        return mem_strdup("/");
    char *d = mem_alloc((size_t)(slash - path) + 1);
    memcpy(d, path, (size_t)(slash - path));
    return d;
}

static int docs_file(const char *path, bool check, bool quiet)
{
    size_t len = 0, out_len = 0;
    char *text = read_file(path, &len);
    if (!text) {
        fprintf(stderr, "%s: cannot read: %s\n", path, strerror(errno ? errno : EIO));
        return EXIT_ERROR;
    }
    char *base = dir_of(path);
    struct diag errors, report;
    struct docfill_stats st;
    diag_init(&errors, path);
    diag_init(&report, path);
    char *out = docfill_text(text, len, path, base, &out_len, &errors, check ? &report : NULL, &st);
    int rc = EXIT_OK;
    if (!out) {
        diag_print(&errors, stderr, NULL);
        fprintf(stderr, "%s: %zu error%s; nothing written\n", path, diag_count(&errors),
                diag_count(&errors) == 1 ? "" : "s");
        rc = EXIT_ERROR;
    } else if (check) {
        if (!diag_ok(&report)) {
            diag_print(&report, stderr, NULL);
            fprintf(stderr, "%s: %zu difference%s from the results (`hwprof docs %s` rewrites them)\n", path,
                    diag_count(&report), diag_count(&report) == 1 ? "" : "s", path);
            rc = EXIT_ERROR;
        } else if (!quiet) {
            printf("%s: %zu values and %zu tables agree with the results\n", path, st.values, st.tables);
        }
    } else if (out_len != len || memcmp(out, text, len) != 0) {
        struct outfile o;
        FILE *f = outfile_open(&o, path);
        if (!f || fwrite(out, 1, out_len, f) != out_len || outfile_close(&o) != 0 || outfile_commit(&o, 1) != 0) {
            if (f)
                outfile_discard(&o, 1);
            fprintf(stderr, "%s: not rewritten\n", path);
            rc = EXIT_ERROR;
        } else if (!quiet) {
            printf("%s: %zu of %zu values and %zu of %zu tables updated\n", path, st.values_changed, st.values,
                   st.tables_changed, st.tables);
        }
    } else if (!quiet) {
        printf("%s: up to date (%zu values, %zu tables)\n", path, st.values, st.tables);
    }
    free(out);
    free(text);
    free(base);
    diag_free(&errors);
    diag_free(&report);
    return rc;
}

int cmd_docs(int argc, char **argv)
{
    static const struct option opts[] = {{"check", no_argument, NULL, 'c'},
                                         {"quiet", no_argument, NULL, 'q'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    bool check = false, quiet = false;
    int c;
    optind = 0; /* glibc: full re-initialisation (the tests call us repeatedly) */
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":qh", opts, NULL)) != -1) {
        switch (c) {
        case 'c':
            check = true;
            break;
        case 'q':
            quiet = true;
            break;
        case 'h':
            fputs(docs_usage, stdout);
            return EXIT_OK;
        default:
            return cli_option_error("hwprof docs", c, argv, ":qh", opts);
        }
    }
    if (optind >= argc) {
        fprintf(stderr, "hwprof docs: which file?\n%s", docs_usage);
        return EXIT_USAGE;
    }
    int rc = EXIT_OK;
    for (int i = optind; i < argc; i++)
        if (docs_file(argv[i], check, quiet) != EXIT_OK)
            rc = EXIT_ERROR;
    return rc;
}
