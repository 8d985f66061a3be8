# common.gp - set-up shared by every figure template (plots/templates/<kind>.gp).
#
# `hwprof plot` runs   gnuplot -e "<terminal and output>" PREAMBLE plots/templates/<kind>.gp
# where PREAMBLE (build/plots/<paper>/<stem>.gp) holds only `name = value`
# lines: paths, the layout, and per panel p the ranges, ticks and data blocks
# (docs/plots.md lists every variable).  The data file holds one block per
# panel and series, blocks separated by two blank lines, so `index b` picks
# block b (0-based).  Everything data-dependent was decided in C; these files
# only draw.

set termoption noenhanced
set encoding utf8
set datafile separator whitespace
set datafile missing "NaN"

# Colours (colour-blind safe first), by number; series pick one with lc.
array palette_rgb[12] = ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", \
                         "#000000", "#9400d3", "#8c564b", "#7f7f7f", "#bcbd22", "#17becf"]
do for [i=1:12] { set linetype i lc rgb palette_rgb[i] lw 2 dt solid pt i }

# Per-panel and per-series variables by number: pv("ymin", 3) is ymin_3.
pv(name, p) = value(sprintf("%s_%d", name, p))
# The i-th word of a space-separated list variable of panel p (0 past the end:
# gnuplot evaluates the expression of an empty iteration once).
nw(name, p) = words(pv(name, p))
w(name, p, i) = i <= nw(name, p) ? word(pv(name, p), i) + 0 : 0
st(s) = pv("series_title", s)
sc(s) = pv("series_color", s)
sd(s) = pv("series_dash", s)
sp(s) = pv("series_point", s)
sw(s) = pv("series_width", s)

# Panels share one grid left of the key strip and below the title.
cell_w = 1.0 * key_left / grid_cols  # 1.0: key_left may be written as the integer 1
cell_h = 1.0 * top / grid_rows

set multiplot title title
