# bzip2.wl - bzip2 -9 compressing generated mixed data (SPEC 256.bzip2 / 401.bzip2 analogue).
WL_DESC="bzip2 -9 compresses a generated mixed corpus (prose, logs, CSV, binary records, noise) from stdin"
WL_PACKAGE=bzip2
WL_PROGRAM=/usr/bin/bzip2
WL_INPUT="datagen mixed, seed 2, WL_UNIT bytes"
WL_WHY_SKIP="bzip2 reads a whole 900K block before sorting; skip start-up and the first block fill"
WL_STDIN=input.dat
WL_STDOUT=/dev/null
WL_UNIT_tiny=65536        WL_SKIP_tiny=2000000
WL_UNIT_default=2097152   WL_SKIP_default=20000000
WL_UNIT_paper=18874368    WL_SKIP_paper=20000000

wl_input() { "$DATAGEN" mixed 2 "$WL_UNIT" > input.dat; }
wl_command() { WL_ARGV=(/usr/bin/bzip2 -9 -c); }
