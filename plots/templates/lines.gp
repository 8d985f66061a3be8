# lines.gp - a line per series, error bars where the data have bounds.
# Blocks: x y lo hi (y already at the axis floor where a log axis cannot
# show it).
load templates . "/common.gp"
do for [p=1:npanels] {
    load templates . "/panel.gp"
    cmd = ""
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
          (linestyle eq "linespoints" ? "pt sp(s) " : "") . "title st(s)"
load templates . "/key.gp"
