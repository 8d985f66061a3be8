# stacked.gp - stacked bars, one segment per series (component) stacked
# bottom first; with groups, the bars of a category form a cluster named
# under the bar names.  Blocks: xlo xhi bottom top per component; the
# panel's `totals_<p>` block (x total lo hi) carries the error bars of the
# totals, its `clusters_<p>` block (x "name") the cluster names (every
# other one a line lower when `cluster_stagger` is 1: names wider than the
# space between their clusters).
load templates . "/common.gp"
do for [p=1:npanels] {
    load templates . "/panel.gp"
    cmd = ""
    do for [i=1:nw("blocks", p)] {
        cmd = cmd . sprintf(", data index %d using (($1 + $2) / 2):4:1:2:3:4 with boxxyerror fs solid 0.9 border rgb '#404040' fc lt %d", \
                            w("blocks", p, i), sc(w("bseries", p, i)))
    }
    if (pv("totals", p) >= 0) {
        cmd = cmd . sprintf(", data index %d using 1:3:(0):($4 - $3) with vectors heads size screen 0.004,90 lc rgb 'black' lw 1.2", \
                            pv("totals", p))
    }
    if (pv("clusters", p) >= 0 && !cluster_stagger) {
        cmd = cmd . sprintf(", data index %d using 1:(%.10g):2 with labels offset 0,%g", \
                            pv("clusters", p), pv("ymin", p), cluster_offset)
    }
    if (pv("clusters", p) >= 0 && cluster_stagger) {
        cmd = cmd . sprintf(", data index %d every 2 using 1:(%.10g):2 with labels offset 0,%g", \
                            pv("clusters", p), pv("ymin", p), cluster_offset)
        cmd = cmd . sprintf(", data index %d every 2::1 using 1:(%.10g):2 with labels offset 0,%g", \
                            pv("clusters", p), pv("ymin", p), cluster_offset - 1.1)
    }
    eval "plot " . (strlen(cmd) ? cmd[3:] : "NaN notitle")
}
keyplot = "plot for [s=nseries:1:-1] NaN with boxes fs solid 0.9 border rgb '#404040' fc lt sc(s) title st(s)"
load templates . "/key.gp"
