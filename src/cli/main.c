/* main.c - `hwprof`, the harness's one binary: dispatch to subcommands.
 *
 *   hwprof run CONFIG...        run sweeps (cmd_run.c)
 *   hwprof validate [CONFIG...] check configs (cmd_validate.c)
 *   hwprof models | stages | params [MODEL]   what can be configured (cmd_models.c)
 *   hwprof plot CONFIG | table CONFIG         results -> figures, tables (cmd_plot.c)
 *   hwprof trace info|check|cat|import ...    (cmd_trace.c)
 *   hwprof simpoint FILE.bb ...               SimPoint windows (cmd_simpoint.c)
 *   hwprof docs [--check] FILE.md...          numbers in documents from results (cmd_docs.c)
 *   hwprof claims [--check] [FILE.json...]    verdicts of declared claims from results (cmd_claims.c)
 * Every subcommand takes --help (and -h); a mistyped command or option is
 * one line with a "did you mean" (cliopt.h); exit codes are in cli.h.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cliopt.h"
#include "core/provenance.h"

static void usage(FILE *f)
{
    fputs("usage: hwprof <command> [options]      (hwprof <command> --help for its options)\n"
          "  run CONFIG...          run sweeps; write results/<paper>/<stem>.csv and .json\n"
          "  merge CONFIG...        results of configs run as shards (run --shard=I/N)\n"
          "  validate [CONFIG...]   check configs (default: configs/*/*.json), every error listed\n"
          "  models                 registered models, their metrics and tables\n"
          "  stages                 registered stages (shared inputs of models)\n"
          "  params [MODEL]         parameters, metrics and tables (markdown, docs/params.md)\n"
          "  plot CONFIG...         draw plots/<paper>/<stem>.svg/.png/.pdf\n"
          "  table CONFIG...        render results/<paper>/<stem>.md\n"
          "  trace info|check|cat|import ...   inspect, verify, print, import traces\n"
          "  simpoint FILE.bb ...   choose SimPoint windows from basic-block vectors\n"
          "  docs [--check] FILE.md  fill (or check) the result markers of a document\n"
          "  claims [--check] [FILE.json...]  verdicts of the claims files -> results/claims.csv\n"
          "  --version              version, git revision and compiler of this build\n"
          "Exit status: 0 success, 1 error (invalid config, bad trace, failed run), 2 usage.\n",
          f);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    opterr = 0; /* getopt_long prints nothing: every subcommand reports through cli_option_error */
    static const struct {
        const char *name;
        int (*fn)(int, char **);
    } cmds[] = {
        { "run", cmd_run },       { "validate", cmd_validate }, { "models", cmd_models }, { "stages", cmd_stages },
        { "params", cmd_params }, { "plot", cmd_plot },        { "table", cmd_table },  { "trace", cmd_trace },
        { "simpoint", cmd_simpoint }, { "merge", cmd_merge },
        { "docs", cmd_docs },     { "claims", cmd_claims },
    };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        if (!strcmp(cmd, cmds[i].name))
            return cmds[i].fn(argc - 1, argv + 1);
    if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
        usage(stdout);
        return EXIT_OK;
    }
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V") || !strcmp(cmd, "version")) {
        char line[256];
        prov_version_line(line, sizeof line);
        printf("%s\n", line);
        return EXIT_OK;
    }
    if (cmd[0] == '-') {
        static const struct option opts[] = {
            { "help", no_argument, NULL, 'h' }, { "version", no_argument, NULL, 'V' }, { NULL, 0, NULL, 0 },
        };
        return cli_unknown_option("hwprof", cmd, opts);
    }
    const char *names[sizeof cmds / sizeof cmds[0] + 3];
    size_t n = 0;
    for (; n < sizeof cmds / sizeof cmds[0]; n++)
        names[n] = cmds[n].name;
    names[n++] = "help";
    names[n++] = "version";
    names[n] = NULL;
    return cli_unknown_word("hwprof", "command", cmd, names);
}
