/* cmd_run.c - `hwprof run CONFIG...`: run sweeps.
 *
 * Every config is loaded first; invalid ones are reported (every error) and
 * skipped, the stale others run in one plan (run.h, run_configs), and a
 * failed config does not stop the others (a run checks its traces and
 * output folders before its first job, run.h; so does --dry-run).  A summary names what failed or was skipped;
 * the exit status is 1 if anything did.  Also `hwprof merge CONFIG...`:
 * results from shards. */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cliopt.h"
#include "run/config.h"
#include "run/engine.h"
#include "run/run.h"

static void usage(FILE *f)
{
    fputs("usage: hwprof run [options] CONFIG...\n"
          "Run the sweeps of the configs over the traces; write <out>/<paper>/<stem>.csv, .json\n"
          "(and .series.csv / .<table>.csv when the config asks for model tables).  Several configs\n"
          "run in one plan: each trace window decoded once, and every stage and model instance they\n"
          "share computed once, for all of them (each result as its config's run alone).\n"
          "  -t, --traces=DIR         trace folder [traces/default]; a config's own \"traces\" key wins\n"
          "  -o, --out=DIR            results folder [results]\n"
          "  -e, --experiments=DIR    workload definitions, for \"all\" and name checks [experiments]\n"
          "  -j, --threads=N          worker threads [online CPUs]\n"
          "      --lanes=N            at most N threads per trace (1: one thread per trace) [threads]\n"
          "      --max-events=N       stop each trace after N events (quick trials)\n"
          "  -n, --dry-run            list the jobs, their traces and the sweep points; run nothing, but\n"
          "                           check the traces and output folders as a run does first (exit 1\n"
          "                           when a run would stop there)\n"
          "  -c, --if-changed         skip a config whose result records the same config, sources and\n"
          "                           traces (by content; what make uses) and whose CSVs are intact\n"
          "      --shard=I/N          run shard I (0-based) of N: a slice of the jobs (trace windows); its\n"
          "                           results stay in <out>/<paper>/<stem>.parts/ for `hwprof merge`\n"
          "      --no-resume          ignore the parts an interrupted run left (recompute every job)\n"
          "  -q, --quiet              no progress or summary on stderr\n"
          "      --progress-interval=S  seconds between progress lines when stderr is not a terminal [10]\n"
          "  -h, --help               this text\n"
          "Exit status: 0 all configs ran, 1 a config was invalid or a run failed, 2 usage.\n",
          f);
}

