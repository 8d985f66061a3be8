# bars.gp - clustered bars: a cluster per category, a bar per series.
# Blocks: xlo xhi base top lo hi (positions computed by hwprof).
load templates . "/common.gp"
do for [p=1:npanels] {
    load templates . "/panel.gp"
    cmd = ""
    do for [i=1:nw("blocks", p)] {
        cmd = cmd . sprintf(", data index %d using (($1 + $2) / 2):4:1:2:3:4 with boxxyerror fs solid 0.9 border rgb '#404040' fc lt %d", \
                            w("blocks", p, i), sc(w("bseries", p, i)))
    }
    do for [i=1:nw("ebblocks", p)] {
        cmd = cmd . sprintf(", data index %d using (($1 + $2) / 2):5:(0):($6 - $5) with vectors heads size screen 0.004,90 lc rgb 'black' lw 1.2", \
                            w("ebblocks", p, i))
    }
    eval "plot " . (strlen(cmd) ? cmd[3:] : "NaN notitle")
}
keyplot = "plot for [s=1:nseries] NaN with boxes fs solid 0.9 border rgb '#404040' fc lt sc(s) title st(s)"
load templates . "/key.gp"
