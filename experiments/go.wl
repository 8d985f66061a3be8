# go.wl - GNU Go 3.8 generating moves in generated positions (the multi-hash paper's go, SPEC95 099.go's kind).
WL_DESC="gnugo --mode gtp --level 1 plays wl.gtp: per game a generated 9x9 opening position, then three genmove for alternating colours"
WL_PACKAGE=gnugo
WL_PROGRAM=/usr/games/gnugo
WL_INPUT="inputs/go/gen.py WL_UNIT 1 writes wl.gtp: WL_UNIT games, each 4-9 stones placed at LCG coordinates, 3 genmove, showboard"
WL_WHY_SKIP="GNU Go starts in ~3.7M instructions (pattern and hash tables); the first genmove follows"
WL_PRELOAD_FIXTIME=1      # time handling (gettimeofday, times) and the random seed's fall-back
WL_STDIN=wl.gtp
WL_UNIT_tiny=1            WL_SKIP_tiny=4000000
WL_UNIT_default=4         WL_SKIP_default=50000000
WL_UNIT_paper=21          WL_SKIP_paper=500000000

wl_input() { /usr/bin/python3 -S -B "$WL_SRC/gen.py" "$WL_UNIT" 1 > wl.gtp; }
# --seed 1: GNU Go's own random numbers (move choice among equals) fixed;
# --level 1: fixed reading depth; --quiet: no banner.
wl_command() { WL_ARGV=(/usr/games/gnugo --mode gtp --level 1 --seed 1 --quiet); }
