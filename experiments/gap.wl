# gap.wl - GAP 4.12 (SPEC CPU2000 254.gap is GAP) running a generated group-theory / combinatorics script.
WL_DESC="gap runs wl.g: permutation groups from generated generators (orders, orbits, blocks, series, Sylow subgroups, classes, centralisers), GF(p) linear algebra, Smith normal form, partitions, Bell/Stirling numbers, integer factorisation"
WL_PACKAGE=gap-core
WL_PROGRAM=/usr/lib/x86_64-linux-gnu/gap/gap
WL_INPUT="inputs/gap/gen.py WL_UNIT 1 writes wl.g (WL_UNIT rounds on data from an LCG); gap.ws is a workspace of the GAP library saved by the same gap in the pinned environment"
WL_WHY_SKIP="loading the saved workspace (43 MB) takes ~720M instructions (reading the library instead would take 3.8G); the script starts after it"
WL_PRELOAD_FIXTIME=1      # Runtime() and the garbage collector's statistics read getrusage/gettimeofday
WL_PRELOAD_FIXINODE=1     # fstat of stdin/stdout/stderr leaves inode numbers and times on the stack, which the garbage collector scans
WL_UNIT_tiny=1            WL_SKIP_tiny=730000000
WL_UNIT_default=4         WL_SKIP_default=750000000
WL_UNIT_paper=13          WL_SKIP_paper=1000000000

# The workspace is saved by a native run of the same program in the
# environment of the traced run (env -i WL_ENV, no ASLR): GAP's workspace
# contents depend on the address layout (a run with ASLR saves another file),
# so the pinned environment makes the file the same every time (checked by the
# input-preparation test).  -A: no packages (gap-core's GAPDoc is not needed);
# -r: no user GAP root (~/.gap); -q -b: no banner.
wl_input() {
    /usr/bin/python3 -S -B "$WL_SRC/gen.py" "$WL_UNIT" 1 > wl.g
    echo 'SaveWorkspace("gap.ws"); QUIT;' > mkws.g
    env -i "${WL_ENV[@]}" setarch -R /usr/lib/x86_64-linux-gnu/gap/gap -l /usr/share/gap -A -r -q -b mkws.g \
        </dev/null >mkws.log 2>&1 && [ -s gap.ws ]
}
wl_command() { WL_ARGV=(/usr/lib/x86_64-linux-gnu/gap/gap -l /usr/share/gap -L gap.ws -A -r -q -b wl.g); }
