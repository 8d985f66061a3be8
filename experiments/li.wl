# li.wl - GNU CLISP's interpreter running a list-processing Lisp program (SPEC95 130.li's kind: 130.li is the XLISP interpreter).
WL_DESC="clisp (lisp.run, interpreted source) runs wl.lisp: N-queens backtracking, symbolic differentiation and simplification, list merge sort, alist/plist counting, a tiny evaluator, bignums"
WL_PACKAGE=clisp
WL_PROGRAM=/usr/lib/clisp-2.49.93+/base/lisp.run
WL_INPUT="inputs/li/wl.lisp, WL_UNIT rounds (data from an LCG inside the script); loaded as source, so every function runs in the interpreter"
WL_WHY_SKIP="loading the memory image (lispinit.mem) and reading and defining the program's functions take ~21M instructions"
WL_PRELOAD_FIXTIME=1      # the runtime reads the clock at start-up (get-internal-real-time base, GC statistics)
WL_UNIT_tiny=1            WL_SKIP_tiny=22000000
WL_UNIT_default=5         WL_SKIP_default=50000000
WL_UNIT_paper=42          WL_SKIP_paper=500000000

wl_input() { cp "$WL_SRC/wl.lisp" .; }
# lisp.run directly (/usr/bin/clisp is a driver that execs it with these
# options): -B the installation directory, -M the memory image, -norc (no
# ~/.clisprc), -q -q (no banner, no load messages).
wl_command() {
    WL_ARGV=(/usr/lib/clisp-2.49.93+/base/lisp.run -B /usr/lib/clisp-2.49.93+
             -M /usr/lib/clisp-2.49.93+/base/lispinit.mem -norc -q -q wl.lisp "$WL_UNIT")
}
