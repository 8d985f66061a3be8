# sqlite.wl - the sqlite3 shell running an order-processing SQL script in memory.
WL_DESC="sqlite3 :memory: runs wl.sql: recursive-CTE bulk inserts, index builds, joins, GROUP BY, window functions, updates"
WL_PACKAGE=sqlite3
WL_PROGRAM=/usr/bin/sqlite3
WL_INPUT="experiments/inputs/sqlite/wl.sql with @ROWS@ = WL_UNIT orders (content from an integer LCG in SQL)"
WL_WHY_SKIP="shell start-up plus the customer/product tables take ~45M instructions; the window starts in the orders insert"
WL_UNIT_tiny=2000         WL_SKIP_tiny=50000000
WL_UNIT_default=14000     WL_SKIP_default=60000000
WL_UNIT_paper=150000      WL_SKIP_paper=60000000

wl_input() { sed "s/@ROWS@/$WL_UNIT/" "$WL_SRC/wl.sql" > wl.sql; }
# -init /dev/null: without it the shell looks up the user's home directory in
# /etc/passwd (host-specific content, parsed before the window) and would run
# a ~/.sqliterc if the machine had one.
wl_command() { WL_ARGV=(/usr/bin/sqlite3 -init /dev/null -batch -bail :memory: ".read wl.sql"); }
