/* simpoint_cli.h - `hwprof simpoint`: choose SimPoint windows from a
 * basic-block vector file (see simpoint.h, docs/simpoint.md).
 *
 *   hwprof simpoint FILE.bb --slice N [--max-k K] [--dim D] [--seed S]
 *                   [--inits N] [--init kmeans++|sample]
 *                   [--bic-threshold T] [--max-iter N]
 *                   [--skip-slices N] [--max-windows W] [--json [--labels]]
 *                   [--output FILE]
 *
 * Plain output is a small table (header lines start with '#'); --json
 * prints one object:
 *
 *   {"file": "gzip.bb", "slice_length": 1000000, "slices": 812,
 *    "skipped": 12, "clustered": 800,
 *    "options": {"max_k": 10, "dim": 15, "seed": 1, "inits": 5,
 *                "init": "kmeans++", "bic_threshold": 0.9, "max_iter": 100, "max_windows": 0},
 *    "k": 3, "clusters": 3, "coverage": 1,
 *    "scores": [{"k": 1, "bic": -1234.5, "distortion": 3.2, "iterations": 1}, ...],
 *    "windows": [{"slice": 40, "start": 40000000, "weight": 0.5,
 *                 "cluster": 1, "cluster_size": 400}, ...]}
 *
 * ("labels": [cluster of every clustered slice] is added with --labels.)
 * Windows are listed by slice.  Errors: one line each on stderr naming the
 * file and line:column.  Exit status: 0 success, 1 bad input or I/O error,
 * 2 usage error.  --output writes a temporary file and renames it, so a
 * failed run leaves no output file.
 */
#ifndef SIMPOINT_CLI_H
#define SIMPOINT_CLI_H

/* argv[0] is "simpoint" (main.c passes argc - 1, argv + 1 of `hwprof simpoint ...`). */
int simpoint_main(int argc, char **argv);

#endif
