/* hps_overhead.c - instruction-count overhead model; see hps_overhead.h. */
#include "families/hps_overhead.h"

#include <math.h>

void hps_overhead_compute(const struct hps_costs *c, const struct hps_counts *n, struct hps_overhead *o)
{
    o->dise_checks = (double)n->interest * (c->replace + c->check);
    o->dise_basic = (double)n->sampling_events * (c->replace + c->basic);
    o->dise_sampling = (double)n->sampled * c->handler;
    o->dise_total = o->dise_checks + o->dise_basic + o->dise_sampling;
    o->hps_total = (double)n->sampled * (c->replace + c->handler);
    double scale = n->insns ? 100.0 / (double)n->insns : NAN;
    o->dise_checks_pct = o->dise_checks * scale;
    o->dise_basic_pct = o->dise_basic * scale;
    o->dise_sampling_pct = o->dise_sampling * scale;
    o->dise_pct = o->dise_total * scale;
    o->hps_pct = o->hps_total * scale;
}
