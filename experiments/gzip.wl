# gzip.wl - gzip -9 compressing generated text (SPEC 164.gzip analogue).
# Format of a .wl file: see README.md, "Adding a workload".
WL_DESC="gzip -9 compresses a generated corpus (prose, logs, CSV) from stdin to /dev/null"
WL_PACKAGE=gzip
WL_PROGRAM=/usr/bin/gzip
WL_INPUT="datagen text, seed 1, WL_UNIT bytes"
WL_WHY_SKIP="gzip starts in <1M instructions; skip past start-up and the first deflate blocks (window search fills)"
WL_STDIN=input.dat
WL_STDOUT=/dev/null
# WL_UNIT = input bytes (gzip -9 needs ~360 instructions per byte of this text)
WL_UNIT_tiny=65536        WL_SKIP_tiny=2000000
WL_UNIT_default=2097152   WL_SKIP_default=20000000
WL_UNIT_paper=18874368    WL_SKIP_paper=20000000

wl_input() { "$DATAGEN" text 1 "$WL_UNIT" > input.dat; }
wl_command() { WL_ARGV=(/usr/bin/gzip -9 -n -c); }
