/* cliopt.h - one clear line for a command-line mistake, shared by every
 * subcommand of `hwprof`, with a "did you mean" suggestion from the same
 * edit-distance helper the config validator uses (diag_suggest):
 *
 *   hwprof run: unknown option '--thraeds' (did you mean '--threads'?)
 *   hwprof run: unknown option '--colour' (see 'hwprof run --help')
 *   hwprof run: option '--threads' needs a value (see 'hwprof run --help')
 *   hwprof run: option '--dry-run' takes no value (see 'hwprof run --help')
 *   hwprof run: option '--t' is ambiguous (--traces, --threads)
 *   hwprof: unknown command 'rnu' (did you mean 'run'?)
 *
 * Parsers call getopt_long with opterr = 0 (getopt prints nothing; main.c
 * clears it for every subcommand) and, on '?' or ':', return
 * cli_option_error(...).
 * Every function prints one line on stderr and returns 2 (usage).
 */
#ifndef CLIOPT_H
#define CLIOPT_H

#include <getopt.h>

/* The mistake getopt_long just reported: ch is what it returned ('?' or
 * ':'), argv the vector it parsed, shortopts and longopts what it was
 * given.  cmd names the command in the message ("hwprof run"). */
int cli_option_error(const char *cmd, int ch, char *const *argv, const char *shortopts,
                     const struct option *longopts);

/* "cmd: unknown option 'ARG'" for an option found outside getopt (arg as
 * typed, "--name" or "--name=value"), with a suggestion from longopts
 * (may be NULL). */
int cli_unknown_option(const char *cmd, const char *arg, const struct option *longopts);

/* "cmd: unknown WHAT 'word'" with a suggestion from names (NULL-terminated),
 * or a pointer to `cmd --help` when none is close. */
int cli_unknown_word(const char *cmd, const char *what, const char *word, const char *const *names);

#endif
