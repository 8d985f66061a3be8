/* cli.h - what the subcommands of `hwprof` share: exit codes, number
 * options, default folders.
 *
 * Exit codes of every subcommand:
 *   0  success
 *   1  an error in the work: an invalid config, a missing or bad trace, a
 *      failed run (messages on stderr; nothing partial written)
 *   2  bad command-line usage (message and usage on stderr)
 */
#ifndef CLI_H
#define CLI_H

#include <stdint.h>
#include <stdio.h>

enum { EXIT_OK = 0, EXIT_ERROR = 1, EXIT_USAGE = 2 };

/* A whole decimal number in [lo, hi]; -1 if v is not one. */
int cli_count(const char *v, unsigned long long lo, unsigned long long hi, unsigned long long *out);
/* A number in [lo, hi]; -1 if v is not one. */
int cli_real(const char *v, double lo, double hi, double *out);
/* given, or "experiments" when that folder exists here, or NULL. */
const char *cli_experiments_dir(const char *given);
/* Every configs/<paper>/<stem>.json under dir, sorted.  Returns the count
 * (or -1 on out of memory); *out is malloc'd. */
int cli_collect_configs(const char *dir, char (**out)[1024]);

/* The subcommands, one cmd_<name> each, in cmd_<file>.c (its top comment
 * is the command's synopsis).  argv[0] is the subcommand's name: main.c
 * calls cmd_x(argc - 1, argv + 1) for `hwprof x ...`.  Each returns the
 * exit status above. */
int cmd_run(int argc, char **argv);      /* cmd_run.c */
int cmd_merge(int argc, char **argv);    /* cmd_run.c */
int cmd_validate(int argc, char **argv); /* cmd_validate.c */
int cmd_models(int argc, char **argv);   /* cmd_models.c */
int cmd_params(int argc, char **argv);   /* cmd_models.c */
int cmd_stages(int argc, char **argv);   /* cmd_models.c */
int cmd_plot(int argc, char **argv);     /* cmd_plot.c */
int cmd_table(int argc, char **argv);    /* cmd_plot.c */
int cmd_trace(int argc, char **argv);    /* cmd_trace.c: info, check, cat, import */
int cmd_simpoint(int argc, char **argv); /* cmd_simpoint.c */
int cmd_docs(int argc, char **argv);     /* cmd_docs.c */
int cmd_claims(int argc, char **argv);   /* cmd_claims.c */

#endif
