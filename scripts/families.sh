# shellcheck shell=sh
# families.sh - the model family of a file of src/families, src/stages or
# src/models, by its name: mh (multi-hash), conte, rap (with hhh, the cache
# simulator and the exact key counts), hps, or other.  Sourced by
# scripts/buildinfo.sh (one source fingerprint per family) and
# scripts/check-layers.sh (an include never crosses two families, so each
# family's fingerprint covers every file its results depend on).  The same
# prefixes map model names to families in src/run/freshness.c.
family() {
    case "${1##*/}" in
        mh_*) echo mh ;;
        conte_*) echo conte ;;
        rap*|hhh*|cache.*|cachesim.*|keycount.*|keysel.*|exact_keys.*|bbstart.*) echo rap ;;
        hps*|bursty.*) echo hps ;;
        *) echo other ;;
    esac
}
