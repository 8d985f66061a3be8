# perl.wl - perl 5.36 running a regex-heavy log analysis script (SPEC 253.perlbmk / 400.perlbench analogue).
WL_DESC="perl runs wl.pl: generate web-server log lines, parse with regexes, aggregate in hashes, sort, template, stack VM"
WL_PACKAGE=perl-base
WL_PROGRAM=/usr/bin/perl
WL_INPUT="experiments/inputs/perl/wl.pl, WL_UNIT rounds (data generated inside with an LCG)"
WL_WHY_SKIP="perl start-up, compiling wl.pl and building its word list take ~33M instructions"
WL_UNIT_tiny=1            WL_SKIP_tiny=40000000
WL_UNIT_default=2         WL_SKIP_default=40000000
WL_UNIT_paper=20          WL_SKIP_paper=40000000

wl_input() { cp "$WL_SRC/wl.pl" .; }
wl_command() { WL_ARGV=(/usr/bin/perl wl.pl "$WL_UNIT"); }
