/* cmd_validate.c - `hwprof validate [CONFIG...]`: check configs without
 * running them; every error of every config is listed. */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/cliopt.h"
#include "run/config.h"

static void usage(FILE *f)
{
    fputs("usage: hwprof validate [options] [CONFIG...]\n"
          "Check configs (default: every configs/<paper>/<stem>.json) without running them.\n"
          "  -e, --experiments=DIR    workload definitions [experiments]\n"
          "  -q, --quiet              no summary line\n"
          "  -h, --help               this text\n"
          "Exit status: 0 all valid, 1 a config is invalid, 2 usage.\n",
          f);
}

int cmd_validate(int argc, char **argv)
{
    const char *exp = NULL;
    int quiet = 0;
    static const struct option opts[] = {
        { "experiments", required_argument, NULL, 'e' },
        { "quiet", no_argument, NULL, 'q' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    optind = 0;
    opterr = 0;
    int ch;
    while ((ch = getopt_long(argc, argv, ":e:qh", opts, NULL)) != -1) {
        switch (ch) {
        case 'e': exp = optarg; break;
        case 'q': quiet = 1; break;
        case 'h': usage(stdout); return EXIT_OK;
        default: return cli_option_error("hwprof validate", ch, argv, ":e:qh", opts);
        }
    }
    char(*paths)[1024] = NULL;
    int n = argc - optind;
    if (n == 0) {
        struct stat st;
        if (stat("configs", &st) != 0 || !S_ISDIR(st.st_mode)) {
            fprintf(stderr, "hwprof validate: no configs/ folder here: run it from the repository's top, or "
                            "name the configs to check\n");
            return EXIT_USAGE;
        }
        n = cli_collect_configs("configs", &paths);
        if (n < 0) {
            fprintf(stderr, "hwprof validate: out of memory\n");
            return EXIT_ERROR;
        }
    } else {
        paths = calloc((size_t)n, sizeof *paths);
        if (!paths)
            return EXIT_ERROR;
        for (int i = 0; i < n; i++)
            snprintf(paths[i], sizeof paths[i], "%s", argv[optind + i]);
    }
    exp = cli_experiments_dir(exp);
    if (!exp)
        fprintf(stderr, "hwprof validate: no experiments/ folder here (--experiments DIR): the suite's workload "
                        "names are not checked (those of a config's \"traces\" folder are)\n");
    int bad = 0;
    size_t errors = 0;
    for (int i = 0; i < n; i++) {
        struct diag d;
        diag_init(&d, NULL);
        struct config *c = config_load(paths[i], exp, &d);
        if (!c) {
            diag_print(&d, stderr, NULL);
            errors += diag_count(&d);
            bad++;
        }
        config_free(c);
        diag_free(&d);
    }
    if (!quiet)
        printf("%d config%s checked, %d invalid (%zu error%s)\n", n, n == 1 ? "" : "s", bad, errors,
               errors == 1 ? "" : "s");
    free(paths);
    return bad ? EXIT_ERROR : EXIT_OK;
}
