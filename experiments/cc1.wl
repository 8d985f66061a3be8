# cc1.wl - gcc 12's compiler proper compiling one C file at -O2 (SPEC 176.gcc / 403.gcc analogue).
WL_DESC="cc1 -O2 compiles main.c: WL_UNIT copies of our module.c (hash table, sorts, tokenizer, VM, ...)"
WL_PACKAGE=cpp-12
WL_PROGRAM=/usr/lib/gcc/x86_64-linux-gnu/12/cc1
WL_INPUT="experiments/inputs/cc1: module.c included WL_UNIT times with distinct name prefixes, own header only, -nostdinc"
WL_WHY_SKIP="cc1 spends ~58M instructions on option handling, target and built-in setup and pass initialisation at the first function (measured: the same command on a file with only an empty main)"
WL_RESULT=main.s          # compared between runs by the tests
WL_UNIT_tiny=0            WL_SKIP_tiny=30000000
WL_UNIT_default=1         WL_SKIP_default=70000000
WL_UNIT_paper=11          WL_SKIP_paper=70000000

wl_input() {
    cp "$WL_SRC/module.c" "$WL_SRC/module.h" .
    sh "$WL_SRC/mkmain.sh" "$WL_UNIT" > main.c
}
wl_command() {
    WL_ARGV=(/usr/lib/gcc/x86_64-linux-gnu/12/cc1 -quiet -nostdinc -O2 -fno-ident
             -dumpbase main.c -o main.s main.c)
}
