# m88ksim.wl - simh's PDP-11 simulator running a generated PDP-11 program (SPEC95 124.m88ksim's kind: 124.m88ksim simulates a Motorola 88100).
WL_DESC="simh pdp11 runs wl.ini: deposits our own assembled PDP-11 program (LCG array fill, insertion sort, checksum, byte sieve; WL_UNIT rounds), runs it to its HALT, examines the results, quits"
WL_PACKAGE=simh
WL_PROGRAM=/usr/bin/pdp11
WL_INPUT="inputs/m88ksim/gen.py WL_UNIT 1 writes wl.ini: a two-pass assembler of our own turns the program into deposit commands; go, examine, quit"
WL_WHY_SKIP="simulator set-up and the ~100 deposit commands take ~8.5M instructions before the program starts"
# The shim pins the clock: simh calibrates its simulated line clock (KW11-L,
# which cannot be disabled) against gettimeofday, so the host's speed would
# change the simulator's event schedule.
WL_PRELOAD_FIXTIME=1
WL_UNIT_tiny=1            WL_SKIP_tiny=10000000
WL_UNIT_default=20        WL_SKIP_default=50000000
WL_UNIT_paper=175         WL_SKIP_paper=500000000

wl_input() { /usr/bin/python3 -S -B "$WL_SRC/gen.py" "$WL_UNIT" 1 > wl.ini; }
wl_command() { WL_ARGV=(/usr/bin/pdp11 wl.ini); }
