# timeseries.gp - a line per series over time, with a vertical mark at each
# time the marker column is set.  Blocks: x y lo hi per series; marker
# blocks (mblocks_<p>, coloured as mseries_<p>): x.
load templates . "/common.gp"
set y2range [0:1]
do for [p=1:npanels] {
    load templates . "/panel.gp"
    unset y2tics
    cmd = ""
    do for [i=1:nw("mblocks", p)] {
        cmd = cmd . sprintf(", data index %d using 1:(0):(0):(1) axes x1y2 with vectors nohead lc %d lw 1 dt 3", \
                            w("mblocks", p, i), sc(w("mseries", p, i)))
    }
    do for [i=1:nw("blocks", p)] {
        s = w("bseries", p, i)
        cmd = cmd . sprintf(", data index %d using 1:2 with %s lc %d dt %d lw %g", w("blocks", p, i), linestyle, sc(s), sd(s), sw(s)) \
                  . (linestyle eq "linespoints" ? sprintf(" pt %d ps 0.9", sp(s)) : "")
    }
    do for [i=1:nw("ebblocks", p)] {
        cmd = cmd . sprintf(", data index %d using 1:3:(0):($4 - $3) with vectors heads size screen 0.005,90 lc %d lw 1", \
                            w("ebblocks", p, i), sc(w("ebseries", p, i)))
    }
    eval "plot " . (strlen(cmd) ? cmd[3:] : "NaN notitle")
}
keyplot = "plot for [s=1:nseries] NaN with " . linestyle . " lc sc(s) dt sd(s) lw sw(s) " . \
          (linestyle eq "linespoints" ? "pt sp(s) " : "") . "title st(s)" . \
          (strlen(marker_title) ? ", NaN with lines lc rgb 'black' lw 1 dt 3 title marker_title" : "")
load templates . "/key.gp"