int cmd_run(int argc, char **argv)
{
    struct run_options o = { .traces_dir = "traces/default", .out_dir = "results", .progress_interval = 10,
                             .argc = argc, .argv = argv };
    const char *exp = NULL;
    int dry = 0;
    static const struct option opts[] = {
        { "traces", required_argument, NULL, 't' },   { "out", required_argument, NULL, 'o' },
        { "experiments", required_argument, NULL, 'e' }, { "threads", required_argument, NULL, 'j' },
        { "lanes", required_argument, NULL, 'L' },     { "max-events", required_argument, NULL, 'M' },
        { "dry-run", no_argument, NULL, 'n' },         { "quiet", no_argument, NULL, 'q' },
        { "progress-interval", required_argument, NULL, 'P' }, { "help", no_argument, NULL, 'h' },
        { "if-changed", no_argument, NULL, 'c' },      { "shard", required_argument, NULL, 'S' },
        { "no-resume", no_argument, NULL, 'R' },
        { NULL, 0, NULL, 0 },
    };
    optind = 0;
    int ch;
    unsigned long long x;
    while ((ch = getopt_long(argc, argv, "t:o:e:j:nqch", opts, NULL)) != -1) {
        switch (ch) {
        case 't': o.traces_dir = optarg; break;
        case 'o': o.out_dir = optarg; break;
        case 'e': exp = optarg; break;
        case 'j':
            if (cli_count(optarg, 1, 4096, &x) != 0) {
                fprintf(stderr, "hwprof run: --threads must be a whole number in [1, 4096], not '%s'\n", optarg);
                return EXIT_USAGE;
            }
            o.threads = (int)x;
            break;
        case 'L':
            if (cli_count(optarg, 1, 4096, &x) != 0) {
                fprintf(stderr, "hwprof run: --lanes must be a whole number in [1, 4096], not '%s'\n", optarg);
                return EXIT_USAGE;
            }
            o.max_lanes = (int)x;
            break;
        case 'M':
            if (cli_count(optarg, 1, UINT64_MAX, &x) != 0) {
                fprintf(stderr, "hwprof run: --max-events must be a whole number >= 1, not '%s'\n", optarg);
                return EXIT_USAGE;
            }
            o.max_events = x;
            break;
        case 'P':
            if (cli_real(optarg, 0.1, 86400, &o.progress_interval) != 0) {
                fprintf(stderr, "hwprof run: --progress-interval must be seconds in [0.1, 86400], not '%s'\n",
                        optarg);
                return EXIT_USAGE;
            }
            break;
        case 'n': dry = 1; break;
        case 'c': o.if_changed = 1; break;
        case 'R': o.no_resume = 1; break;
        case 'S': {
            unsigned long long i, n;
            char *slash = strchr(optarg, '/');
            if (slash)
                *slash = '\0';
            if (!slash || cli_count(optarg, 0, 1000000, &i) != 0 || cli_count(slash + 1, 1, 1000000, &n) != 0 || i >= n) {
                fprintf(stderr, "hwprof run: --shard must be I/N with 0 <= I < N, not '%s%s%s'\n", optarg,
                        slash ? "/" : "", slash ? slash + 1 : "");
                return EXIT_USAGE;
            }
            o.shard = (int)i;
            o.nshards = (int)n;
            break;
        }
        case 'q': o.quiet = 1; break;
        case 'h': usage(stdout); return EXIT_OK;
        default: return cli_option_error("hwprof run", ch, argv, "t:o:e:j:nqch", opts);
        }
    }
    if (optind >= argc) {
        fprintf(stderr, "hwprof run: no config given\n");
        usage(stderr);
        return EXIT_USAGE;
    }
    if (!o.threads)
        o.threads = engine_default_threads();
    exp = cli_experiments_dir(exp);
    int n = argc - optind;
    struct config **cs = calloc((size_t)n, sizeof *cs);
    int *status = calloc((size_t)n, sizeof *status); /* 0 ok, 1 invalid, 2 failed */
    if (!cs || !status) {
        fprintf(stderr, "hwprof run: out of memory\n");
        free(cs);
        free(status);
        return EXIT_ERROR;
    }
    for (int i = 0; i < n; i++) {
        struct diag d;
        diag_init(&d, NULL);
        cs[i] = config_load(argv[optind + i], exp, &d);
        if (!cs[i]) {
            diag_print(&d, stderr, NULL);
            status[i] = 1;
        }
        diag_free(&d);
    }
    int bad = 0;
    if (dry) {
        for (int i = 0; i < n; i++) {
            if (!cs[i])
                continue;
            struct run_options oc = o; /* a config's own "traces" folder replaces --traces */
            if (cs[i]->traces[0])
                oc.traces_dir = cs[i]->traces;
            if (run_dry(cs[i], &oc, stdout) != 0)
                status[i] = 2;
        }
    } else {
        /* the stale configs in one plan (run.h) */
        int *runfail = calloc((size_t)n, sizeof *runfail);
        if (!runfail) {
            fprintf(stderr, "hwprof run: out of memory\n");
            for (int i = 0; i < n; i++)
                config_free(cs[i]);
            free(cs);
            free(status);
            return EXIT_ERROR;
        }
        run_configs(cs, (size_t)n, &o, runfail);
        for (int i = 0; i < n; i++)
            if (cs[i] && runfail[i])
                status[i] = 2;
        free(runfail);
    }
    for (int i = 0; i < n; i++)
        config_free(cs[i]);
    for (int i = 0; i < n; i++)
        bad += status[i] != 0;
    if (bad && (n > 1 || !o.quiet)) {
        fprintf(stderr, "hwprof run: %d of %d config%s not done:\n", bad, n, n == 1 ? "" : "s");
        for (int i = 0; i < n; i++)
            if (status[i])
                fprintf(stderr, "  %s: %s\n", argv[optind + i], status[i] == 1 ? "invalid (skipped)" : "run failed");
    }
    free(cs);
    free(status);
    return bad ? EXIT_ERROR : EXIT_OK;
}

