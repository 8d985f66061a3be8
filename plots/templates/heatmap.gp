# heatmap.gp - a rectangle per row over [x, x_end] x [y, y_end], coloured by
# z; larger rectangles first so nested ranges stay visible.  Blocks: xlo xhi
# ylo yhi z.  One colour scale (cbmin..cbmax) for every panel.
load templates . "/common.gp"
set palette defined (0 "#ffffcc", 1 "#fed976", 2 "#fd8d3c", 3 "#e31a1c", 4 "#800026")
set cbrange [cbmin:cbmax]
if (logz) { set logscale cb }
eval "set cbtics " . cbtics
set cblabel cblabel
set colorbox
do for [p=1:npanels] {
    load templates . "/panel.gp"
    if (logz) { set logscale cb }
    set grid noytics noxtics
    cmd = ""
    do for [i=1:nw("blocks", p)] {
        cmd = cmd . sprintf(", data index %d using (($1 + $2) / 2):(($3 + $4) / 2):1:2:3:4:5 with boxxyerror fs solid 1 noborder lc palette z", \
                            w("blocks", p, i))
    }
    eval "plot " . (strlen(cmd) ? cmd[3:] : "NaN notitle")
}
load templates . "/key.gp"
