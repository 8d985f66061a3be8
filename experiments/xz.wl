# xz.wl - xz -6 (LZMA2) compressing generated binary-heavy data (SPEC 557.xz analogue).
WL_DESC="xz -6 -T1 compresses a generated binary-heavy corpus from stdin (single thread: deterministic)"
WL_PACKAGE=xz-utils
WL_PROGRAM=/usr/bin/xz
WL_INPUT="datagen binary, seed 3, WL_UNIT bytes"
WL_WHY_SKIP="xz allocates and initialises its match finder (~8 MiB hash chains at -6) before compressing; skip that"
WL_STDIN=input.dat
WL_STDOUT=/dev/null
WL_UNIT_tiny=32768        WL_SKIP_tiny=2000000
WL_UNIT_default=393216    WL_SKIP_default=30000000
WL_UNIT_paper=3670016     WL_SKIP_paper=30000000

wl_input() { "$DATAGEN" binary 3 "$WL_UNIT" > input.dat; }
wl_command() { WL_ARGV=(/usr/bin/xz -6 -T1 -c); }
