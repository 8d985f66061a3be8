# meta.sh - read the key=value metadata of a trace or of a basic-block-vector
# shellcheck shell=bash
# file without hwprof (sourced by stale.sh, windows.sh, list.sh; cheap: it
# reads a trace's header and metadata section or a BBV file's last lines,
# never the events or the vectors).
#
#   trace (docs/trace-format.md, "Metadata (v2)"): u32 version at byte 8, u32
#     section size M at byte 504, the section at byte 512: a 12-byte
#     preamble, then "key=value\n" lines;
#   BBV (tracegen/capture --bbv-out): trailing comment lines
#     "# meta key=value" after the slice lines.
#
#   meta_read FILE    sets META (the key=value lines) and META_KIND (trace,
#                     bbv); returns 1 and a reason in META_WHY when FILE has
#                     none (format v1, no section, not a trace or BBV)
#   meta_get KEY      the value of KEY in META (empty when absent)

meta_u32() { od -An -tu4 -j "$2" -N4 "$1" 2>/dev/null | tr -d ' '; }

meta_read() {
    local file=$1 magic version mbytes
    META='' META_KIND='' META_WHY=''
    magic=$(head -c 1 "$file" 2>/dev/null)
    if [ "$magic" = T ] || [ "$magic" = '#' ]; then
        META_KIND=bbv
        META=$(tail -n 64 "$file" | sed -n 's/^# meta //p')
        [ -n "$META" ] || { META_WHY="no provenance lines"; return 1; }
        return 0
    fi
    META_KIND=trace
    version=$(meta_u32 "$file" 8)
    [ "$version" = 2 ] || { META_WHY="trace format v${version:-?} records no metadata"; return 1; }
    mbytes=$(meta_u32 "$file" 504)
    [[ $mbytes =~ ^[0-9]+$ ]] && [ "$mbytes" -gt 12 ] || { META_WHY="no metadata section"; return 1; }
    META=$(tail -c +525 "$file" | head -c $((mbytes - 12)))
    return 0
}

meta_get() { printf '%s\n' "$META" | sed -n "s/^$1=//p" | head -1; }
