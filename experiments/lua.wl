# lua.wl - Lua 5.4 running a table/string/closure-heavy script.
WL_DESC="lua5.4 runs wl.lua: assemble and interpret a stack-machine program, gmatch parsing, table sorts with closures, bignum factorial"
WL_PACKAGE=lua5.4
WL_PROGRAM=/usr/bin/lua5.4
WL_INPUT="experiments/inputs/lua/wl.lua, WL_UNIT rounds (data generated inside with an LCG)"
WL_WHY_SKIP="start-up and building the word list take ~15M instructions"
WL_PRELOAD_FIXTIME=1      # Lua seeds its string hash from time(NULL)
WL_UNIT_tiny=1            WL_SKIP_tiny=20000000
WL_UNIT_default=2         WL_SKIP_default=20000000
WL_UNIT_paper=15          WL_SKIP_paper=20000000

wl_input() { cp "$WL_SRC/wl.lua" .; }
wl_command() { WL_ARGV=(/usr/bin/lua5.4 wl.lua "$WL_UNIT"); }
