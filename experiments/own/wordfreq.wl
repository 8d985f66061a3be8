# wordfreq.wl - a workload of your own, worked example and template: mawk
# counts the words of a generated text.  Copy it beside your own files,
# edit the marked lines for your program, and capture it like the suite:
#
#   mkdir -p mine && cp experiments/own/wordfreq.wl mine/
#   make workload WL=mine/wordfreq.wl SCALE=tiny
#
# which writes traces/own/tiny/wordfreq.w<K>.trace (SimPoint windows) and
# the list wordfreq.windows; a config uses them with
#   "workloads": ["wordfreq"], "traces": "traces/own/tiny"
# (README.md, "Your own program").  The format is the suite's:
# experiments/README.md, "Adding a workload".  This file is not part of
# the suite (only experiments/*.wl are), so "workloads": "all" and
# `make traces` leave it alone.

# One line each, shown by `make workloads`-style listings and the traces.
WL_DESC="mawk counts the words of a generated text (word frequencies, a hash table of strings)"
# EDIT: the Debian package of your program, recorded in its traces ("" for
# a program of your own; the capture records the packages and versions of
# the program, its libraries, libc and valgrind by itself, and `make
# workload` recaptures when they change).
WL_PACKAGE=mawk
# EDIT: your program, by absolute path (a program of your own too:
# /home/you/bin/prog; never found through $PATH).
WL_PROGRAM=/usr/bin/mawk
WL_INPUT="datagen text, seed 7, WL_UNIT bytes on stdin, and the awk script wordfreq.awk"
WL_WHY_SKIP="mawk starts in about 0.2M instructions: one slice is left out at every scale"
# The program reads its standard input from this file of the run
# directory (default /dev/null) and writes its standard output to
# WL_STDOUT (default stdout.txt in the run directory).
WL_STDIN=input.txt
# EDIT: the work size of each scale (here bytes of input: mawk spends about
# 140 instructions per byte), and the start-up SimPoint leaves out, in
# instructions (rounded up to whole slices of experiments/scales.sh: 2M,
# 50M, 500M).  Aim at 10 or more whole slices after the start-up at
# default and paper scale, and at least one at tiny: count them with
#   EXP_WL_DIR=$PWD/mine experiments/run.sh --count wordfreq tiny
WL_UNIT_tiny=65536        WL_SKIP_tiny=2000000
WL_UNIT_default=5242880   WL_SKIP_default=50000000
WL_UNIT_paper=50331648    WL_SKIP_paper=500000000

# EDIT: write the inputs into the current directory (the run directory,
# made afresh before every run).  Available: $WL_UNIT, $DATAGEN (the
# suite's deterministic generator: text, mixed or binary, seed, bytes) and
# $WL_SRC, the folder inputs/wordfreq/ beside this file, for files of your
# own (copy them here).
wl_input() {
    "$DATAGEN" text 7 "$WL_UNIT" > input.txt
    printf '%s\n' '{ for (i = 1; i <= NF; i++) n[$i]++ } END { for (w in n) print n[w], w }' > wordfreq.awk
}
# EDIT: the command line, as the array WL_ARGV: the program by absolute
# path, file arguments relative to the run directory.
wl_command() { WL_ARGV=(/usr/bin/mawk -f wordfreq.awk); }
