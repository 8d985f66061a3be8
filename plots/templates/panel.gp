# panel.gp - place and dress panel p (loaded by the templates once per panel).
set origin ((p - 1) % grid_cols) * cell_w, top - ((p - 1) / grid_cols + 1) * cell_h
set size cell_w, cell_h
first_column = (p - 1) % grid_cols == 0
bottom_row = p + grid_cols > npanels
set lmargin first_column ? lmargin : lmargin_inner
set rmargin rmargin
set tmargin tmargin
set bmargin bmargin
unset key
set title pv("panel_title", p)
set xlabel (bottom_row ? xlabel : "") offset 0, xlabel_offset
set ylabel (first_column ? ylabel : "") offset ylabel_offset, 0
unset logscale
if (logx) { set logscale x }
if (logy) { set logscale y }
set xrange [pv("xmin", p):pv("xmax", p)]
set yrange [pv("ymin", p):pv("ymax", p)]
eval "set xtics nomirror out " . (xtics_rotate ? "rotate by 90 right " : "norotate ") . pv("xtics", p)
eval "set ytics nomirror out " . pv("ytics", p)
unset mxtics
unset mytics
set grid front
set grid noxtics ytics lt 0 lw 1 lc rgb "#b0b0b0"
if (xgrid) { set grid xtics }
set border 3 back
unset label 99
if (nw("blocks", p) == 0) { set label 99 "no data" at graph 0.5, 0.5 center tc rgb "#808080" }
