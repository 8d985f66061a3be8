# cdf.gp - the empirical cumulative distribution of x per series, as steps.
# Blocks: x cumulative% (starting at 0 at the smallest value).
load templates . "/common.gp"
do for [p=1:npanels] {
    load templates . "/panel.gp"
    cmd = ""
    do for [i=1:nw("blocks", p)] {
        s = w("bseries", p, i)
        cmd = cmd . sprintf(", data index %d using 1:2 with steps lc %d dt %d lw %g", w("blocks", p, i), sc(s), sd(s), sw(s))
    }
    eval "plot " . (strlen(cmd) ? cmd[3:] : "NaN notitle")
}
keyplot = "plot for [s=1:nseries] NaN with lines lc sc(s) dt sd(s) lw sw(s) title st(s)"
load templates . "/key.gp"
