# key.gp - the key strip right of the panels: empty axes whose plot command
# (`keyplot`, set by the template) draws only key entries, then the notes
# (one `keyentry` per line of `note`).
if (key_left < 1) {
    set origin key_left, 0
    set size 1 - key_left, top
    set lmargin 0; set rmargin 0; set tmargin 0; set bmargin 0
    unset border; unset tics; unset xlabel; unset ylabel; unset title; unset grid
    unset logscale
    set xrange [0:1]; set yrange [0:1]
    set key inside left top vertical Left reverse noautotitle samplen 2.5 spacing 1.2 width 1
    notes = ""
    n = 1
    do for [i=1:strlen(note)] {
        if (note[i:i] eq "\n") {
            notes = notes . sprintf(", keyentry with points pt -1 lc rgb \"white\" title note[%d:%d]", n, i - 1)
            n = i + 1
        }
    }
    if (strlen(note) >= n) { notes = notes . sprintf(", keyentry with points pt -1 lc rgb \"white\" title note[%d:%d]", n, strlen(note)) }
    eval keyplot . notes
}
unset multiplot
