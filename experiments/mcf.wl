# mcf.wl - GLPK's glpsol solving a generated minimum-cost network-flow problem (SPEC 181.mcf's problem; of the same kind).
WL_DESC="glpsol --mincost solves net.min (DIMACS): a layered vehicle-scheduling-like network, WL_UNIT layers of 40 stations, ~5 arcs per node, by the simplex method; writes the solution"
WL_PACKAGE=glpk-utils
WL_PROGRAM=/usr/bin/glpsol
WL_INPUT="inputs/mcf/gen.py WL_UNIT 1 writes net.min: trips with capacities and costs from an LCG, supplies at the first layer, demands at the last, a waiting arc per station that keeps it feasible"
WL_WHY_SKIP="reading the network, building the LP and the initial basis take ~4.4M instructions at 2 layers (more for larger networks, still inside the first slice)"
WL_PRELOAD_FIXTIME=1      # glpsol prints "Time used" and times its progress output (gettimeofday, time)
WL_UNIT_tiny=3            WL_SKIP_tiny=6000000
WL_UNIT_default=16        WL_SKIP_default=50000000
WL_UNIT_paper=44          WL_SKIP_paper=500000000

wl_input() { /usr/bin/python3 -S -B "$WL_SRC/gen.py" "$WL_UNIT" 1 > net.min; }
wl_command() { WL_ARGV=(/usr/bin/glpsol --mincost net.min -o solution.txt); }
