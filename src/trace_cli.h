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
 * Errors are one line on stderr naming the file and the line:column or byte
 * offset.  Exit status: 0 success, 1 bad input or I/O error, 2 usage error.
 * A failed import leaves no OUT (nor its temporary file).
 */
#ifndef TRACE_CLI_H
#define TRACE_CLI_H

/* argv[0] is "trace" (main.c passes argc - 1, argv + 1 of `hwprof trace ...`). */
int trace_cli_main(int argc, char **argv);

#endif
