/* plot.h - the `hwprof plot` and `hwprof table` commands (src/plot_cli.c).
 *
 *   hwprof plot  CONFIG [--results DIR] [--plots DIR] [--build DIR] [--templates DIR]
 *   hwprof table CONFIG [--results DIR]
 *
 * `plot` reads the config (config_read, config.h) and its "plot" section
 * (plotspec.h), the CSV the runner wrote for it (csv.h), prepares the
 * numbers (plotdata.h), writes a preamble of variables and a data file
 * (plotgp.h) under build/plots/<paper>/ and runs gnuplot (plotrender.h) on
 * a template (plots/templates/<kind>.gp) or on a hand-written
 * plots/<paper>/<stem>.gp, once per format: SVG, PNG, PDF.  `table`
 * renders the CSV as markdown (mdtable.h).  User guide: docs/plots.md.
 */
#ifndef PLOT_H
#define PLOT_H

/* argv[0] is the sub-command name ("plot"); main.c calls
 * plot_main(argc - 1, argv + 1).  Returns the exit status: 0 success,
 * 1 error (messages on stderr, no output replaced), 2 usage. */
int plot_main(int argc, char **argv);
/* argv[0] is "table"; same exit statuses. */
int table_main(int argc, char **argv);

#endif