static void merge_usage(FILE *f)
{
    fputs("usage: hwprof merge [options] CONFIG...\n"
          "Write the results of configs run as shards (hwprof run --shard=I/N) from their parts, byte for\n"
          "byte what one run writes; refuse a set with a missing job or a part of another config, build or\n"
          "trace (nothing written).\n"
          "  -t, --traces=DIR         trace folder [traces/default]; a config's own \"traces\" key wins\n"
          "  -o, --out=DIR            results folder [results]\n"
          "  -e, --experiments=DIR    workload definitions [experiments]\n"
          "      --shards=N           the number of shards, to name the shard of a missing job\n"
          "  -c, --if-changed         skip a config whose result is current (nothing to merge)\n"
          "  -q, --quiet              no summary\n"
          "  -h, --help               this text\n"
          "Exit status: 0 merged, 1 incomplete or mixed (or invalid config), 2 usage.\n",
          f);
}

int cmd_merge(int argc, char **argv)
{
    struct run_options o = { .traces_dir = "traces/default", .out_dir = "results", .argc = argc, .argv = argv,
                             .threads = 1 };
    const char *exp = NULL;
    static const struct option opts[] = {
        { "traces", required_argument, NULL, 't' }, { "out", required_argument, NULL, 'o' },
        { "experiments", required_argument, NULL, 'e' }, { "shards", required_argument, NULL, 'N' },
        { "if-changed", no_argument, NULL, 'c' },     { "quiet", no_argument, NULL, 'q' },
        { "help", no_argument, NULL, 'h' },           { NULL, 0, NULL, 0 },
    };
    optind = 0;
    int ch;
    unsigned long long x;
    while ((ch = getopt_long(argc, argv, "t:o:e:cqh", opts, NULL)) != -1) {
        switch (ch) {
        case 't': o.traces_dir = optarg; break;
        case 'o': o.out_dir = optarg; break;
        case 'e': exp = optarg; break;
        case 'N':
            if (cli_count(optarg, 1, 1000000, &x) != 0) {
                fprintf(stderr, "hwprof merge: --shards must be a whole number >= 1, not '%s'\n", optarg);
                return EXIT_USAGE;
            }
            o.nshards = (int)x;
            break;
        case 'c': o.if_changed = 1; break;
        case 'q': o.quiet = 1; break;
        case 'h': merge_usage(stdout); return EXIT_OK;
        default: return cli_option_error("hwprof merge", ch, argv, "t:o:e:cqh", opts);
        }
    }
    if (optind >= argc) {
        fprintf(stderr, "hwprof merge: no config given\n");
        merge_usage(stderr);
        return EXIT_USAGE;
    }
    exp = cli_experiments_dir(exp);
    int bad = 0;
    for (int i = optind; i < argc; i++) {
        struct diag d;
        diag_init(&d, NULL);
        struct config *c = config_load(argv[i], exp, &d);
        if (!c) {
            diag_print(&d, stderr, NULL);
            bad++;
        } else {
            struct run_options oc = o; /* a config's own "traces" folder replaces --traces */
            if (c->traces[0])
                oc.traces_dir = c->traces;
            if (merge_config(c, &oc) != 0)
                bad++;
        }
        config_free(c);
        diag_free(&d);
    }
    return bad ? EXIT_ERROR : EXIT_OK;
}
