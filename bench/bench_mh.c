/* bench_mh.c - throughput of the multihash paper models on a synthetic
 * value stream (Zipf-like hot tuples + a long tail), in million events per
 * second, for the paper's two interval settings.  Built with -O3 -DNDEBUG by
 * `make bench`; not part of `make test`. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "model.h"
#include "models/mh_cms_cu.h"
#include "models/mh_exact.h"
#include "models/mh_multihash.h"
#include "models/mh_singlehash.h"
#include "models/mh_spacesaving.h"
#include "models/mh_stratified.h"

#define NEV (4u << 20)

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void set(struct param_values *pv, const char *name, double v)
{
    size_t i;
    if (params_find(pv->spec, name, &i)) {
        pv->v[i].i = (int64_t)v;
        pv->v[i].r = v;
    }
}

int main(void)
{
    struct event *ev = calloc(NEV, sizeof *ev);
    if (!ev)
        return 1;
    uint64_t x = 88172645463325252ull;
    for (size_t i = 0; i < NEV; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        /* 1 in 3 events is an instruction event the models must skip */
        if (i % 3 == 2) {
            ev[i].kind = EV_INSN;
            continue;
        }
        ev[i].kind = EV_LOAD;
        unsigned r = (unsigned)(x % 1000);
        ev[i].pc = 0x400000 + 4 * (r < 600 ? r % 50 : (x >> 20) % 5000);
        ev[i].value = r < 600 ? r % 7 : (x >> 32) % 100000;
    }
    const struct model_ops *ops[] = { &mh_exact_ops, &mh_singlehash_ops, &mh_multihash_ops, &mh_cms_cu_ops,
                                      &mh_spacesaving_ops, &mh_stratified_ops };
    const double settings[2][2] = { { 10000, 0.01 }, { 1000000, 0.001 } };
    for (int s = 0; s < 2; s++)
        for (size_t m = 0; m < sizeof ops / sizeof *ops; m++) {
            struct param_values pv;
            params_defaults(&pv, ops[m]->params);
            set(&pv, "interval", settings[s][0]);
            set(&pv, "threshold", settings[s][1]);
            char err[256];
            double t0 = now();
            void *inst = ops[m]->create(&pv, NULL, err, sizeof err);
            if (!inst) {
                fprintf(stderr, "%s: %s\n", ops[m]->name, err);
                return 1;
            }
            double t1 = now();
            for (size_t i = 0; i < NEV; i += 4096)
                ops[m]->feed(inst, ev + i, NEV - i < 4096 ? NEV - i : 4096);
            ops[m]->finish(inst);
            double t2 = now();
            double out[64];
            ops[m]->report(inst, out);
            printf("bench_mh %-12s interval %7.0f  %6.1f Mev/s  (create %.1f ms)  %s = %.3f\n", ops[m]->name,
                   settings[s][0], NEV / (t2 - t1) / 1e6, 1e3 * (t1 - t0), ops[m]->metrics[0], out[0]);
            ops[m]->free(inst);
        }
    free(ev);
    return 0;
}
