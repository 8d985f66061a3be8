# scatter.gp - a point per row, coloured by group, with its label beside
# it; error bars in x and y where the data have bounds.  Blocks: x y lo hi
# xlo xhi "label".
load templates . "/common.gp"
do for [p=1:npanels] {
    load templates . "/panel.gp"
    cmd = ""
    do for [i=1:nw("ebblocks", p)] {
        s = w("ebseries", p, i)
        cmd = cmd . sprintf(", data index %d using 1:3:(0):($4 - $3) with vectors heads size screen 0.004,90 lc %d lw 1", \
                            w("ebblocks", p, i), sc(s))
        cmd = cmd . sprintf(", data index %d using 5:2:($6 - $5):(0) with vectors heads size screen 0.004,90 lc %d lw 1", \
                            w("ebblocks", p, i), sc(s))
    }
    do for [i=1:nw("blocks", p)] {
        s = w("bseries", p, i)
        cmd = cmd . sprintf(", data index %d using 1:2 with points lc %d pt %d ps 1.4", w("blocks", p, i), sc(s), sp(s))
        cmd = cmd . sprintf(", data index %d using 1:2:7 with labels left offset 0.8,0.6 tc lt %d", w("blocks", p, i), sc(s))
    }
    eval "plot " . (strlen(cmd) ? cmd[3:] : "NaN notitle")
}
keyplot = "plot for [s=1:nseries] NaN with points lc sc(s) pt sp(s) ps 1.4 title st(s)"
load templates . "/key.gp"
