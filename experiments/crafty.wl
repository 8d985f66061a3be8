# crafty.wl - the Sjeng 11.2 chess engine (SPEC CPU2006 458.sjeng is Sjeng 11.2; SPEC 186.crafty's kind) searching generated positions to depth 6.
# GNU Chess (the issue's first choice) cannot be traced deterministically:
# gnuchess 6 runs its xboard adapter and its engine as threads that talk
# through pipes (README.md, "The suite").  Sjeng is single-threaded.
WL_DESC="sjeng (xboard mode) plays wl.in: WL_UNIT games, each from a generated opening position, four plies searched to depth 6 (sd 6), no pondering, 96 MB of hash tables"
WL_PACKAGE=sjeng
WL_PROGRAM=/usr/games/sjeng
WL_INPUT="inputs/crafty/gen.py WL_UNIT 1 writes wl.in: per game one of 12 legal opening lines of our own cut after 2-8 plies (LCG), easy (no pondering), sd 6, four go; inputs/crafty/sjeng.rc as ./.sjeng/sjeng.rc"
WL_WHY_SKIP="sjeng's start-up (allocating its hash tables, evaluation set-up) takes ~8M instructions, then the first game's new clears the 96 MB of hash tables (~11M: a memset loop)"
# The shim pins the clock (ftime, time, clock: sjeng's time checks during
# the search and srand(time)) and makes getpwuid's home directory the run
# directory, so that sjeng reads ./.sjeng/sjeng.rc and writes its learning
# files to ./.sjeng/ (created empty every run) instead of the host's home.
WL_PRELOAD_FIXTIME=1
WL_STDIN=wl.in
WL_UNIT_tiny=1            WL_SKIP_tiny=20000000
WL_UNIT_default=3         WL_SKIP_default=50000000
WL_UNIT_paper=23          WL_SKIP_paper=500000000

wl_input() {
    /usr/bin/python3 -S -B "$WL_SRC/gen.py" "$WL_UNIT" 1 > wl.in
    mkdir .sjeng && cp "$WL_SRC/sjeng.rc" .sjeng/sjeng.rc
}
wl_command() { WL_ARGV=(/usr/games/sjeng); }
