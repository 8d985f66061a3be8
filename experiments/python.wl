# python.wl - CPython 3.11 running an interpreter-heavy script (SPEC-style interpreter workload).
WL_DESC="python3 runs wl.py: expression-language tokenizer/parser/evaluator, dict word counts, sorts, heap simulation, CRC32, JSON-like output"
WL_PACKAGE=python3-minimal
WL_PROGRAM=/usr/bin/python3
WL_INPUT="experiments/inputs/python/wl.py, WL_UNIT rounds (data generated inside with an LCG)"
WL_WHY_SKIP="interpreter start-up (-S: no site) and building the word list take ~72M instructions"
WL_UNIT_tiny=1            WL_SKIP_tiny=80000000
WL_UNIT_default=2         WL_SKIP_default=80000000
WL_UNIT_paper=16          WL_SKIP_paper=80000000

wl_input() { cp "$WL_SRC/wl.py" .; }
wl_command() { WL_ARGV=(/usr/bin/python3 -S -B wl.py "$WL_UNIT"); }
