/* trace_cli.h - the `hwprof trace ...` subcommands: inspect, print, verify
 * and import traces.
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
#ifndef TRACE_CLI_H
#define TRACE_CLI_H

/* argv[0] is "trace" (main.c passes argc - 1, argv + 1 of `hwprof trace ...`). */
int trace_cli_main(int argc, char **argv);

#endif
